/**
 * Global gradient-norm clipping, in place, with no readback and no atomics:
 *   norm = ‖grad‖₂                                   (written to `norm`, shape [1], on the device)
 *   grad ← grad · min(1, maxNorm / (norm + CLIP_EPS))  (as torch.nn.utils.clip_grad_norm_)
 * The norm is a fixed-order two-pass reduction, so it has the same bits every run:
 *   pass 1: chunk w of CHUNK contiguous elements is one "row" of a row kernel (rowreduce.ts):
 *           its sum of squares → partial[w];
 *   pass 2: the partials are one row: sqrt(their sum) → norm[0];
 *   pass 3: every element is scaled by a factor the kernel reads from norm[0].
 * A row is summed in the backend's row mode: a workgroup's strided runs and a tree (or subgroups)
 * on a GPU, one thread serially in order on a software adapter (no barriers).
 * A non-finite gradient gives a non-finite norm and NaN gradients (torch's default,
 * error_if_nonfinite = false); the trainer checks the norm it reads back.
 *
 * Shape legend: n gradient elements (usually the whole gradient arena), W pass-1 workgroups.
 */
import type { Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { f32, grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import { dispatchRows, ROW_WG, wgslRowReduce } from './rowreduce';
import type { Vec } from './types';
import type { OpEntries } from './registry';

const WG = 256;
/** Elements per pass-1 chunk (one partial each): 32 per thread of a row workgroup. */
const CHUNK = ROW_WG * 32;
/** Added to the norm before dividing, as torch does, so an all-zero gradient stays finite. */
export const CLIP_EPS = 1e-6;

// ---- CPU reference ----------------------------------------------------------------------------------

/** Returns the pre-clip norm; the sum of squares is taken in order, in float64. */
export function clipGradNormRef(grad: Vec, maxNorm: number): number {
  let ss = 0;
  for (let i = 0; i < grad.length; i++) ss += grad[i] * grad[i];
  const norm = Math.sqrt(ss);
  const s = Math.min(1, maxNorm / (norm + CLIP_EPS)); // clip coefficient
  if (s < 1) for (let i = 0; i < grad.length; i++) grad[i] *= s;
  return norm;
}

export function checkArgs(norm: Tensor, maxNorm: number): void {
  if (norm.size !== 1) throw new Error(`clipGradNorm: norm must hold one value, got shape [${norm.shape.join(', ')}]`);
  if (!(maxNorm > 0)) throw new Error(`clipGradNorm: maxNorm must be > 0, got ${maxNorm}`);
}

// ---- WGSL -------------------------------------------------------------------------------------------

/** Pass 1 (final = 0): partial[w] = Σ x² over chunk w. Pass 2 (final = 1): out[0] = sqrt(Σ x) over all of x. */
const SUM_SQUARES: Kernel = {
  name: 'clip_sum_squares',
  code: /* wgsl */ `
struct Params { n: u32, span: u32, final_: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
${wgslRowReduce(ROW_WG)}
@compute @workgroup_size(${ROW_WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let w = row_index(wid, nwg);
  if (w > 0u && w * P.span >= P.n) { return; } // chunk 0 always writes: an empty gradient sums to 0
  let start = w * P.span;
  let end = min(start + P.span, P.n);
  var s = 0.0;
  for (var i = start + lid; i < end; i += ROW_STRIDE) {
    let v = x[i];
    if (P.final_ != 0u) { s += v; } else { s += v * v; }
  }
  s = wg_sum(s, lid);
  if (lid == 0u) {
    if (P.final_ != 0u) { out[0] = sqrt(s); } else { out[w] = s; }
  }
}`,
};

const SCALE_BY_NORM: Kernel = {
  name: 'clip_scale_by_norm',
  code: /* wgsl */ `
struct Params { n: u32, maxNorm: f32, eps: f32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> grad: array<f32>;
@group(0) @binding(2) var<storage, read> norm: array<f32>;
${WGSL_LINEAR_INDEX}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i >= P.n) { return; }
  let s = min(1.0, P.maxNorm / (norm[0] + P.eps));
  if (s < 1.0) { grad[i] = grad[i] * s; }
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

function clipGradNormOnCpu(be: CpuBackend, norm: Tensor, grad: Tensor, maxNorm: number): void {
  checkArgs(norm, maxNorm);
  be.f32Of(norm)[0] = clipGradNormRef(be.f32Of(grad), maxNorm);
}

function clipGradNormOnGpu(be: WebGpuBackend, norm: Tensor, grad: Tensor, maxNorm: number): void {
  checkArgs(norm, maxNorm);
  const n = grad.size;
  const W = Math.max(1, Math.ceil(n / CHUNK));
  const partial = be.scratch([W]); // partial: (W)
  dispatchRows(be, SUM_SQUARES, [partial, grad], [u32(n), u32(CHUNK), u32(0)], W);
  dispatchRows(be, SUM_SQUARES, [norm, partial], [u32(W), u32(W), u32(1)], 1);
  be.dispatch(SCALE_BY_NORM, [grad, norm], [u32(n), f32(maxNorm), f32(CLIP_EPS)], grid1d(n, WG));
  be.release(partial); // safe: later users of this memory are ordered after these dispatches
}

/** The registry's entries for these ops (./registry.ts). */
export const clipOps = {
  clipGradNorm: { cpu: clipGradNormOnCpu, webgpu: clipGradNormOnGpu },
} satisfies OpEntries;
