/**
 * Our side of the peers benchmark's training step (b), and the batches both sides train on: used in
 * the browser by bench/peers.ts and in Node (Dawn) by bench/dawn.ts.
 */
import { fixedSftBuffers, queueSftStep, type SftBuffers } from '../src/engine/model/sft';
import type { Transformer } from '../src/engine/model/transformer';
import type { Rng } from '../src/engine/rng';
import type { AdamWSettings, TfjsTransformer } from './peers-tfjs';

/** The training settings both sides use (SFT_DEFAULTS' optimiser, a fixed lr). */
export const ADAMW: AdamWSettings = { lr: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.01, maxGradNorm: 1 };

/** Our training step as SftTrainer.trainStep runs it (queueSftStep), on a fixed batch (every target scored). */
export class OurTrainer {
  private readonly b: SftBuffers;
  private step = 0;
  /** The pre-clip gradient norm of the last step (read back only when asked). */
  readNorm(): Promise<number> {
    return this.model.be.read(this.b.norm).then((x) => x[0]);
  }

  constructor(
    readonly model: Transformer,
    readonly B: number,
    readonly T: number,
    ids: Int32Array,
    targets: Int32Array,
  ) {
    this.b = fixedSftBuffers(model.be, ids, targets, model.config.vocabSize);
  }

  private async meanLoss(): Promise<number> {
    const l = await this.model.be.read(this.b.losses);
    let s = 0;
    for (let i = 0; i < l.length; i++) s += l[i];
    return s / l.length;
  }

  async lossValue(): Promise<number> {
    const { logits } = this.model.forward(this.b.ids, this.B, this.T);
    this.model.be.crossEntropy(this.b.losses, logits, this.b.targets);
    return this.meanLoss();
  }

  /** Forward, CE, backward, clip, AdamW; returns the step's loss (before the update). */
  async trainStep(o: AdamWSettings): Promise<number> {
    this.step++;
    queueSftStep(this.model, this.b, this.B, this.T, o.maxGradNorm, {
      lr: o.lr,
      beta1: o.beta1,
      beta2: o.beta2,
      eps: o.eps,
      weightDecay: o.weightDecay,
      step: this.step,
    });
    return this.meanLoss();
  }

  release(): void {
    for (const t of Object.values(this.b)) this.model.be.release(t);
  }
}

export function randomIds(rng: Rng, n: number, V: number): Int32Array {
  return Int32Array.from({ length: n }, () => rng.int(0, V - 1));
}

/** A batch of B rows of T + 1 random tokens as inputs and next-token targets. */
export function randomBatch(rng: Rng, B: number, T: number, V: number): { ids: Int32Array; targets: Int32Array } {
  const rows = randomIds(rng, B * (T + 1), V);
  const ids = new Int32Array(B * T);
  const targets = new Int32Array(B * T);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      ids[b * T + t] = rows[b * (T + 1) + t];
      targets[b * T + t] = rows[b * (T + 1) + t + 1];
    }
  }
  return { ids, targets };
}

/** An error's first line (for a table cell). */
export const errText = (e: unknown): string => (e instanceof Error ? e.message.split('\n')[0] : String(e));

/** What compareTrainingSteps measured: every timed step's ms and every step's loss (warm-up included). */
export interface TrainingComparison {
  oursMs: number[];
  /** null when TensorFlow.js failed to start or failed a step (then `tfjsError` says why). */
  tfjsMs: number[] | null;
  tfjsBackend: string | null;
  tfjsError?: string;
  oursLoss: number[];
  tfjsLoss: number[];
}

/**
 * The peers benchmark's (b): `warmup + steps` training steps of ours and of TensorFlow.js's
 * (`peer()` starts it), alternating so both see the same machine load; `afterFirst` runs once after
 * our first step (the start-up matmul choice). A peer that fails to start or fails a step is dropped
 * with its error; ours runs on. Used by the browser harness and by the Dawn benchmark.
 */
export async function compareTrainingSteps(
  ours: OurTrainer,
  peer: () => Promise<{ model: TfjsTransformer; backend: string }>,
  o: { warmup: number; steps: number; afterFirst?: () => Promise<void>; log: (msg: string) => void },
): Promise<TrainingComparison> {
  let tfjs: TfjsTransformer | null = null;
  let tfjsBackend: string | null = null;
  let tfjsError: string | undefined;
  try {
    ({ model: tfjs, backend: tfjsBackend } = await peer());
  } catch (e) {
    tfjsError = errText(e);
    o.log(`TensorFlow.js failed: ${tfjsError}`);
  }
  const [oursLoss, tfjsLoss, oursMs, tfjsMs] = [[], [], [], []] as number[][];
  for (let i = 0; i < o.warmup + o.steps; i++) {
    let t0 = performance.now();
    oursLoss.push(await ours.trainStep(ADAMW));
    const a = performance.now() - t0;
    if (i === 0) await o.afterFirst?.();
    let b = NaN;
    if (tfjs) {
      try {
        t0 = performance.now();
        tfjsLoss.push(await tfjs.trainStep(ADAMW));
        b = performance.now() - t0;
      } catch (e) {
        tfjsError = errText(e);
        o.log(`TensorFlow.js step failed: ${tfjsError}`);
        tfjs.dispose();
        tfjs = null;
      }
    }
    o.log(`  step ${i + 1}${i < o.warmup ? ' (warm-up)' : ''}: ours ${a.toFixed(1)} ms, tfjs ${b.toFixed(1)} ms`);
    if (i >= o.warmup) {
      oursMs.push(a);
      if (Number.isFinite(b)) tfjsMs.push(b);
    }
  }
  tfjs?.dispose();
  return {
    oursMs,
    tfjsMs: tfjsMs.length === o.steps ? tfjsMs : null,
    tfjsBackend,
    ...(tfjsError ? { tfjsError } : {}),
    oursLoss,
    tfjsLoss,
  };
}
