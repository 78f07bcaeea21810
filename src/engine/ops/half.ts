/**
 * IEEE binary16 ("half") on the host, for the CPU references of kernels that store f16 values
 * packed two to a 32-bit word (WGSL's core pack2x16float / unpack2x16float: no `shader-f16`
 * feature needed). The low half of a word is element 2i, the high half element 2i + 1.
 * Conversion from f32 rounds to nearest, ties to even (what GPUs do; WGSL leaves the rounding to
 * the implementation, so a device may pick the other neighbour: tests accept either, see
 * `isHalfRounding`). Values beyond ±65504 are clamped to it first, as the kernels do (WGSL makes
 * packing an out-of-range value indeterminate). NaN becomes the canonical half NaN.
 */
export const HALF_MAX = 65504;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The half nearest to x (after rounding x to f32, then clamping to ±HALF_MAX), as 16 bits. */
export function halfBits(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  f32[0] = Math.max(-HALF_MAX, Math.min(HALF_MAX, x));
  const b = u32[0];
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  const mant = b & 0x7fffff;
  if (exp >= 113) {
    // normal half: drop 13 mantissa bits, round to nearest even (a carry may bump the exponent)
    let h = ((exp - 112) << 10) | (mant >>> 13);
    const rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest === 0x1000 && (h & 1) === 1)) h++;
    return sign | h;
  }
  // subnormal half (or zero): k units of 2^-24, k = m · 2^(exp − 126) with the implicit bit
  const shift = 126 - exp;
  if (exp === 0 || shift > 24) return sign; // below half the smallest subnormal (2^-25): ±0
  const m = mant | 0x800000;
  let k = m >>> shift;
  const rest = m & ((1 << shift) - 1);
  const halfway = 1 << (shift - 1);
  if (rest > halfway || (rest === halfway && (k & 1) === 1)) k++;
  return sign | k;
}

/** The value of a half given as 16 bits. */
export function halfValue(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1024 + m) * 2 ** (e - 25);
}

let valueTable: Float32Array | null = null;

/** halfValue of all 65,536 bit patterns (built once). */
function halfValues(): Float32Array {
  valueTable ??= Float32Array.from({ length: 0x10000 }, (_, h) => halfValue(h));
  return valueTable;
}

/** x rounded to the nearest half (after the clamp to ±HALF_MAX), as a number: halfValue(halfBits(x)). */
export function roundHalf(x: number): number {
  return halfValues()[halfBits(x)];
}

/** The next half above / below the half `b` (bits). */
function nextUp(b: number): number {
  if (b === 0 || b === 0x8000) return 0x0001;
  return b & 0x8000 ? b - 1 : b + 1;
}
function nextDown(b: number): number {
  if (b === 0 || b === 0x8000) return 0x8001;
  return b & 0x8000 ? b + 1 : b - 1;
}

/**
 * Whether the half `h` (bits) is an allowed rounding of x (after x → f32 and the clamp): x itself
 * where x is a half, else either of the two halves around it.
 */
export function isHalfRounding(h: number, x: number): boolean {
  if (Number.isNaN(x)) return Number.isNaN(halfValue(h));
  const c = Math.max(-HALF_MAX, Math.min(HALF_MAX, Math.fround(x)));
  const r = halfBits(c);
  const rv = halfValue(r);
  const v = halfValue(h);
  if (rv === c) return v === c;
  const other = halfValue(rv < c ? nextUp(r) : nextDown(r));
  return v === rv || v === other;
}

/**
 * WGSL `pack_half(v)`: two f32 values as halves in one word (v.x low), clamped to ±HALF_MAX first
 * because WGSL leaves packing a value beyond the half range indeterminate. Core WGSL (no
 * `shader-f16`). Used by every kernel that writes packed halves.
 */
export const WGSL_PACK_HALF = /* wgsl */ `
fn pack_half(v: vec2<f32>) -> u32 { return pack2x16float(clamp(v, vec2<f32>(-${HALF_MAX}.0), vec2<f32>(${HALF_MAX}.0))); }`;

/** The 16 bits of element i of packed halves (low half = even element). */
export function halfAt(w: Uint32Array, i: number): number {
  return i & 1 ? w[i >> 1] >>> 16 : w[i >> 1] & 0xffff;
}

/** Set element i of packed halves to the half nearest x. */
export function setHalf(w: Uint32Array, i: number, x: number): void {
  const h = halfBits(x);
  const j = i >> 1;
  w[j] = i & 1 ? ((w[j] & 0xffff) | (h << 16)) >>> 0 : ((w[j] & 0xffff0000) | h) >>> 0;
}

/** The 32-bit words of packed halves kept in a Float32Array (as the backends store them). */
export function halfWords(a: ArrayLike<number>): Uint32Array {
  if (!(a instanceof Float32Array)) throw new Error('packed halves live in a Float32Array');
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

/** The values of 2·n packed halves held in n words (every half is exactly an f32). */
export function unpackHalves(a: ArrayLike<number>): Float32Array {
  const values = halfValues();
  const w = halfWords(a);
  const out = new Float32Array(w.length * 2);
  for (let i = 0; i < out.length; i++) out[i] = values[halfAt(w, i)];
  return out;
}

/** packHalf's reference: out (⌈n / 2⌉ words) = x's values as halves, rounded to nearest even; an odd n leaves the last high half 0. */
export function packHalfRef(out: Float32Array, x: ArrayLike<number>): void {
  const w = halfWords(out);
  for (let i = 0; i < x.length; i++) setHalf(w, i, x[i]);
  if (x.length % 2 === 1) setHalf(w, x.length, 0);
}
