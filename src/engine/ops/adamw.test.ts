/**
 * Node tests for AdamW: the first two steps against values worked out by hand from
 * torch.optim.AdamW's update rule, the bias correction, decoupled weight decay (a zero gradient
 * still decays), determinism and bad options.
 */
import { describe, expect, it } from 'vitest';
import type { AdamWOptions } from '../backend';
import { CpuBackend } from '../cpu/backend';
import { adamwRef, countNonFiniteRef } from './adamw';

const OPTS: AdamWOptions = { lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, step: 1 };

describe('adamw', () => {
  it('step 1: m̂ = g and v̂ = g², so the update is lr·g/(|g|+ε) after the decay', () => {
    const p = Float64Array.from([1, -2]);
    const g = Float64Array.from([0.5, -0.25]);
    const m = new Float64Array(2);
    const v = new Float64Array(2);
    adamwRef(p, g, m, v, OPTS);
    // p = 1·(1 − 0.1·0.01) − 0.1·0.5/(0.5 + 1e-8)
    expect(p[0]).toBeCloseTo(0.999 - (0.1 * 0.5) / (0.5 + 1e-8), 14);
    expect(p[1]).toBeCloseTo(-2 * 0.999 + (0.1 * 0.25) / (0.25 + 1e-8), 14);
    expect(m[0]).toBeCloseTo(0.05, 15); // (1 − β₁)·g
    expect(v[0]).toBeCloseTo(0.001 * 0.25, 15); // (1 − β₂)·g²
  });

  it('step 2 follows the torch formula with bias correction', () => {
    const p = Float64Array.from([1]);
    const m = new Float64Array(1);
    const v = new Float64Array(1);
    adamwRef(p, Float64Array.from([0.5]), m, v, OPTS);
    const p1 = p[0];
    adamwRef(p, Float64Array.from([-1]), m, v, { ...OPTS, step: 2 });
    const m2 = 0.9 * 0.05 + 0.1 * -1; // −0.055
    const v2 = 0.999 * 0.00025 + 0.001 * 1; // 0.00124975
    const mHat = m2 / (1 - 0.9 ** 2);
    const vHat = v2 / (1 - 0.999 ** 2);
    const want = p1 * (1 - 0.1 * 0.01) - (0.1 * mHat) / (Math.sqrt(vHat) + 1e-8);
    expect(m[0]).toBeCloseTo(m2, 15);
    expect(v[0]).toBeCloseTo(v2, 15);
    expect(p[0]).toBeCloseTo(want, 12);
    // By hand: p₁ = 0.899000002; m̂ = −0.055/0.19 = −0.2894737; v̂ = 0.00124975/0.001999 = 0.6251876;
    // p₂ = 0.899000002·0.999 + 0.1·0.2894737/(0.7906881 + 1e-8) = 0.8981010 + 0.0366103 = 0.9347114.
    expect(p[0]).toBeCloseTo(0.9347114, 6);
  });

  it('a zero gradient still decays the weights (decoupled weight decay)', () => {
    const p = Float64Array.from([2]);
    adamwRef(p, Float64Array.from([0]), new Float64Array(1), new Float64Array(1), {
      ...OPTS,
      lr: 0.5,
      weightDecay: 0.2,
    });
    expect(p[0]).toBeCloseTo(2 * (1 - 0.5 * 0.2), 15);
  });

  it('runs on the CPU backend deterministically', () => {
    const run = (): number[] => {
      const be = new CpuBackend();
      const p = be.fromArray(Float32Array.from([1, 2, 3]), [3]);
      const g = be.fromArray(Float32Array.from([0.1, -0.2, 0.3]), [3]);
      const m = be.zeros([3]);
      const v = be.zeros([3]);
      for (let step = 1; step <= 3; step++) be.adamw(p, g, m, v, { ...OPTS, step });
      return [...be.f32Of(p), ...be.f32Of(m), ...be.f32Of(v)];
    };
    expect(run()).toEqual(run());
  });

  it('rejects bad options and mismatched sizes', () => {
    const be = new CpuBackend();
    const t = () => be.zeros([2]);
    expect(() => be.adamw(t(), t(), t(), t(), { ...OPTS, step: 0 })).toThrow(/step must be an integer >= 1/);
    expect(() => be.adamw(t(), t(), t(), t(), { ...OPTS, beta2: 1 })).toThrow(/beta2 must be in \[0, 1\)/);
    expect(() => be.adamw(t(), be.zeros([3]), t(), t(), OPTS)).toThrow(/adamw grad: expected 2 elements/);
  });

  it('flagNonFinite counts NaN and ±∞ (not the largest finite values) and accumulates into the flag', () => {
    const be = new CpuBackend();
    expect(countNonFiniteRef(Float32Array.from([1, NaN, -Infinity, 3.4e38, -0, Infinity]))).toBe(3);
    const flag = be.fromArray(Float32Array.from([2]), [1]);
    be.flagNonFinite(flag, be.fromArray(Float32Array.from([0, NaN, 5]), [3]));
    be.flagNonFinite(flag, be.zeros([0]));
    be.flagNonFinite(flag, be.fromArray(Float32Array.from([-3.4028234663852886e38, 1e-45]), [2]));
    expect(be.f32Of(flag)[0]).toBe(3);
    expect(() => be.flagNonFinite(be.zeros([2]), be.zeros([3]))).toThrow(/flagNonFinite flag: expected one f32 value/);
    expect(() => be.flagNonFinite(be.zeros([1]), be.zeros([3], 'i32'))).toThrow(/x must be f32/);
  });

  it('skipIf: a flag of 0 changes nothing about the step, any other value skips it entirely', () => {
    const run = (flag: number | null): number[] => {
      const be = new CpuBackend();
      const p = be.fromArray(Float32Array.from([1, 2, 3]), [3]);
      const g = be.fromArray(Float32Array.from([0.1, -0.2, 0.3]), [3]);
      const m = be.fromArray(Float32Array.from([0.01, 0, -0.01]), [3]);
      const v = be.fromArray(Float32Array.from([0.001, 0.002, 0]), [3]);
      be.adamw(p, g, m, v, {
        ...OPTS,
        step: 2,
        ...(flag === null ? {} : { skipIf: be.fromArray(Float32Array.from([flag]), [1]) }),
      });
      return [...be.f32Of(p), ...be.f32Of(m), ...be.f32Of(v)];
    };
    expect(run(0)).toEqual(run(null));
    expect(run(null)).not.toEqual([1, 2, 3, 0.01, 0, -0.01, 0.001, 0.002, 0].map(Math.fround));
    expect(run(1)).toEqual([1, 2, 3, 0.01, 0, -0.01, 0.001, 0.002, 0].map(Math.fround));
    expect(run(7)).toEqual(run(1));
    const be = new CpuBackend();
    expect(() =>
      be.adamw(be.zeros([2]), be.zeros([2]), be.zeros([2]), be.zeros([2]), { ...OPTS, skipIf: be.zeros([2]) }),
    ).toThrow(/adamw skipIf: expected one f32 value/);
  });
});
