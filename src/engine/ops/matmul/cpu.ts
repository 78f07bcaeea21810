/**
 * The CPU backend's matmul: the reference's arithmetic in a cache-friendly loop order
 * (`matmulCpuFast`, bit-identical to matmulRef), then the same epilogue as the kernels.
 */
import { type MatmulOptions, type Tensor } from '../../backend';
import { type CpuBackend } from '../../cpu/backend';
import { addBiasRef } from '../bias';
import { geluBackwardRef, geluRef } from '../gelu';
import { unpackHalves } from '../half';
import { type Vec } from '../types';
import { type MatmulDims, logicalBShape, matmulDims } from './dims';
import { epilogueOf } from './epilogue';
import { f16MathOf, matmulF16Ref, matmulRef } from './reference';

/**
 * The CPU backend's matmul: matmulRef's arithmetic in a cache-friendly loop order. Each output is
 * still Σ_k in ascending k, accumulated in float64 from exact f32×f32 products, so the result is
 * bit-identical to matmulRef (a test holds it to that); only the memory walk changes (row of B
 * streamed per k instead of a strided column), which is several times faster in JavaScript.
 */
export function matmulCpuFast(out: Vec, a: Vec, b: Vec, d: MatmulDims): void {
  const { batch, M, N, K, transA, transB } = d;
  if (transB && transA) {
    matmulRef(out, a, b, d);
    return;
  }
  if (transB) {
    // op(b)[k, n] = b[n, k]: both operands are walked contiguously; the reference's loop without
    // its per-element branches (the logits' h · wteᵀ, the largest matmul of a step).
    for (let z = 0; z < batch; z++) {
      const ao = z * M * K;
      const bo = d.bBatched ? z * K * N : 0;
      const oo = z * M * N;
      for (let m = 0; m < M; m++) {
        const ar = ao + m * K;
        for (let n = 0; n < N; n++) {
          const br = bo + n * K;
          let s = 0;
          for (let k = 0; k < K; k++) s += a[ar + k] * b[br + k];
          const o = oo + m * N + n;
          out[o] = d.accumulate ? out[o] + s : s;
        }
      }
    }
    return;
  }
  const acc = new Float64Array(N);
  for (let z = 0; z < batch; z++) {
    const ao = z * M * K;
    const bo = d.bBatched ? z * K * N : 0;
    const oo = z * M * N;
    for (let m = 0; m < M; m++) {
      acc.fill(0);
      for (let k = 0; k < K; k++) {
        const av = transA ? a[ao + k * M + m] : a[ao + m * K + k]; // op(a)[m, k]
        const row = bo + k * N;
        for (let n = 0; n < N; n++) acc[n] += av * b[row + n];
      }
      const o = oo + m * N;
      if (d.accumulate) for (let n = 0; n < N; n++) out[o + n] = out[o + n] + acc[n];
      else for (let n = 0; n < N; n++) out[o + n] = acc[n];
    }
  }
}

export function matmulOnCpu(be: CpuBackend, out: Tensor, a: Tensor, b: Tensor, opts: MatmulOptions = {}): void {
  const d = matmulDims(out.shape, a.shape, logicalBShape(b, opts), opts);
  epilogueOf(out, opts);
  const product = f16MathOf(opts) ? matmulF16Ref : matmulCpuFast;
  const o = be.f32Of(out);
  const bv = opts.bHalf ? unpackHalves(be.f32Of(b)) : be.f32Of(b);
  // The residual as it was before the product overwrites out (a copy when it is out itself).
  const resid = opts.residual ? (opts.residual === out ? o.slice() : be.f32Of(opts.residual)) : null;
  if (opts.geluGradOf) {
    // The product into a scratch, then geluBackward's arithmetic (which accumulates).
    const scratch = new Float32Array(out.size);
    product(scratch, be.f32Of(a), bv, { ...d, accumulate: false });
    if (!d.accumulate) o.fill(0);
    geluBackwardRef(o, be.f32Of(opts.geluGradOf), scratch);
  } else {
    product(o, be.f32Of(a), bv, d);
  }
  if (opts.bias) addBiasRef(o, o, be.f32Of(opts.bias), d.batch * d.M, d.N);
  if (resid) for (let i = 0; i < o.length; i++) o[i] = resid[i] + o[i];
  if (opts.geluOut) geluRef(be.f32Of(opts.geluOut), o);
}

/** Which kernel `variant` resolves to for these dims. */
