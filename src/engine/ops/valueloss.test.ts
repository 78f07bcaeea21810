/** The value loss CPU reference: known values, clipped and masked rows, the gradient by central differences (f64). */
import { describe, expect, it } from 'vitest';
import { gradCheck } from '../testing/gradcheck';
import { VALUE_STATS, valueLossRef } from './valueloss';

describe('value loss reference', () => {
  it('clipped and unclipped rows, masked rows, and the gradient by central differences', () => {
    // value, old value, return: inside the clip range; past it away from R (the unclipped term is
    // larger: gradient flows); past it towards R (clipped: no gradient); masked; small error.
    const values = Float64Array.of(1.0, 2.0, 3.0, 3.0, 0.2);
    const oldValues = Float64Array.of(1.2, 1.0, 0.0, 3.0, 0.0);
    const returns = Float64Array.of(1.5, 0.0, 2.0, 1.0, 0.3);
    const mask = Float64Array.of(1, 1, 1, 0, 1);
    const o = { clip: 0.5, lossScale: 0.25 };
    const N = 5;
    const stats = new Float64Array(N * VALUE_STATS);
    const d = new Float64Array(N);
    valueLossRef(stats, d, values, oldValues, returns, mask, o, N);
    const want = [0.125, 0, 2, 0, 1.125, 1, 0, 0, 0.005, 0];
    want.forEach((x, i) => expect(stats[i]).toBeCloseTo(x, 12));
    expect(d[1]).toBeCloseTo(0.25 * 2, 12);
    expect(d[2]).toBe(0);
    const loss = (): number => {
      valueLossRef(stats, new Float64Array(N), values, oldValues, returns, mask, o, N);
      let L = 0;
      for (let n = 0; n < N; n++) L += mask[n] * o.lossScale * stats[n * VALUE_STATS];
      return L;
    };
    const r = gradCheck('dValues', loss, values, d);
    expect(r.ok, r.summary).toBe(true);
    const unclipped = new Float64Array(N);
    valueLossRef(stats, unclipped, values, oldValues, returns, mask, { clip: null, lossScale: 1 }, N);
    expect(unclipped[2]).toBeCloseTo(1, 12);
  });
});
