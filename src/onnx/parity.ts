/**
 * What the parity checks share (Node unit test and the headless-Chromium spec): random weights for
 * a config, random token ids, our engine's logits/values on the CPU backend (the engine's reference
 * backend), and the largest absolute difference. Pure: Node and browser.
 */
import { CpuBackend } from '../engine/cpu/backend';
import type { ModelConfig } from '../engine/model/config';
import { paramLayout } from '../engine/model/config';
import { initParams, Transformer } from '../engine/model/transformer';
import { Rng } from '../engine/rng';

/**
 * GPT-2 init, then every LayerNorm weight and bias and every other bias perturbed (init leaves them 1
 * and 0, which would hide a swapped or missing one), weights scaled up so activations reach GELU's
 * curved part and attention is far from uniform.
 */
export function randomWeights(config: ModelConfig, seed: number): Float32Array {
  const w = initParams(config, seed);
  const rng = new Rng(seed + 1);
  for (const e of paramLayout(config).entries) {
    const view = w.subarray(e.offset, e.offset + e.size);
    const isLnWeight = /(^|\.)ln(\d|f)\.w$/.test(e.name);
    for (let i = 0; i < e.size; i++) {
      if (isLnWeight) view[i] = 1 + 0.3 * rng.normal();
      else if (e.name.endsWith('.b')) view[i] = 0.1 * rng.normal();
      else view[i] *= 4;
    }
  }
  return w;
}

export function randomIds(vocabSize: number, n: number, seed: number): Int32Array {
  const rng = new Rng(seed);
  return Int32Array.from({ length: n }, () => Math.min(vocabSize - 1, Math.floor(rng.next() * vocabSize)));
}

/** Our engine's forward on the CPU backend: logits (B·T·V) and values (B·T), row-major (B, T). */
export async function engineForward(
  config: ModelConfig,
  weights: Float32Array,
  ids: Int32Array,
  B: number,
  T: number,
): Promise<{ logits: Float32Array; values: Float32Array }> {
  const be = new CpuBackend();
  const model = new Transformer(be, config, weights, { frozen: true });
  const out = model.forward(be.fromArray(ids, [B * T]), B, T);
  return { logits: await be.read(out.logits), values: await be.read(out.values) };
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`maxAbsDiff: lengths differ (${a.length} vs ${b.length})`);
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) m = Number.isNaN(d) ? Infinity : d;
  }
  return m;
}

export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}
