import { splitFrom } from './split';

/** out[i] = value for i in [0, n), threaded. */
export function fillF32(out: usize, value: f32, n: i32, part: i32, parts: i32): void {
  const from = splitFrom(n, part, parts);
  const to = splitFrom(n, part + 1, parts);
  const v = f32x4.splat(value);
  let i = from;
  for (; i + 4 <= to; i += 4) v128.store(out + ((<usize>i) << 2), v);
  for (; i < to; i++) store<f32>(out + ((<usize>i) << 2), value);
}
