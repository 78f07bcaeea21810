/**
 * Supervised next-token training (the warm start): batches of dialogues cut to T + 1 tokens,
 * cross-entropy on the agent's tokens (or on all tokens, a config choice), AdamW with a linear
 * warm-up then cosine decay, global gradient-norm clipping, and held-out perplexity. Written on the
 * Backend contract, so the same loop runs in the browser worker and in Node, on WebGPU or the CPU.
 *
 * Shape legend: B dialogues per batch, T tokens per row, N = B·T, V vocab.
 */
import type { AdamWOptions, Backend, Tensor } from '../backend';
import { Rng } from '../rng';
import type { Encoded } from './format';
import type { Transformer } from './transformer';

export interface SftOptions {
  steps: number;
  /** Dialogues per batch. */
  batchSize: number;
  /** Tokens per row (at most the model's context). */
  seqLen: number;
  lr: number;
  /** Learning rate at the end of the cosine, as a fraction of lr. */
  minLrFraction: number;
  warmupSteps: number;
  weightDecay: number;
  /** Global gradient-norm clip. */
  maxGradNorm: number;
  /** 'agent': loss on the agent's tokens only (what RL will shape); 'all': every next token. */
  lossOn: 'agent' | 'all';
  seed: number;
}

export const SFT_DEFAULTS: SftOptions = {
  steps: 300,
  batchSize: 16,
  seqLen: 128,
  lr: 3e-3,
  minLrFraction: 0.1,
  warmupSteps: 20,
  weightDecay: 0.01,
  maxGradNorm: 1.0,
  lossOn: 'all',
  seed: 1,
};

/** Linear warm-up to lr, then cosine down to minLrFraction·lr at the last step. */
export function learningRate(
  step: number,
  o: Pick<SftOptions, 'lr' | 'warmupSteps' | 'steps' | 'minLrFraction'>,
): number {
  if (step < o.warmupSteps) return (o.lr * (step + 1)) / o.warmupSteps;
  const span = Math.max(1, o.steps - o.warmupSteps);
  const progress = Math.min(1, (step - o.warmupSteps) / span);
  const min = o.lr * o.minLrFraction;
  return min + 0.5 * (o.lr - min) * (1 + Math.cos(Math.PI * progress));
}

/**
 * Inputs (N) and targets (N) for B examples cut or padded to T + 1 tokens (the first T + 1: a longer
 * example loses its tail). A target is −1 (ignored) on padding, before an example's scoredFrom, and,
 * with lossOn 'agent', where the target token is not the agent's.
 */
export function makeBatch(
  examples: readonly Encoded[],
  T: number,
  lossOn: 'agent' | 'all',
): { ids: Int32Array; targets: Int32Array; count: number } {
  const B = examples.length;
  const ids = new Int32Array(B * T);
  const targets = new Int32Array(B * T).fill(-1);
  let count = 0;
  examples.forEach((ex, b) => {
    const from = ex.scoredFrom ?? 0;
    for (let t = 0; t < T; t++) {
      if (t < ex.ids.length) ids[b * T + t] = ex.ids[t];
      if (t + 1 < ex.ids.length && t + 1 >= from && (lossOn === 'all' || ex.agentMask[t + 1] === 1)) {
        targets[b * T + t] = ex.ids[t + 1];
        count++;
      }
    }
  });
  return { ids, targets, count };
}

export interface SftStepMetrics {
  step: number;
  loss: number;
  lr: number;
  gradNorm: number;
  tokens: number;
}

/** The device buffers of one supervised step over N = B·T tokens (ids and targets i32). */
export interface SftBuffers {
  ids: Tensor;
  targets: Tensor;
  /** Per-token cross-entropy (forward). */
  losses: Tensor;
  /** ∂L/∂loss per token: 1/count where scored, 0 elsewhere. */
  dLosses: Tensor;
  dLogits: Tensor;
  /** The pre-clip gradient norm. */
  norm: Tensor;
}

function sftBuffers(be: Backend, N: number, vocabSize: number): SftBuffers {
  return {
    ids: be.zeros([N], 'i32'),
    targets: be.zeros([N], 'i32'),
    losses: be.zeros([N]),
    dLosses: be.zeros([N]),
    dLogits: be.zeros([N, vocabSize]),
    norm: be.zeros([1]),
  };
}

/** The buffers of one fixed batch, every target scored (dLosses 1/N): the benchmarks' and tests' step. */
export function fixedSftBuffers(be: Backend, ids: Int32Array, targets: Int32Array, vocabSize: number): SftBuffers {
  const N = ids.length;
  const b = sftBuffers(be, N, vocabSize);
  be.write(b.ids, ids);
  be.write(b.targets, targets);
  be.write(b.dLosses, new Float32Array(N).fill(1 / N));
  return b;
}

/**
 * One supervised step queued on the device from the batch in `b`, nothing read back: forward,
 * per-token cross-entropy into b.losses, backward of Σ dLosses·CE, the gradient clipped to
 * `maxGradNorm` (its pre-clip norm into b.norm), AdamW, skipped on the device when the loss or the
 * norm is not finite (the weights stay those of the last good step). SftTrainer's step, and the one
 * the peers benchmark times and profiles.
 */
export function queueSftStep(
  model: Transformer,
  b: SftBuffers,
  B: number,
  T: number,
  maxGradNorm: number,
  adam: Omit<AdamWOptions, 'skipIf'>,
): void {
  const be = model.be;
  const { logits } = model.forward(b.ids, B, T);
  be.crossEntropy(b.losses, logits, b.targets);
  model.zeroGrads();
  be.fill(b.dLogits, 0);
  be.crossEntropyBackward(b.dLogits, logits, b.targets, b.dLosses);
  model.backward(b.ids, b.dLogits, null);
  be.clipGradNorm(b.norm, model.grads, maxGradNorm);
  model.optimizerStep(adam, [b.norm, b.losses]);
}

/** Training state: the buffers of one batch shape, allocated once. */
export class SftTrainer {
  private readonly rng: Rng;
  private order: number[] = [];
  private cursor = 0;
  private readonly bufs: SftBuffers;
  private released = false;
  step = 0;

  constructor(
    readonly model: Transformer,
    readonly data: readonly Encoded[],
    readonly opts: SftOptions,
  ) {
    if (data.length === 0) throw new Error('no training dialogues');
    if (opts.seqLen > model.config.contextLength)
      throw new Error(`seqLen ${opts.seqLen} exceeds the model context ${model.config.contextLength}`);
    const be: Backend = model.be;
    const N = opts.batchSize * opts.seqLen;
    this.rng = new Rng(opts.seed).fork('sft-order');
    this.bufs = sftBuffers(be, N, model.config.vocabSize);
  }

  /** The next batch in a seeded shuffle of the data (reshuffled each epoch). */
  private nextExamples(): Encoded[] {
    const out: Encoded[] = [];
    while (out.length < this.opts.batchSize) {
      if (this.cursor >= this.order.length) {
        this.order = this.rng.shuffle(this.data.map((_, i) => i));
        this.cursor = 0;
      }
      out.push(this.data[this.order[this.cursor++]]);
    }
    return out;
  }

  /** One update; reads back only the loss and the gradient norm. */
  async trainStep(): Promise<SftStepMetrics> {
    if (this.released) throw new Error('this trainer was released');
    const { model, opts } = this;
    const be = model.be;
    const { batchSize: B, seqLen: T } = opts;
    const b = this.bufs;
    const batch = makeBatch(this.nextExamples(), T, opts.lossOn);
    be.write(b.ids, batch.ids);
    be.write(b.targets, batch.targets);
    const scale = batch.count > 0 ? 1 / batch.count : 0;
    be.write(
      b.dLosses,
      Float32Array.from(batch.targets, (t) => (t < 0 ? 0 : scale)),
    );
    const lr = learningRate(this.step, opts);
    this.step++;
    // A non-finite loss or gradient norm skips the step on the device, so the weights stay those of
    // the last good step (the caller sees the non-finite loss it reads back).
    queueSftStep(model, b, B, T, opts.maxGradNorm, {
      lr,
      beta1: 0.9,
      beta2: 0.95,
      eps: 1e-8,
      weightDecay: opts.weightDecay,
      step: this.step,
    });
    const [losses, norm] = await Promise.all([be.read(b.losses), be.read(b.norm)]);
    let sum = 0;
    for (let i = 0; i < losses.length; i++) if (batch.targets[i] >= 0) sum += losses[i];
    return {
      step: this.step,
      loss: batch.count > 0 ? sum / batch.count : 0,
      lr,
      gradNorm: norm[0],
      tokens: batch.count,
    };
  }

  /** Give the batch buffers back to the backend's pool (the model is the caller's). Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    for (const t of Object.values(this.bufs)) this.model.be.release(t);
  }
}

/**
 * Perplexity exp(mean CE) over the scored tokens of `examples` (agent tokens, or all), evaluated in
 * batches of B rows of T tokens. Dialogues longer than T are scored on their first T tokens.
 */
export async function perplexity(
  model: Transformer,
  examples: readonly Encoded[],
  o: { batchSize: number; seqLen: number; lossOn: 'agent' | 'all' },
): Promise<number> {
  const be = model.be;
  const B = o.batchSize;
  const T = Math.min(o.seqLen, model.config.contextLength);
  const ids = be.zeros([B * T], 'i32');
  const targets = be.zeros([B * T], 'i32');
  const losses = be.zeros([B * T]);
  let sum = 0;
  let count = 0;
  for (let at = 0; at < examples.length; at += B) {
    const chunk = examples.slice(at, at + B);
    while (chunk.length < B) chunk.push({ ids: [], agentMask: [] });
    const batch = makeBatch(chunk, T, o.lossOn);
    be.write(ids, batch.ids);
    be.write(targets, batch.targets);
    const { logits } = model.forward(ids, B, T, { grad: false });
    be.crossEntropy(losses, logits, targets);
    const l = await be.read(losses);
    for (let i = 0; i < l.length; i++) if (batch.targets[i] >= 0) sum += l[i];
    count += batch.count;
  }
  for (const t of [ids, targets, losses]) be.release(t);
  return count > 0 ? Math.exp(sum / count) : NaN;
}
