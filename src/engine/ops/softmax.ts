/**
 * Row softmax and log-softmax over the last dim, forward and backward: CPU references (the spec,
 * plain loops), WGSL kernels (one workgroup per row, max-subtracted, fixed-order row reductions of rowreduce.ts),
 * and the backend entry points. Cross-entropy fuses its own softmax (crossentropy.ts); attention
 * fuses its own (attention.ts). Derivations: docs/KERNELS.md.
 *
 * Shape legend: N rows (e.g. B*T), V row length (e.g. vocab). x, y, dx, dy: (N, V).
 */
import { assertSize, type Tensor } from '../backend';
import { u32, type Kernel } from '../gpu/kernel';
import { dispatchRows, ROW_WG, rowsOf, WGSL_NEG_MAX, wgslRowReduce } from './rowreduce';
import type { Vec } from './types';
import type { OpEntries, OpImpls } from './registry';

// ---- CPU references -------------------------------------------------------------------------------

/** y (N, V) = softmax(x) per row; logs = true gives log-softmax. */
export function softmaxRef(y: Vec, x: Vec, N: number, V: number, logs = false): void {
  for (let n = 0; n < N; n++) {
    const o = n * V;
    let max = -Infinity;
    for (let v = 0; v < V; v++) max = Math.max(max, x[o + v]);
    let sum = 0;
    for (let v = 0; v < V; v++) sum += Math.exp(x[o + v] - max);
    const logSum = Math.log(sum);
    for (let v = 0; v < V; v++) {
      y[o + v] = logs ? x[o + v] - max - logSum : Math.exp(x[o + v] - max) / sum; // log p / p
    }
  }
}

/** dx += y ⊙ (dy − Σ_v dy⊙y), y = softmax output. */
export function softmaxBackwardRef(dx: Vec, y: Vec, dy: Vec, N: number, V: number): void {
  for (let n = 0; n < N; n++) {
    const o = n * V;
    let dot = 0;
    for (let v = 0; v < V; v++) dot += dy[o + v] * y[o + v];
    for (let v = 0; v < V; v++) dx[o + v] += y[o + v] * (dy[o + v] - dot);
  }
}

/** dx += dy − exp(y) ⊙ Σ_v dy, y = log-softmax output. */
export function logSoftmaxBackwardRef(dx: Vec, y: Vec, dy: Vec, N: number, V: number): void {
  for (let n = 0; n < N; n++) {
    const o = n * V;
    let sum = 0;
    for (let v = 0; v < V; v++) sum += dy[o + v];
    for (let v = 0; v < V; v++) dx[o + v] += dy[o + v] - Math.exp(y[o + v]) * sum;
  }
}

// ---- WGSL -------------------------------------------------------------------------------------------

const WG = ROW_WG;

const header = /* wgsl */ `
struct Params { n: u32, v: u32 }
@group(0) @binding(0) var<uniform> P: Params;
${wgslRowReduce(WG)}`;

/** Forward, one workgroup per row: max, Σ exp(x − max), then write p or log p. */
function forwardKernel(logs: boolean): Kernel {
  return {
    name: logs ? 'log_softmax_fwd' : 'softmax_fwd',
    code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = row_index(wid, nwg);
  if (row >= P.n) { return; }
  let o = row * P.v;
  var m = ${WGSL_NEG_MAX};
  for (var i = lid; i < P.v; i += ROW_STRIDE) { m = max(m, x[o + i]); }
  m = wg_max(m, lid);
  var s = 0.0;
  for (var i = lid; i < P.v; i += ROW_STRIDE) { s += exp(x[o + i] - m); }
  s = wg_sum(s, lid);
  ${
    logs
      ? `let ls = log(s);
  for (var i = lid; i < P.v; i += ROW_STRIDE) { y[o + i] = x[o + i] - m - ls; }`
      : `let inv = 1.0 / s;
  for (var i = lid; i < P.v; i += ROW_STRIDE) { y[o + i] = exp(x[o + i] - m) * inv; }`
  }
}`,
  };
}

const SOFTMAX_FWD = forwardKernel(false);
const LOG_SOFTMAX_FWD = forwardKernel(true);

const SOFTMAX_BWD: Kernel = {
  name: 'softmax_bwd',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> dx: array<f32>;
@group(0) @binding(2) var<storage, read> y: array<f32>;
@group(0) @binding(3) var<storage, read> dy: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = row_index(wid, nwg);
  if (row >= P.n) { return; }
  let o = row * P.v;
  var d = 0.0;
  for (var i = lid; i < P.v; i += ROW_STRIDE) { d += dy[o + i] * y[o + i]; }
  d = wg_sum(d, lid);
  for (var i = lid; i < P.v; i += ROW_STRIDE) { dx[o + i] = dx[o + i] + y[o + i] * (dy[o + i] - d); }
}`,
};

const LOG_SOFTMAX_BWD: Kernel = {
  name: 'log_softmax_bwd',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> dx: array<f32>;
@group(0) @binding(2) var<storage, read> y: array<f32>;
@group(0) @binding(3) var<storage, read> dy: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = row_index(wid, nwg);
  if (row >= P.n) { return; }
  let o = row * P.v;
  var s = 0.0;
  for (var i = lid; i < P.v; i += ROW_STRIDE) { s += dy[o + i]; }
  s = wg_sum(s, lid);
  for (var i = lid; i < P.v; i += ROW_STRIDE) { dx[o + i] = dx[o + i] + dy[o + i] - exp(y[o + i]) * s; }
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

export function rows(out: Tensor, x: Tensor, what: string): { N: number; V: number } {
  const { N, V } = rowsOf(x.shape, x.size, what);
  assertSize(out, x.size, `${what} output`);
  return { N, V };
}

export function backwardRows(dx: Tensor, y: Tensor, dy: Tensor, what: string): { N: number; V: number } {
  const { N, V } = rowsOf(y.shape, y.size, what);
  assertSize(dy, y.size, `${what} dy`);
  assertSize(dx, y.size, `${what} dx`);
  return { N, V };
}

/** A forward op: y = softmax(x) per row, or log-softmax with `logs`. */
function forwardOp(what: string, logs: boolean, kernel: Kernel): OpImpls<'softmax'> {
  return {
    cpu(be, out, x) {
      const { N, V } = rows(out, x, what);
      softmaxRef(be.f32Of(out), be.f32Of(x), N, V, logs);
    },
    webgpu(be, out, x) {
      const { N, V } = rows(out, x, what);
      dispatchRows(be, kernel, [out, x], [u32(N), u32(V)], N);
    },
  };
}

/** A backward op: dx += from y (the forward's output) and dy, by `ref` on the CPU. */
function backwardOp(what: string, ref: typeof softmaxBackwardRef, kernel: Kernel): OpImpls<'softmaxBackward'> {
  return {
    cpu(be, dx, y, dy) {
      const { N, V } = backwardRows(dx, y, dy, what);
      ref(be.f32Of(dx), be.f32Of(y), be.f32Of(dy), N, V);
    },
    webgpu(be, dx, y, dy) {
      const { N, V } = backwardRows(dx, y, dy, what);
      dispatchRows(be, kernel, [dx, y, dy], [u32(N), u32(V)], N);
    },
  };
}

/** The registry's entries for these ops (./registry.ts). */
export const softmaxOps = {
  softmax: forwardOp('softmax', false, SOFTMAX_FWD),
  logSoftmax: forwardOp('logSoftmax', true, LOG_SOFTMAX_FWD),
  softmaxBackward: backwardOp('softmaxBackward', softmaxBackwardRef, SOFTMAX_BWD),
  logSoftmaxBackward: backwardOp('logSoftmaxBackward', logSoftmaxBackwardRef, LOG_SOFTMAX_BWD),
} satisfies OpEntries;
