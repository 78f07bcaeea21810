/**
 * GPU tests for layernorm: forward (out, mean, rstd) and backward (dx, dWeight, dBias accumulated
 * onto non-zero gradients) against the CPU reference, on awkward shapes: C = 1, primes, C around
 * and above the row workgroup (64), N above COL_CHUNK_ROWS (the two-pass column sums). Plus
 * bit-identical repeats.
 */
import type { Backend, Tensor } from '../backend';
import { Rng } from '../rng';
import { randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { eachRowReduceMode, sameTwiceOnGpu } from '../testing/twice';
import { COL_CHUNK_ROWS } from './layernorm';

// (N, C)
const SHAPES: [number, number][] = [
  [1, 1],
  [3, 1],
  [7, 13],
  [5, 63],
  [2, 65],
  [3, 127],
  [1, 300],
  [COL_CHUNK_ROWS, 3],
  [131, 5],
];

function build(N: number, C: number, seed: string): (be: Backend) => Tensor[] {
  const rng = new Rng(seed);
  const x = randn(rng, N * C, 2);
  const w = randn(rng, C);
  const b = randn(rng, C);
  const dOut = randn(rng, N * C);
  const dx0 = randn(rng, N * C); // gradients start non-zero: backward must add
  const dw0 = randn(rng, C);
  const db0 = randn(rng, C);
  return (be) => {
    const tx = be.fromArray(x, [N, C]);
    const tw = be.fromArray(w, [C]);
    const out = be.zeros([N, C]);
    const mean = be.zeros([N]);
    const rstd = be.zeros([N]);
    be.layerNorm(out, mean, rstd, tx, tw, be.fromArray(b, [C]));
    const dx = be.fromArray(dx0, [N, C]);
    const dw = be.fromArray(dw0, [C]);
    const db = be.fromArray(db0, [C]);
    be.layerNormBackward(dx, dw, db, be.fromArray(dOut, [N, C]), tx, mean, rstd, tw);
    return [out, mean, rstd, dx, dw, db];
  };
}

const labels = (N: number, C: number): string[] =>
  ['out', 'mean', 'rstd', 'dx', 'dWeight', 'dBias'].map((l) => `layernorm ${l} N=${N} C=${C}`);

export const layernormGpuTests: GpuTest[] = [
  {
    name: 'layernorm: forward and backward vs cpu, awkward shapes',
    run: (env) =>
      eachRowReduceMode(env, async () => {
        const reports = [];
        for (const [N, C] of SHAPES)
          reports.push(...(await sameOnBoth(env, labels(N, C), build(N, C, `ln ${N} ${C}`))));
        return reports;
      }),
  },
  {
    name: 'layernorm: bit-identical when run twice (one-pass and two-pass column sums)',
    run: (env) =>
      eachRowReduceMode(env, async () => {
        const reports = [];
        for (const [N, C] of [
          [5, 70],
          [131, 5],
        ] as const)
          reports.push(...(await sameTwiceOnGpu(env, labels(N, C), build(N, C, `ln twice ${N}`))));
        return reports;
      }),
  },
];
