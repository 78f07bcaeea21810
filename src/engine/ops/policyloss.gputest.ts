/**
 * GPU tests for the fused RL losses against the CPU reference: tokenLogprobs, policyLoss (stats and
 * dLogits accumulated onto a non-zero gradient; k1, k3 and no reference; clipped, unclipped,
 * clamped, masked and invalid-action rows; V off the workgroup size), plus bit-identical reruns. Shapes stay tiny: CI runs SwiftShader.
 */
import type { Backend, PolicyLossOptions, Tensor } from '../backend';
import { Rng } from '../rng';
import { randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { eachRowReduceMode, sameTwiceOnGpu } from '../testing/twice';
import { POLICY_STATS, tokenLogprobsRef } from './policyloss';

// (N, V): one row, V < workgroup, V just past it, V past two, a V that is prime and > 1024.
const SHAPES: [number, number][] = [
  [1, 1],
  [7, 13],
  [9, 65],
  [5, 130],
  [3, 1031],
  [70, 9],
]; // 70 rows: two workgroups of rows in `thread` mode
// old − logp, so ratio = e^{−offset}: well away from the clip edges 0.8 and 1.2 (and 1.28).
const OFFSETS = [0, 0.05, -0.1, 0.1, -0.5, 0.5, 25, -25];

function build(N: number, V: number, o: PolicyLossOptions, withRef: boolean, seed: string): (be: Backend) => Tensor[] {
  const rng = new Rng(seed);
  const logits = randn(rng, N * V, 2);
  const actions = Int32Array.from({ length: N }, (_, n) => (n % 6 === 4 ? -1 : n % 6 === 5 ? V : rng.int(0, V - 1)));
  const logp = new Float64Array(N);
  tokenLogprobsRef(logp, new Float64Array(N), logits, actions, N, V);
  const oldLogprobs = Float32Array.from(logp, (l) => l + OFFSETS[rng.int(0, OFFSETS.length - 1)]);
  const refLogprobs = Float32Array.from(logp, (l) => l + 0.5 * rng.normal());
  const advantages = randn(rng, N);
  const mask = Float32Array.from({ length: N }, (_, n) => (N === 1 || rng.next() < 0.7 ? 1 : 0));
  if (N > 3) mask[3] = 1;
  const d0 = randn(rng, N * V);
  return (be) => {
    const tLogits = be.fromArray(logits, [N, V]);
    const tActions = be.fromArray(actions, [N]);
    const logprobs = be.zeros([N]);
    const entropy = be.zeros([N]);
    be.tokenLogprobs(logprobs, entropy, tLogits, tActions);
    const stats = be.zeros([N, POLICY_STATS]);
    const dLogits = be.fromArray(d0, [N, V]);
    const ref = withRef ? be.fromArray(refLogprobs, [N]) : null;
    be.policyLoss(
      dLogits,
      stats,
      tLogits,
      tActions,
      be.fromArray(oldLogprobs, [N]),
      be.fromArray(advantages, [N]),
      be.fromArray(mask, [N]),
      ref,
      o,
    );
    return [logprobs, entropy, stats, dLogits];
  };
}

const CASES: [string, PolicyLossOptions, boolean][] = [
  [
    'rlver (no ref)',
    { clipLow: 0.2, clipHigh: 0.2, entropyCoef: 0.001, klCoef: 0, klEstimator: 'k3', lossScale: 0.125 },
    false,
  ],
  ['k3', { clipLow: 0.2, clipHigh: 0.28, entropyCoef: 0.01, klCoef: 0.1, klEstimator: 'k3', lossScale: 0.5 }, true],
  ['k1', { clipLow: 0.2, clipHigh: 0.2, entropyCoef: 0.02, klCoef: 0.05, klEstimator: 'k1', lossScale: 1 }, true],
];

const labels = (N: number, V: number, c: string): string[] =>
  ['tokenLogprobs logprobs', 'tokenLogprobs entropy', 'policyLoss stats', 'policyLoss dLogits'].map(
    (l) => `${l} N=${N} V=${V} ${c}`,
  );

export const policylossGpuTests: GpuTest[] = [
  {
    name: 'policyLoss: tokenLogprobs, stats and dLogits vs cpu, k1/k3/no ref, masked and clipped rows',
    run: (env) =>
      eachRowReduceMode(env, async () => {
        const reports = [];
        for (const [N, V] of SHAPES) {
          for (const [c, o, withRef] of CASES)
            reports.push(...(await sameOnBoth(env, labels(N, V, c), build(N, V, o, withRef, `pl ${N} ${V} ${c}`))));
        }
        return reports;
      }),
  },
  {
    name: 'policyLoss: bit-identical when run twice',
    run: (env) =>
      eachRowReduceMode(env, () =>
        sameTwiceOnGpu(env, labels(6, 130, 'k3'), build(6, 130, CASES[1][1], true, 'pl twice')),
      ),
  },
];
