/** LayerNorm CPU reference: finite-difference gradient checks (f64), accumulation, shape errors. */
import { describe, expect, it } from 'vitest';
import type { Tensor } from '../backend';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { compare, F32_TOL } from '../testing/compare';
import { gradCheck, randn64, weightedSum } from '../testing/gradcheck';
import { layerNormBackwardRef, layerNormRef } from './layernorm';

const EPS = 1e-5;

// Shapes (N, C): C = 1 (zero variance), primes, one wider row.
const SHAPES: [number, number][] = [
  [1, 1],
  [3, 1],
  [2, 2],
  [3, 7],
  [5, 13],
  [2, 64],
];

describe('layerNorm gradients (f64 finite differences)', () => {
  for (const [N, C] of SHAPES) {
    it(`N=${N} C=${C}: dx, dWeight, dBias`, () => {
      const rng = new Rng(`ln ${N} ${C}`);
      const x = randn64(rng, N * C);
      const w = randn64(rng, C);
      const b = randn64(rng, C);
      const wOut = randn64(rng, N * C); // the loss weights, = dOut
      const out = new Float64Array(N * C);
      const mean = new Float64Array(N);
      const rstd = new Float64Array(N);
      const loss = (): number => {
        layerNormRef(out, mean, rstd, x, w, b, N, C, EPS);
        return weightedSum(out, wOut);
      };
      loss();
      const dx = new Float64Array(N * C);
      const dw = new Float64Array(C);
      const db = new Float64Array(C);
      layerNormBackwardRef(dx, dw, db, wOut, x, mean.slice(), rstd.slice(), w, N, C);
      for (const [label, v, g] of [
        ['dx', x, dx],
        ['dWeight', w, dw],
        ['dBias', b, db],
      ] as const) {
        const r = gradCheck(label, loss, v, g);
        expect(r.ok, r.summary).toBe(true);
      }
    });
  }

  it('C=1 normalises to the bias (zero variance) and gives dx = 0', () => {
    const out = new Float64Array(2);
    const mean = new Float64Array(2);
    const rstd = new Float64Array(2);
    layerNormRef(out, mean, rstd, Float64Array.of(3, -7), Float64Array.of(2), Float64Array.of(0.5), 2, 1, EPS);
    expect(Array.from(out)).toEqual([0.5, 0.5]);
    expect(rstd[0]).toBeCloseTo(1 / Math.sqrt(EPS), 6);
  });
});

describe('layerNorm on the cpu backend', () => {
  const be = new CpuBackend();
  const rng = new Rng('ln backend');
  const N = 4;
  const C = 5;
  const f = (n: number): Float32Array => Float32Array.from(randn64(rng, n));
  const x = be.fromArray(f(N * C), [N, C]);
  const w = be.fromArray(f(C), [C]);
  const b = be.fromArray(f(C), [C]);
  const dOut = be.fromArray(f(N * C), [N, C]);

  it('forward matches torch semantics: per-row mean 0, biased variance 1 before the affine', async () => {
    const out = be.zeros([N, C]);
    const mean = be.zeros([N]);
    const rstd = be.zeros([N]);
    be.layerNorm(out, mean, rstd, x, be.fromArray(new Float32Array(C).fill(1), [C]), be.zeros([C]));
    const y = await be.read(out);
    for (let n = 0; n < N; n++) {
      const row = y.subarray(n * C, (n + 1) * C);
      const m = row.reduce((s, v) => s + v, 0) / C;
      const v = row.reduce((s, u) => s + (u - m) ** 2, 0) / C;
      expect(m).toBeCloseTo(0, 5);
      expect(v).toBeCloseTo(1, 3);
    }
  });

  it('backward accumulates: two calls give twice one call', async () => {
    const out = be.zeros([N, C]);
    const mean = be.zeros([N]);
    const rstd = be.zeros([N]);
    be.layerNorm(out, mean, rstd, x, w, b);
    const grads = (): Tensor[] => [be.zeros([N, C]), be.zeros([C]), be.zeros([C])];
    const once = grads();
    const twice = grads();
    be.layerNormBackward(once[0], once[1], once[2], dOut, x, mean, rstd, w);
    for (let k = 0; k < 2; k++) be.layerNormBackward(twice[0], twice[1], twice[2], dOut, x, mean, rstd, w);
    for (let i = 0; i < 3; i++) {
      const doubled = (await be.read(once[i])).map((v) => 2 * v);
      const r = compare(`grad ${i}`, await be.read(twice[i]), doubled, F32_TOL);
      expect(r.ok, r.summary).toBe(true);
    }
  });

  it('names the tensor with a bad shape', () => {
    const out = be.zeros([N, C]);
    expect(() => be.layerNorm(out, be.zeros([N]), be.zeros([N]), x, be.zeros([C + 1]), b)).toThrow(
      /layerNorm weight.*expected 5 elements, got 6/,
    );
    expect(() => be.layerNorm(out, be.zeros([N - 1]), be.zeros([N]), x, w, b)).toThrow(/layerNorm mean/);
    expect(() =>
      be.layerNormBackward(be.zeros([N, C]), be.zeros([C]), be.zeros([2]), dOut, x, be.zeros([N]), be.zeros([N]), w),
    ).toThrow(/dBias/);
  });
});
