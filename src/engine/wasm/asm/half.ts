/** IEEE half ↔ f32, exact, shared by the kernel files (the reference: ../../ops/half.ts). */

/** The f32 value of the half with bits h (exact: subnormals, ±Infinity and NaN included). */
export function halfToF32(h: u32): f32 {
  const e = h & 0x7fff;
  let bits = reinterpret<u32>(reinterpret<f32>(e << 13) * reinterpret<f32>(0x77800000)); // · 2^112
  if (e >= 0x7c00) bits |= 0x7f800000;
  return reinterpret<f32>(bits | ((h & 0x8000) << 16));
}

/** f32 values of the 4 IEEE halves in the low 16 bits of h's lanes (exact; as halfToF32). */
export function halves4(h: v128): v128 {
  const e = v128.and(h, i32x4.splat(0x7fff));
  const sign = i32x4.shl(v128.and(h, i32x4.splat(0x8000)), 16);
  // e << 13 is the half's bit pattern in f32's layout with f32's bias: scaling by 2^112 rebiases
  // it, subnormals included; Infinity and NaN get the all-ones exponent instead.
  const shifted = i32x4.shl(e, 13);
  const scaled = f32x4.mul(shifted, f32x4.splat(reinterpret<f32>(0x77800000)));
  const special = i32x4.ge_u(e, i32x4.splat(0x7c00));
  return v128.or(v128.bitselect(v128.or(shifted, i32x4.splat(0x7f800000)), scaled, special), sign);
}

/** Four halves at byte address p (element 2i the low half of word i) as f32 lanes, as halfToF32. */
export function halvesAt(p: usize): v128 {
  return halves4(i32x4.extend_low_i16x8_u(v128.load64_zero(p)));
}

/** The half nearest x after the clamp to ±65504 (ties to even; NaN → 0x7e00), as ops/half.ts halfBits. */
export function f32ToHalf(x: f32): u32 {
  if (x != x) return 0x7e00;
  const c = Mathf.min(Mathf.max(x, -65504), 65504);
  const b = reinterpret<u32>(c);
  const sign = (b >> 16) & 0x8000;
  const exp = <i32>((b >> 23) & 0xff);
  const mant = b & 0x7fffff;
  if (exp >= 113) {
    let h = ((<u32>(exp - 112)) << 10) | (mant >> 13);
    const rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1) == 1)) h++;
    return sign | h;
  }
  if (exp == 0 || exp < 102) return sign; // below half the smallest subnormal (2^-25): ±0
  const shift = <u32>(126 - exp); // 14 … 24
  const m = mant | 0x800000;
  let k = m >> shift;
  const one: u32 = 1;
  const rest = m & ((one << shift) - 1);
  const halfway = one << (shift - 1);
  if (rest > halfway || (rest == halfway && (k & 1) == 1)) k++;
  return sign | k;
}
