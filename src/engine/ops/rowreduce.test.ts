/** Row-reduction WGSL plumbing: the subgroup rewrite of a row kernel, and its guards (pure string checks). */
import { describe, expect, it } from 'vitest';
import type { Kernel } from '../gpu/kernel';
import { ROW_WG, rowGrid, rowKernel, wgslRowReduce } from './rowreduce';

const ROW: Kernel = {
  name: 'test_row',
  code: `${wgslRowReduce()}
@compute @workgroup_size(${ROW_WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let s = wg_sum(1.0, lid);
}`,
};

describe('rowKernel', () => {
  it('leaves the workgroup kernel as written', () => {
    expect(rowKernel(ROW, 'workgroup')).toBe(ROW);
  });

  it('builds a subgroup kernel: extension first, subgroup reductions, lane recorded', () => {
    const k = rowKernel(ROW, 'subgroup');
    expect(k.name).toBe('test_row_sg');
    expect(k.code.startsWith('enable subgroups;\n')).toBe(true);
    expect(k.code).toContain('subgroupAdd(v)');
    expect(k.code).toContain('subgroupMax(v)');
    expect(k.code).toContain('@builtin(subgroup_invocation_id) sgi: u32) {\n  sg_lane = sgi;');
    expect(k.code).not.toContain('for (var s = ');
    expect(rowKernel(ROW, 'subgroup')).toBe(k); // cached
  });

  it('builds a thread kernel: one row per invocation, lid 0, unit stride, no workgroup memory or barrier', () => {
    const k = rowKernel(ROW, 'thread');
    expect(k.name).toBe('test_row_thread');
    expect(k.code).toContain('const ROW_STRIDE = 1u;');
    expect(k.code).toContain(`return (wid.x + wid.y * nwg.x) * ${ROW_WG}u + row_thread;`);
    expect(k.code).toContain(
      '@builtin(local_invocation_index) row_inv: u32) {\n  row_thread = row_inv;\n  let lid = 0u;',
    );
    expect(k.code).toContain('fn wg_sum(v: f32, lid: u32) -> f32 { return v; }');
    expect(k.code).not.toMatch(/Barrier|var<workgroup>/);
    expect(rowKernel(ROW, 'workgroup').code).toMatch(/workgroupBarrier/);
  });

  it('dispatches a workgroup per row, or one per ROW_WG rows in thread mode', () => {
    expect(rowGrid('workgroup', 130)).toEqual([130, 1]);
    expect(rowGrid('subgroup', 130)).toEqual([130, 1]);
    expect(rowGrid('thread', 130)).toEqual([Math.ceil(130 / ROW_WG), 1]);
    expect(rowGrid('thread', 1)).toEqual([1, 1]);
  });

  it('refuses kernels that are not row kernels, and workgroup sizes that are not powers of two', () => {
    expect(() => rowKernel({ name: 'plain', code: '@compute fn main() {}' }, 'subgroup')).toThrow(/not a row kernel/);
    expect(() => wgslRowReduce(48)).toThrow(/power of two/);
  });
});
