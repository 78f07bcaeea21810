/**
 * Elementwise kernels: fill, copy, add, scaled accumulate, scale, and f32 -> f16 packing. All are
 * threaded over the elements (or packed words): each element's arithmetic is one IEEE operation
 * per lane whether it runs in a SIMD lane or in the scalar tail, so the bits do not depend on
 * where a part's range starts.
 */
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

/** dst[i] = src[i] for i in [0, n), threaded (no overlap). */
export function ew_copy(dst: usize, src: usize, n: i32, part: i32, parts: i32): void {
  const from = splitFrom(n, part, parts);
  const to = splitFrom(n, part + 1, parts);
  if (to > from) memory.copy(dst + ((<usize>from) << 2), src + ((<usize>from) << 2), (<usize>(to - from)) << 2);
}

/** out[i] = a[i] + b[i], threaded. */
export function ew_add(out: usize, a: usize, b: usize, n: i32, part: i32, parts: i32): void {
  const from = splitFrom(n, part, parts);
  const to = splitFrom(n, part + 1, parts);
  let i = from;
  for (; i + 4 <= to; i += 4) {
    const o = (<usize>i) << 2;
    v128.store(out + o, f32x4.add(v128.load(a + o), v128.load(b + o)));
  }
  for (; i < to; i++) {
    const o = (<usize>i) << 2;
    store<f32>(out + o, load<f32>(a + o) + load<f32>(b + o));
  }
}

/** dst[i] += alpha * src[i], threaded. */
export function ew_addInto(dst: usize, src: usize, alpha: f32, n: i32, part: i32, parts: i32): void {
  const from = splitFrom(n, part, parts);
  const to = splitFrom(n, part + 1, parts);
  const av = f32x4.splat(alpha);
  let i = from;
  for (; i + 4 <= to; i += 4) {
    const o = (<usize>i) << 2;
    v128.store(dst + o, f32x4.add(v128.load(dst + o), f32x4.mul(av, v128.load(src + o))));
  }
  for (; i < to; i++) {
    const o = (<usize>i) << 2;
    store<f32>(dst + o, load<f32>(dst + o) + alpha * load<f32>(src + o));
  }
}

/** t[i] *= s, threaded. */
export function ew_scale(t: usize, s: f32, n: i32, part: i32, parts: i32): void {
  const from = splitFrom(n, part, parts);
  const to = splitFrom(n, part + 1, parts);
  const sv = f32x4.splat(s);
  let i = from;
  for (; i + 4 <= to; i += 4) {
    const o = (<usize>i) << 2;
    v128.store(t + o, f32x4.mul(v128.load(t + o), sv));
  }
  for (; i < to; i++) {
    const o = (<usize>i) << 2;
    store<f32>(t + o, load<f32>(t + o) * s);
  }
}

/**
 * Four f32 as four IEEE halves (one per i32 lane, bits 0–15), as ops/half.ts `halfBits`: clamped
 * to ±65504, rounded to nearest, ties to even; f32 subnormals and anything below half the smallest
 * half subnormal give ±0; NaN gives 0x7e00.
 *   normal half (|c| >= 2^-14): drop 13 mantissa bits of the rebiased bits, adding 0xfff plus the
 *     kept lowest bit first (round to nearest even; a carry moves into the exponent, as it should);
 *   subnormal half: k = |c| · 2^24 (exact) rounded to the nearest integer, ties to even (k = 1024
 *     is the smallest normal's bits, also right).
 */
function halfLanes(x: v128): v128 {
  const c = f32x4.pmin(f32x4.pmax(x, f32x4.splat(-65504)), f32x4.splat(65504)); // -0 stays -0
  const sign = v128.and(i32x4.shr_u(c, 16), i32x4.splat(0x8000));
  const a = v128.and(c, i32x4.splat(0x7fffffff));
  const lsb = v128.and(i32x4.shr_u(a, 13), i32x4.splat(1));
  const normal = i32x4.shr_u(i32x4.add(i32x4.sub(a, i32x4.splat((112 << 23) - 0xfff)), lsb), 13);
  const sub = i32x4.trunc_sat_f32x4_s(f32x4.nearest(f32x4.mul(f32x4.abs(c), f32x4.splat(16777216))));
  const h = v128.or(v128.bitselect(normal, sub, i32x4.ge_s(a, i32x4.splat(113 << 23))), sign);
  return v128.bitselect(i32x4.splat(0x7e00), h, f32x4.ne(x, x));
}

/**
 * out (⌈n / 2⌉ words) = x (n) as halves, element 2i in word i's low half; an odd n leaves the last
 * word's high half 0. Threaded over words; a word's value does not depend on the split (the tail
 * packs through the same lane code).
 */
export function ew_packHalf(out: usize, x: usize, n: i32, part: i32, parts: i32): void {
  const words = (n + 1) >> 1;
  const from = splitFrom(words, part, parts);
  const to = splitFrom(words, part + 1, parts);
  let w = from;
  for (; w + 4 <= to && 2 * w + 8 <= n; w += 4) {
    const p = x + ((<usize>w) << 3);
    const lo = halfLanes(v128.load(p));
    const hi = halfLanes(v128.load(p, 16));
    v128.store(out + ((<usize>w) << 2), i16x8.shuffle(lo, hi, 0, 2, 4, 6, 8, 10, 12, 14));
  }
  for (; w < to; w++) {
    const p = x + ((<usize>w) << 3);
    let v = f32x4.replace_lane(f32x4.splat(0), 0, load<f32>(p));
    if (2 * w + 1 < n) v = f32x4.replace_lane(v, 1, load<f32>(p, 4));
    const h = halfLanes(v);
    store<i32>(out + ((<usize>w) << 2), i32x4.extract_lane(h, 0) | (i32x4.extract_lane(h, 1) << 16));
  }
}

/** t[index[i]] = value for i in [0, n), skipping entries outside [0, size). Unthreaded (short lists). */
export function ew_fillAt(t: usize, index: usize, n: i32, size: i32, value: f32): void {
  for (let i = 0; i < n; i++) {
    const at = load<i32>(index + ((<usize>i) << 2));
    if (at >= 0 && at < size) store<f32>(t + ((<usize>at) << 2), value);
  }
}
