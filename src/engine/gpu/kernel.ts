/**
 * Kernel plumbing shared by every op file: the Kernel record, typed uniforms, and the 1-D grid
 * helper. Kept apart from backend.ts so op files can import values from here without an import
 * cycle (backend.ts imports the ops).
 */

export interface Kernel {
  /** Unique, for the pipeline cache and error messages. */
  name: string;
  /** WGSL source with an entry point `main`. */
  code: string;
}

export type Uniform = { u32: number } | { i32: number } | { f32: number };
export const u32 = (v: number): Uniform => ({ u32: v });
export const f32 = (v: number): Uniform => ({ f32: v });

/** The maximum workgroups per grid dimension that every adapter supports. */
export const MAX_GROUPS_PER_DIM = 65535;

/**
 * Workgroups for a 1-D problem of n items with `wg` threads per group, folded into 2-D when it
 * exceeds 65535 groups. In WGSL recover the linear index with `LINEAR_INDEX`.
 */
export function grid1d(n: number, wg: number): [number, number] {
  const groups = Math.max(1, Math.ceil(n / wg));
  if (groups <= MAX_GROUPS_PER_DIM) return [groups, 1];
  return [MAX_GROUPS_PER_DIM, Math.ceil(groups / MAX_GROUPS_PER_DIM)];
}
/** WGSL: `let i = LINEAR_INDEX(gid, nwg, WG);` for kernels dispatched with grid1d. */
export const WGSL_LINEAR_INDEX = /* wgsl */ `
fn linear_index(gid: vec3<u32>, nwg: vec3<u32>, wg: u32) -> u32 { return gid.x + gid.y * nwg.x * wg; }
`;
