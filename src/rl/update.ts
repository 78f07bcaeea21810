/**
 * The policy-gradient update shared by GRPO, RLOO and (with a critic) PPO: samples are token
 * sequences whose response tokens carry an advantage; the update runs K epochs of minibatches
 * through the fused policy-loss op (clipped surrogate, entropy bonus, optional KL), backward, global
 * clipping and AdamW. Old log-probs are scored once, before the first update, with the same
 * weights, so the first minibatch's ratio is exactly 1 (cleanrl's order).
 *
 * Row convention: row t of a sequence's logits predicts token t + 1; a row is in the response mask
 * when the token it predicts is the policy's.
 * Shape legend: B sequences per minibatch, T padded length, N = B·T, V vocab.
 */
import type { Backend, Tensor } from '../engine/backend';
import { policyLossMetrics, POLICY_STATS, type PolicyLossMetrics } from '../engine/ops/policyloss';
import type { Transformer } from '../engine/model/transformer';
import type { Rng } from '../engine/rng';

export interface TrainSample {
  /** Prompt followed by the response. */
  ids: number[];
  /** Index of the first response token in ids. */
  responseStart: number;
  /** The advantage every response token of this sample gets (RLVER: the dialogue's). */
  advantage: number;
}

export interface UpdateOptions {
  epochs: number;
  minibatchSize: number;
  lr: number;
  maxGradNorm: number;
  clipLow: number;
  clipHigh: number;
  entropyCoef: number;
  weightDecay: number;
}

/** RLVER's defaults where they fit a small model (clip 0.2, entropy 0.001); lr is ours (tiny models need more). */
export const UPDATE_DEFAULTS: UpdateOptions = {
  epochs: 1, minibatchSize: 16, lr: 3e-4, maxGradNorm: 1.0, clipLow: 0.2, clipHigh: 0.2, entropyCoef: 0.001, weightDecay: 0,
};

export interface UpdateMetrics extends PolicyLossMetrics {
  'train/grad_norm': number;
  'train/tokens': number;
}

interface Packed {
  B: number;
  T: number;
  ids: Int32Array;
  actions: Int32Array;
  mask: Float32Array;
  advantages: Float32Array;
  tokens: number;
}

/** Pad a minibatch to its longest sequence; padding rows are masked out. */
export function packSamples(samples: readonly TrainSample[], maxT: number): Packed {
  const T = Math.min(maxT, Math.max(2, ...samples.map((s) => s.ids.length)));
  const B = samples.length;
  const N = B * T;
  const ids = new Int32Array(N);
  const actions = new Int32Array(N).fill(-1);
  const mask = new Float32Array(N);
  const advantages = new Float32Array(N);
  let tokens = 0;
  samples.forEach((s, b) => {
    if (s.ids.length > T) throw new Error(`a sample of ${s.ids.length} tokens exceeds the context (${T})`);
    for (let t = 0; t < s.ids.length; t++) ids[b * T + t] = s.ids[t];
    for (let t = 0; t + 1 < s.ids.length; t++) {
      actions[b * T + t] = s.ids[t + 1];
      if (t + 1 >= s.responseStart) {
        mask[b * T + t] = 1;
        advantages[b * T + t] = s.advantage;
        tokens++;
      }
    }
  });
  return { B, T, ids, actions, mask, advantages, tokens };
}

/** One policy update over `samples`; returns the metrics averaged over minibatches. */
export async function policyUpdate(
  model: Transformer,
  samples: readonly TrainSample[],
  o: UpdateOptions,
  rng: Rng,
  step: { value: number },
): Promise<UpdateMetrics> {
  const be: Backend = model.be;
  const maxT = model.config.contextLength;
  const V = model.config.vocabSize;
  const order = rng.shuffle(samples.map((_, i) => i));
  const minibatches: Packed[] = [];
  for (let at = 0; at < order.length; at += o.minibatchSize) {
    minibatches.push(packSamples(order.slice(at, at + o.minibatchSize).map((i) => samples[i]), maxT));
  }
  // Old log-probs, scored before any update.
  const old: Float32Array[] = [];
  for (const mb of minibatches) {
    const t = upload(be, mb);
    const { logits } = model.forward(t.ids, mb.B, mb.T);
    const logprobs = be.zeros([mb.B * mb.T]);
    const entropy = be.zeros([mb.B * mb.T]);
    be.tokenLogprobs(logprobs, entropy, logits, t.actions);
    old.push(await be.read(logprobs));
    release(be, [...Object.values(t), logprobs, entropy]);
  }
  const sums: Record<string, number> = {};
  let count = 0;
  const norm = be.zeros([1]);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let k = 0; k < minibatches.length; k++) {
      const mb = minibatches[k];
      if (mb.tokens === 0) continue;
      const t = upload(be, mb);
      const oldT = be.fromArray(old[k], [mb.B * mb.T]);
      const { logits } = model.forward(t.ids, mb.B, mb.T);
      const dLogits = be.zeros([mb.B * mb.T, V]);
      const stats = be.zeros([mb.B * mb.T, POLICY_STATS]);
      be.policyLoss(dLogits, stats, logits, t.actions, oldT, t.advantages, t.mask, null, {
        clipLow: o.clipLow, clipHigh: o.clipHigh, entropyCoef: o.entropyCoef, klCoef: 0, klEstimator: 'k3', lossScale: 1 / mb.tokens,
      });
      model.zeroGrads();
      model.backward(t.ids, dLogits, null);
      be.clipGradNorm(norm, model.grads, o.maxGradNorm);
      step.value++;
      be.adamw(model.params, model.grads, model.adamM, model.adamV, { lr: o.lr, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: o.weightDecay, step: step.value });
      const m = policyLossMetrics(await be.read(stats), mb.mask);
      const g = (await be.read(norm))[0];
      for (const [key, v] of Object.entries(m)) sums[key] = (sums[key] ?? 0) + v;
      sums['train/grad_norm'] = (sums['train/grad_norm'] ?? 0) + g;
      sums['train/tokens'] = (sums['train/tokens'] ?? 0) + mb.tokens;
      count++;
      release(be, [...Object.values(t), oldT, dLogits, stats]);
    }
  }
  be.release(norm);
  const out: Record<string, number> = {};
  for (const [key, v] of Object.entries(sums)) out[key] = key === 'train/tokens' ? v : v / Math.max(1, count);
  return out as unknown as UpdateMetrics;
}

function upload(be: Backend, mb: Packed): { ids: Tensor; actions: Tensor; mask: Tensor; advantages: Tensor } {
  const N = mb.B * mb.T;
  return {
    ids: be.fromArray(mb.ids, [N]),
    actions: be.fromArray(mb.actions, [N]),
    mask: be.fromArray(mb.mask, [N]),
    advantages: be.fromArray(mb.advantages, [N]),
  };
}

function release(be: Backend, ts: Tensor[]): void {
  for (const t of ts) be.release(t);
}
