import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { TINY_NET, trainTinyNet } from './tiny-net';

describe('tiny two-layer network on the CPU backend', () => {
  it('learns: the loss falls over a few steps', async () => {
    const { losses } = await trainTinyNet(new CpuBackend(), { ...TINY_NET, steps: 30 });
    expect(losses.every(Number.isFinite)).toBe(true);
    expect(losses[29]).toBeLessThan(losses[0] * 0.5);
  });

  it('is deterministic: the same seed gives bit-identical losses', async () => {
    const a = await trainTinyNet(new CpuBackend());
    const b = await trainTinyNet(new CpuBackend());
    expect(b.losses).toEqual(a.losses);
    expect(b.gradNorms).toEqual(a.gradNorms);
  });

  it('clips: the first gradient norms exceed maxNorm and training still moves', async () => {
    const { gradNorms } = await trainTinyNet(new CpuBackend(), { ...TINY_NET, maxNorm: 0.1 });
    expect(gradNorms[0]).toBeGreaterThan(0.1);
  });
});
