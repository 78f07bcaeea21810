/**
 * WGSL building blocks shared by the row-wise kernels (softmax, log-softmax, cross-entropy,
 * layernorm, attention): one workgroup per row, a strided loop over the row, and a tree reduction
 * through workgroup memory. The tree pairs elements in a fixed order, so the same inputs give
 * bit-identical sums on the same device (no atomics). This file is WGSL text only, no dispatches.
 */

/** Threads per row workgroup. A power of two (the tree halves it); 64 keeps barriers few on SwiftShader. */
export const ROW_WG = 64;

/** Most negative finite f32: the identity for max (WGSL has no infinity literal). */
export const WGSL_NEG_MAX = '-3.4028234663852886e38';

/**
 * `row_index(wid, nwg)`: the row of a workgroup dispatched with `grid1d(rows, 1)` (folded into 2-D
 * past 65535 rows). `wg_sum(v, lid)` / `wg_max(v, lid)`: the workgroup-wide sum / max of one value
 * per thread, returned to every thread. Both contain barriers: call them from uniform control flow
 * (a row guard on `row_index` is uniform; a branch on data read from storage is not).
 */
export function wgslRowReduce(wg: number = ROW_WG): string {
  if (wg < 1 || (wg & (wg - 1)) !== 0) throw new Error(`row workgroup size must be a power of two, got ${wg}`);
  return /* wgsl */ `
var<workgroup> red: array<f32, ${wg}>;
fn row_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.x + wid.y * nwg.x; }
fn wg_sum(v: f32, lid: u32) -> f32 {
  red[lid] = v;
  workgroupBarrier();
  for (var s = ${wg >> 1}u; s > 0u; s = s >> 1u) {
    if (lid < s) { red[lid] = red[lid] + red[lid + s]; }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier(); // everyone has read red[0] before the next reduction overwrites it
  return r;
}
fn wg_max(v: f32, lid: u32) -> f32 {
  red[lid] = v;
  workgroupBarrier();
  for (var s = ${wg >> 1}u; s > 0u; s = s >> 1u) {
    if (lid < s) { red[lid] = max(red[lid], red[lid + s]); }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}
`;
}

/** Rows and row length of a (…, V) tensor, with a clear error for an empty last dim. */
export function rowsOf(shape: readonly number[], size: number, what: string): { N: number; V: number } {
  if (shape.length === 0) throw new Error(`${what}: expected at least 1 dim, got a scalar`);
  const V = shape[shape.length - 1];
  if (V < 1) throw new Error(`${what}: last dim must be >= 1, got shape [${shape.join(', ')}]`);
  return { N: size / V, V };
}
