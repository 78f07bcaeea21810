/**
 * Rewards and advantages of a batch of dialogues, on the backend (the group-normalisation and GAE
 * kernels of ops/advantage.ts run on WebGPU in the lab; the CPU backend runs their references).
 * All arrays here are over the token stream of batch.ts: every policy token of every dialogue, in
 * generation order.
 *
 * Rewards [RLVER, EIBench, MICA]:
 *   final  r_d = final emotion / 100 (floored at 0), on the dialogue's last agent token;
 *   turn   r_{d,k} = the emotion change of turn k / 100, on turn k's last token;
 *   both   the two added.
 * A broken think block (think mode, zeroRewardOnBrokenThink): the dialogue's final reward is 0 and
 * a broken turn's change counts at most 0.
 *
 * Advantages:
 *   grpo / rloo, final: A_d from group normalisation of r_d over the G dialogues of a profile, on
 *     every agent token of the dialogue [RLVER].
 *   grpo / rloo, turn: each turn's reward normalised over all turns of the group's dialogues, and a
 *     token's advantage is the sum of the normalised rewards of its turn and the later ones
 *     (DeepSeekMath's process-supervision GRPO); the suffix sum is the GAE scan with V = 0, γ = λ = 1.
 *   grpo / rloo, both: the sum of the two.
 *   ppo: GAE(γ, λ) over the stream with the value head's old values; returns = A + V; advantages
 *     whitened over the batch where configured (verl masked_whiten).
 */
import type { Backend } from '../engine/backend';
import { fixedGroups } from '../engine/ops/advantage';
import type { TokenStream } from './batch';
import type { DialogueRollout } from './rollout';

export interface CreditOptions {
  algo: 'grpo' | 'ppo' | 'rloo';
  reward: 'final' | 'turn' | 'both';
  groupSize: number;
  think: boolean;
  zeroRewardOnBrokenThink: boolean;
  gamma: number;
  lambda: number;
  normalizeAdvantages: boolean;
}

export interface Credit {
  /** Per dialogue: the scalar reward its final emotion earns (after the broken-think rule). */
  dialogueRewards: Float32Array;
  /** Per dialogue, per turn: the turn reward (change / 100, after the broken-think rule). */
  turnRewards: number[][];
  /** Over the stream. */
  advantages: Float32Array;
  /** Over the stream (PPO's value targets; zeros otherwise). */
  returns: Float32Array;
  /** 1 − Var(R − V) / Var(R) over the stream (PPO; NaN otherwise). */
  explainedVariance: number;
}

export function dialogueRewards(
  dialogues: readonly DialogueRollout[],
  o: Pick<CreditOptions, 'think' | 'zeroRewardOnBrokenThink'>,
): { final: Float32Array; turns: number[][] } {
  const broken = (d: DialogueRollout) => o.think && o.zeroRewardOnBrokenThink && d.turns.some((t) => !t.wellFormed);
  return {
    final: Float32Array.from(dialogues, (d) => (broken(d) ? 0 : d.reward)),
    turns: dialogues.map((d) =>
      d.turns.map((t) => {
        const r = t.result.change / 100;
        return o.think && o.zeroRewardOnBrokenThink && !t.wellFormed ? Math.min(0, r) : r;
      }),
    ),
  };
}

async function group(
  be: Backend,
  rewards: Float32Array,
  groups: Int32Array,
  estimator: 'grpo' | 'rloo',
): Promise<Float32Array> {
  const n = rewards.length;
  if (n === 0) return new Float32Array(0);
  const r = be.fromArray(rewards, [n]);
  const g = be.fromArray(groups, [n]);
  const a = be.zeros([n]);
  be.groupAdvantages(a, r, g, { estimator });
  const out = await be.read(a);
  for (const t of [r, g, a]) be.release(t);
  return out;
}

async function gae(
  be: Backend,
  rewards: Float32Array,
  values: Float32Array,
  offsets: Int32Array,
  gamma: number,
  lambda: number,
): Promise<{ advantages: Float32Array; returns: Float32Array }> {
  const N = rewards.length;
  if (N === 0) return { advantages: new Float32Array(0), returns: new Float32Array(0) };
  const r = be.fromArray(rewards, [N]);
  const v = be.fromArray(values, [N]);
  const m = be.fromArray(new Float32Array(N).fill(1), [N]);
  const off = be.fromArray(offsets, [offsets.length]);
  const a = be.zeros([N]);
  const ret = be.zeros([N]);
  be.gae(a, ret, r, v, m, off, { gamma, lambda });
  const out = { advantages: await be.read(a), returns: await be.read(ret) };
  for (const t of [r, v, m, off, a, ret]) be.release(t);
  return out;
}

export async function computeCredit(
  be: Backend,
  dialogues: readonly DialogueRollout[],
  stream: TokenStream,
  oldValues: Float32Array,
  o: CreditOptions,
): Promise<Credit> {
  const D = dialogues.length;
  const N = stream.N;
  const { final, turns } = dialogueRewards(dialogues, o);
  const useFinal = o.reward !== 'turn';
  const useTurn = o.reward !== 'final';
  const lastToken = (d: number) => (stream.offsets[d + 1] > stream.offsets[d] ? stream.offsets[d + 1] - 1 : -1);
  const advantages = new Float32Array(N);
  let returns: Float32Array = new Float32Array(N);
  let explainedVariance = NaN;
  if (o.algo === 'ppo') {
    const rewards = new Float32Array(N);
    for (let d = 0; d < D; d++) {
      if (useFinal && lastToken(d) >= 0) rewards[lastToken(d)] += final[d];
      if (useTurn)
        stream.turnEnds[d].forEach((at, k) => {
          if (at >= stream.offsets[d]) rewards[at] += turns[d][k];
        });
    }
    const g = await gae(be, rewards, oldValues, stream.offsets, o.gamma, o.lambda);
    advantages.set(g.advantages);
    returns = g.returns;
    explainedVariance = explained(returns, oldValues);
    if (o.normalizeAdvantages) whiten(advantages);
  } else {
    const dGroups = fixedGroups(D, o.groupSize);
    if (useFinal) {
      const a = await group(be, final, dGroups, o.algo);
      for (let d = 0; d < D; d++) for (let i = stream.offsets[d]; i < stream.offsets[d + 1]; i++) advantages[i] += a[d];
    }
    if (useTurn) {
      const flat: number[] = [];
      const flatGroups: number[] = [];
      turns.forEach((ts, d) =>
        ts.forEach((r) => {
          flat.push(r);
          flatGroups.push(dGroups[d]);
        }),
      );
      const a = await group(be, Float32Array.from(flat), Int32Array.from(flatGroups), o.algo);
      const perTurn = new Float32Array(N);
      let e = 0;
      for (let d = 0; d < D; d++) {
        stream.turnEnds[d].forEach((at) => {
          if (at >= stream.offsets[d]) perTurn[at] += a[e];
          e++;
        });
      }
      const suffix = await gae(be, perTurn, new Float32Array(N), stream.offsets, 1, 1);
      for (let i = 0; i < N; i++) advantages[i] += suffix.advantages[i];
    }
  }
  return { dialogueRewards: final, turnRewards: turns, advantages, returns, explainedVariance };
}

function whiten(x: Float32Array): void {
  const n = x.length;
  if (n < 2) return;
  let mean = 0;
  for (const v of x) mean += v;
  mean /= n;
  let ss = 0;
  for (const v of x) ss += (v - mean) ** 2;
  const std = Math.sqrt(ss / (n - 1));
  for (let i = 0; i < n; i++) x[i] = (x[i] - mean) / (std + 1e-8);
}

function variance(x: ArrayLike<number>): number {
  const n = x.length;
  if (n === 0) return 0;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (x[i] - mean) ** 2;
  return ss / n;
}

/** 1 − Var(R − V) / Var(R); NaN when the returns do not vary. */
export function explained(returns: ArrayLike<number>, values: ArrayLike<number>): number {
  const vr = variance(returns);
  if (!(vr > 0)) return NaN;
  const diff = Array.from(returns, (r, i) => r - values[i]);
  return 1 - variance(diff) / vr;
}
