/**
 * Node tests for the embedding gather and its scatter-add backward: known values, out-of-range
 * ids, a finite-difference check of dTable in float64 with repeated and out-of-range ids,
 * determinism and shape errors.
 */
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { gradCheck, randn64, weightedSum } from '../testing/gradcheck';
import { embeddingBackwardRef, embeddingRef } from './embedding';

describe('embedding', () => {
  it('gathers rows and gives zero rows for out-of-range ids', () => {
    const table = Float64Array.from([1, 2, 3, 4, 5, 6]); // (V=3, C=2)
    const out = new Float64Array(10).fill(9);
    embeddingRef(out, table, Int32Array.from([2, 0, -1, 3, 2]), 3, 2);
    expect(Array.from(out)).toEqual([5, 6, 1, 2, 0, 0, 0, 0, 5, 6]);
  });

  it('backward adds repeated ids in position order and skips out-of-range ids', () => {
    const dTable = new Float64Array(6).fill(1);
    const dOut = Float64Array.from([1, 2, 10, 20, 100, 200, 1000, 2000]);
    embeddingBackwardRef(dTable, dOut, Int32Array.from([1, 7, 1, -3]), 3, 2);
    expect(Array.from(dTable)).toEqual([1, 1, 102, 203, 1, 1]);
  });

  it('dTable matches finite differences (repeated and out-of-range ids)', () => {
    const [V, C] = [5, 3];
    const ids = Int32Array.from([0, 3, 3, -1, 4, 5, 3, 0, 99]);
    const rng = new Rng('embedding fd');
    const table = randn64(rng, V * C);
    const w = randn64(rng, ids.length * C);
    const loss = (): number => {
      const out = new Float64Array(ids.length * C);
      embeddingRef(out, table, ids, V, C);
      return weightedSum(out, w);
    };
    const dTable = new Float64Array(V * C);
    embeddingBackwardRef(dTable, w, ids, V, C);
    const r = gradCheck('dTable', loss, table, dTable);
    expect(r.ok, r.summary).toBe(true);
    expect(Array.from(dTable.slice(1 * C, 2 * C))).toEqual([0, 0, 0]); // id 1 never used
  });

  it('runs on the CPU backend deterministically', () => {
    const run = (): number[] => {
      const be = new CpuBackend();
      const rng = new Rng('embedding det');
      const table = be.fromArray(Float32Array.from(randn64(rng, 7 * 4)), [7, 4]);
      const ids = be.fromArray(Int32Array.from([6, 0, 6, 6, 2, 8, -1]), [7]);
      const out = be.zeros([7, 4]);
      be.embedding(out, table, ids);
      const dTable = be.zeros([7, 4]);
      be.embeddingBackward(dTable, out, ids);
      return [...be.f32Of(out), ...be.f32Of(dTable)];
    };
    expect(run()).toEqual(run());
  });

  it('names the shapes on a mismatch', () => {
    const be = new CpuBackend();
    const ids = be.fromArray(Int32Array.from([0, 1]), [2]);
    expect(() => be.embedding(be.zeros([2, 3]), be.zeros([4, 2]), ids)).toThrow(
      /expected \(2, 2\) rows for 2 ids and table \[4, 2\]/,
    );
    expect(() => be.embedding(be.zeros([2, 2]), be.zeros([8]), ids)).toThrow(/table must be 2-D/);
    expect(() => be.embedding(be.zeros([2, 2]), be.zeros([4, 2]), be.zeros([2]))).toThrow(/ids must be i32/);
  });
});
