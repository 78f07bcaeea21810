/**
 * GPU tests for the advantage kernels against the CPU reference: GAE over random dialogues
 * (one-token, empty and all-masked ones, random masks) and group normalisation (GRPO with and
 * without the std, RLOO) with groups of one, zero-spread groups, NaN and infinite rewards and
 * non-contiguous ids; plus bit-identical reruns.
 */
import type { Backend, GroupAdvantageOptions, Tensor } from '../backend';
import { Rng } from '../rng';
import { randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { sameTwiceOnGpu } from '../testing/twice';

function buildGae(D: number, seed: string, gamma: number, lambda: number): (be: Backend) => Tensor[] {
  const rng = new Rng(seed);
  const offsets = [0];
  for (let d = 0; d < D; d++) offsets.push(offsets[d] + [0, 1, rng.int(2, 40)][d % 3]);
  const N = Math.max(1, offsets[D]);
  const rewards = randn(rng, N);
  const values = randn(rng, N);
  const mask = Float32Array.from({ length: N }, () => (rng.next() < 0.6 ? 1 : 0));
  if (D > 1) mask[offsets[1]] = 1; // the one-token dialogue is an agent turn
  return (be) => {
    const advantages = be.zeros([N]);
    const returns = be.zeros([N]);
    const t = (x: Float32Array): Tensor => be.fromArray(x, [N]);
    be.gae(advantages, returns, t(rewards), t(values), t(mask), be.fromArray(Int32Array.from(offsets), [D + 1]), {
      gamma,
      lambda,
    });
    return [advantages, returns];
  };
}

function buildGroup(D: number, seed: string, o: GroupAdvantageOptions): (be: Backend) => Tensor[] {
  const rng = new Rng(seed);
  // Rewards on a coarse grid (as emotion / 100), some invalid; group 2 has zero spread, 5 is one dialogue.
  const groups = Int32Array.from({ length: D }, (_, d) => (d === D - 1 ? 5 : [0, 9, 2, 3][d % 4]));
  const rewards = Float32Array.from({ length: D }, (_, d) => {
    if (groups[d] === 2) return 0.5;
    const u = rng.next();
    return u < 0.08 ? NaN : u < 0.1 ? Infinity : rng.int(0, 100) / 100;
  });
  return (be) => {
    const advantages = be.fromArray(new Float32Array(D).fill(7), [D]);
    be.groupAdvantages(advantages, be.fromArray(rewards, [D]), be.fromArray(groups, [D]), o);
    return [advantages];
  };
}

const GROUP_CASES: [string, GroupAdvantageOptions][] = [
  ['grpo', { estimator: 'grpo' }],
  ['grpo no std', { estimator: 'grpo', scaleByStd: false }],
  ['rloo', { estimator: 'rloo' }],
];

export const advantageGpuTests: GpuTest[] = [
  {
    name: 'gae: reverse scan per dialogue vs cpu, random masks, one-token and empty dialogues, bit-identical rerun',
    async run(env) {
      const reports = [];
      for (const D of [1, 2, 7, 66]) {
        for (const [g, l] of [
          [1, 1],
          [0.99, 0.95],
        ]) {
          reports.push(
            ...(await sameOnBoth(
              env,
              [`gae advantages D=${D} γ=${g} λ=${l}`, `gae returns D=${D} γ=${g} λ=${l}`],
              buildGae(D, `gae ${D}`, g, l),
            )),
          );
        }
      }
      reports.push(
        ...(await sameTwiceOnGpu(env, ['gae advantages', 'gae returns'], buildGae(66, 'gae twice', 0.99, 0.95))),
      );
      return reports;
    },
  },
  {
    name: 'groupAdvantages: GRPO and RLOO vs cpu, NaN rewards, groups of one, zero spread, bit-identical rerun',
    async run(env) {
      const reports = [];
      for (const D of [1, 5, 33, 130]) {
        for (const [c, o] of GROUP_CASES)
          reports.push(...(await sameOnBoth(env, [`groupAdvantages D=${D} ${c}`], buildGroup(D, `group ${D}`, o))));
      }
      reports.push(
        ...(await sameTwiceOnGpu(env, ['groupAdvantages grpo'], buildGroup(130, 'group twice', { estimator: 'grpo' }))),
      );
      return reports;
    },
  },
];
