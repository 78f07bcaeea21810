import { describe, expect, it } from 'vitest';
import { HALF_MAX, halfBits, halfValue, isHalfRounding } from './half';

describe('half (binary16) on the host', () => {
  it('encodes known values, rounding to nearest even, clamping to ±65504', () => {
    const cases: [number, number][] = [
      [0, 0x0000],
      [-0, 0x8000],
      [1, 0x3c00],
      [-2, 0xc000],
      [0.5, 0x3800],
      [65504, 0x7bff],
      [-65504, 0xfbff],
      [1e6, 0x7bff],
      [-Infinity, 0xfbff],
      [2 ** -14, 0x0400],
      [2 ** -24, 0x0001],
      [2 ** -25, 0x0000],
      [3 * 2 ** -26, 0x0001],
      [1 + 2 ** -11, 0x3c00], // a tie: to the even mantissa
      [1 + 3 * 2 ** -11, 0x3c02], // a tie: to the even mantissa (up)
      [1 + 2 ** -11 + 2 ** -20, 0x3c01], // just above the tie
      [65519, 0x7bff],
      [0.1, 0x2e66],
      [-3.14159, 0xc248],
    ];
    for (const [x, h] of cases) expect(halfBits(x).toString(16), `halfBits(${x})`).toBe(h.toString(16));
    expect(halfBits(NaN)).toBe(0x7e00);
  });

  it('every finite half survives a round trip; decoding matches the format', () => {
    for (let h = 0; h < 0x10000; h++) {
      const v = halfValue(h);
      if (!Number.isFinite(v)) continue;
      expect(halfBits(v) === h || (v === 0 && (h & 0x7fff) === 0)).toBe(true);
    }
    expect(halfValue(0x7c00)).toBe(Infinity);
    expect(halfValue(0x7e00)).toBeNaN();
    expect(halfValue(0x7bff)).toBe(HALF_MAX);
    expect(halfValue(0x0001)).toBe(2 ** -24);
  });

  it('isHalfRounding accepts exactly the two halves around a value (one where it is a half)', () => {
    expect(isHalfRounding(0x3c00, 1)).toBe(true);
    expect(isHalfRounding(0x3c01, 1)).toBe(false);
    const x = 1 + 2 ** -12; // between 0x3c00 and 0x3c01
    expect(isHalfRounding(0x3c00, x)).toBe(true);
    expect(isHalfRounding(0x3c01, x)).toBe(true);
    expect(isHalfRounding(0x3c02, x)).toBe(false);
    expect(isHalfRounding(0xbc00, -x)).toBe(true);
    expect(isHalfRounding(0xbc01, -x)).toBe(true);
    expect(isHalfRounding(0x0000, 2 ** -26)).toBe(true); // between 0 and the smallest subnormal
    expect(isHalfRounding(0x0001, 2 ** -26)).toBe(true);
    expect(isHalfRounding(0x7bff, 1e9)).toBe(true); // clamped
  });
});
