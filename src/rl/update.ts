/**
 * The policy-gradient update shared by GRPO, RLOO and PPO. A sample is a token sequence whose
 * policy rows (row t predicts ids[t + 1], a token the policy sampled) carry an advantage and the
 * log-prob the policy gave that token when it was sampled (scored once, before the first update,
 * with the same weights, so the first minibatch's ratio is exactly 1: cleanrl's order). The update
 * runs K epochs of minibatches through the fused policy-loss op (clipped surrogate, entropy bonus,
 * optional KL to a frozen reference), PPO's clipped value loss on the value head where there is a
 * critic, optionally the warm start's next-token loss on a few corpus dialogues (InstructGPT's
 * PPO-ptx: the gradients add up before the step), backward, global clipping and AdamW.
 *
 * Under a grammar (think-grammar.ts) the policy that sampled is π_c(a|s) ∝ π(a|s) on the allowed
 * tokens. A sample's `banned` logits are set to BANNED_LOGIT (fillAt) right after the temperature
 * scale, before the log-softmax, in every scoring of it: the old and reference log-probs
 * (scoreSamples) and the new ones, the entropy and the KL (policyUpdate). The sampler set the same
 * value before dividing by τ; either way the banned probabilities are exactly 0 in f32 and the
 * allowed ones are the same, so the first minibatch's ratio is still exactly 1. The gradient of
 * the fill is zero at the filled entries (policyUpdate zeroes them explicitly).
 *
 * Tokens the grammar forced carry mask 0 (batch.ts, grammarMask), as does the forced <|end|> of a
 * cut reply under `truncation: mask-end`: they are left out of the policy loss, the entropy bonus,
 * the KL penalty, the value loss and the token-mean's denominator. That is how verl treats tokens
 * the policy did not choose (tool and observation tokens in multi-turn rollouts get response_mask
 * 0 for every loss and metric) and TRL treats cut completions (mask_truncated_completions): a forced
 * token has probability 1 under π_c, so its log-prob, ratio and entropy are constants with no
 * gradient, and scoring it under the unconstrained π would train the policy towards a token it did
 * not choose. The value loss leaves them out too: the state before a forced token is one the
 * policy never acts in, and one mask for every loss keeps the token-mean's denominator the same.
 *
 * Samples and their packing into minibatches are in samples.ts.
 *
 * Shape legend: B sequences per minibatch, T padded length, N = B·T, V vocab.
 */
import type { Backend, Tensor } from '../engine/backend';
import { policyLossMetrics, POLICY_STATS, type PolicyLossMetrics } from '../engine/ops/policyloss';
import { VALUE_STAT, VALUE_STATS } from '../engine/ops/valueloss';
import type { Encoded } from '../engine/model/format';
import { makeBatch } from '../engine/model/sft';
import { Slabs } from '../engine/model/slabs';
import type { Transformer } from '../engine/model/transformer';
import type { Rng } from '../engine/rng';
import { defaultRunConfig, type RunConfig } from './config';
import { packSamples, type TrainSample } from './samples';
import { BANNED_LOGIT } from './think-grammar';

export interface UpdateOptions {
  epochs: number;
  minibatchSize: number;
  lr: number;
  maxGradNorm: number;
  clipLow: number;
  clipHigh: number;
  entropyCoef: number;
  klCoef: number;
  klEstimator: 'k1' | 'k3';
  /** AdamW: moment decays β₁, β₂, the ε under the root, and the decoupled weight decay. */
  adamBeta1: number;
  adamBeta2: number;
  adamEps: number;
  weightDecay: number;
  /** PPO: weight of the value loss (0: no critic, the value head is left alone). */
  valueCoef: number;
  /** PPO: value clip range around the old value (0: no clipping). */
  valueClip: number;
  /**
   * The sampling temperature τ of the rollouts: the loss scores π_τ = softmax(z / τ), the policy
   * that actually produced the tokens, so the ratio and the KL are on-policy at any τ.
   */
  temperature: number;
  /**
   * Replay (PPO-ptx): each minibatch also takes ptxCoef × the mean next-token cross-entropy on the
   * agent's tokens of ptxBatch dialogues drawn from ptxData (the warm start's training text), cut to
   * ptxSeqLen tokens. 0 (or no data): none.
   */
  ptxCoef?: number;
  ptxBatch?: number;
  ptxSeqLen?: number;
  /**
   * Self-imitation: each minibatch also takes imitateCoef × the mean next-token cross-entropy on the
   * response tokens of imitateBatch examples drawn from imitateData (the run's own top-rewarded
   * replies under their prompts), whole. 0 (or no data): none.
   */
  imitateCoef?: number;
  imitateBatch?: number;
  /**
   * Fit the critic alone (PPO's critic warm-up, verl's critic_warmup): the value loss trains the
   * value head only, the policy and the trunk under it stay as they are (their gradients are
   * zeroed before the step), and there is no policy, entropy, KL or replay term.
   */
  criticOnly?: boolean;
}

/**
 * The update's options from a run config, the one source of its defaults and bounds: the value
 * loss only for PPO (GRPO and RLOO have no critic), the replay term as configured.
 */
export function updateOptions(c: RunConfig): UpdateOptions {
  return {
    epochs: c.epochs,
    minibatchSize: c.minibatchSize,
    lr: c.lr,
    maxGradNorm: c.maxGradNorm,
    clipLow: c.clipLow,
    clipHigh: c.clipHigh,
    entropyCoef: c.entropyCoef,
    klCoef: c.klCoef,
    klEstimator: c.klEstimator,
    adamBeta1: c.adamBeta1,
    adamBeta2: c.adamBeta2,
    adamEps: c.adamEps,
    weightDecay: c.weightDecay,
    valueCoef: c.algo === 'ppo' ? c.valueCoef : 0,
    valueClip: c.valueClip,
    temperature: c.temperature,
    ptxCoef: c.ptxCoef,
    ptxBatch: c.ptxBatch,
    imitateCoef: c.imitateCoef,
    imitateBatch: c.imitateBatch,
  };
}

/**
 * RLVER's plain update on the micro model (GRPO: no critic; one pass, temperature 1, no KL, no
 * replay; lr 3e-4), for tests and tools that start from it and add what they test.
 */
export const UPDATE_DEFAULTS: Readonly<UpdateOptions> = updateOptions({
  ...defaultRunConfig('micro'),
  epochs: 1,
  temperature: 1,
  klCoef: 0,
  ptxCoef: 0,
  lr: 3e-4,
});

export interface UpdateMetrics extends PolicyLossMetrics {
  'losses/value_loss': number;
  'losses/value_clipfrac': number;
  'train/grad_norm': number;
  'train/tokens': number;
  'train/minibatches': number;
  /** Mean replay cross-entropy (nats per agent token) before each minibatch's step; 0 without replay. */
  'losses/ptx_loss': number;
  /** Mean self-imitation cross-entropy (nats per response token); absent without it. */
  'losses/imitate_loss'?: number;
}

export interface Scores {
  /** Per sample, per policy row. */
  logprobs: Float32Array[];
  values: Float32Array[];
  entropy: Float32Array[];
}

/**
 * Log-probs, entropies and values of the policy rows under `model`, in batches of `batchSize`: of
 * the tempered policy softmax(z / τ), with each sample's banned logits set (π_c).
 */
export async function scoreSamples(
  model: Transformer,
  samples: readonly Pick<TrainSample, 'ids' | 'rows' | 'banned'>[],
  batchSize: number,
  temperature = 1,
): Promise<Scores> {
  const be = model.be;
  const out: Scores = { logprobs: [], values: [], entropy: [] };
  const slabs = new Slabs(be, { ladder: true }); // the batches' shapes differ: one grow-only buffer per role
  try {
    for (let at = 0; at < samples.length; at += batchSize) {
      const group = samples.slice(at, at + batchSize);
      const mb = packSamples(group, model.config.contextLength, model.config.vocabSize);
      const R = mb.tokens;
      let i = 0;
      if (R === 0) {
        for (const _ of group)
          for (const k of ['logprobs', 'entropy', 'values'] as const) out[k].push(new Float32Array(0));
        continue;
      }
      const ids = slabs.put('ids', mb.ids, [mb.B * mb.T]);
      const rows = slabs.put('rows', mb.rowIndex, [R]);
      const actions = slabs.put('actions', mb.actions, [R]);
      const { logits, values } = model.forwardRows(ids, mb.B, mb.T, rows, { grad: false });
      if (temperature !== 1) be.scale(logits, 1 / temperature); // z / τ
      if (mb.banned.length > 0) be.fillAt(logits, slabs.put('banned', mb.banned, [mb.banned.length]), BANNED_LOGIT);
      const lp = slabs.take('logprobs', [R]); // overwritten by tokenLogprobs
      const ent = slabs.take('entropy', [R]);
      be.tokenLogprobs(lp, ent, logits, actions);
      const [lpH, entH, vH] = [await be.read(lp), await be.read(ent), await be.read(values)];
      for (const s of group) {
        const n = s.rows.length;
        out.logprobs.push(lpH.slice(i, i + n));
        out.entropy.push(entH.slice(i, i + n));
        out.values.push(vH.slice(i, i + n));
        i += n;
      }
    }
  } finally {
    slabs.release();
  }
  return out;
}

/** A non-finite loss or gradient: the step's update must not be kept. */
export class NonFiniteError extends Error {}

/**
 * One update over `samples`; returns the metrics averaged over minibatches.
 *
 * Each minibatch's step (forward, losses, backward, replay, clip, guard, AdamW) is queued as one
 * command buffer with no readback inside it; its figures are read after AdamW is queued. A step
 * whose gradient norm or policy- or value-loss statistics hold a NaN or ±∞ is never applied
 * (Transformer.optimizerStep's guard skips AdamW on the device: weights and moments stay as the
 * last good step left them); the host reads whether it was skipped and throws NonFiniteError.
 * `step` counts only the steps applied.
 */
export async function policyUpdate(
  model: Transformer,
  samples: readonly TrainSample[],
  o: UpdateOptions,
  rng: Rng,
  step: { value: number },
  ptxData: readonly Encoded[] = [],
  imitateData: readonly Encoded[] = [],
): Promise<UpdateMetrics> {
  const be: Backend = model.be;
  const maxT = model.config.contextLength;
  const V = model.config.vocabSize;
  const sums: Record<string, number> = {};
  let count = 0;
  const add = (k: string, v: number) => (sums[k] = (sums[k] ?? 0) + v);
  const norm = be.zeros([1]);
  const slabs = new Slabs(be, { ladder: true }); // the minibatches' shapes differ: one grow-only buffer per role
  // Forked only with replay on, so runs without it draw exactly the numbers they always did.
  const ptxRng = (o.ptxCoef ?? 0) > 0 && ptxData.length > 0 ? rng.fork('ptx') : null;
  const imitateRng = (o.imitateCoef ?? 0) > 0 && imitateData.length > 0 ? rng.fork('imitate') : null;
  try {
    for (let epoch = 0; epoch < o.epochs; epoch++) {
      const order = rng.shuffle(samples.map((_, i) => i));
      for (let at = 0; at < order.length; at += o.minibatchSize) {
        const mb = packSamples(
          order.slice(at, at + o.minibatchSize).map((i) => samples[i]),
          maxT,
          V,
        );
        if (mb.trained === 0) continue;
        const N = mb.tokens; // the policy rows: the loss ops see only them
        const mask = mb.mask; // 0 on rows left out of the losses (forced tokens)
        const criticOnly = o.criticOnly === true;
        const put = slabs.put.bind(slabs);
        const t = {
          ids: put('ids', mb.ids, [mb.B * mb.T]),
          rows: put('rows', mb.rowIndex, [N]),
          actions: put('actions', mb.actions, [N]),
          mask: put('mask', mask, [N]),
          advantages: put('advantages', mb.advantages, [N]),
          old: put('old', mb.oldLogprobs, [N]),
          ref: o.klCoef > 0 ? put('ref', mb.refLogprobs, [N]) : null,
          oldV: o.valueCoef > 0 ? put('oldV', mb.oldValues, [N]) : null,
          ret: o.valueCoef > 0 ? put('ret', mb.returns, [N]) : null,
          banned: mb.banned.length > 0 ? put('banned', mb.banned, [mb.banned.length]) : null,
        };
        const { logits, values } = model.forwardRows(t.ids, mb.B, mb.T, t.rows);
        if (o.temperature !== 1) be.scale(logits, 1 / o.temperature); // z / τ
        if (t.banned) be.fillAt(logits, t.banned, BANNED_LOGIT); // π_c: the grammar's banned tokens
        const dLogits = slabs.take('dLogits', [N, V]);
        be.fill(dLogits, 0); // policyLoss accumulates into it
        const stats = slabs.take('stats', [N, POLICY_STATS]); // overwritten
        be.policyLoss(dLogits, stats, logits, t.actions, t.old, t.advantages, t.mask, t.ref, {
          clipLow: o.clipLow,
          clipHigh: o.clipHigh,
          entropyCoef: criticOnly ? 0 : o.entropyCoef,
          klCoef: criticOnly ? 0 : o.klCoef,
          klEstimator: o.klEstimator,
          lossScale: criticOnly ? 0 : 1 / mb.trained, // verl's token-mean over the trained rows
        });
        if (t.banned) be.fillAt(dLogits, t.banned, 0); // a filled logit does not depend on z
        if (o.temperature !== 1) be.scale(dLogits, 1 / o.temperature); // ∂/∂z = ∂/∂(z/τ) / τ
        let dValues: Tensor | null = null;
        let vStats: Tensor | null = null;
        if (t.oldV && t.ret) {
          dValues = slabs.take('dValues', [N, 1]);
          be.fill(dValues, 0); // valueLoss accumulates into it
          vStats = slabs.take('vStats', [N, VALUE_STATS]); // overwritten
          be.valueLoss(vStats, dValues, values, t.oldV, t.ret, t.mask, {
            clip: o.valueClip > 0 ? o.valueClip : null,
            lossScale: o.valueCoef / mb.trained,
          });
        }
        model.zeroGrads();
        model.backwardRows(t.ids, dLogits, dValues);
        if (criticOnly) keepOnlyValueHeadGrads(model, slabs);
        const ptxLoss =
          ptxRng && !criticOnly
            ? replayGradients(model, ptxData, ptxRng, o.ptxCoef ?? 0, o.ptxBatch ?? 4, o.ptxSeqLen ?? 128)
            : null;
        const imitateLoss =
          imitateRng && !criticOnly
            ? replayGradients(model, imitateData, imitateRng, o.imitateCoef ?? 0, o.imitateBatch ?? 4, 0)
            : null;
        be.clipGradNorm(norm, model.grads, o.maxGradNorm);
        model.optimizerStep(
          {
            lr: o.lr,
            beta1: o.adamBeta1,
            beta2: o.adamBeta2,
            eps: o.adamEps,
            weightDecay: o.weightDecay,
            step: step.value + 1,
          },
          vStats ? [norm, stats, vStats] : [norm, stats],
          criticOnly ? { trunk: 0 } : {}, // the critic warm-up leaves the policy where it is
        );
        // The step is queued; now its figures, read together (one wait for the device, not five).
        const [normH, st, vs, ptx, imitate, skipped] = await Promise.all([
          be.read(norm),
          be.read(stats),
          vStats ? be.read(vStats) : null,
          ptxLoss ? ptxLoss() : 0,
          imitateLoss ? imitateLoss() : 0,
          model.stepSkipped(),
        ]);
        const g = normH[0];
        const m = policyLossMetrics(st, mask);
        const v = vs ? valueFigures(vs, mask) : { loss: 0, clipped: 0 };
        if (skipped) {
          throw new NonFiniteError(
            `the loss became non-finite (policy loss ${m['losses/policy_loss']}, value loss ${v.loss}, gradient norm ${g}) in epoch ${epoch + 1}`,
          );
        }
        step.value++;
        for (const [key, x] of Object.entries(m)) if (key !== 'tokens') add(key, x);
        add('losses/value_loss', v.loss);
        add('losses/value_clipfrac', v.clipped);
        add('train/grad_norm', g);
        add('losses/ptx_loss', ptx);
        if (imitateLoss) add('losses/imitate_loss', imitate);
        add('train/tokens', mb.trained);
        count++;
      }
    }
  } finally {
    be.release(norm);
    slabs.release();
  }
  const out: Record<string, number> = {};
  for (const [key, v] of Object.entries(sums)) out[key] = key === 'train/tokens' ? v : v / Math.max(1, count);
  out['train/minibatches'] = count;
  return out as unknown as UpdateMetrics;
}

/** Mean value loss and clipped share over a minibatch's trained rows. */
function valueFigures(vs: Float32Array, mask: Float32Array): { loss: number; clipped: number } {
  let loss = 0;
  let clipped = 0;
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === 0) continue;
    loss += vs[i * VALUE_STATS + VALUE_STAT.loss];
    clipped += vs[i * VALUE_STATS + VALUE_STAT.clipped];
    n++;
  }
  return { loss: loss / Math.max(1, n), clipped: clipped / Math.max(1, n) };
}

/** The critic warm-up's step: zero every gradient but the value head's (saved and put back around a fill). */
function keepOnlyValueHeadGrads(model: Transformer, slabs: Slabs): void {
  const be = model.be;
  const keys = ['value.w', 'value.b'] as const;
  const saved = keys.map((k) => {
    const g = model.g[k];
    const t = slabs.take(`keep:${k}`, g.shape);
    be.copy(t, g);
    return t;
  });
  model.zeroGrads();
  keys.forEach((k, i) => be.copy(model.g[k], saved[i]));
}

/**
 * The replay term: forward ptxBatch dialogues (drawn with replacement by `rng`), and ACCUMULATE
 * ptxCoef × ∂(mean cross-entropy on their agent tokens) into the gradient arena. Call after the
 * policy loss's backward, before the clip and step. Records only: the returned function reads the
 * mean cross-entropy back (for the metrics) once the step is queued, so replay adds no readback.
 */
function replayGradients(
  model: Transformer,
  data: readonly Encoded[],
  rng: Rng,
  coef: number,
  batchSize: number,
  seqLen: number,
): () => Promise<number> {
  const be = model.be;
  const B = Math.max(1, batchSize);
  const drawn = Array.from({ length: B }, () => data[rng.int(0, data.length - 1)]);
  // seqLen 0: as long as the longest drawn example (each is a whole prompt and reply).
  const T = Math.min(seqLen > 0 ? seqLen : Math.max(...drawn.map((e) => e.ids.length - 1)), model.config.contextLength);
  const batch = makeBatch(drawn, T, 'agent');
  if (batch.count === 0) return async () => 0;
  const scale = coef / batch.count;
  const ids = be.fromArray(batch.ids, [B * T]);
  const targets = be.fromArray(batch.targets, [B * T]);
  const dLosses = be.fromArray(
    Float32Array.from(batch.targets, (x) => (x < 0 ? 0 : scale)),
    [B * T],
  );
  const losses = be.zeros([B * T]);
  const dLogits = be.zeros([B * T, model.config.vocabSize]);
  const { logits } = model.forward(ids, B, T);
  be.crossEntropy(losses, logits, targets);
  be.crossEntropyBackward(dLogits, logits, targets, dLosses);
  model.backward(ids, dLogits, null);
  for (const x of [ids, targets, dLosses, dLogits]) be.release(x);
  return async () => {
    const l = await be.read(losses);
    be.release(losses);
    let sum = 0;
    for (let i = 0; i < l.length; i++) if (batch.targets[i] >= 0) sum += l[i];
    return sum / batch.count;
  };
}
