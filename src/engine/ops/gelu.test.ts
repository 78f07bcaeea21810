/** GELU CPU reference: known values, finite-difference gradient check (f64), accumulation, shapes. */
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { gradCheck, randn64, weightedSum } from '../testing/gradcheck';
import { geluBackwardRef, geluRef } from './gelu';

describe('gelu (tanh approximation)', () => {
  it('matches known values and stays finite for huge |x|', () => {
    const x = Float64Array.of(0, 1, -1, 1e4, -1e4);
    const y = new Float64Array(5);
    geluRef(y, x);
    expect(y[0]).toBe(0);
    expect(y[1]).toBeCloseTo(0.841192, 5); // GPT-2 gelu(1)
    expect(y[2]).toBeCloseTo(-0.158808, 5);
    expect(y[3]).toBe(1e4);
    expect(y[4]).toBeCloseTo(0, 10);
  });

  for (const n of [1, 7, 64]) {
    it(`gradient matches central differences, n=${n}`, () => {
      const rng = new Rng(`gelu ${n}`);
      const x = randn64(rng, n, 2);
      const w = randn64(rng, n);
      const y = new Float64Array(n);
      const loss = (): number => {
        geluRef(y, x);
        return weightedSum(y, w);
      };
      const dx = new Float64Array(n);
      geluBackwardRef(dx, x, w);
      const r = gradCheck('gelu dx', loss, x, dx);
      expect(r.ok, r.summary).toBe(true);
    });
  }

  it('backward accumulates and checks sizes', async () => {
    const be = new CpuBackend();
    const x = be.fromArray(Float32Array.of(-2, 0.5, 3), [3]);
    const dOut = be.fromArray(Float32Array.of(1, -1, 2), [3]);
    const once = be.zeros([3]);
    const twice = be.zeros([3]);
    be.geluBackward(once, x, dOut);
    be.geluBackward(twice, x, dOut);
    be.geluBackward(twice, x, dOut);
    expect(Array.from(await be.read(twice))).toEqual(Array.from(await be.read(once)).map((v) => 2 * v));
    expect(() => be.gelu(be.zeros([2]), x)).toThrow(/gelu out: expected 3 elements, got 2/);
    expect(() => be.geluBackward(once, x, be.zeros([4]))).toThrow(/geluBackward dOut/);
  });
});
