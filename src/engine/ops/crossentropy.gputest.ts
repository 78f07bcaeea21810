/**
 * GPU tests for cross-entropy: losses and dLogits (accumulated onto a non-zero gradient) against
 * the CPU reference on awkward vocab sizes, with ignored rows (target −1 and target >= V) and large
 * logits (±1e4), plus a bit-identical repeat.
 */
import type { Backend, Tensor } from '../backend';
import { Rng } from '../rng';
import { randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { eachRowReduceMode, sameTwiceOnGpu } from '../testing/twice';

// (N, V, scale of the logits)
const SHAPES: [number, number, number][] = [
  [1, 1, 1],
  [4, 7, 1],
  [5, 65, 2],
  [3, 257, 1],
  [2, 1031, 1],
  [6, 13, 1e4],
  [70, 11, 1],
]; // 70 rows: two workgroups of rows in `thread` mode

function build(N: number, V: number, scale: number, seed: string): (be: Backend) => Tensor[] {
  const rng = new Rng(seed);
  const logits = randn(rng, N * V, scale);
  const targets = new Int32Array(N);
  for (let n = 0; n < N; n++) targets[n] = n % 5 === 1 ? -1 : n % 5 === 3 ? V : rng.int(0, V - 1); // some ignored rows
  const dLosses = randn(rng, N);
  const d0 = randn(rng, N * V);
  return (be) => {
    const tl = be.fromArray(logits, [N, V]);
    const tt = be.fromArray(targets, [N]);
    const losses = be.zeros([N]);
    be.crossEntropy(losses, tl, tt);
    const dLogits = be.fromArray(d0, [N, V]);
    be.crossEntropyBackward(dLogits, tl, tt, be.fromArray(dLosses, [N]));
    return [losses, dLogits];
  };
}

const labels = (N: number, V: number, s: number): string[] => [
  `crossEntropy N=${N} V=${V} scale=${s}`,
  `crossEntropyBackward N=${N} V=${V} scale=${s}`,
];

export const crossentropyGpuTests: GpuTest[] = [
  {
    name: 'crossEntropy: forward and backward vs cpu, ignored rows, large logits',
    run: (env) =>
      eachRowReduceMode(env, async () => {
        const reports = [];
        for (const [N, V, s] of SHAPES)
          reports.push(...(await sameOnBoth(env, labels(N, V, s), build(N, V, s, `ce ${N} ${V} ${s}`))));
        return reports;
      }),
  },
  {
    name: 'crossEntropy: bit-identical when run twice',
    run: (env) => eachRowReduceMode(env, () => sameTwiceOnGpu(env, labels(3, 257, 1), build(3, 257, 1, 'ce twice'))),
  },
];
