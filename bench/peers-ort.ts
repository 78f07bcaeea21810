/**
 * The peers benchmark's (a), shared by the browser harness (bench/peers.ts, onnxruntime-web served
 * by the app) and the Dawn benchmark (bench/dawn.ts, onnxruntime-web in Node over Dawn's WebGPU):
 * our forward pass against onnxruntime-web's on the model exported by src/onnx/export.ts, same
 * weights, batch and length. The `ort` module is an argument, so each caller loads and configures
 * its own copy.
 */
import type * as Ort from 'onnxruntime-web';
import type { WebGpuBackend } from '../src/engine/gpu/backend';
import type { ModelConfig } from '../src/engine/model/config';
import { Transformer } from '../src/engine/model/transformer';
import { exportOnnx } from '../src/onnx/export';
import { maxAbsDiff } from '../src/onnx/parity';
import { createPolicySession, type OrtModule } from '../src/onnx/session';
import { errText } from './peers-ours';

/**
 * A session on the WebGPU EP if it works on this adapter (created and one run succeeds), else on
 * wasm; `webgpuError` says why WebGPU was not used. `wasmOnly`: straight to wasm (onnxruntime on
 * the CPU, without WebGPU).
 */
export async function ortSession(
  ort: OrtModule,
  model: Uint8Array,
  probe: Record<string, Ort.Tensor>,
  log: (msg: string) => void,
  wasmOnly = false,
): Promise<{ session: Ort.InferenceSession; ep: 'webgpu' | 'wasm'; webgpuError?: string }> {
  let webgpuError: string | undefined;
  if (wasmOnly) webgpuError = 'not asked for (wasm only)';
  else {
    try {
      const s = await createPolicySession(ort, model, ['webgpu']);
      try {
        await s.session.run(probe);
        return { session: s.session, ep: 'webgpu' };
      } catch (e) {
        await s.session.release();
        throw e;
      }
    } catch (e) {
      webgpuError = errText(e);
      log(`onnxruntime-web: the WebGPU EP did not run here (${webgpuError}); using wasm`);
    }
  }
  const s = await createPolicySession(ort, model, ['wasm']);
  return { session: s.session, ep: 'wasm', webgpuError };
}

/** Token ids as onnxruntime takes them: int64, (B, T). */
export function ortIds(ort: OrtModule, ids: Int32Array, B: number, T: number): Ort.Tensor {
  return new ort.Tensor(
    'int64',
    BigInt64Array.from(ids, (v) => BigInt(v)),
    [B, T],
  );
}

/** What compareForwardPasses measured (timed repetitions only). */
export interface ForwardComparison {
  oursMs: number[];
  /** null when onnxruntime-web failed to load or run the model (then `ortError` says why). */
  ortMs: number[] | null;
  ortEp: 'webgpu' | 'wasm' | null;
  /** Why onnxruntime-web failed, or why it runs on wasm rather than WebGPU. */
  ortError?: string;
  /** The largest |our logit − onnxruntime's| on the batch timed: the two run the same model. */
  maxLogitDiff: number | null;
}

/**
 * `warmup + reps` forward passes (logits read back) of ours and of onnxruntime-web's session on the
 * exported model, alternating so both see the same machine load; `afterFirst` runs once after our
 * first pass (the start-up matmul choice). onnxruntime's first run doubles as the parity check.
 */
export async function compareForwardPasses(
  be: WebGpuBackend,
  ort: OrtModule,
  config: ModelConfig,
  weights: Float32Array,
  ids: Int32Array,
  B: number,
  T: number,
  o: { warmup: number; reps: number; afterFirst?: () => Promise<void>; log: (msg: string) => void; wasmOnly?: boolean },
): Promise<ForwardComparison> {
  const model = new Transformer(be, config, weights);
  const idsT = be.fromArray(ids, [ids.length]);
  const oursFwd = async (): Promise<Float32Array> => be.read(model.forward(idsT, B, T, { grad: false }).logits);
  let maxLogitDiff: number | null = null;
  // One run; given our logits, also the largest difference from them (before the outputs are disposed).
  let ortRun: ((mine?: Float32Array) => Promise<void>) | null = null;
  let ortEp: ForwardComparison['ortEp'] = null;
  let ortError: string | undefined;
  let session: Ort.InferenceSession | null = null;
  try {
    const feeds = { input_ids: ortIds(ort, ids, B, T) };
    const s = await ortSession(ort, exportOnnx({ config, weights }), feeds, o.log, o.wasmOnly);
    session = s.session;
    ortEp = s.ep;
    if (s.webgpuError) ortError = `WebGPU EP: ${s.webgpuError}`;
    ortRun = async (mine) => {
      const out = await s.session.run(feeds);
      if (mine) maxLogitDiff = maxAbsDiff(mine, (await out.logits.getData()) as Float32Array);
      for (const t of Object.values(out)) t.dispose();
    };
  } catch (e) {
    ortError = errText(e);
    o.log(`onnxruntime-web failed: ${ortError}`);
  }
  const oursMs: number[] = [];
  const ortMs: number[] = [];
  for (let i = 0; i < o.warmup + o.reps; i++) {
    let t0 = performance.now();
    const mine = await oursFwd();
    const a = performance.now() - t0;
    if (i === 0) await o.afterFirst?.();
    let b = NaN;
    if (ortRun) {
      t0 = performance.now();
      await ortRun(i === 0 ? mine : undefined);
      b = performance.now() - t0;
    }
    o.log(`  rep ${i + 1}${i < o.warmup ? ' (warm-up)' : ''}: ours ${a.toFixed(1)} ms, onnxruntime ${b.toFixed(1)} ms`);
    if (i >= o.warmup) {
      oursMs.push(a);
      if (Number.isFinite(b)) ortMs.push(b);
    }
  }
  await session?.release();
  be.release(idsT);
  return {
    oursMs,
    ortMs: ortMs.length === o.reps ? ortMs : null,
    ortEp,
    ...(ortError ? { ortError } : {}),
    maxLogitDiff,
  };
}
