/**
 * Node tests for bias add and its backward: known values, a finite-difference check of dBias in
 * float64, the CPU backend path, determinism and shape errors.
 */
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { gradCheck, randn64, weightedSum } from '../testing/gradcheck';
import { addBiasRef, biasBackwardRef } from './bias';

describe('bias', () => {
  it('adds the bias to every row and sums columns for the backward', () => {
    const out = new Float64Array(6);
    addBiasRef(out, Float64Array.from([1, 2, 3, 4, 5, 6]), Float64Array.from([10, 20, 30]), 2, 3);
    expect(Array.from(out)).toEqual([11, 22, 33, 14, 25, 36]);
    const dBias = Float64Array.from([1, 1, 1]);
    biasBackwardRef(dBias, Float64Array.from([1, 2, 3, 4, 5, 6]), 2, 3);
    expect(Array.from(dBias)).toEqual([6, 8, 10]); // accumulates
  });

  for (const [N, C] of [
    [1, 1],
    [5, 3],
    [70, 4],
  ]) {
    it(`dBias matches finite differences (N=${N}, C=${C})`, () => {
      const rng = new Rng(`bias ${N} ${C}`);
      const x = randn64(rng, N * C);
      const bias = randn64(rng, C);
      const w = randn64(rng, N * C);
      const loss = (): number => {
        const out = new Float64Array(N * C);
        addBiasRef(out, x, bias, N, C);
        return weightedSum(out, w);
      };
      const dBias = new Float64Array(C);
      biasBackwardRef(dBias, w, N, C);
      const r = gradCheck('dBias', loss, bias, dBias);
      expect(r.ok, r.summary).toBe(true);
      // dx = dOut: the caller adds it with addInto.
      const rx = gradCheck('dx', loss, x, w);
      expect(rx.ok, rx.summary).toBe(true);
    });
  }

  it('runs on the CPU backend, deterministically, for (B, T, C) inputs', () => {
    const run = (): Float32Array[] => {
      const be = new CpuBackend();
      const rng = new Rng('bias det');
      const x = be.fromArray(Float32Array.from(randn64(rng, 2 * 3 * 5)), [2, 3, 5]);
      const bias = be.fromArray(Float32Array.from(randn64(rng, 5)), [5]);
      const out = be.zeros([2, 3, 5]);
      be.addBias(out, x, bias);
      const dBias = be.zeros([5]);
      be.biasBackward(dBias, x);
      return [be.f32Of(out), be.f32Of(dBias)];
    };
    const [a, b] = [run(), run()];
    expect(Array.from(a[0])).toEqual(Array.from(b[0]));
    expect(Array.from(a[1])).toEqual(Array.from(b[1]));
  });

  it('names the shapes on a mismatch', () => {
    const be = new CpuBackend();
    expect(() => be.addBias(be.zeros([2, 3]), be.zeros([2, 3]), be.zeros([4]))).toThrow(
      /last dim of \[2, 3\] must equal the bias length 4/,
    );
    expect(() => be.biasBackward(be.zeros([3, 1]), be.zeros([2, 3]))).toThrow(/bias must be 1-D/);
    expect(() => be.addBias(be.zeros([2, 2]), be.zeros([2, 3]), be.zeros([3]))).toThrow(
      /addBias out: expected 6 elements/,
    );
  });
});
