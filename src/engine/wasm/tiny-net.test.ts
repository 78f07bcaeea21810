/** The tiny two-layer network trained on the wasm backend: the CPU backend's losses to 1e-4 relative, the same bits on 1 and 4 threads. */
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { trainTinyNet } from '../testing/tiny-net';
import { wasmBackends } from './testing/same';

describe('tiny two-layer network on the wasm backend', () => {
  it("trains to the CPU backend's losses and gradient norms, to 1e-4 relative", async () => {
    const { many } = await wasmBackends();
    const want = await trainTinyNet(new CpuBackend());
    const got = await trainTinyNet(many);
    expect(got.losses.length).toBe(want.losses.length);
    got.losses.forEach((l, i) =>
      expect(Math.abs(l - want.losses[i])).toBeLessThanOrEqual(1e-4 * Math.abs(want.losses[i])),
    );
    got.gradNorms.forEach((g, i) =>
      expect(Math.abs(g - want.gradNorms[i])).toBeLessThanOrEqual(1e-4 * Math.abs(want.gradNorms[i])),
    );
  });

  it('gives the same bits on 1 thread and on 4', async () => {
    const { one, many } = await wasmBackends();
    const [a, b] = [await trainTinyNet(one), await trainTinyNet(many)];
    expect(b.losses).toEqual(a.losses);
    expect(b.gradNorms).toEqual(a.gradNorms);
  });
});
