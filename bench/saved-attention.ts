/**
 * Saved attention in halves vs f32 (Transformer `savedAttention`): the same training step
 * (forward, CE, backward, clip, AdamW; bench/peers-ours.ts OurTrainer) from the same weights and
 * batch, once per mode, each on a device of its own so that each pool's size is that mode's peak
 * footprint (`stats.peakBytesHeld` after the first step). The steps alternate between the modes so
 * drift on a loaded machine hits both alike; the first step of each is a warm-up (pipelines,
 * allocation, then the start-up matmul choice). Prints bytes, the attention share, ms a step and
 * the two loss curves (the forward's bits are the same, so the first losses are equal; later ones
 * move apart only by what the half-rounded gradients change). Nothing here is a test.
 */
import { attentionSize } from '../src/engine/backend';
import type { WebGpuBackend } from '../src/engine/gpu/backend';
import { median } from '../src/engine/gpu/timing';
import { PRESETS, type PresetName } from '../src/engine/model/config';
import { initParams, Transformer } from '../src/engine/model/transformer';
import { tuneMatmuls } from '../src/engine/ops/matmul';
import { Rng } from '../src/engine/rng';
import { ADAMW, OurTrainer, randomBatch } from './peers-ours';

export interface SavedAttentionRun {
  /** Storage bytes the device holds after the first step (weights, gradients, moments, activations, scratch). */
  bytes: number;
  /** Bytes the saved attention probabilities take, all layers. */
  attentionBytes: number;
  /** Median ms a step (loss read back included), warm-up excluded. */
  ms: number;
  loss: number[];
}

export interface SavedAttentionResult {
  preset: PresetName;
  B: number;
  T: number;
  steps: number;
  f32: SavedAttentionRun;
  f16: SavedAttentionRun;
  /** Largest |loss f16 − loss f32| over the steps. */
  maxLossDiff: number;
}

export async function compareSavedAttention(
  fresh: () => Promise<WebGpuBackend>,
  o: { preset: PresetName; B: number; T: number; steps: number },
  log: (msg: string) => void,
): Promise<SavedAttentionResult> {
  const config = PRESETS[o.preset];
  if (o.T > config.contextLength)
    throw new Error(`--tokens ${o.T} is longer than ${o.preset}'s context (${config.contextLength})`);
  const weights = initParams(config, 'saved-attention');
  const batch = randomBatch(new Rng('saved-attention'), o.B, o.T, config.vocabSize);
  const modes = ['f32', 'f16'] as const;
  const runs = await Promise.all(
    modes.map(async (mode) => {
      const be = await fresh();
      const trainer = new OurTrainer(
        new Transformer(be, config, weights, { savedAttention: mode }),
        o.B,
        o.T,
        batch.ids,
        batch.targets,
      );
      return { mode, be, trainer, ms: [] as number[], loss: [] as number[], bytes: 0, afterTuning: 0 };
    }),
  );
  for (let step = 0; step <= o.steps; step++) {
    for (const r of runs) {
      const t0 = performance.now();
      r.loss.push(await r.trainer.trainStep(ADAMW));
      const ms = performance.now() - t0;
      if (step === 0) {
        r.bytes = r.be.stats.peakBytesHeld;
        await tuneMatmuls(r.be); // its timing scratch stays in the pool, outside `bytes`
        r.afterTuning = r.be.stats.bytesCreated;
      } else r.ms.push(ms);
      log(
        `saved attention ${r.mode}, step ${step}${step === 0 ? ' (warm-up)' : ''}: ${ms.toFixed(0)} ms, loss ${r.loss[step].toFixed(5)}`,
      );
    }
  }
  const perLayer = attentionSize({ B: o.B, H: config.heads, T: o.T });
  const out = (i: number): SavedAttentionRun => {
    const r = runs[i];
    if (r.be.stats.bytesCreated !== r.afterTuning)
      log(`note: ${r.mode} allocated ${r.be.stats.bytesCreated - r.afterTuning} more bytes after the first step`);
    const words = r.mode === 'f16' ? Math.ceil(perLayer / 2) : perLayer;
    return { bytes: r.bytes, attentionBytes: config.layers * words * 4, ms: median(r.ms), loss: r.loss };
  };
  const [f32, f16] = [out(0), out(1)];
  for (const r of runs) r.trainer.release();
  const maxLossDiff = Math.max(...f32.loss.map((l, i) => Math.abs(l - f16.loss[i])));
  return { preset: o.preset, B: o.B, T: o.T, steps: o.steps, f32, f16, maxLossDiff };
}

/** The result as a Markdown table and the loss curves. */
export function savedAttentionText(r: SavedAttentionResult, adapter: string): string {
  const mb = (b: number): string => (b / 2 ** 20).toFixed(1);
  const row = (name: string, x: SavedAttentionRun): string =>
    `| ${name} | ${mb(x.bytes)} | ${mb(x.attentionBytes)} | ${x.ms.toFixed(x.ms < 10 ? 2 : 1)} |`;
  return [
    `Adapter: ${adapter}`,
    `Training step, ${r.preset}, B=${r.B} T=${r.T}, ${r.steps} timed steps each (alternating), median:`,
    '',
    '| saved attention | device MiB | of which attention MiB | ms / step |',
    '|---|---:|---:|---:|',
    row('f32', r.f32),
    row('f16 (packed halves)', r.f16),
    '',
    `device memory f16 / f32: ${(r.f16.bytes / r.f32.bytes).toFixed(3)}; time f16 / f32: ${(r.f16.ms / r.f32.ms).toFixed(3)}`,
    `loss f32: ${r.f32.loss.map((l) => l.toFixed(5)).join(' ')}`,
    `loss f16: ${r.f16.loss.map((l) => l.toFixed(5)).join(' ')}`,
    `largest loss difference: ${r.maxLossDiff.toExponential(2)}`,
    '',
  ].join('\n');
}
