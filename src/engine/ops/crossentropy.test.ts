/** Cross-entropy CPU reference: known values, ignored rows, gradient check (f64), ±1e4 logits, accumulation, shapes. */
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { gradCheck, randn64, weightedSum } from '../testing/gradcheck';
import { crossEntropyBackwardRef, crossEntropyRef } from './crossentropy';
import { softmaxRef } from './softmax';

describe('crossEntropy reference', () => {
  it('equals −log softmax at the target; ignored rows (−1 and >= V) give 0', () => {
    const V = 4;
    const logits = Float64Array.of(0, 0, 0, 0, 1, 2, 3, 4, 5, 5, 5, 5, 1, 2, 3, 4);
    const targets = Int32Array.of(2, 3, -1, V);
    const losses = new Float64Array(4).fill(99);
    crossEntropyRef(losses, logits, targets, 4, V);
    const lp = new Float64Array(16);
    softmaxRef(lp, logits, 4, V, true);
    expect(losses[0]).toBeCloseTo(Math.log(4), 12);
    expect(losses[1]).toBeCloseTo(-lp[4 + 3], 12);
    expect(losses[2]).toBe(0);
    expect(losses[3]).toBe(0);
  });

  for (const [N, V] of [
    [1, 1],
    [5, 7],
    [3, 70],
  ] as const) {
    it(`gradient matches central differences, N=${N} V=${V}, with ignored rows`, () => {
      const rng = new Rng(`ce ${N} ${V}`);
      const logits = randn64(rng, N * V, 2);
      const targets = Int32Array.from({ length: N }, (_, n) => (n === 1 ? -1 : n === 3 ? V : rng.int(0, V - 1)));
      const w = randn64(rng, N); // = dLosses
      const losses = new Float64Array(N);
      const loss = (): number => {
        crossEntropyRef(losses, logits, targets, N, V);
        return weightedSum(losses, w);
      };
      const d = new Float64Array(N * V);
      crossEntropyBackwardRef(d, logits, targets, w, N, V);
      const r = gradCheck('dLogits', loss, logits, d);
      expect(r.ok, r.summary).toBe(true);
      for (const n of [1, 3]) if (n < N) expect(d.subarray(n * V, (n + 1) * V).every((v) => v === 0)).toBe(true);
    });
  }
});

describe('crossEntropy on the cpu backend', () => {
  const be = new CpuBackend();

  it('is stable for logits of ±1e4', async () => {
    const logits = be.fromArray(Float32Array.of(1e4, -1e4, 0, 1e4, -1e4, 0, -1e4, 1e4, 1e4), [3, 3]);
    const targets = be.fromArray(Int32Array.of(0, 1, 2), [3]);
    const losses = be.zeros([3]);
    be.crossEntropy(losses, logits, targets);
    const l = await be.read(losses);
    expect(l[0]).toBeCloseTo(0, 6);
    expect(l[1]).toBeCloseTo(2e4, 0);
    expect(l[2]).toBeCloseTo(Math.log(2), 6);
    const d = be.zeros([3, 3]);
    be.crossEntropyBackward(d, logits, targets, be.fromArray(Float32Array.of(1, 1, 1), [3]));
    const g = await be.read(d);
    expect(g.every(Number.isFinite)).toBe(true);
    expect(g[4]).toBeCloseTo(-1, 6); // p ≈ 0 at the target: −1
    expect(g[7]).toBeCloseTo(0.5, 6);
  });

  it('backward accumulates: two calls give twice one call', async () => {
    const rng = new Rng('ce acc');
    const logits = be.fromArray(Float32Array.from(randn64(rng, 15)), [3, 5]);
    const targets = be.fromArray(Int32Array.of(4, -1, 0), [3]);
    const dl = be.fromArray(Float32Array.of(0.5, 2, -1), [3]);
    const once = be.zeros([3, 5]);
    const twice = be.zeros([3, 5]);
    be.crossEntropyBackward(once, logits, targets, dl);
    be.crossEntropyBackward(twice, logits, targets, dl);
    be.crossEntropyBackward(twice, logits, targets, dl);
    expect(Array.from(await be.read(twice))).toEqual(Array.from(await be.read(once)).map((v) => 2 * v));
  });

  it('names the tensor with a bad shape or dtype', () => {
    const logits = be.zeros([3, 5]);
    expect(() => be.crossEntropy(be.zeros([3]), logits, be.zeros([3]))).toThrow(/targets must be i32/);
    expect(() => be.crossEntropy(be.zeros([3]), logits, be.zeros([2], 'i32'))).toThrow(
      /crossEntropy targets.*expected 3 elements, got 2/,
    );
    expect(() => be.crossEntropyBackward(be.zeros([14]), logits, be.zeros([3], 'i32'), be.zeros([3]))).toThrow(
      /dLogits/,
    );
  });
});
