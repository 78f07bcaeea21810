/**
 * GPU tests for softmax and log-softmax: forward and backward (dx accumulated onto a non-zero
 * gradient) against the CPU reference on awkward row lengths (1, primes, around and above the
 * row workgroup of 64) and on large logits (±1e4, max subtraction), plus a bit-identical repeat.
 */
import type { Backend, Tensor } from '../backend';
import { Rng } from '../rng';
import { randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { eachRowReduceMode, sameTwiceOnGpu } from '../testing/twice';

// (N, V, scale of the inputs)
const SHAPES: [number, number, number][] = [
  [1, 1, 1],
  [3, 7, 1],
  [2, 63, 2],
  [5, 65, 1],
  [2, 127, 3],
  [3, 300, 1],
  [1, 1031, 2],
  [4, 13, 1e4],
  [130, 9, 1],
]; // 130 rows: three workgroups of rows in `thread` mode

function build(N: number, V: number, scale: number, seed: string): (be: Backend) => Tensor[] {
  const rng = new Rng(seed);
  const x = randn(rng, N * V, scale);
  const dy = randn(rng, N * V);
  const dx0 = randn(rng, N * V);
  return (be) => {
    const tx = be.fromArray(x, [N, V]);
    const tdy = be.fromArray(dy, [N, V]);
    const y = be.zeros([N, V]);
    be.softmax(y, tx);
    const dx = be.fromArray(dx0, [N, V]);
    be.softmaxBackward(dx, y, tdy);
    const ly = be.zeros([N, V]);
    be.logSoftmax(ly, tx);
    const ldx = be.fromArray(dx0, [N, V]);
    be.logSoftmaxBackward(ldx, ly, tdy);
    return [y, dx, ly, ldx];
  };
}

const labels = (N: number, V: number, s: number): string[] =>
  ['softmax', 'softmaxBackward', 'logSoftmax', 'logSoftmaxBackward'].map((l) => `${l} N=${N} V=${V} scale=${s}`);

export const softmaxGpuTests: GpuTest[] = [
  {
    name: 'softmax/logSoftmax: forward and backward vs cpu, awkward shapes and large logits',
    run: (env) =>
      eachRowReduceMode(env, async () => {
        const reports = [];
        for (const [N, V, s] of SHAPES)
          reports.push(...(await sameOnBoth(env, labels(N, V, s), build(N, V, s, `softmax ${N} ${V} ${s}`))));
        return reports;
      }),
  },
  {
    name: 'softmax/logSoftmax: bit-identical when run twice',
    run: (env) =>
      eachRowReduceMode(env, () => sameTwiceOnGpu(env, labels(3, 300, 1), build(3, 300, 1, 'softmax twice'))),
  },
];
