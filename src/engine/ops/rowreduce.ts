/**
 * WGSL building blocks shared by the row-wise kernels (softmax, log-softmax, cross-entropy,
 * layernorm, attention): one workgroup per row, a strided loop over the row, and a workgroup-wide
 * reduction. Two reductions, both deterministic (the same inputs give bit-identical sums on the
 * same device; no atomics):
 *   - `workgroup` (always available, the default without the `subgroups` feature): a tree through
 *     workgroup memory that pairs elements in a fixed order, log2(ROW_WG) + 2 barriers.
 *   - `subgroup` (where the device has `subgroups`): subgroupAdd/Max, then each subgroup's first
 *     lane posts its result and every thread folds the posted values in index order, 2 barriers.
 *     It does not assume how invocations map to subgroups (non-leaders post the identity).
 * This file is WGSL text and the mode switch only; the dispatches live in the op files.
 */
import type { WebGpuBackend } from '../gpu/backend';
import type { Kernel } from '../gpu/kernel';

export type RowReduceMode = 'workgroup' | 'subgroup';

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
${WG_REDUCE_BEGIN}
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
var<workgroup> red: array<f32, ${wg}>;
var<private> sg_lane: u32;
fn row_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.x + wid.y * nwg.x; }
fn wg_sum(v: f32, lid: u32) -> f32 {${fold('r + red[i]', 'subgroupAdd', '0.0')}
}
fn wg_max(v: f32, lid: u32) -> f32 {${fold('max(r, red[i])', 'subgroupMax', WGSL_NEG_MAX)}
}`;
}

const SIGNATURE_END = '@builtin(local_invocation_index) lid: u32) {';
const subgroupKernels = new Map<string, Kernel>();

/**
 * The kernel for a mode. Row kernels are written once against wg_sum/wg_max and must end their
 * entry-point parameters with `@builtin(local_invocation_index) lid: u32) {`; the subgroup
 * version enables the extension, swaps the reduction and records the subgroup lane.
 */
export function rowKernel(k: Kernel, mode: RowReduceMode, wg: number = ROW_WG): Kernel {
  if (mode === 'workgroup') return k;
  let sk = subgroupKernels.get(k.name);
  if (!sk) {
    const begin = k.code.indexOf(WG_REDUCE_BEGIN);
    const end = k.code.indexOf(WG_REDUCE_END);
    if (begin < 0 || end < 0 || !k.code.includes(SIGNATURE_END)) throw new Error(`kernel ${k.name} is not a row kernel`);
    const code = k.code.slice(0, begin) + wgslSubgroupReduce(wg) + k.code.slice(end + WG_REDUCE_END.length);
    sk = {
      name: `${k.name}_sg`,
      code: `enable subgroups;\n${code.replace(SIGNATURE_END, '@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) sgi: u32) {\n  sg_lane = sgi;')}`,
    };
    subgroupKernels.set(k.name, sk);
  }
  return sk;
}

/** Tests pin a mode per backend; otherwise subgroups are used where the device has them. */
const pinned = new WeakMap<WebGpuBackend, RowReduceMode>();

export function pinRowReduceMode(be: WebGpuBackend, mode: RowReduceMode | null): void {
  if (mode === 'subgroup' && !be.device.features.has('subgroups')) throw new Error('this device has no subgroups feature');
  if (mode === null) pinned.delete(be);
  else pinned.set(be, mode);
}

export function rowReduceMode(be: WebGpuBackend): RowReduceMode {
  return pinned.get(be) ?? (be.device.features.has('subgroups') ? 'subgroup' : 'workgroup');
}

/** The modes this device can run, for tests that hold each to the CPU reference. */
export function availableRowReduceModes(be: WebGpuBackend): RowReduceMode[] {
  return be.device.features.has('subgroups') ? ['workgroup', 'subgroup'] : ['workgroup'];
}

/** Rows and row length of a (…, V) tensor, with a clear error for an empty last dim. */
export function rowsOf(shape: readonly number[], size: number, what: string): { N: number; V: number } {
  if (shape.length === 0) throw new Error(`${what}: expected at least 1 dim, got a scalar`);
  const V = shape[shape.length - 1];
  if (V < 1) throw new Error(`${what}: last dim must be >= 1, got shape [${shape.join(', ')}]`);
  return { N: size / V, V };
}
