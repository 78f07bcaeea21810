/**
 * Bias add and its backward: out (N, C) = x (N, C) + bias (C) broadcast over rows, and
 * dBias (C) += Σ_rows dOut (N, C). The backward is a column sum in a fixed order, no atomics:
 *   - N <= ROWS_PER_CHUNK: one pass, one thread per column summing its rows top to bottom.
 *   - larger N: two passes. Pass 1 sums each chunk of ROWS_PER_CHUNK rows per column into
 *     partial (P, C); pass 2 sums the P partials per column in chunk order and adds to dBias.
 *     That keeps N/ROWS_PER_CHUNK × C threads busy instead of C, with the same bits every run.
 * Not here: the fused bias epilogue of matmul (a later optimisation).
 *
 * Shape legend: N rows (B*T), C channels, P row chunks.
 */
import { assertSize, type Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import type { Vec } from './types';
import type { OpEntries } from './registry';

const WG = 256;
/** Rows one thread sums in pass 1 of the two-pass backward (and the one-pass threshold). */
export const ROWS_PER_CHUNK = 64;

// ---- CPU references -------------------------------------------------------------------------------

export function addBiasRef(out: Vec, x: Vec, bias: Vec, N: number, C: number): void {
  for (let n = 0; n < N; n++) {
    for (let c = 0; c < C; c++) out[n * C + c] = x[n * C + c] + bias[c];
  }
}

/** dBias[c] += Σ_n dOut[n, c], rows in order. */
export function biasBackwardRef(dBias: Vec, dOut: Vec, N: number, C: number): void {
  for (let c = 0; c < C; c++) {
    let s = 0;
    for (let n = 0; n < N; n++) s += dOut[n * C + c];
    dBias[c] += s;
  }
}

/** (N, C) from out/x and bias, with errors that name the shapes. */
export function biasDims(x: Tensor, bias: Tensor, what: string): { N: number; C: number } {
  if (bias.shape.length !== 1) throw new Error(`${what}: bias must be 1-D (C), got [${bias.shape.join(', ')}]`);
  const C = bias.size;
  const last = x.shape[x.shape.length - 1];
  if (x.shape.length < 1 || last !== C) {
    throw new Error(`${what}: the last dim of [${x.shape.join(', ')}] must equal the bias length ${C}`);
  }
  return { N: C === 0 ? 0 : x.size / C, C };
}

// ---- WGSL -------------------------------------------------------------------------------------------

const ADD_BIAS: Kernel = {
  name: 'add_bias',
  code: /* wgsl */ `
struct Params { n: u32, C: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
${WGSL_LINEAR_INDEX}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i < P.n) { out[i] = x[i] + bias[i % P.C]; }
}`,
};

/** In place (out is x): a buffer may not be bound twice in one dispatch when one binding writes. */
const ADD_BIAS_INPLACE: Kernel = {
  name: 'add_bias_inplace',
  code: /* wgsl */ `
struct Params { n: u32, C: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> x: array<f32>;
@group(0) @binding(2) var<storage, read> bias: array<f32>;
${WGSL_LINEAR_INDEX}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i < P.n) { x[i] = x[i] + bias[i % P.C]; }
}`,
};

/**
 * One thread per (chunk p, column c): sums rows [p*R, min((p+1)*R, N)) of column c in order.
 * One-pass mode (P = 1, R = N, add = 1) adds straight into dBias; otherwise writes partial[p, c].
 */
const COLUMN_SUM: Kernel = {
  name: 'bias_column_sum',
  code: /* wgsl */ `
struct Params { N: u32, C: u32, R: u32, P: u32, add: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<storage, read> src: array<f32>;
${WGSL_LINEAR_INDEX}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i >= P.P * P.C) { return; }
  let p = i / P.C;
  let c = i % P.C;
  let end = min((p + 1u) * P.R, P.N);
  var s = 0.0;
  for (var n = p * P.R; n < end; n++) { s += src[n * P.C + c]; }
  if (P.add != 0u) { s = dst[i] + s; }
  dst[i] = s;
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

function addBiasOnCpu(be: CpuBackend, out: Tensor, x: Tensor, bias: Tensor): void {
  const { N, C } = biasDims(x, bias, 'addBias');
  assertSize(out, x.size, 'addBias out');
  addBiasRef(be.f32Of(out), be.f32Of(x), be.f32Of(bias), N, C);
}

function addBiasOnGpu(be: WebGpuBackend, out: Tensor, x: Tensor, bias: Tensor): void {
  biasDims(x, bias, 'addBias');
  assertSize(out, x.size, 'addBias out');
  if (out === x) be.dispatch(ADD_BIAS_INPLACE, [x, bias], [u32(x.size), u32(bias.size)], grid1d(x.size, WG));
  else be.dispatch(ADD_BIAS, [out, x, bias], [u32(x.size), u32(bias.size)], grid1d(x.size, WG));
}

function biasBackwardOnCpu(be: CpuBackend, dBias: Tensor, dOut: Tensor): void {
  const { N, C } = biasDims(dOut, dBias, 'biasBackward');
  biasBackwardRef(be.f32Of(dBias), be.f32Of(dOut), N, C);
}

function biasBackwardOnGpu(be: WebGpuBackend, dBias: Tensor, dOut: Tensor): void {
  const { N, C } = biasDims(dOut, dBias, 'biasBackward');
  if (C === 0) return;
  if (N <= ROWS_PER_CHUNK) {
    be.dispatch(COLUMN_SUM, [dBias, dOut], [u32(N), u32(C), u32(Math.max(N, 1)), u32(1), u32(1)], grid1d(C, WG));
    return;
  }
  const chunks = Math.ceil(N / ROWS_PER_CHUNK);
  const partial = be.scratch([chunks, C]); // partial: (P, C)
  be.dispatch(
    COLUMN_SUM,
    [partial, dOut],
    [u32(N), u32(C), u32(ROWS_PER_CHUNK), u32(chunks), u32(0)],
    grid1d(chunks * C, WG),
  );
  be.dispatch(COLUMN_SUM, [dBias, partial], [u32(chunks), u32(C), u32(chunks), u32(1), u32(1)], grid1d(C, WG));
  be.release(partial); // safe: later users of this memory are ordered after these dispatches
}

/** The registry's entries for these ops (./registry.ts). */
export const biasOps = {
  addBias: { cpu: addBiasOnCpu, webgpu: addBiasOnGpu },
  biasBackward: { cpu: biasBackwardOnCpu, webgpu: biasBackwardOnGpu },
} satisfies OpEntries;
