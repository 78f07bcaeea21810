/**
 * The matmul CPU references, the spec as plain loops: f32 (`matmulRef`, a float64 sum over
 * ascending k) and half arithmetic (`matmulF16Ref`, runs of F16_RUN products rounded to half).
 */
import { type MatmulOptions } from '../../backend';
import { roundHalf } from '../half';
import { type Vec } from '../types';
import { type MatmulDims } from './dims';

// ---- CPU reference ----------------------------------------------------------------------------------

/** out[z, m, n] = sum(ao, bo, m, n) (added to out with `accumulate`) for every output: the loop both references share. */
function eachOutput(out: Vec, d: MatmulDims, sum: (ao: number, bo: number, m: number, n: number) => number): void {
  const { batch, M, N, K } = d;
  for (let z = 0; z < batch; z++) {
    const ao = z * M * K;
    const bo = d.bBatched ? z * K * N : 0;
    const oo = z * M * N;
    for (let m = 0; m < M; m++) {
      for (let n = 0; n < N; n++) {
        const s = sum(ao, bo, m, n);
        const o = oo + m * N + n;
        out[o] = d.accumulate ? out[o] + s : s;
      }
    }
  }
}

/** out (Z, M, N) (+)= op(a) · op(b); each dot product summed over k in order, in float64. */
export function matmulRef(out: Vec, a: Vec, b: Vec, d: MatmulDims): void {
  const { M, N, K, transA, transB } = d;
  eachOutput(out, d, (ao, bo, m, n) => {
    let s = 0;
    for (let k = 0; k < K; k++) {
      const av = transA ? a[ao + k * M + m] : a[ao + m * K + k]; // op(a)[m, k]
      const bv = transB ? b[bo + n * K + k] : b[bo + k * N + n]; // op(b)[k, n]
      s += av * bv;
    }
    return s;
  });
}

/** Outputs of math 'f16' sum this many consecutive k in half before adding into the f32 sum. */
const F16_RUN = 4;

/** Validate a call's `math`; true for half arithmetic. Throws a message saying what to pass instead. */
export function f16MathOf(opts: MatmulOptions): boolean {
  const math = opts.math ?? 'f32';
  if (math === 'f32') return false;
  if (math !== 'f16') throw new Error(`matmul: math must be 'f32' or 'f16', got ${String(math)}`);
  if (!opts.bHalf) throw new Error("matmul: math 'f16' reads b as packed halves: pass bHalf with a packHalf copy of b");
  if (opts.transA) throw new Error("matmul: math 'f16' does not take transA (it is for forward passes)");
  return true;
}

/**
 * The CPU reference of math 'f16' (MatmulOptions.math, the spec): out (Z, M, N) (+)= op(a) · op(b)
 * with op(a)'s values rounded to halves (b's already are), each run of F16_RUN consecutive k summed
 * in half left to right (every product and every add rounded to the nearest half, ties to even;
 * an add goes through f32 first, exact but for a tie at the f32 step), the runs added into an f32
 * sum in k order. transA = false.
 */
export function matmulF16Ref(out: Vec, a: Vec, b: Vec, d: MatmulDims): void {
  const { N, K, transB } = d;
  if (d.transA) throw new Error("matmulF16Ref: math 'f16' does not take transA");
  const ah = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) ah[i] = roundHalf(a[i]);
  eachOutput(out, d, (ao, bo, m, n) => {
    let s = 0;
    for (let k0 = 0; k0 < K; k0 += F16_RUN) {
      let r = 0;
      for (let k = k0; k < Math.min(k0 + F16_RUN, K); k++) {
        const p = roundHalf(ah[ao + m * K + k] * (transB ? b[bo + n * K + k] : b[bo + k * N + n]));
        r = k === k0 ? p : roundHalf(r + p);
      }
      s = Math.fround(s + r);
    }
    return s;
  });
}
