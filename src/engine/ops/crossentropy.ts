/**
 * Cross-entropy per row, fused with its softmax: forward loss and backward dLogits, each one
 * workgroup per row (max, Σ exp, then the loss or the gradient, looping over V with a stride).
 * CPU references (the spec), WGSL kernels and backend entry points. The mean over rows and any
 * masking weights are the caller's: they arrive as dLosses. Derivation: docs/KERNELS.md.
 *
 * Ignored rows: a target < 0 (the usual ignore index −1) OR a target >= V gives loss 0 and adds 0
 * to dLogits. Out-of-range targets are treated as ignored rather than read out of bounds: on the
 * GPU we cannot throw, and the CPU must agree with the GPU.
 *
 * Shape legend: N rows (B*T), V vocab. logits, dLogits: (N, V); targets (i32), losses, dLosses: (N).
 */
import { assertSize, type Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { u32, type Kernel } from '../gpu/kernel';
import { dispatchRows, ROW_WG, rowsOf, WGSL_NEG_MAX, wgslRowReduce } from './rowreduce';
import type { Vec } from './types';
import type { OpEntries } from './registry';

/** A target that names a row's class; anything else marks the row ignored. */
function isValidTarget(t: number, V: number): boolean {
  return t >= 0 && t < V;
}

// ---- CPU references -------------------------------------------------------------------------------

/** losses (N) = logsumexp(logits[n]) − logits[n, target[n]]; 0 for ignored rows. */
export function crossEntropyRef(losses: Vec, logits: Vec, targets: Int32Array, N: number, V: number): void {
  for (let n = 0; n < N; n++) {
    const t = targets[n];
    if (!isValidTarget(t, V)) {
      losses[n] = 0;
      continue;
    }
    const o = n * V;
    let max = -Infinity;
    for (let v = 0; v < V; v++) max = Math.max(max, logits[o + v]);
    let sum = 0;
    for (let v = 0; v < V; v++) sum += Math.exp(logits[o + v] - max);
    losses[n] = max + Math.log(sum) - logits[o + t]; // −log p_t
  }
}

/** dLogits (N, V) += (softmax(logits) − onehot(target)) · dLosses[n]; ignored rows add nothing. */
export function crossEntropyBackwardRef(
  dLogits: Vec,
  logits: Vec,
  targets: Int32Array,
  dLosses: Vec,
  N: number,
  V: number,
): void {
  for (let n = 0; n < N; n++) {
    const t = targets[n];
    if (!isValidTarget(t, V)) continue;
    const o = n * V;
    let max = -Infinity;
    for (let v = 0; v < V; v++) max = Math.max(max, logits[o + v]);
    let sum = 0;
    for (let v = 0; v < V; v++) sum += Math.exp(logits[o + v] - max);
    const dl = dLosses[n];
    for (let v = 0; v < V; v++) {
      const p = Math.exp(logits[o + v] - max) / sum;
      dLogits[o + v] += (p - (v === t ? 1 : 0)) * dl; // (p − y) dL
    }
  }
}

// ---- WGSL -------------------------------------------------------------------------------------------

const WG = ROW_WG;

// Every thread runs the reductions even for ignored rows: the target is read from storage, and a
// branch on it before a barrier would break WGSL's uniformity rule. Ignored rows just skip the write.
const header = /* wgsl */ `
struct Params { n: u32, v: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(2) var<storage, read> logits: array<f32>;
@group(0) @binding(3) var<storage, read> targets: array<i32>;
${wgslRowReduce(WG)}
struct RowStats { m: f32, s: f32 }
fn row_stats(o: u32, lid: u32) -> RowStats {
  var m = ${WGSL_NEG_MAX};
  for (var i = lid; i < P.v; i += ROW_STRIDE) { m = max(m, logits[o + i]); }
  m = wg_max(m, lid);
  var s = 0.0;
  for (var i = lid; i < P.v; i += ROW_STRIDE) { s += exp(logits[o + i] - m); }
  s = wg_sum(s, lid);
  return RowStats(m, s);
}`;

const CE_FWD: Kernel = {
  name: 'cross_entropy_fwd',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> losses: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = row_index(wid, nwg);
  if (row >= P.n) { return; }
  let o = row * P.v;
  let st = row_stats(o, lid);
  if (lid == 0u) {
    let t = targets[row];
    var loss = 0.0;
    if (t >= 0 && u32(t) < P.v) { loss = st.m + log(st.s) - logits[o + u32(t)]; }
    losses[row] = loss;
  }
}`,
};

const CE_BWD: Kernel = {
  name: 'cross_entropy_bwd',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> dlogits: array<f32>;
@group(0) @binding(4) var<storage, read> dlosses: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = row_index(wid, nwg);
  if (row >= P.n) { return; }
  let o = row * P.v;
  let st = row_stats(o, lid);
  let t = targets[row];
  if (t < 0 || u32(t) >= P.v) { return; }
  let inv = 1.0 / st.s;
  let dl = dlosses[row];
  for (var i = lid; i < P.v; i += ROW_STRIDE) {
    let p = exp(logits[o + i] - st.m) * inv;
    dlogits[o + i] = dlogits[o + i] + (p - select(0.0, 1.0, i == u32(t))) * dl;
  }
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

function checkShapes(logits: Tensor, targets: Tensor, perRow: Tensor, what: string): { N: number; V: number } {
  const { N, V } = rowsOf(logits.shape, logits.size, what);
  if (targets.dtype !== 'i32') throw new Error(`${what}: targets must be i32, got ${targets.dtype}`);
  assertSize(targets, N, `${what} targets (one per row of logits [${logits.shape.join(', ')}])`);
  assertSize(perRow, N, `${what} per-row losses`);
  return { N, V };
}

function crossEntropyOnCpu(be: CpuBackend, losses: Tensor, logits: Tensor, targets: Tensor): void {
  const { N, V } = checkShapes(logits, targets, losses, 'crossEntropy');
  crossEntropyRef(be.f32Of(losses), be.f32Of(logits), be.i32Of(targets), N, V);
}
function crossEntropyOnGpu(be: WebGpuBackend, losses: Tensor, logits: Tensor, targets: Tensor): void {
  const { N, V } = checkShapes(logits, targets, losses, 'crossEntropy');
  dispatchRows(be, CE_FWD, [losses, logits, targets], [u32(N), u32(V)], N);
}

function crossEntropyBackwardOnCpu(
  be: CpuBackend,
  dLogits: Tensor,
  logits: Tensor,
  targets: Tensor,
  dLosses: Tensor,
): void {
  const { N, V } = checkShapes(logits, targets, dLosses, 'crossEntropyBackward');
  assertSize(dLogits, logits.size, 'crossEntropyBackward dLogits');
  crossEntropyBackwardRef(be.f32Of(dLogits), be.f32Of(logits), be.i32Of(targets), be.f32Of(dLosses), N, V);
}
function crossEntropyBackwardOnGpu(
  be: WebGpuBackend,
  dLogits: Tensor,
  logits: Tensor,
  targets: Tensor,
  dLosses: Tensor,
): void {
  const { N, V } = checkShapes(logits, targets, dLosses, 'crossEntropyBackward');
  assertSize(dLogits, logits.size, 'crossEntropyBackward dLogits');
  dispatchRows(be, CE_BWD, [dLogits, logits, targets, dLosses], [u32(N), u32(V)], N);
}

/** The registry's entries for these ops (./registry.ts). */
export const crossEntropyOps = {
  crossEntropy: { cpu: crossEntropyOnCpu, webgpu: crossEntropyOnGpu },
  crossEntropyBackward: { cpu: crossEntropyBackwardOnCpu, webgpu: crossEntropyBackwardOnGpu },
} satisfies OpEntries;
