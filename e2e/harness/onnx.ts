/**
 * Browser side of e2e/onnx.spec.ts: exports a preset with random weights (src/onnx/export.ts), runs
 * it in onnxruntime-web on the asked execution provider, and compares logits and values with our
 * engine's CPU forward on the same random ids. Exposes `window.__onnxHarness`.
 */
import { PRESETS, type PresetName } from '../../src/engine/model/config';
import { exportOnnx } from '../../src/onnx/export';
import { engineForward, maxAbs, maxAbsDiff, randomIds, randomWeights } from '../../src/onnx/parity';
import { createPolicySession, runLogits, type ExecutionProvider } from '../../src/onnx/session';

export interface ParityResult {
  preset: string;
  requested: ExecutionProvider;
  /** The EP that ran, or null when the requested one failed (see error). */
  ep: ExecutionProvider | null;
  error?: string;
  B: number;
  T: number;
  maxLogit: number;
  logitsDiff: number;
  valuesDiff: number;
  /** Through the KV-cache export: the prompt, then one token per call. */
  kvLogitsDiff: number;
  ms: number;
}

const log = document.getElementById('log')!;

async function parity(preset: PresetName, requested: ExecutionProvider, B: number, T: number): Promise<ParityResult> {
  const config = PRESETS[preset];
  const base = { preset, requested, B, T, maxLogit: 0, logitsDiff: NaN, valuesDiff: NaN, kvLogitsDiff: NaN, ms: 0 };
  const t0 = performance.now();
  const { ort } = await import('../../src/onnx/ortBrowser');
  const weights = randomWeights(config, 21);
  const ids = randomIds(config.vocabSize, B * T, 22);
  const ref = await engineForward(config, weights, ids, B, T);
  try {
    const full = await createPolicySession(ort, exportOnnx({ config, weights }), [requested]);
    const out = await full.session.run({ input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [B, T]) });
    const logitsDiff = maxAbsDiff(out.logits.data as Float32Array, ref.logits);
    const valuesDiff = maxAbsDiff(out.values.data as Float32Array, ref.values);
    await full.session.release();
    const cached = await createPolicySession(ort, exportOnnx({ config, weights }, { kvCache: true }), [requested]);
    const split = Math.max(1, T - 3);
    const kv = await runLogits(ort, cached, config, ids, B, T, [split, ...Array(T - split).fill(1)]);
    await cached.session.release();
    const r = {
      ...base,
      ep: requested,
      maxLogit: maxAbs(ref.logits),
      logitsDiff,
      valuesDiff,
      kvLogitsDiff: maxAbsDiff(kv, ref.logits),
      ms: performance.now() - t0,
    };
    log.textContent += `\n${JSON.stringify(r)}`;
    return r;
  } catch (e) {
    return { ...base, ep: null, error: e instanceof Error ? e.message : String(e), ms: performance.now() - t0 };
  }
}

declare global {
  interface Window {
    __onnxHarness: { parity: typeof parity; presets: string[]; hasGpu: boolean };
  }
}

window.__onnxHarness = { parity, presets: Object.keys(PRESETS), hasGpu: 'gpu' in navigator };
log.textContent = 'ready';
