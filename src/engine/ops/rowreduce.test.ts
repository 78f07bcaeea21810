/** Row-reduction WGSL plumbing: the subgroup rewrite of a row kernel, and its guards (pure string checks). */
import { describe, expect, it } from 'vitest';
import type { Kernel } from '../gpu/kernel';
import { ROW_WG, rowKernel, wgslRowReduce } from './rowreduce';

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

  it('refuses kernels that are not row kernels, and workgroup sizes that are not powers of two', () => {
    expect(() => rowKernel({ name: 'plain', code: '@compute fn main() {}' }, 'subgroup')).toThrow(/not a row kernel/);
    expect(() => wgslRowReduce(48)).toThrow(/power of two/);
  });
});
