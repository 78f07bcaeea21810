/**
 * The RL trainer: one loop for the browser worker and for Node. A step plays `profilesPerStep ×
 * groupSize` dialogues with the simulated users, turns the final emotions (and, per config, each
 * turn's change) into advantages (GRPO, RLOO, or PPO with the value head as critic), and runs K
 * epochs of minibatch updates. It reports a flat record of metrics per step (keys `namespace/name`),
 * keeps checkpoints, and plays the benchmark on request.
 *
 * Determinism: the same config, seed and starting weights on the same backend give the same
 * metrics and weights; every random choice draws from generators seeded by (seed, step). A run's
 * checkpoint can carry AdamW's state (moments and step count): resumed from it (`optimizer`), a
 * run goes on exactly as it would have without stopping.
 *
 * A non-finite loss or gradient stops the run: the weights and AdamW's state are put back as they
 * were before the failing step (the last good state), and `step()` throws TrainingStopped with the
 * reason.
 */
import type { Backend, Tensor } from '../engine/backend';
import { buildCorpus } from '../corpus/build';
import { saveCheckpoint, type Checkpoint, type OptimizerState } from '../engine/model/checkpoint';
import { paramLayout } from '../engine/model/config';
import { encodeTrainingExamples, type Encoded } from '../engine/model/format';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { Rng } from '../engine/rng';
import type { Profile } from '../persona/profile';
import { TURN_CAP } from '../persona/dynamics';
import { computeCredit } from './advantages';
import { buildSequences, grammarMask, truncationMask, type TokenStream } from './batch';
import { learningRate, type RunConfig } from './config';
import { corpusDemonstrations, ImitationMemory } from './imitation';
import { playBenchmark, rollout, summariseRollouts, type DialogueRollout, type RolloutSummary } from './rollout';
import type { TrainSample } from './samples';
import { NonFiniteError, policyUpdate, scoreSamples, updateOptions } from './update';

export class TrainingStopped extends Error {
  override name = 'TrainingStopped';
  constructor(
    message: string,
    readonly step: number,
  ) {
    super(message);
  }
}

export interface StepResult {
  step: number;
  metrics: Record<string, number>;
  dialogues: DialogueRollout[];
}

export interface EvalResult extends RolloutSummary {
  rollouts: DialogueRollout[];
  seconds: number;
}

export interface TrainerInit {
  config: RunConfig;
  /** The starting policy (the warm start), also the frozen reference for the KL. */
  start: Pick<Checkpoint, 'config' | 'tokenizer' | 'weights' | 'meta'>;
  trainProfiles: readonly Profile[];
  /** The frozen KL reference when it is not `start` (a resumed run starts from its checkpoint; its reference stays the warm start). */
  reference?: Pick<Checkpoint, 'weights'>;
  /** AdamW's state to go on from (a resumed run's checkpoint); fresh moments without it. */
  optimizer?: OptimizerState;
  /**
   * The replay text when ptxCoef > 0; by default the training split of the generated corpus the
   * warm starts learn from (REPLAY_CORPUS), encoded with the start's tokenizer. Never the held-out
   * split, on which perplexity is measured.
   */
  ptxData?: readonly Encoded[];
}

/**
 * Whether a starting checkpoint's value head has been trained: only a PPO run's (a warm start's is
 * initialisation noise, and GRPO and RLOO never train it).
 */
function hasTrainedCritic(meta: unknown): boolean {
  if (typeof meta !== 'object' || meta === null) return false;
  const m = meta as { kind?: unknown; runConfig?: { algo?: unknown } };
  return m.kind === 'rl' && m.runConfig?.algo === 'ppo';
}

/** The corpus the replay term draws from: seed 1 (the shipped warm starts'), its training split only. */
export const REPLAY_CORPUS = { seed: 1, dialogues: 1000 } as const;
/** Tokens per replay sequence (UpdateOptions.ptxSeqLen's default). */
const REPLAY_SEQ_LEN = 128;

/**
 * The replay examples for `tokenizer`: REPLAY_CORPUS's training split, encoded as the warm start
 * learned it (a think dialogue turn by turn on its thought-free history), cut for REPLAY_SEQ_LEN.
 */
function replayData(tokenizer: Tokenizer): Encoded[] {
  return buildCorpus(REPLAY_CORPUS).train.flatMap((d) =>
    encodeTrainingExamples(tokenizer, d.turns, REPLAY_SEQ_LEN + 1),
  );
}

export class Trainer {
  readonly model: Transformer;
  readonly tokenizer: Tokenizer;
  private ref: Transformer | null = null;
  /** The weights and AdamW's moments before the current step (put back when it fails). */
  private snapshot: { params: Tensor; m: Tensor; v: Tensor };
  private order: number[];
  private optimizerStep = { value: 0 };
  private readonly ptxData: readonly Encoded[];
  /** Self-imitation's replies (imitateCoef > 0): the latest training replies the users rewarded with the top step. */
  readonly imitation: ImitationMemory;
  /**
   * PPO: the value head has never been trained (a warm start's head is initialisation noise): the
   * first step sets it to predict the mean return (zero weights, bias at the mean).
   */
  private valueHeadUntrained: boolean;
  /** Steps completed. */
  stepsDone = 0;
  /**
   * What the last step's update weighted each policy token by, over its token stream (batch.ts):
   * the advantages, the truncation mask and the rollout policy's log-probs (for a ratio taken after
   * the update). For inspecting a step; the update does not read it.
   */
  lastCredit: { stream: TokenStream; advantages: Float32Array; mask: Float32Array; oldLogprobs: Float32Array } | null =
    null;
  /** Told after each round of a rollout (training or benchmark): for a live view of the dialogues; never changes them. */
  onRound:
    ((kind: 'train' | 'benchmark', dialogues: readonly DialogueRollout[], live: readonly boolean[]) => void) | null =
    null;
  private released = false;

  constructor(
    readonly be: Backend,
    readonly init: TrainerInit,
  ) {
    const c = init.config;
    // Check what can be wrong before taking any device memory, so a refused trainer holds none.
    const total = paramLayout(init.start.config).total;
    if (init.trainProfiles.length === 0) throw new Error('no training profiles');
    if (init.optimizer) {
      const { step, m, v } = init.optimizer;
      if (m.length !== total || v.length !== total)
        throw new Error(`the optimizer state has ${m.length} and ${v.length} values; this model needs ${total} each`);
      if (!Number.isInteger(step) || step < 0)
        throw new Error(`the optimizer's step count must be a whole number ≥ 0, got ${step}`);
    }
    this.tokenizer = Tokenizer.fromJSON(init.start.tokenizer);
    this.ptxData = c.ptxCoef > 0 ? (init.ptxData ?? replayData(this.tokenizer)) : [];
    // A new run's memory may start with the corpus's demonstrations; a resumed one keeps its own.
    this.imitation = new ImitationMemory(
      c.imitateKeep,
      init.optimizer?.imitation,
      !init.optimizer && c.imitateCoef > 0
        ? corpusDemonstrations(this.tokenizer, c.imitateDemos, init.start.config.contextLength, c.maxTurnTokens)
        : [],
    );
    this.order = new Rng(`profiles:${c.seed}`).shuffle(init.trainProfiles.map((_, i) => i));
    this.valueHeadUntrained = !hasTrainedCritic(init.start.meta);
    this.model = new Transformer(be, init.start.config, init.start.weights, { savedAttention: c.savedAttention });
    try {
      if (c.klCoef > 0)
        this.ref = new Transformer(be, init.start.config, (init.reference ?? init.start).weights, { frozen: true });
      this.snapshot = { params: be.zeros([total]), m: be.zeros([total]), v: be.zeros([total]) };
    } catch (e) {
      // A reference of the wrong size: give back what was taken before it.
      this.model.release();
      this.ref?.release();
      throw e;
    }
    if (init.optimizer) {
      be.write(this.model.adamM, init.optimizer.m);
      be.write(this.model.adamV, init.optimizer.v);
      this.optimizerStep.value = init.optimizer.step;
    }
  }

  get config(): RunConfig {
    return this.init.config;
  }

  /** The profiles of step k (0-based): the next profilesPerStep of a seeded shuffle, wrapping. */
  profilesOf(k: number): Profile[] {
    const P = this.config.profilesPerStep;
    const n = this.order.length;
    return Array.from({ length: P }, (_, i) => this.init.trainProfiles[this.order[(k * P + i) % n]]);
  }

  async step(): Promise<StepResult> {
    const c = this.config;
    const be = this.be;
    const k = this.stepsDone;
    const rng = new Rng(`step:${c.seed}:${k}`);
    const siblings = c.groupAt === 'turn' ? c.groupSize : 1;
    const profiles = this.profilesOf(k).flatMap((p) => Array.from({ length: c.groupSize / siblings }, () => p));
    be.copy(this.snapshot.params, this.model.params);
    be.copy(this.snapshot.m, this.model.adamM);
    be.copy(this.snapshot.v, this.model.adamV);
    const optimizerStepBefore = this.optimizerStep.value;
    const t0 = performance.now();
    const dialogues = await rollout(
      this.model,
      this.tokenizer,
      profiles,
      {
        mode: 'train',
        difficulty: c.difficulty,
        userSeed: rng.nextU32() % 1_000_000,
        think: c.think,
        // Under the grammar the update scores what was sampled: π_c, banned logits and forced tokens
        // as the rollout recorded them (batch.ts, update.ts).
        thinkGrammar: c.thinkGrammar,
        sampling: { temperature: c.temperature, topK: 0, topP: c.topP },
        redraws: c.redraws,
        maxTurnTokens: c.maxTurnTokens,
        maxAgentTurns: c.maxAgentTurns,
        // Past the training users' 8 replies, they talk on to the replies asked for (the benchmark's 10).
        ...(c.maxAgentTurns > TURN_CAP.train ? { userTurnCap: c.maxAgentTurns } : {}),
        siblings,
        ...(this.onRound ? { onRound: (d, live) => this.onRound?.('train', d, live) } : {}),
      },
      rng,
    );
    const rolloutSeconds = (performance.now() - t0) / 1000;
    if (c.imitateCoef > 0) this.imitation.add(dialogues);
    const t1 = performance.now();
    const { sequences, stream } = buildSequences(dialogues, this.model.config.vocabSize);
    const scoreBatch = Math.max(1, c.minibatchSize);
    const old = await scoreSamples(this.model, sequences, scoreBatch, c.temperature);
    const ref = this.ref ? await scoreSamples(this.ref, sequences, scoreBatch, c.temperature) : null;
    const creditOptions = {
      algo: c.algo,
      reward: c.reward,
      groupSize: c.groupSize,
      groupAt: c.groupAt,
      think: c.think,
      zeroRewardOnBrokenThink: c.zeroRewardOnBrokenThink,
      thinkFormatPenalty: c.thinkFormatPenalty,
      truncationPenalty: c.truncationPenalty,
      repeatPenalty: c.repeatPenalty,
      gamma: c.gamma,
      lambda: c.lambda,
      normalizeAdvantages: c.normalizeAdvantages,
    };
    const streamValues = new Float32Array(stream.N);
    if (c.algo === 'ppo' && this.valueHeadUntrained) {
      // The head predicts the mean return from here on: zero weights, bias at the mean of this
      // step's Monte-Carlo returns (GAE over V = 0), and the old values are that constant.
      const mc = await computeCredit(be, dialogues, stream, streamValues, creditOptions);
      const meanReturn = mc.returns.reduce((a, b) => a + b, 0) / Math.max(1, stream.N);
      be.write(this.model.p['value.w'], new Float32Array(this.model.p['value.w'].size));
      be.write(this.model.p['value.b'], Float32Array.of(meanReturn));
      streamValues.fill(Math.fround(meanReturn));
      old.values.forEach((v) => v.fill(meanReturn));
    } else {
      sequences.forEach((s, i) => s.stream.forEach((at, j) => (streamValues[at] = old.values[i][j])));
    }
    const credit = await computeCredit(be, dialogues, stream, streamValues, creditOptions);
    const forced = grammarMask(dialogues, stream);
    const mask = truncationMask(dialogues, stream, c.truncation).map((x, i) => x * forced[i]);
    const criticOnly = c.algo === 'ppo' && k < c.criticWarmupSteps;
    const policyUpdateIndex = k - (c.algo === 'ppo' ? c.criticWarmupSteps : 0);
    const lr = criticOnly ? c.lr : learningRate(c, policyUpdateIndex);
    const samples: TrainSample[] = sequences.map((s, i) => ({
      ids: s.ids,
      rows: s.rows,
      oldLogprobs: old.logprobs[i],
      advantages: s.stream.map((at) => credit.advantages[at]),
      mask: s.stream.map((at) => mask[at]),
      banned: s.banned,
      ...(c.algo === 'ppo' ? { returns: s.stream.map((at) => credit.returns[at]), oldValues: old.values[i] } : {}),
      ...(ref ? { refLogprobs: ref.logprobs[i] } : {}),
    }));
    let update;
    try {
      update = await policyUpdate(
        this.model,
        samples,
        { ...updateOptions(c), lr, criticOnly },
        rng,
        this.optimizerStep,
        this.ptxData,
        this.imitation.examples,
      );
    } catch (e) {
      if (!(e instanceof NonFiniteError)) throw e;
      be.copy(this.model.params, this.snapshot.params);
      be.copy(this.model.adamM, this.snapshot.m);
      be.copy(this.model.adamV, this.snapshot.v);
      this.optimizerStep.value = optimizerStepBefore;
      throw new TrainingStopped(
        `step ${k + 1}: ${e.message}; the weights are kept as they were after step ${k} (the last good state). Try a lower learning rate or a tighter gradient clip.`,
        k,
      );
    }
    const trainSeconds = (performance.now() - t1) / 1000;
    const oldLogprobs = new Float32Array(stream.N);
    sequences.forEach((s, i) => s.stream.forEach((at, j) => (oldLogprobs[at] = old.logprobs[i][j])));
    this.lastCredit = { stream, advantages: credit.advantages, mask, oldLogprobs };
    this.stepsDone++;
    if (c.algo === 'ppo') this.valueHeadUntrained = false;
    const rewards = credit.dialogueRewards;
    const mean = (xs: ArrayLike<number>) => (xs.length ? Array.from(xs).reduce((a, b) => a + b, 0) / xs.length : 0);
    const rMean = mean(rewards);
    const turns = dialogues.flatMap((d) => d.turns);
    const figures = summariseRollouts(dialogues);
    // Over the trained tokens: the sampler's log-prob against the scored one (0 up to rounding when
    // the update is on-policy; verl's rollout_probs_diff), and the KL to the reference under the
    // rollout policy, the mean of log π_old − log π_ref (k1).
    const sampled = dialogues.flatMap((d) => d.turns.flatMap((t) => t.logprobs));
    let logprobDiff = 0;
    let klSum = 0;
    let trained = 0;
    sequences.forEach((s, i) =>
      s.stream.forEach((at, j) => {
        if (mask[at] === 0) return;
        logprobDiff = Math.max(logprobDiff, Math.abs(sampled[at] - old.logprobs[i][j]));
        if (ref) klSum += old.logprobs[i][j] - ref.logprobs[i][j];
        trained++;
      }),
    );
    const klRef = ref ? klSum / Math.max(1, trained) : 0;
    const trainTokens = samples.reduce((s, x) => s + x.ids.length, 0) * c.epochs;
    const metrics: Record<string, number> = {
      'reward/mean': rMean,
      'reward/std': Math.sqrt(mean(Array.from(rewards, (r) => (r - rMean) ** 2))),
      'emotion/final': figures.score,
      'emotion/success': figures.success,
      'emotion/failure': figures.failure,
      'dialogue/turns': figures.meanTurns,
      'dialogue/reply_tokens': figures.meanReplyTokens,
      'dialogue/broken_think': mean(turns.map((t) => (t.wellFormed ? 0 : 1))),
      'losses/policy_loss': update['losses/policy_loss'] ?? 0,
      'losses/value_loss': update['losses/value_loss'] ?? 0,
      'losses/entropy': update['losses/entropy'] ?? 0,
      'losses/approx_kl': update['losses/approx_kl'] ?? 0,
      'losses/kl_ref': klRef,
      'losses/ptx_loss': update['losses/ptx_loss'] ?? 0,
      'losses/clipfrac': update['losses/clipfrac'] ?? 0,
      'losses/value_clipfrac': update['losses/value_clipfrac'] ?? 0,
      'value/explained_variance':
        c.algo === 'ppo' && Number.isFinite(credit.explainedVariance) ? credit.explainedVariance : 0,
      'advantages/rms': Math.sqrt(mean(Array.from(credit.advantages, (a) => a * a))),
      'dialogue/truncated': mean(turns.map((t) => (t.truncated ? 1 : 0))),
      'dialogue/repeats': mean(credit.repeats.flatMap((r) => r.map((x) => (x ? 1 : 0)))),
      'dialogue/forced_tokens': stream.N ? forced.reduce((a, x) => a + 1 - x, 0) / stream.N : 0,
      'rollout/logprob_diff': logprobDiff,
      ...(c.redraws > 0 ? { 'rollout/redrawn': mean(turns.map((t) => ((t.redrawn ?? 0) > 0 ? 1 : 0))) } : {}),
      'train/lr': lr,
      'train/critic_only': criticOnly ? 1 : 0,
      'train/grad_norm': update['train/grad_norm'] ?? 0,
      'train/tokens': update['train/tokens'] ?? 0,
      'train/sequences': samples.length,
      'speed/rollout_tokens_per_s': turns.reduce((s, t) => s + t.response.length, 0) / Math.max(1e-9, rolloutSeconds),
      'speed/train_tokens_per_s': trainTokens / Math.max(1e-9, trainSeconds),
      'speed/step_seconds': rolloutSeconds + trainSeconds,
      ...(c.imitateCoef > 0
        ? { 'losses/imitate_loss': update['losses/imitate_loss'] ?? 0, 'imitate/kept': this.imitation.examples.length }
        : {}),
    };
    return { step: this.stepsDone, metrics, dialogues };
  }

  /** Play the benchmark profiles (always moderate users: the benchmark's standard) with the current policy. */
  async evaluate(profiles: readonly Profile[], opts: { think?: boolean } = {}): Promise<EvalResult> {
    const t0 = performance.now();
    const dialogues = await playBenchmark(this.model, this.tokenizer, profiles, {
      think: opts.think ?? this.config.think,
      thinkGrammar: this.config.thinkGrammar, // as the rollouts it trains on
      ...(this.onRound ? { onRound: (d, live) => this.onRound?.('benchmark', d, live) } : {}),
    });
    return { ...summariseRollouts(dialogues), rollouts: dialogues, seconds: (performance.now() - t0) / 1000 };
  }

  /**
   * The current policy as a checkpoint file (the warm start's tokenizer, provenance in meta); with
   * `optimizer`, AdamW's state too (format version 2, three times the bytes), so that a run resumed
   * from it goes on exactly as if it had not stopped.
   */
  async checkpoint(extraMeta: Record<string, unknown> = {}, o: { optimizer?: boolean } = {}): Promise<Uint8Array> {
    const weights = await this.model.readParams();
    const optimizer = o.optimizer
      ? {
          step: this.optimizerStep.value,
          m: await this.be.read(this.model.adamM),
          v: await this.be.read(this.model.adamV),
          ...(this.config.imitateCoef > 0 ? { imitation: this.imitation.records() } : {}),
        }
      : undefined;
    return saveCheckpoint({
      config: this.init.start.config,
      tokenizer: this.init.start.tokenizer,
      weights,
      meta: {
        kind: 'rl',
        runConfig: this.config,
        steps: this.stepsDone,
        backend: this.be.name,
        start: this.init.start.meta,
        ...extraMeta,
      },
      ...(optimizer ? { optimizer } : {}),
    });
  }

  /** Give the device memory back to the backend's pool (snapshot, policy, reference), for the next run. Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    for (const t of Object.values(this.snapshot)) this.be.release(t);
    this.model.release();
    this.ref?.release();
  }
}
