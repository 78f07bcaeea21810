/**
 * GPU tests for bias add and its backward against the CPU reference: awkward sizes, the one-pass
 * (N <= ROWS_PER_CHUNK) and two-pass column sums, accumulation into an existing dBias, and
 * bit-identical repeats.
 */
import { Rng } from '../rng';
import { compare, type CompareReport } from '../testing/compare';
import { AWKWARD, randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { ROWS_PER_CHUNK } from './bias';

const SHAPES: [number, number][] = [
  ...AWKWARD.map((n): [number, number] => [n, 5]),
  [3, 1],
  [ROWS_PER_CHUNK, 7],
  [ROWS_PER_CHUNK + 1, 3],
  [1000, 13],
  [130, 257],
];

export const biasGpuTests: GpuTest[] = [
  {
    name: 'bias: addBias and biasBackward (one- and two-pass) on awkward shapes',
    async run(env) {
      const rng = new Rng('bias');
      const reports: CompareReport[] = [];
      for (const [N, C] of SHAPES) {
        const x = randn(rng, N * C);
        const bias = randn(rng, C);
        const dBias0 = randn(rng, C);
        const labels = [`addBias N=${N} C=${C}`, `addBias in place N=${N} C=${C}`, `biasBackward N=${N} C=${C}`];
        reports.push(
          ...(await sameOnBoth(env, labels, (be) => {
            const out = be.zeros([N, C]);
            be.addBias(out, be.fromArray(x, [N, C]), be.fromArray(bias, [C]));
            const inPlace = be.fromArray(x, [N, C]);
            be.addBias(inPlace, inPlace, be.fromArray(bias, [C]));
            const dBias = be.fromArray(dBias0, [C]);
            be.biasBackward(dBias, be.fromArray(x, [N, C]));
            return [out, inPlace, dBias];
          })),
        );
      }
      return reports;
    },
  },
  {
    name: 'bias: biasBackward twice gives identical bits',
    async run(env) {
      const rng = new Rng('bias repeat');
      const [N, C] = [1000, 13];
      const x = randn(rng, N * C);
      const once = async (): Promise<Float32Array> => {
        const dBias = env.gpu.zeros([C]);
        env.gpu.biasBackward(dBias, env.gpu.fromArray(x, [N, C]));
        return env.gpu.read(dBias);
      };
      const first = await once();
      return [compare('biasBackward repeat', await once(), first, { abs: 0, rel: 0 })];
    },
  },
];
