/**
 * WGSL building blocks shared by the row-wise kernels (softmax, log-softmax, cross-entropy,
 * layernorm, attention, the policy loss): a loop over the row strided by ROW_STRIDE from `lid`,
 * and a row-wide reduction. Three modes, each deterministic (the same inputs give bit-identical
 * sums on the same device; no atomics); a kernel is written once and `rowKernel` makes each mode:
 *   - `workgroup` (the default on a GPU without `subgroups`): one workgroup of ROW_WG threads per
 *     row; a tree through workgroup memory that pairs elements in a fixed order, log2(ROW_WG) + 2
 *     barriers per reduction.
 *   - `subgroup` (where the device has `subgroups`): subgroupAdd/Max, then each subgroup's first
 *     lane posts its result and every thread folds the posted values in index order, 2 barriers.
 *     It does not assume how invocations map to subgroups (non-leaders post the identity).
 *   - `thread` (the default on a software adapter): one thread per row, ROW_WG rows per workgroup,
 *     the row walked serially in index order (ROW_STRIDE = 1, lid = 0), no workgroup memory and no
 *     barriers. On a CPU adapter a barrier costs a context switch of every invocation and a row's
 *     threads share no cache a CPU lacks; on a GPU the rows' threads would read uncoalesced.
 * The modes sum in different orders, so they differ in the last bits; a device always runs the
 * same mode (the default depends only on the adapter), so runs on it repeat bit for bit.
 * This file is WGSL text, the mode switch and the row grid; the dispatches live in the op files.
 */
import type { Tensor } from '../backend';
import type { WebGpuBackend } from '../gpu/backend';
import { grid1d, type Kernel, type Uniform } from '../gpu/kernel';

export type RowReduceMode = 'workgroup' | 'subgroup' | 'thread';

/** Threads per row workgroup. A power of two (the tree halves it); 64 keeps barriers few on SwiftShader. */
export const ROW_WG = 64;

/** Most negative finite f32: the identity for max (WGSL has no infinity literal). */
export const WGSL_NEG_MAX = '-3.4028234663852886e38';

/**
 * `row_index(wid, nwg)`: this invocation's row (dispatch with `rowGrid`). `ROW_STRIDE`: the stride
 * of the row loops (`for (var i = lid; i < n; i += ROW_STRIDE)`). `wg_sum(v, lid)` /
 * `wg_max(v, lid)`: the sum / max over the row's threads of one value per thread, returned to every
 * thread. `row_sync()`: makes the row's storage writes visible to its other threads. All three may
 * contain barriers: call them from uniform control flow (a row guard on `row_index` is uniform; a
 * branch on data read from storage is not).
 */
export function wgslRowReduce(wg: number = ROW_WG): string {
  if (wg < 1 || (wg & (wg - 1)) !== 0) throw new Error(`row workgroup size must be a power of two, got ${wg}`);
  return /* wgsl */ `
${WG_REDUCE_BEGIN}
const ROW_STRIDE = ${wg}u;
fn row_sync() { storageBarrier(); }
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
${WG_REDUCE_END}
`;
}

const WG_REDUCE_BEGIN = '// -- row reduce (workgroup) --';
const WG_REDUCE_END = '// -- end row reduce --';

/** The subgroup versions of `red`, `row_index`, `wg_sum`, `wg_max` (same contract). */
function wgslSubgroupReduce(wg: number): string {
  const fold = (op: string, sg: string, ident: string): string => /* wgsl */ `
  red[lid] = select(${ident}, ${sg}(v), sg_lane == 0u);
  workgroupBarrier();
  var r = red[0];
  for (var i = 1u; i < ${wg}u; i++) { r = ${op}; }
  workgroupBarrier(); // everyone has read red before the next reduction overwrites it
  return r;`;
  return /* wgsl */ `
const ROW_STRIDE = ${wg}u;
fn row_sync() { storageBarrier(); }
var<workgroup> red: array<f32, ${wg}>;
var<private> sg_lane: u32;
fn row_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.x + wid.y * nwg.x; }
fn wg_sum(v: f32, lid: u32) -> f32 {${fold('r + red[i]', 'subgroupAdd', '0.0')}
}
fn wg_max(v: f32, lid: u32) -> f32 {${fold('max(r, red[i])', 'subgroupMax', WGSL_NEG_MAX)}
}`;
}

/** `thread` mode: one row per invocation, walked serially; the reductions are the identity. */
function wgslThreadReduce(wg: number): string {
  return /* wgsl */ `
const ROW_STRIDE = 1u;
fn row_sync() {}
var<private> row_thread: u32;
fn row_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return (wid.x + wid.y * nwg.x) * ${wg}u + row_thread; }
fn wg_sum(v: f32, lid: u32) -> f32 { return v; }
fn wg_max(v: f32, lid: u32) -> f32 { return v; }`;
}

const SIGNATURE_END = '@builtin(local_invocation_index) lid: u32) {';
const modeKernels = new Map<string, Kernel>();

/**
 * The kernel for a mode. Row kernels are written once against ROW_STRIDE, row_index, wg_sum,
 * wg_max and row_sync, and must end their entry-point parameters with
 * `@builtin(local_invocation_index) lid: u32) {`. The subgroup version enables the extension,
 * swaps the reduction and records the subgroup lane; the thread version swaps the reduction for
 * the identity and makes `lid` 0 (the invocation index picks the row instead).
 */
export function rowKernel(k: Kernel, mode: RowReduceMode, wg: number = ROW_WG): Kernel {
  if (mode === 'workgroup') return k;
  const name = `${k.name}_${mode === 'subgroup' ? 'sg' : 'thread'}`;
  let mk = modeKernels.get(name);
  if (!mk) {
    const begin = k.code.indexOf(WG_REDUCE_BEGIN);
    const end = k.code.indexOf(WG_REDUCE_END);
    if (begin < 0 || end < 0 || !k.code.includes(SIGNATURE_END))
      throw new Error(`kernel ${k.name} is not a row kernel`);
    const swap = (reduce: string): string => k.code.slice(0, begin) + reduce + k.code.slice(end + WG_REDUCE_END.length);
    const code =
      mode === 'subgroup'
        ? `enable subgroups;\n${swap(wgslSubgroupReduce(wg)).replace(SIGNATURE_END, '@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) sgi: u32) {\n  sg_lane = sgi;')}`
        : swap(wgslThreadReduce(wg)).replace(
            SIGNATURE_END,
            '@builtin(local_invocation_index) row_inv: u32) {\n  row_thread = row_inv;\n  let lid = 0u;',
          );
    mk = { name, code };
    modeKernels.set(name, mk);
  }
  return mk;
}

/** The workgroup grid for `rows` rows in a mode: a workgroup per row, or per ROW_WG rows in `thread`. */
export function rowGrid(mode: RowReduceMode, rows: number, wg: number = ROW_WG): [number, number] {
  return grid1d(rows, mode === 'thread' ? wg : 1);
}

/** Dispatch a row kernel over `rows` rows in this backend's mode. */
export function dispatchRows(
  be: WebGpuBackend,
  k: Kernel,
  tensors: readonly Tensor[],
  uniforms: readonly Uniform[],
  rows: number,
): void {
  const mode = rowReduceMode(be);
  be.dispatch(rowKernel(k, mode), tensors, uniforms, rowGrid(mode, rows));
}

/**
 * Tests pin a mode per backend. Otherwise: `thread` on a software adapter (measured in
 * docs/PERFORMANCE.md), `subgroup` where the device has subgroups, else `workgroup`.
 */
const pinned = new WeakMap<WebGpuBackend, RowReduceMode>();

export function pinRowReduceMode(be: WebGpuBackend, mode: RowReduceMode | null): void {
  if (mode === 'subgroup' && !be.device.features.has('subgroups'))
    throw new Error('this device has no subgroups feature');
  if (mode === null) pinned.delete(be);
  else pinned.set(be, mode);
}

export function rowReduceMode(be: WebGpuBackend): RowReduceMode {
  return pinned.get(be) ?? (be.isFallback ? 'thread' : be.device.features.has('subgroups') ? 'subgroup' : 'workgroup');
}

/** The modes this device can run, for tests that hold each to the CPU reference. */
export function availableRowReduceModes(be: WebGpuBackend): RowReduceMode[] {
  return be.device.features.has('subgroups') ? ['workgroup', 'subgroup', 'thread'] : ['workgroup', 'thread'];
}

/** Rows and row length of a (…, V) tensor, with a clear error for an empty last dim. */
export function rowsOf(shape: readonly number[], size: number, what: string): { N: number; V: number } {
  if (shape.length === 0) throw new Error(`${what}: expected at least 1 dim, got a scalar`);
  const V = shape[shape.length - 1];
  if (V < 1) throw new Error(`${what}: last dim must be >= 1, got shape [${shape.join(', ')}]`);
  return { N: size / V, V };
}
