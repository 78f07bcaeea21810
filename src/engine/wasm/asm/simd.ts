/** SIMD helpers the kernel files share: e^x and GELU on four lanes, fixed-order horizontal sums and maxima. */

/**
 * e^x per lane (Cephes expf: x = n ln 2 + r, a degree-6 polynomial in r, times 2^n); ~2 ulp.
 * n = x·log2 e rounded to nearest even by adding 1.5·2^23, whose low bits are then n itself. The
 * clamps are pmin/pmax (one instruction each; a NaN passes through).
 */
export function expv(x: v128): v128 {
  const y = f32x4.pmin(f32x4.pmax(x, f32x4.splat(-87.33654)), f32x4.splat(88.0));
  const k = f32x4.add(f32x4.mul(y, f32x4.splat(1.44269504089)), f32x4.splat(12582912));
  const n = f32x4.sub(k, f32x4.splat(12582912));
  let r = f32x4.sub(y, f32x4.mul(n, f32x4.splat(0.693359375)));
  r = f32x4.sub(r, f32x4.mul(n, f32x4.splat(-2.1219444e-4)));
  let p = f32x4.splat(1.98756915e-4);
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.3981999507e-3));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(8.3334519073e-3));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(4.1665795894e-2));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.6666665459e-1));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(5.0000001201e-1));
  p = f32x4.add(f32x4.add(f32x4.mul(p, f32x4.mul(r, r)), r), f32x4.splat(1));
  const scale = i32x4.shl(i32x4.add(k, i32x4.splat(127)), 23); // 2^n
  // below ln(2^-126) the result is flushed to 0 (the reference's e^x there is < 1.2e-38)
  return v128.andnot(f32x4.mul(p, scale), f32x4.lt(x, f32x4.splat(-87.33654)));
}

/** The sum of a vector's lanes, ((0 + 1) + (2 + 3)). */
export function hsum(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + (f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3));
}

/** The largest of a vector's lanes, (max(0, 1), max(2, 3)). */
export function hmax(v: v128): f32 {
  return Mathf.max(
    Mathf.max(f32x4.extract_lane(v, 0), f32x4.extract_lane(v, 1)),
    Mathf.max(f32x4.extract_lane(v, 2), f32x4.extract_lane(v, 3)),
  );
}

// ---- GELU, tanh form (ops/gelu.ts), per lane: the gelu ops and the matmul epilogues share it ----

const GELU_SCALE: f32 = 0.7978845608028654; // √(2/π)
const GELU_CUBIC: f32 = 0.044715;

/** σ(2u) = (1 + tanh u) / 2 for u = √(2/π)(x + 0.044715x³), per lane, without tanh's cancellation. */
function geluSigma(x: v128): v128 {
  const x2 = f32x4.mul(x, x);
  const u = f32x4.mul(f32x4.splat(GELU_SCALE), f32x4.add(x, f32x4.mul(f32x4.splat(GELU_CUBIC), f32x4.mul(x2, x))));
  const e = expv(f32x4.mul(u, f32x4.splat(-2)));
  return f32x4.div(f32x4.splat(1), f32x4.add(f32x4.splat(1), e));
}

/** gelu(x) = ½x(1 + tanh u) = x·σ(2u). */
export function geluV(x: v128): v128 {
  return f32x4.mul(x, geluSigma(x));
}

/** gelu'(x) = ½(1 + tanh u) + ½x·sech²u·√(2/π)(1 + 3·0.044715x²) = σ + 2xσ(1 − σ)·√(2/π)(1 + 0.134145x²). */
export function geluGradV(x: v128): v128 {
  const sg = geluSigma(x);
  const du = f32x4.mul(
    f32x4.splat(GELU_SCALE),
    f32x4.add(f32x4.splat(1), f32x4.mul(f32x4.splat(3 * GELU_CUBIC), f32x4.mul(x, x))),
  );
  const t = f32x4.mul(f32x4.mul(f32x4.add(x, x), f32x4.mul(sg, f32x4.sub(f32x4.splat(1), sg))), du);
  return f32x4.add(sg, t);
}

/** max p[0 … n) (n ≥ 1; NaN if any is NaN). */
export function rowMax(p: usize, n: i32): f32 {
  let a0 = f32x4.splat(-Infinity);
  let a1 = f32x4.splat(-Infinity);
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const q = p + ((<usize>i) << 2);
    a0 = f32x4.max(a0, v128.load(q));
    a1 = f32x4.max(a1, v128.load(q, 16));
  }
  if (i + 4 <= n) {
    a0 = f32x4.max(a0, v128.load(p + ((<usize>i) << 2)));
    i += 4;
  }
  let m = hmax(f32x4.max(a0, a1));
  for (; i < n; i++) m = Mathf.max(m, load<f32>(p + ((<usize>i) << 2)));
  return m;
}
