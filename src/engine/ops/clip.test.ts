/**
 * Node tests for global gradient-norm clipping: the norm, the scale (torch's
 * max_norm / (norm + 1e-6)), no change below the limit, an all-zero gradient, determinism and bad
 * arguments.
 */
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { randn64 } from '../testing/gradcheck';
import { CLIP_EPS, clipGradNormRef } from './clip';

describe('clipGradNorm', () => {
  it('returns the pre-clip norm and scales by maxNorm / (norm + eps)', () => {
    const g = Float64Array.from([3, 4]);
    expect(clipGradNormRef(g, 1)).toBe(5);
    const s = 1 / (5 + CLIP_EPS);
    expect(g[0]).toBeCloseTo(3 * s, 15);
    expect(g[1]).toBeCloseTo(4 * s, 15);
    expect(Math.hypot(g[0], g[1])).toBeCloseTo(1, 6);
  });

  it('leaves a gradient under the limit unchanged, and an all-zero gradient finite', () => {
    const g = Float64Array.from([0.3, -0.4]);
    expect(clipGradNormRef(g, 1)).toBeCloseTo(0.5, 15);
    expect(Array.from(g)).toEqual([0.3, -0.4]);
    const z = new Float64Array(5);
    expect(clipGradNormRef(z, 1)).toBe(0);
    expect(Array.from(z)).toEqual([0, 0, 0, 0, 0]);
  });

  it('writes the norm to a [1] tensor on the CPU backend, deterministically', () => {
    const run = (): number[] => {
      const be = new CpuBackend();
      const rng = new Rng('clip det');
      const grad = be.fromArray(Float32Array.from(randn64(rng, 1000)), [1000]);
      const norm = be.zeros([1]);
      be.clipGradNorm(norm, grad, 2);
      return [...be.f32Of(norm), ...be.f32Of(grad)];
    };
    const [a, b] = [run(), run()];
    expect(a).toEqual(b);
    expect(a[0]).toBeGreaterThan(25); // ≈ √1000
    let ss = 0;
    for (const x of a.slice(1)) ss += x * x;
    expect(Math.sqrt(ss)).toBeCloseTo(2, 4);
  });

  it('rejects a bad norm tensor or maxNorm', () => {
    const be = new CpuBackend();
    expect(() => be.clipGradNorm(be.zeros([2]), be.zeros([4]), 1)).toThrow(/norm must hold one value/);
    expect(() => be.clipGradNorm(be.zeros([1]), be.zeros([4]), 0)).toThrow(/maxNorm must be > 0/);
  });
});
