/**
 * LayerNorm over the last dim (torch semantics: biased variance, eps inside the sqrt), forward and
 * backward: CPU references (llm.c `layernorm_forward` / `layernorm_backward`, the spec), WGSL
 * kernels and backend entry points. Derivation of the backward: docs/KERNELS.md.
 *
 * GPU plan. Forward: one workgroup per row, two row reductions (mean, then variance about the
 * mean: two passes, so no E[x²] − E[x]² cancellation). Backward: dx by one workgroup per row (two
 * reductions); dWeight and dBias are column sums over rows, done without atomics by one thread per
 * column in a fixed row order: directly for N <= COL_CHUNK_ROWS, otherwise in two passes (partials
 * over chunks of rows, then a fixed-order sum of the partials).
 *
 * Shape legend: N rows (B*T), C channels. x, out, dx, dOut: (N, C); mean, rstd: (N);
 * weight, bias, dWeight, dBias: (C); partials: (chunks, 2, C).
 */
import { assertSize, type Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { f32, grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import { dispatchRows, ROW_WG, rowsOf, wgslRowReduce } from './rowreduce';
import type { Vec } from './types';
import type { OpEntries } from './registry';

/** LayerNorm's ε when the caller gives none (GPT-2's; the ONNX export writes the same). */
export const LAYER_NORM_EPS = 1e-5;

/** Rows per partial column sum: the first pass's chunk, and the largest N summed in one pass. */
export const COL_CHUNK_ROWS = 64;
const COL_WG = 64;

// ---- CPU references -------------------------------------------------------------------------------

export function layerNormRef(
  out: Vec,
  mean: Vec,
  rstd: Vec,
  x: Vec,
  weight: Vec,
  bias: Vec,
  N: number,
  C: number,
  eps: number,
): void {
  for (let n = 0; n < N; n++) {
    const o = n * C;
    let m = 0;
    for (let c = 0; c < C; c++) m += x[o + c];
    m /= C; // μ
    let v = 0;
    for (let c = 0; c < C; c++) v += (x[o + c] - m) ** 2;
    v /= C; // σ², biased as torch
    const s = 1 / Math.sqrt(v + eps); // 1/σ
    for (let c = 0; c < C; c++) out[o + c] = (x[o + c] - m) * s * weight[c] + bias[c];
    mean[n] = m;
    rstd[n] = s;
  }
}

/** dx += (dn − mean(dn) − x̂·mean(dn⊙x̂))·rstd with dn = w⊙dOut; dWeight += Σ_n dOut⊙x̂; dBias += Σ_n dOut. */
export function layerNormBackwardRef(
  dx: Vec,
  dWeight: Vec,
  dBias: Vec,
  dOut: Vec,
  x: Vec,
  mean: Vec,
  rstd: Vec,
  weight: Vec,
  N: number,
  C: number,
): void {
  for (let n = 0; n < N; n++) {
    const o = n * C;
    const m = mean[n];
    const s = rstd[n];
    let dnMean = 0;
    let dnXhatMean = 0;
    for (let c = 0; c < C; c++) {
      const xhat = (x[o + c] - m) * s; // x̂
      const dn = weight[c] * dOut[o + c]; // ∂L/∂x̂
      dnMean += dn;
      dnXhatMean += dn * xhat;
    }
    dnMean /= C;
    dnXhatMean /= C;
    for (let c = 0; c < C; c++) {
      const xhat = (x[o + c] - m) * s;
      const dn = weight[c] * dOut[o + c];
      dBias[c] += dOut[o + c];
      dWeight[c] += dOut[o + c] * xhat;
      dx[o + c] += (dn - dnMean - xhat * dnXhatMean) * s;
    }
  }
}

// ---- WGSL -------------------------------------------------------------------------------------------

const WG = ROW_WG;

const LN_FWD: Kernel = {
  name: 'layernorm_fwd',
  code: /* wgsl */ `
struct Params { n: u32, c: u32, eps: f32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> mean: array<f32>;
@group(0) @binding(3) var<storage, read_write> rstd: array<f32>;
@group(0) @binding(4) var<storage, read> x: array<f32>;
@group(0) @binding(5) var<storage, read> w: array<f32>;
@group(0) @binding(6) var<storage, read> b: array<f32>;
${wgslRowReduce(WG)}
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = row_index(wid, nwg);
  if (row >= P.n) { return; }
  let o = row * P.c;
  let cf = f32(P.c);
  var s = 0.0;
  for (var i = lid; i < P.c; i += ROW_STRIDE) { s += x[o + i]; }
  let m = wg_sum(s, lid) / cf;
  var v = 0.0;
  for (var i = lid; i < P.c; i += ROW_STRIDE) { let d = x[o + i] - m; v += d * d; }
  let r = 1.0 / sqrt(wg_sum(v, lid) / cf + P.eps);
  for (var i = lid; i < P.c; i += ROW_STRIDE) { out[o + i] = (x[o + i] - m) * r * w[i] + b[i]; }
  if (lid == 0u) { mean[row] = m; rstd[row] = r; }
}`,
};

const LN_BWD_DX: Kernel = {
  name: 'layernorm_bwd_dx',
  code: /* wgsl */ `
struct Params { n: u32, c: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> dx: array<f32>;
@group(0) @binding(2) var<storage, read> dout: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read> mean: array<f32>;
@group(0) @binding(5) var<storage, read> rstd: array<f32>;
@group(0) @binding(6) var<storage, read> w: array<f32>;
${wgslRowReduce(WG)}
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = row_index(wid, nwg);
  if (row >= P.n) { return; }
  let o = row * P.c;
  let m = mean[row];
  let r = rstd[row];
  var a = 0.0;
  var b = 0.0;
  for (var i = lid; i < P.c; i += ROW_STRIDE) {
    let dn = w[i] * dout[o + i];
    a += dn;
    b += dn * (x[o + i] - m) * r;
  }
  let cf = f32(P.c);
  let dnMean = wg_sum(a, lid) / cf;
  let dnXhatMean = wg_sum(b, lid) / cf;
  for (var i = lid; i < P.c; i += ROW_STRIDE) {
    let xhat = (x[o + i] - m) * r;
    dx[o + i] = dx[o + i] + (w[i] * dout[o + i] - dnMean - xhat * dnXhatMean) * r;
  }
}`,
};

/** Column sums of dOut⊙x̂ and dOut over rows [r0, r1) for column c, in row order. */
const colSums = /* wgsl */ `
struct Params { n: u32, c: u32, rows: u32 }
@group(0) @binding(0) var<uniform> P: Params;
${WGSL_LINEAR_INDEX}
fn col_sums(c: u32, r0: u32, r1: u32) -> vec2<f32> {
  var sw = 0.0;
  var sb = 0.0;
  for (var n = r0; n < r1; n++) {
    let g = dout[n * P.c + c];
    sw += g * (x[n * P.c + c] - mean[n]) * rstd[n];
    sb += g;
  }
  return vec2<f32>(sw, sb);
}`;

/** One pass (N <= COL_CHUNK_ROWS): dw[c] += Σ_n, db[c] += Σ_n. */
const LN_BWD_PARAMS_DIRECT: Kernel = {
  name: 'layernorm_bwd_params_direct',
  code: /* wgsl */ `${colSums}
@group(0) @binding(1) var<storage, read_write> dw: array<f32>;
@group(0) @binding(2) var<storage, read_write> db: array<f32>;
@group(0) @binding(3) var<storage, read> dout: array<f32>;
@group(0) @binding(4) var<storage, read> x: array<f32>;
@group(0) @binding(5) var<storage, read> mean: array<f32>;
@group(0) @binding(6) var<storage, read> rstd: array<f32>;
@compute @workgroup_size(${COL_WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let c = linear_index(gid, nwg, ${COL_WG}u);
  if (c >= P.c) { return; }
  let s = col_sums(c, 0u, P.n);
  dw[c] = dw[c] + s.x;
  db[c] = db[c] + s.y;
}`,
};

/** Pass 1: part[k, 0, c], part[k, 1, c] = sums over rows of chunk k (P.rows rows per chunk). */
const LN_BWD_PARAMS_PARTIAL: Kernel = {
  name: 'layernorm_bwd_params_partial',
  code: /* wgsl */ `${colSums}
@group(0) @binding(1) var<storage, read_write> part: array<f32>;
@group(0) @binding(2) var<storage, read> dout: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read> mean: array<f32>;
@group(0) @binding(5) var<storage, read> rstd: array<f32>;
@compute @workgroup_size(${COL_WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${COL_WG}u);
  let chunks = (P.n + P.rows - 1u) / P.rows;
  if (i >= chunks * P.c) { return; }
  let k = i / P.c;
  let c = i % P.c;
  let s = col_sums(c, k * P.rows, min(P.n, (k + 1u) * P.rows));
  part[k * 2u * P.c + c] = s.x;
  part[k * 2u * P.c + P.c + c] = s.y;
}`,
};

/** Pass 2: dw[c] += Σ_k part[k, 0, c], db[c] += Σ_k part[k, 1, c], k ascending. */
const LN_BWD_PARAMS_FINISH: Kernel = {
  name: 'layernorm_bwd_params_finish',
  code: /* wgsl */ `
struct Params { chunks: u32, c: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> dw: array<f32>;
@group(0) @binding(2) var<storage, read_write> db: array<f32>;
@group(0) @binding(3) var<storage, read> part: array<f32>;
${WGSL_LINEAR_INDEX}
@compute @workgroup_size(${COL_WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let c = linear_index(gid, nwg, ${COL_WG}u);
  if (c >= P.c) { return; }
  var sw = 0.0;
  var sb = 0.0;
  for (var k = 0u; k < P.chunks; k++) {
    sw += part[k * 2u * P.c + c];
    sb += part[k * 2u * P.c + P.c + c];
  }
  dw[c] = dw[c] + sw;
  db[c] = db[c] + sb;
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

function forwardShapes(
  out: Tensor,
  mean: Tensor,
  rstd: Tensor,
  x: Tensor,
  weight: Tensor,
  bias: Tensor,
): { N: number; C: number } {
  const { N, V: C } = rowsOf(x.shape, x.size, 'layerNorm x');
  assertSize(out, x.size, 'layerNorm out');
  assertSize(mean, N, 'layerNorm mean (one per row)');
  assertSize(rstd, N, 'layerNorm rstd (one per row)');
  assertSize(weight, C, 'layerNorm weight (last dim of x)');
  assertSize(bias, C, 'layerNorm bias (last dim of x)');
  return { N, C };
}

function backwardShapes(
  dx: Tensor,
  dWeight: Tensor,
  dBias: Tensor,
  dOut: Tensor,
  x: Tensor,
  mean: Tensor,
  rstd: Tensor,
  weight: Tensor,
): { N: number; C: number } {
  const { N, V: C } = rowsOf(x.shape, x.size, 'layerNormBackward x');
  assertSize(dx, x.size, 'layerNormBackward dx');
  assertSize(dOut, x.size, 'layerNormBackward dOut');
  assertSize(mean, N, 'layerNormBackward mean (one per row)');
  assertSize(rstd, N, 'layerNormBackward rstd (one per row)');
  assertSize(weight, C, 'layerNormBackward weight');
  assertSize(dWeight, C, 'layerNormBackward dWeight');
  assertSize(dBias, C, 'layerNormBackward dBias');
  return { N, C };
}

function layerNormOnCpu(
  be: CpuBackend,
  out: Tensor,
  mean: Tensor,
  rstd: Tensor,
  x: Tensor,
  weight: Tensor,
  bias: Tensor,
  eps = LAYER_NORM_EPS,
): void {
  const { N, C } = forwardShapes(out, mean, rstd, x, weight, bias);
  layerNormRef(be.f32Of(out), be.f32Of(mean), be.f32Of(rstd), be.f32Of(x), be.f32Of(weight), be.f32Of(bias), N, C, eps);
}
function layerNormOnGpu(
  be: WebGpuBackend,
  out: Tensor,
  mean: Tensor,
  rstd: Tensor,
  x: Tensor,
  weight: Tensor,
  bias: Tensor,
  eps = LAYER_NORM_EPS,
): void {
  const { N, C } = forwardShapes(out, mean, rstd, x, weight, bias);
  dispatchRows(be, LN_FWD, [out, mean, rstd, x, weight, bias], [u32(N), u32(C), f32(eps)], N);
}

function layerNormBackwardOnCpu(
  be: CpuBackend,
  dx: Tensor,
  dWeight: Tensor,
  dBias: Tensor,
  dOut: Tensor,
  x: Tensor,
  mean: Tensor,
  rstd: Tensor,
  weight: Tensor,
): void {
  const { N, C } = backwardShapes(dx, dWeight, dBias, dOut, x, mean, rstd, weight);
  layerNormBackwardRef(
    be.f32Of(dx),
    be.f32Of(dWeight),
    be.f32Of(dBias),
    be.f32Of(dOut),
    be.f32Of(x),
    be.f32Of(mean),
    be.f32Of(rstd),
    be.f32Of(weight),
    N,
    C,
  );
}
function layerNormBackwardOnGpu(
  be: WebGpuBackend,
  dx: Tensor,
  dWeight: Tensor,
  dBias: Tensor,
  dOut: Tensor,
  x: Tensor,
  mean: Tensor,
  rstd: Tensor,
  weight: Tensor,
): void {
  const { N, C } = backwardShapes(dx, dWeight, dBias, dOut, x, mean, rstd, weight);
  dispatchRows(be, LN_BWD_DX, [dx, dOut, x, mean, rstd, weight], [u32(N), u32(C)], N);
  const chunks = Math.ceil(N / COL_CHUNK_ROWS);
  if (chunks <= 1) {
    be.dispatch(
      LN_BWD_PARAMS_DIRECT,
      [dWeight, dBias, dOut, x, mean, rstd],
      [u32(N), u32(C), u32(N)],
      grid1d(C, COL_WG),
    );
    return;
  }
  const part = be.scratch([chunks, 2, C]); // partials: (chunks, 2, C)
  be.dispatch(
    LN_BWD_PARAMS_PARTIAL,
    [part, dOut, x, mean, rstd],
    [u32(N), u32(C), u32(COL_CHUNK_ROWS)],
    grid1d(chunks * C, COL_WG),
  );
  be.dispatch(LN_BWD_PARAMS_FINISH, [dWeight, dBias, part], [u32(chunks), u32(C)], grid1d(C, COL_WG));
  be.release(part);
}

/** The registry's entries for these ops (./registry.ts). */
export const layerNormOps = {
  layerNorm: { cpu: layerNormOnCpu, webgpu: layerNormOnGpu },
  layerNormBackward: { cpu: layerNormBackwardOnCpu, webgpu: layerNormBackwardOnGpu },
} satisfies OpEntries;
