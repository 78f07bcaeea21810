/**
 * Embedding gather and its scatter-add backward:
 *   out (N, C) = table (V, C) [ids (N)], an id outside [0, V) gives a zero row;
 *   dTable (V, C) += Σ over positions n with ids[n] = v of dOut[n], added in position order.
 * The backward has no atomics and adds matching rows into dTable[v, c] one at a time in position
 * order, exactly as the CPU reference does, so the two agree bit for bit and every run gives the
 * same bits. Two versions:
 *   1. `scan`: one thread per (v, c) scans all N ids. O(V·C·N) id reads: simple, slow for big V·C.
 *   2. `csr` (used): build a CSR index of positions per id, then one thread per (v, c) walks only
 *      its own positions. count (one thread per v scans the ids) → exclusive scan of the counts (one
 *      workgroup, fixed order) → stable fill of positions (one thread per v, in position order) →
 *      gather-add. O(V·N + N·C) in total, four dispatches, three small scratch buffers.
 * Where V·N itself grows large (a 50k vocabulary), sort the ids instead (a radix sort is
 * atomic-free with per-workgroup histograms), or build the index on the host, where ids come from.
 *
 * Shape legend: N positions (B*T), V vocab, C channels.
 */
import type { Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import type { Vec } from './types';
import type { OpEntries } from './registry';

const WG = 256;

// ---- CPU references -------------------------------------------------------------------------------

export function embeddingRef(out: Vec, table: Vec, ids: Int32Array, V: number, C: number): void {
  for (let n = 0; n < ids.length; n++) {
    const v = ids[n];
    const ok = v >= 0 && v < V;
    for (let c = 0; c < C; c++) out[n * C + c] = ok ? table[v * C + c] : 0;
  }
}

/** dTable[ids[n]] += dOut[n] for n in order; out-of-range ids are skipped. */
export function embeddingBackwardRef(dTable: Vec, dOut: Vec, ids: Int32Array, V: number, C: number): void {
  for (let n = 0; n < ids.length; n++) {
    const v = ids[n];
    if (v < 0 || v >= V) continue;
    for (let c = 0; c < C; c++) dTable[v * C + c] += dOut[n * C + c];
  }
}

/** V, C, N from the table and ids, checking out / dOut is (N, C). */
export function embeddingDims(
  rows: Tensor,
  table: Tensor,
  ids: Tensor,
  what: string,
): { V: number; C: number; N: number } {
  if (table.shape.length !== 2) throw new Error(`${what}: table must be 2-D (V, C), got [${table.shape.join(', ')}]`);
  if (ids.dtype !== 'i32') throw new Error(`${what}: ids must be i32, got ${ids.dtype}`);
  const [V, C] = table.shape;
  const N = ids.size;
  if (rows.size !== N * C || rows.shape[rows.shape.length - 1] !== C) {
    throw new Error(
      `${what}: expected (${N}, ${C}) rows for ${N} ids and table [${V}, ${C}], got [${rows.shape.join(', ')}]`,
    );
  }
  return { V, C, N };
}

// ---- WGSL -------------------------------------------------------------------------------------------

const GATHER: Kernel = {
  name: 'embedding_gather',
  code: /* wgsl */ `
struct Params { N: u32, V: u32, C: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> table: array<f32>;
@group(0) @binding(3) var<storage, read> ids: array<i32>;
${WGSL_LINEAR_INDEX}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i >= P.N * P.C) { return; }
  let v = ids[i / P.C];
  var x = 0.0;
  if (v >= 0 && u32(v) < P.V) { x = table[u32(v) * P.C + i % P.C]; }
  out[i] = x;
}`,
};

/** Version 1: one thread per (v, c) scans ids in position order and adds matching dOut rows. */
const SCATTER_SCAN: Kernel = {
  name: 'embedding_scatter_scan',
  code: /* wgsl */ `
struct Params { N: u32, V: u32, C: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> dTable: array<f32>;
@group(0) @binding(2) var<storage, read> dOut: array<f32>;
@group(0) @binding(3) var<storage, read> ids: array<i32>;
${WGSL_LINEAR_INDEX}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i >= P.V * P.C) { return; }
  let v = i32(i / P.C);
  let c = i % P.C;
  var s = dTable[i];
  for (var n = 0u; n < P.N; n++) {
    if (ids[n] == v) { s += dOut[n * P.C + c]; }
  }
  dTable[i] = s;
}`,
};

const CSR_PARAMS = /* wgsl */ `
struct Params { N: u32, V: u32, C: u32 }
@group(0) @binding(0) var<uniform> P: Params;
${WGSL_LINEAR_INDEX}`;

/** Version 2, pass 1: counts[v] = #{n : ids[n] = v}, one thread per v. */
const CSR_COUNT: Kernel = {
  name: 'embedding_csr_count',
  code: /* wgsl */ `${CSR_PARAMS}
@group(0) @binding(1) var<storage, read_write> counts: array<u32>;
@group(0) @binding(2) var<storage, read> ids: array<i32>;
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let v = linear_index(gid, nwg, ${WG}u);
  if (v >= P.V) { return; }
  var k = 0u;
  for (var n = 0u; n < P.N; n++) { if (ids[n] == i32(v)) { k++; } }
  counts[v] = k;
}`,
};

/** Pass 2: offsets (V + 1) = exclusive prefix sum of counts, in one workgroup, fixed order. */
const CSR_SCAN: Kernel = {
  name: 'embedding_csr_scan',
  code: /* wgsl */ `${CSR_PARAMS}
@group(0) @binding(1) var<storage, read_write> offsets: array<u32>;
@group(0) @binding(2) var<storage, read> counts: array<u32>;
var<workgroup> block: array<u32, ${WG}>;
@compute @workgroup_size(${WG}) fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
  let t = lid.x;
  let per = (P.V + ${WG - 1}u) / ${WG}u;
  let lo = min(t * per, P.V);
  let hi = min(lo + per, P.V);
  var s = 0u;
  for (var v = lo; v < hi; v++) { s += counts[v]; }
  block[t] = s;
  workgroupBarrier();
  if (t == 0u) {
    var run = 0u;
    for (var b = 0u; b < ${WG}u; b++) { let x = block[b]; block[b] = run; run += x; }
    offsets[P.V] = run;
  }
  workgroupBarrier();
  var run = block[t];
  for (var v = lo; v < hi; v++) { offsets[v] = run; run += counts[v]; }
}`,
};

/** Pass 3: positions[offsets[v] ..] = the n with ids[n] = v, in position order; one thread per v. */
const CSR_FILL: Kernel = {
  name: 'embedding_csr_fill',
  code: /* wgsl */ `${CSR_PARAMS}
@group(0) @binding(1) var<storage, read_write> positions: array<u32>;
@group(0) @binding(2) var<storage, read> offsets: array<u32>;
@group(0) @binding(3) var<storage, read> ids: array<i32>;
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let v = linear_index(gid, nwg, ${WG}u);
  if (v >= P.V) { return; }
  var j = offsets[v];
  for (var n = 0u; n < P.N; n++) {
    if (ids[n] == i32(v)) { positions[j] = n; j++; }
  }
}`,
};

/** Pass 4: dTable[v, c] += dOut[n, c] for the positions n of v, in order; one thread per (v, c). */
const CSR_GATHER_ADD: Kernel = {
  name: 'embedding_csr_gather_add',
  code: /* wgsl */ `${CSR_PARAMS}
@group(0) @binding(1) var<storage, read_write> dTable: array<f32>;
@group(0) @binding(2) var<storage, read> dOut: array<f32>;
@group(0) @binding(3) var<storage, read> offsets: array<u32>;
@group(0) @binding(4) var<storage, read> positions: array<u32>;
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i >= P.V * P.C) { return; }
  let v = i / P.C;
  let c = i % P.C;
  var s = dTable[i];
  for (var j = offsets[v]; j < offsets[v + 1u]; j++) { s += dOut[positions[j] * P.C + c]; }
  dTable[i] = s;
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

function embeddingOnCpu(be: CpuBackend, out: Tensor, table: Tensor, ids: Tensor): void {
  const { V, C } = embeddingDims(out, table, ids, 'embedding');
  embeddingRef(be.f32Of(out), be.f32Of(table), be.i32Of(ids), V, C);
}

function embeddingOnGpu(be: WebGpuBackend, out: Tensor, table: Tensor, ids: Tensor): void {
  const { V, C, N } = embeddingDims(out, table, ids, 'embedding');
  be.dispatch(GATHER, [out, table, ids], [u32(N), u32(V), u32(C)], grid1d(N * C, WG));
}

function embeddingBackwardOnCpu(be: CpuBackend, dTable: Tensor, dOut: Tensor, ids: Tensor): void {
  const { V, C } = embeddingDims(dOut, dTable, ids, 'embeddingBackward');
  embeddingBackwardRef(be.f32Of(dTable), be.f32Of(dOut), be.i32Of(ids), V, C);
}

/** The backward on the GPU: version 2 (`csr`) unless `version` says 1 (`scan`, kept for tests and the bench). */
export function embeddingBackwardOnGpu(
  be: WebGpuBackend,
  dTable: Tensor,
  dOut: Tensor,
  ids: Tensor,
  version: 'csr' | 'scan' = 'csr',
): void {
  const { V, C, N } = embeddingDims(dOut, dTable, ids, 'embeddingBackward');
  if (V === 0 || C === 0) return;
  const params = [u32(N), u32(V), u32(C)];
  if (version === 'scan') {
    be.dispatch(SCATTER_SCAN, [dTable, dOut, ids], params, grid1d(V * C, WG));
    return;
  }
  const counts = be.scratch([V], 'i32'); // counts: (V)
  const offsets = be.scratch([V + 1], 'i32'); // offsets: (V + 1)
  const positions = be.scratch([Math.max(N, 1)], 'i32'); // positions: (N), grouped by id
  be.dispatch(CSR_COUNT, [counts, ids], params, grid1d(V, WG));
  be.dispatch(CSR_SCAN, [offsets, counts], params, [1]);
  be.dispatch(CSR_FILL, [positions, offsets, ids], params, grid1d(V, WG));
  be.dispatch(CSR_GATHER_ADD, [dTable, dOut, offsets, positions], params, grid1d(V * C, WG));
  for (const t of [counts, offsets, positions]) be.release(t); // later users are ordered after these dispatches
}

/** The registry's entries for these ops (./registry.ts). */
export const embeddingOps = {
  embedding: { cpu: embeddingOnCpu, webgpu: embeddingOnGpu },
  embeddingBackward: {
    cpu: embeddingBackwardOnCpu,
    webgpu: (be, dTable, dOut, ids) => embeddingBackwardOnGpu(be, dTable, dOut, ids),
  },
} satisfies OpEntries;
