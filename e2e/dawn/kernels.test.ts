/**
 * Every GPU test (e2e/harness/gpu-tests.ts, the same list e2e/kernels.spec.ts runs in
 * Chromium) on Dawn for Node: a second WebGPU implementation and compiler, and an adapter with
 * `shader-f16` and a different subgroup size. Each report must hold; an error fails the test.
 */
import { describe, expect, it } from 'vitest';
import { GPU_TESTS } from '../harness/gpu-tests';
import { dawnEnv } from './dawn';

describe('kernels on Dawn for Node', () => {
  it('a WebGPU adapter with shader-f16 and subgroups is found (a software one counts)', async () => {
    const env = await dawnEnv();
    console.log(`${env.adapter}; device features: ${env.features.join(', ')}`);
    expect(env.features).toContain('shader-f16');
    expect(env.features).toContain('subgroups');
  });

  for (const t of GPU_TESTS) {
    it(t.name, async () => {
      const reports = await t.run(await dawnEnv());
      expect(reports.length).toBeGreaterThan(0);
      const bad = reports.filter((r) => !r.ok).map((r) => r.summary);
      expect(bad).toEqual([]);
    });
  }
});
