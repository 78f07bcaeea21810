/** Softmax / log-softmax CPU references: gradient checks (f64), stability at ±1e4, accumulation, shapes. */
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { gradCheck, randn64, weightedSum } from '../testing/gradcheck';
import { logSoftmaxBackwardRef, softmaxBackwardRef, softmaxRef } from './softmax';

const SHAPES: [number, number][] = [
  [1, 1],
  [2, 1],
  [3, 7],
  [2, 65],
];

describe('softmax and log-softmax gradients (f64 finite differences)', () => {
  for (const logs of [false, true]) {
    for (const [N, V] of SHAPES) {
      it(`${logs ? 'logSoftmax' : 'softmax'} N=${N} V=${V}`, () => {
        const rng = new Rng(`sm ${logs} ${N} ${V}`);
        const x = randn64(rng, N * V, 2);
        const w = randn64(rng, N * V);
        const y = new Float64Array(N * V);
        const loss = (): number => {
          softmaxRef(y, x, N, V, logs);
          return weightedSum(y, w);
        };
        loss();
        const dx = new Float64Array(N * V);
        (logs ? logSoftmaxBackwardRef : softmaxBackwardRef)(dx, y.slice(), w, N, V);
        const r = gradCheck('dx', loss, x, dx);
        expect(r.ok, r.summary).toBe(true);
      });
    }
  }
});

describe('softmax on the cpu backend', () => {
  const be = new CpuBackend();

  it('is stable for logits of ±1e4 (no NaN or Inf, rows sum to 1)', async () => {
    const x = be.fromArray(Float32Array.of(1e4, -1e4, 0, 1e4 - 1, -1e4, -1e4, -1e4 + 2, 1e4), [2, 4]);
    const y = be.zeros([2, 4]);
    const ly = be.zeros([2, 4]);
    be.softmax(y, x);
    be.logSoftmax(ly, x);
    const p = await be.read(y);
    const lp = await be.read(ly);
    expect(p.every(Number.isFinite) && lp.every(Number.isFinite)).toBe(true);
    expect(p[0] + p[1] + p[2] + p[3]).toBeCloseTo(1, 6);
    expect(p[0]).toBeCloseTo(1 / (1 + Math.exp(-1)), 6);
    expect(lp[1]).toBeCloseTo(-2e4, 0);
    expect(p[7]).toBe(1);
  });

  it('backward accumulates: two calls give twice one call', async () => {
    const rng = new Rng('sm acc');
    const x = be.fromArray(Float32Array.from(randn64(rng, 12)), [3, 4]);
    const dy = be.fromArray(Float32Array.from(randn64(rng, 12)), [3, 4]);
    for (const logs of [false, true]) {
      const y = be.zeros([3, 4]);
      if (logs) be.logSoftmax(y, x);
      else be.softmax(y, x);
      const once = be.zeros([3, 4]);
      const twice = be.zeros([3, 4]);
      const bwd = (dx: typeof once): void => (logs ? be.logSoftmaxBackward(dx, y, dy) : be.softmaxBackward(dx, y, dy));
      bwd(once);
      bwd(twice);
      bwd(twice);
      expect(Array.from(await be.read(twice))).toEqual(Array.from(await be.read(once)).map((v) => 2 * v));
    }
  });

  it('names the tensor with a bad shape', () => {
    const x = be.zeros([2, 3]);
    expect(() => be.softmax(be.zeros([5]), x)).toThrow(/softmax output: expected 6 elements, got 5/);
    expect(() => be.logSoftmaxBackward(be.zeros([6]), x, be.zeros([2]))).toThrow(/logSoftmaxBackward dy/);
    expect(() => be.softmax(be.zeros([0]), be.zeros([2, 0]))).toThrow(/last dim must be >= 1/);
  });
});
