/**
 * One GRPO (or RLOO) step on dialogues [RLVER]: G dialogues per profile share the profile, the
 * simulated user's seed and so its opening line; each dialogue's reward is its final emotion / 100;
 * advantage = (r − group mean) / (group std + 1e-6) (RLOO: r − mean of the others) on every agent
 * token of the dialogue; each agent turn is one training sample (its visible prompt and its
 * response), as RLVER's think mode does. No critic, no KL (RLVER's defaults).
 */
import type { Transformer } from '../engine/model/transformer';
import type { Tokenizer } from '../engine/model/tokenizer';
import { fixedGroups, groupAdvantagesRef } from '../engine/ops/advantage';
import type { Rng } from '../engine/rng';
import type { Profile } from '../persona/profile';
import { rollout, summariseRollouts, type DialogueRollout, type RolloutOptions } from './rollout';
import { policyUpdate, type TrainSample, type UpdateMetrics, type UpdateOptions } from './update';

export interface GrpoOptions {
  /** Dialogues per profile (RLVER: 4). */
  groupSize: number;
  estimator: 'grpo' | 'rloo';
  /** Give a turn with a broken think block zero reward (think mode). */
  zeroRewardOnBrokenThink: boolean;
  rollout: RolloutOptions;
  update: UpdateOptions;
}

export interface GrpoStepResult {
  dialogues: DialogueRollout[];
  metrics: Record<string, number>;
}

export async function grpoStep(
  model: Transformer,
  tok: Tokenizer,
  profiles: readonly Profile[],
  o: GrpoOptions,
  rng: Rng,
  step: { value: number },
): Promise<GrpoStepResult> {
  const G = o.groupSize;
  const batch = profiles.flatMap((p) => Array.from({ length: G }, () => p));
  const t0 = performance.now();
  const dialogues = await rollout(model, tok, batch, o.rollout, rng);
  const rolloutSeconds = (performance.now() - t0) / 1000;
  const D = dialogues.length;
  const rewards = Float32Array.from(dialogues, (d) =>
    o.zeroRewardOnBrokenThink && o.rollout.think && d.turns.some((t) => !t.wellFormed) ? 0 : d.reward,
  );
  const advantages = new Float32Array(D);
  groupAdvantagesRef(advantages, rewards, fixedGroups(D, G), { estimator: o.estimator }, D);
  const samples: TrainSample[] = dialogues.flatMap((d, i) =>
    d.turns.map((t) => ({ ids: [...t.prompt, ...t.response], responseStart: t.prompt.length, advantage: advantages[i] })),
  );
  const t1 = performance.now();
  const update: UpdateMetrics = await policyUpdate(model, samples, o.update, rng, step);
  const trainSeconds = (performance.now() - t1) / 1000;
  const turns = dialogues.flatMap((d) => d.turns);
  const mean = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const rMean = mean(rewards);
  const rolloutTokens = turns.reduce((s, t) => s + t.response.length, 0);
  const figures = summariseRollouts(dialogues);
  return {
    dialogues,
    metrics: {
      'reward/mean': rMean,
      'reward/std': Math.sqrt(mean(Array.from(rewards, (r) => (r - rMean) ** 2))),
      'emotion/final': figures.score,
      'emotion/success': figures.success,
      'emotion/failure': figures.failure,
      'dialogue/turns': figures.meanTurns,
      'dialogue/reply_tokens': figures.meanReplyTokens,
      'dialogue/broken_think': mean(turns.map((t) => (t.wellFormed ? 0 : 1))),
      ...update,
      'speed/rollout_tokens_per_s': rolloutTokens / Math.max(1e-9, rolloutSeconds),
      'speed/train_tokens_per_s': samples.reduce((s, x) => s + x.ids.length, 0) * Math.max(1, o.update.epochs) / Math.max(1e-9, trainSeconds),
    },
  };
}
