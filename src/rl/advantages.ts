/**
 * Rewards and advantages of a batch of dialogues. All arrays here are over the token stream of
 * batch.ts: every policy token of every dialogue, in generation order. The group-normalisation of
 * final rewards and GAE run on the backend (the kernels of ops/advantage.ts, WebGPU in the lab); the
 * per-turn baselines below are a few hundred numbers a step and run on the host.
 *
 * Rewards [RLVER, EIBench, MICA]:
 *   final   r_d = final emotion / 100 (floored at 0), on the dialogue's last agent token;
 *   turn    c_{d,k} = the emotion change of turn k / 100, on turn k's last token;
 *   both    the two.
 *   Penalties p_{d,k} ≤ 0 per turn: −thinkFormatPenalty for a broken think block (think mode),
 *   −truncationPenalty for a turn cut at maxTurnTokens, −repeatPenalty for a reply that repeats an
 *   earlier reply of its dialogue (hacking.ts `repeatedTurns`). Each is counted once: with turn credit it is
 *   part of the turn's reward, with final credit only it is added to r_d. (The legacy
 *   zeroRewardOnBrokenThink still zeroes the whole dialogue's r_d and caps a broken turn at 0.)
 *
 * Advantages:
 *   grpo / rloo, final: A_d from group normalisation of r_d over the G dialogues of a profile, on
 *     every agent token of the dialogue [RLVER].
 *   grpo / rloo, turn: the reward-to-go of turn k, R_{d,k} = Σ_{j≥k} γ^{j−k} (c_{d,j} + p_{d,j}) (at
 *     γ = 1 the final emotion minus the emotion before turn k, over 100), against a baseline that does not depend on
 *     what the dialogue does next: the mean R_{·,k} of the group's dialogues that reached turn k
 *     (leave-one-out for RLOO). GRPO divides by the group's pooled within-turn std. A turn no other
 *     dialogue of its group reached has no baseline and gets 0. So surviving an extra turn earns
 *     nothing by itself: two dialogues that end the same way from the same turn get the same credit,
 *     however many turns the rest of them took (the suffix sum of per-turn z-scores this replaces
 *     added −n_k·mean for the n_k turns left: surviving longer paid whenever the mean change was negative).
 *   grpo / rloo, groupAt 'turn': the group is G sibling replies to one history (rollout's
 *     `siblings`), so a turn's credit is its own reward c_{d,k} + p_{d,k} against its siblings'
 *     (the same cells as above, reward-to-go at γ = 0: what follows is the first sibling's, shared).
 *   grpo / rloo, both: the sum of the two, scaled to unit root-mean-square over the batch's agent
 *     tokens, the scale of PPO's whitened advantage, so that klCoef and ptxCoef weigh the same against
 *     the policy term under every algorithm.
 *   ppo: GAE(γ, λ) with the value head's old values, a turn as the unit of time (turnGae: γ and λ
 *     apply between turns, 1 inside a reply; verl discounts per token); returns = A + V;
 *     advantages whitened over the batch where configured (verl masked_whiten).
 */
import type { Backend } from '../engine/backend';
import { ADV_EPS, fixedGroups } from '../engine/ops/advantage';
import { turnSpans, type TokenStream } from './batch';
import { repeatedTurns } from './hacking';
import type { DialogueRollout } from './rollout';

export interface CreditOptions {
  algo: 'grpo' | 'ppo' | 'rloo';
  reward: 'final' | 'turn' | 'both';
  groupSize: number;
  /**
   * 'turn': the groups are sibling replies to one history (rollout's `siblings`): a reply's credit
   * is its own turn reward against its siblings', not the reward-to-go (default 'dialogue').
   */
  groupAt?: 'dialogue' | 'turn';
  think: boolean;
  zeroRewardOnBrokenThink: boolean;
  /** Subtracted from a broken think turn's reward (think mode). */
  thinkFormatPenalty: number;
  /** Subtracted from the reward of a turn cut at maxTurnTokens. */
  truncationPenalty: number;
  /** Subtracted from the reward of a reply that repeats an earlier reply of its dialogue. */
  repeatPenalty: number;
  gamma: number;
  lambda: number;
  normalizeAdvantages: boolean;
}

export interface Credit {
  /** Per dialogue: what it earned, final emotion / 100 plus its penalties (after the legacy broken-think rule). */
  dialogueRewards: Float32Array;
  /** Per dialogue, per turn: the turn's reward, change / 100 plus its penalties. */
  turnRewards: number[][];
  /** Per dialogue, per turn: whether the reply repeats an earlier reply of its dialogue (penalised or not). */
  repeats: boolean[][];
  /** Over the stream. */
  advantages: Float32Array;
  /** Over the stream (PPO's value targets; zeros otherwise). */
  returns: Float32Array;
  /** 1 − Var(R − V) / Var(R) over the stream (PPO; NaN otherwise). */
  explainedVariance: number;
}

type RewardOptions = Pick<
  CreditOptions,
  'think' | 'zeroRewardOnBrokenThink' | 'thinkFormatPenalty' | 'truncationPenalty' | 'repeatPenalty'
>;

/**
 * The parts of each dialogue's reward: `emotion` the final emotion / 100 (0 for a dialogue with a
 * broken think block under the legacy zeroing rule), `changes` each turn's emotion change / 100
 * (capped at 0 for a broken turn under that rule), `penalties` each turn's format, truncation and
 * repeat penalties (≤ 0), `repeats` whether each reply repeats an earlier reply of its dialogue
 * (hacking.ts `repeatedTurns`), found whether or not it is penalised.
 */
export function dialogueRewards(
  dialogues: readonly DialogueRollout[],
  o: RewardOptions,
): { emotion: Float32Array; changes: number[][]; penalties: number[][]; repeats: boolean[][] } {
  const broken = (t: DialogueRollout['turns'][number]) => o.think && !t.wellFormed;
  const zero = o.think && o.zeroRewardOnBrokenThink;
  const repeats = dialogues.map((d) => repeatedTurns(d.turns.map((t) => t.reply)).map((j) => j >= 0));
  return {
    emotion: Float32Array.from(dialogues, (d) => (zero && d.turns.some(broken) ? 0 : d.reward)),
    changes: dialogues.map((d) =>
      d.turns.map((t) => {
        const r = t.result.change / 100;
        return zero && broken(t) ? Math.min(0, r) : r;
      }),
    ),
    penalties: dialogues.map((d, i) =>
      d.turns.map(
        (t, k) =>
          (broken(t) ? -o.thinkFormatPenalty : 0) +
            (t.truncated ? -o.truncationPenalty : 0) +
            (o.repeatPenalty > 0 && repeats[i][k] ? -o.repeatPenalty : 0) || 0,
      ),
    ),
    repeats,
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

/**
 * GAE with a turn as the unit of time: γ and λ apply where one turn hands over to the next, and
 * inside a reply every step has discount 1 (the per-token recursion with γ_t = γ, λ_t = λ at each
 * turn's last token and 1 elsewhere). Inside a turn the sum of δ_t telescopes, so token t of turn k
 * gets Â_t = R_k − V_t, where R_k is the turn-level return computed by the backend's GAE over one
 * step per turn: reward r_k (the rewards on turn k's tokens), value V at the turn's first token,
 * bootstrapping from the next turn's first token (0 after the last). At γ = λ = 1 this is exactly
 * the per-token GAE; below 1 every token of a reply keeps its turn's credit, where the per-token
 * discount (verl's) left it to the reply's last few tokens.
 */
async function turnGae(
  be: Backend,
  rewards: Float32Array,
  values: Float32Array,
  stream: TokenStream,
  gamma: number,
  lambda: number,
): Promise<{ advantages: Float32Array; returns: Float32Array }> {
  const N = stream.N;
  const D = stream.offsets.length - 1;
  // The turns' spans over the stream (an empty turn's span is empty and is no step).
  const spans: (readonly [number, number])[] = [];
  const turnOffsets = new Int32Array(D + 1);
  for (let d = 0; d < D; d++) {
    turnOffsets[d] = spans.length;
    for (const span of turnSpans(stream, d)) if (span[0] <= span[1]) spans.push(span);
  }
  turnOffsets[D] = spans.length;
  const T = spans.length;
  const out = { advantages: new Float32Array(N), returns: new Float32Array(N) };
  if (T === 0) return out;
  const turnRewards = new Float32Array(T);
  const turnValues = new Float32Array(T);
  spans.forEach(([from, to], k) => {
    for (let i = from; i <= to; i++) turnRewards[k] += rewards[i];
    turnValues[k] = values[from];
  });
  const r = be.fromArray(turnRewards, [T]);
  const v = be.fromArray(turnValues, [T]);
  const m = be.fromArray(new Float32Array(T).fill(1), [T]);
  const off = be.fromArray(turnOffsets, [D + 1]);
  const a = be.zeros([T]);
  const ret = be.zeros([T]);
  be.gae(a, ret, r, v, m, off, { gamma, lambda });
  const turnReturns = await be.read(ret);
  for (const t of [r, v, m, off, a, ret]) be.release(t);
  spans.forEach(([from, to], k) => {
    for (let i = from; i <= to; i++) {
      out.returns[i] = turnReturns[k];
      out.advantages[i] = turnReturns[k] - values[i];
    }
  });
  return out;
}

/**
 * Per-turn advantages from reward-to-go: turnRewards[d][k] summed from k on, minus the mean over the
 * dialogues of d's group that reached turn k (RLOO: the mean of the others), GRPO divided by the
 * group's pooled within-turn std (+ ADV_EPS). A turn with no peer at its index gets 0.
 */
function turnAdvantages(
  turnRewards: readonly (readonly number[])[],
  groups: Int32Array,
  estimator: 'grpo' | 'rloo',
  gamma: number,
): number[][] {
  const toGo = turnRewards.map((rs) => {
    const out = new Array<number>(rs.length);
    let s = 0;
    for (let k = rs.length - 1; k >= 0; k--) out[k] = s = rs[k] + (gamma === 0 ? 0 : gamma * s);
    return out;
  });
  // (group, turn index) → the dialogues there.
  const cells = new Map<string, number[]>();
  toGo.forEach((rs, d) =>
    rs.forEach((_, k) => {
      const key = `${groups[d]}:${k}`;
      const cell = cells.get(key);
      if (cell) cell.push(d);
      else cells.set(key, [d]);
    }),
  );
  const out = toGo.map((rs) => rs.map(() => 0));
  const pooled = new Map<number, { ss: number; dof: number }>();
  for (const [key, ds] of cells) {
    if (ds.length < 2) continue;
    const k = Number(key.slice(key.indexOf(':') + 1));
    const sum = ds.reduce((s, d) => s + toGo[d][k], 0);
    const mean = sum / ds.length;
    const g = groups[ds[0]];
    const p = pooled.get(g) ?? { ss: 0, dof: 0 };
    for (const d of ds) {
      const x = toGo[d][k];
      out[d][k] = estimator === 'rloo' ? x - (sum - x) / (ds.length - 1) : x - mean;
      p.ss += (x - mean) ** 2;
    }
    p.dof += ds.length - 1;
    pooled.set(g, p);
  }
  if (estimator === 'grpo')
    out.forEach((as, d) => {
      const p = pooled.get(groups[d]);
      const std = p && p.dof > 0 ? Math.sqrt(p.ss / p.dof) : 0;
      for (let k = 0; k < as.length; k++) as[k] = std > 0 ? as[k] / (std + ADV_EPS) : 0;
    });
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
  const { emotion, changes, penalties, repeats } = dialogueRewards(dialogues, o);
  const useFinal = o.reward !== 'turn';
  const useTurn = o.reward !== 'final';
  const turnRewards = changes.map((cs, d) => cs.map((c, k) => c + penalties[d][k]));
  const penaltySum = penalties.map((ps) => ps.reduce((a, b) => a + b, 0));
  const earned = Float32Array.from(emotion, (r, d) => r + penaltySum[d]);
  const lastToken = (d: number) => (stream.offsets[d + 1] > stream.offsets[d] ? stream.offsets[d + 1] - 1 : -1);
  const advantages = new Float32Array(N);
  let returns: Float32Array = new Float32Array(N);
  let explainedVariance = NaN;
  if (o.algo === 'ppo') {
    const rewards = new Float32Array(N);
    for (let d = 0; d < D; d++) {
      if (useFinal && lastToken(d) >= 0) rewards[lastToken(d)] += emotion[d];
      stream.turnEnds[d].forEach((at, k) => {
        if (at >= stream.offsets[d]) rewards[at] += (useTurn ? changes[d][k] : 0) + penalties[d][k];
      });
    }
    const g = await turnGae(be, rewards, oldValues, stream, o.gamma, o.lambda);
    advantages.set(g.advantages);
    returns = g.returns;
    explainedVariance = explained(returns, oldValues);
    if (o.normalizeAdvantages) whiten(advantages);
  } else {
    const dGroups = fixedGroups(D, o.groupSize);
    if (useFinal) {
      const a = await group(be, useTurn ? emotion : earned, dGroups, o.algo);
      for (let d = 0; d < D; d++) for (let i = stream.offsets[d]; i < stream.offsets[d + 1]; i++) advantages[i] += a[d];
    }
    if (useTurn) {
      const a = turnAdvantages(turnRewards, dGroups, o.algo, o.groupAt === 'turn' ? 0 : o.gamma);
      for (let d = 0; d < D; d++)
        turnSpans(stream, d).forEach(([from, to], k) => {
          for (let i = from; i <= to; i++) advantages[i] += a[d][k];
        });
    }
    if (useFinal && useTurn) {
      let ss = 0;
      for (const x of advantages) ss += x * x;
      const rms = N ? Math.sqrt(ss / N) : 0;
      if (rms > 0) for (let i = 0; i < N; i++) advantages[i] /= rms;
    }
  }
  return { dialogueRewards: earned, turnRewards, repeats, advantages, returns, explainedVariance };
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
