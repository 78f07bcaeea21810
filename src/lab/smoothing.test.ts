import { afterEach, describe, expect, it, vi } from 'vitest';
import { clampSmoothing, emaSmooth, formatValue, plotColumns, tableRows, throttle, toColumns } from './smoothing';

function close(actual: (number | null)[], expected: (number | null)[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((a, i) => {
    if (expected[i] === null) expect(a).toBeNull();
    else expect(a).toBeCloseTo(expected[i]!, 10);
  });
}

describe('emaSmooth (debiased, as TensorBoard)', () => {
  it('matches hand-computed values', () => {
    // w = 0.5: ema 0.5, 1.25, 2.125; debias by 1 - 0.5^t = 0.5, 0.75, 0.875
    close(emaSmooth([1, 2, 3], 0.5), [1, 5 / 3, 17 / 7]);
    // w = 0.9: ema 0, 1; debias 0.1, 0.19
    close(emaSmooth([0, 10], 0.9), [0, 1 / 0.19]);
    // w = 0.6: ema 0.4, 1.04; debias 0.4, 0.64
    close(emaSmooth([1, 2], 0.6), [1, 1.625]);
  });

  it('starts at the first value (the debiasing), not near zero', () => {
    expect(emaSmooth([100, 100.5], 0.99)[0]).toBe(100);
  });

  it('skips missing and non-finite points without breaking the average', () => {
    close(emaSmooth([1, NaN, 2, undefined, null, 3, Infinity], 0.5), [1, null, 5 / 3, null, null, 17 / 7, null]);
    close(emaSmooth([undefined, 1, 2], 0.5), [null, 1, 5 / 3]);
  });

  it('weight 0 and a constant series come back unchanged', () => {
    expect(emaSmooth([3, 1, 4, 1, 5], 0)).toEqual([3, 1, 4, 1, 5]);
    expect(emaSmooth([0.1, 0.1, NaN, 0.1], 0.9)).toEqual([0.1, 0.1, null, 0.1]);
  });

  it('clamps the weight to [0, 0.99]', () => {
    expect(clampSmoothing(-1)).toBe(0);
    expect(clampSmoothing(1)).toBe(0.99);
    expect(clampSmoothing(NaN)).toBe(0);
    expect(clampSmoothing(0.6)).toBe(0.6);
    close(emaSmooth([1, 2], 5), emaSmooth([1, 2], 0.99));
  });

  it('handles an empty series', () => {
    expect(emaSmooth([], 0.5)).toEqual([]);
  });
});

describe('toColumns', () => {
  it('aligns series on the union of their x values, null where a series has no point', () => {
    const cols = toColumns(
      [
        {
          label: 'a',
          points: [
            [1, 1],
            [2, 2],
            [3, 3],
          ],
        },
        {
          label: 'b',
          points: [
            [2, 10],
            [4, 20],
          ],
        },
      ],
      0,
    );
    expect(cols.xs).toEqual([1, 2, 3, 4]);
    expect(cols.raw).toEqual([
      [1, 2, 3, null],
      [null, 10, null, 20],
    ]);
    expect(cols.smoothed).toEqual(cols.raw);
  });

  it('sorts each series by x, keeps the last of a repeated x, drops non-finite x', () => {
    const cols = toColumns(
      [
        {
          label: 'a',
          points: [
            [3, 3],
            [1, 1],
            [2, 5],
            [2, 2],
            [NaN, 9],
          ],
        },
      ],
      0.5,
    );
    expect(cols.xs).toEqual([1, 2, 3]);
    expect(cols.raw[0]).toEqual([1, 2, 3]);
    close(cols.smoothed[0], [1, 5 / 3, 17 / 7]);
  });

  it('smooths each series over its own points, not over gaps of the shared x', () => {
    const cols = toColumns(
      [
        {
          label: 'a',
          points: [
            [1, 1],
            [3, 2],
            [5, 3],
          ],
        },
        {
          label: 'b',
          points: [
            [2, 0],
            [4, 0],
          ],
        },
      ],
      0.5,
    );
    close(cols.smoothed[0], [1, null, 5 / 3, null, 17 / 7]);
  });

  it('on a log scale, drops values a log axis cannot place (after smoothing)', () => {
    const cols = toColumns(
      [
        {
          label: 'kl',
          points: [
            [1, 0],
            [2, 1],
            [3, -1],
            [4, 0.5],
          ],
        },
      ],
      0.5,
      true,
    );
    expect(cols.raw[0]).toEqual([null, 1, null, 0.5]);
    // w = 0.5: ema 0, 0.5, -0.25, 0.125; debiased 0, 2/3, -2/7, 2/15; the non-positive ones dropped
    close(cols.smoothed[0], [null, 2 / 3, null, 2 / 15]);
  });

  it('gives empty columns for no series or no points', () => {
    expect(toColumns([], 0.5)).toEqual({ xs: [], raw: [], smoothed: [] });
    expect(toColumns([{ label: 'a', points: [] }], 0.5)).toEqual({ xs: [], raw: [[]], smoothed: [[]] });
  });
});

describe('plotColumns', () => {
  it('puts x first, then each series raw and (when smoothing) smoothed, in series order', () => {
    const cols = toColumns(
      [
        {
          label: 'a',
          points: [
            [1, 1],
            [2, 2],
          ],
        },
        { label: 'b', points: [[2, 4]] },
      ],
      0.5,
    );
    expect(plotColumns(cols, false)).toEqual([
      [1, 2],
      [1, 2],
      [null, 4],
    ]);
    const withSmoothed = plotColumns(cols, true);
    expect(withSmoothed).toHaveLength(5);
    expect(withSmoothed[0]).toEqual([1, 2]);
    expect(withSmoothed[1]).toEqual([1, 2]);
    close(withSmoothed[2], [1, 5 / 3]);
    expect(withSmoothed[3]).toEqual([null, 4]);
    expect(withSmoothed[4]).toEqual([null, 4]);
  });
});

describe('tableRows', () => {
  it('keeps the latest rows that have a value, oldest first', () => {
    const cols = toColumns(
      [
        {
          label: 'a',
          points: [
            [1, 1],
            [2, NaN],
            [3, 3],
            [4, 4],
          ],
        },
        { label: 'b', points: [[4, 8]] },
      ],
      0,
    );
    expect(tableRows(cols, 2)).toEqual([
      {
        x: 3,
        values: [
          { raw: 3, smoothed: 3 },
          { raw: null, smoothed: null },
        ],
      },
      {
        x: 4,
        values: [
          { raw: 4, smoothed: 4 },
          { raw: 8, smoothed: 8 },
        ],
      },
    ]);
    expect(tableRows(cols, 10).map((r) => r.x)).toEqual([1, 3, 4]);
  });
});

describe('formatValue', () => {
  it('prints 4 significant digits, exponents for tiny and huge, a dash for none', () => {
    expect(formatValue(0.123456)).toBe('0.1235');
    expect(formatValue(12345.6)).toBe('12350');
    expect(formatValue(0)).toBe('0');
    expect(formatValue(0.0001234)).toBe('1.23e-4');
    expect(formatValue(null)).toBe('–');
    expect(formatValue(NaN)).toBe('–');
    expect(formatValue(-Infinity)).toBe('−∞');
  });
});

describe('throttle', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at once when idle, then at most once per interval with the latest arguments', () => {
    vi.useFakeTimers();
    const calls: number[] = [];
    const t = throttle((n: number) => calls.push(n), 100);
    t(1);
    expect(calls).toEqual([1]);
    for (let n = 2; n <= 20; n++) {
      vi.advanceTimersByTime(5);
      t(n);
    }
    expect(calls).toEqual([1]); // 95 ms of calls so far, all held back
    vi.advanceTimersByTime(5);
    expect(calls).toEqual([1, 20]); // one trailing call at 100 ms, with the latest argument
    vi.advanceTimersByTime(10);
    t(21);
    t(22);
    expect(calls).toEqual([1, 20]);
    vi.advanceTimersByTime(100);
    expect(calls).toEqual([1, 20, 22]);
    vi.advanceTimersByTime(500);
    t(23);
    expect(calls).toEqual([1, 20, 22, 23]);
  });

  it('cancel drops the pending call', () => {
    vi.useFakeTimers();
    const calls: number[] = [];
    const t = throttle((n: number) => calls.push(n), 100);
    t(1);
    t(2);
    t.cancel();
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual([1]);
  });
});
