/**
 * Embedding gather and its scatter-add backward:
 *   out (N, C) = table (V, C) [ids (N)], an id outside [0, V) gives a zero row;
 *   dTable (V, C) += Σ over positions n with ids[n] = v of dOut[n], added in position order.
 * The backward has no atomics: one thread per (v, c) scans all N ids and adds the matching rows
 * into dTable[v, c] one by one, in position order, exactly as the CPU reference does, so the two
 * agree bit for bit and every run gives the same bits.
 *
 * Cost: V·C threads each read N ids, O(V·C·N) id reads, which is fine for the lab's vocabularies
 * (V ≈ 256–2k, N ≈ 1–8k, C ≤ 256: ~10⁸–10⁹ cheap reads, mostly cached). The better plan, when it
 * shows up in a profile: build a CSR index once per batch (per-v counts by one thread per v,
 * an exclusive scan, then a stable fill of positions: O(V·N) without atomics, or on the host, where
 * the token ids come from anyway), then one thread per (v, c) walks only its own positions:
 * O(V·N + N·C) in total.
 *
 * Shape legend: N positions (B*T), V vocab, C channels.
 */
import type { Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import type { Vec } from './types';

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
function embeddingDims(rows: Tensor, table: Tensor, ids: Tensor, what: string): { V: number; C: number; N: number } {
  if (table.shape.length !== 2) throw new Error(`${what}: table must be 2-D (V, C), got [${table.shape.join(', ')}]`);
  if (ids.dtype !== 'i32') throw new Error(`${what}: ids must be i32, got ${ids.dtype}`);
  const [V, C] = table.shape;
  const N = ids.size;
  if (rows.size !== N * C || rows.shape[rows.shape.length - 1] !== C) {
    throw new Error(`${what}: expected (${N}, ${C}) rows for ${N} ids and table [${V}, ${C}], got [${rows.shape.join(', ')}]`);
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

/** One thread per (v, c): scan ids in position order, add matching dOut rows one at a time. */
const SCATTER: Kernel = {
  name: 'embedding_scatter_add',
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

// ---- entry points ------------------------------------------------------------------------------------

export function embeddingOnCpu(be: CpuBackend, out: Tensor, table: Tensor, ids: Tensor): void {
  const { V, C } = embeddingDims(out, table, ids, 'embedding');
  embeddingRef(be.f(out), be.f(table), be.i(ids), V, C);
}

export function embeddingOnGpu(be: WebGpuBackend, out: Tensor, table: Tensor, ids: Tensor): void {
  const { V, C, N } = embeddingDims(out, table, ids, 'embedding');
  be.dispatch(GATHER, [out, table, ids], [u32(N), u32(V), u32(C)], grid1d(N * C, WG));
}

export function embeddingBackwardOnCpu(be: CpuBackend, dTable: Tensor, dOut: Tensor, ids: Tensor): void {
  const { V, C } = embeddingDims(dOut, dTable, ids, 'embeddingBackward');
  embeddingBackwardRef(be.f(dTable), be.f(dOut), be.i(ids), V, C);
}

export function embeddingBackwardOnGpu(be: WebGpuBackend, dTable: Tensor, dOut: Tensor, ids: Tensor): void {
  const { V, C, N } = embeddingDims(dOut, dTable, ids, 'embeddingBackward');
  be.dispatch(SCATTER, [dTable, dOut, ids], [u32(N), u32(V), u32(C)], grid1d(V * C, WG));
}
