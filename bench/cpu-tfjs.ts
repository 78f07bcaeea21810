/**
 * The TensorFlow.js side of the CPU benchmark's training step (bench/cpu-rows.ts): TfjsTransformer
 * (bench/peers-tfjs.ts) on TFJS's wasm backend (bench/peers-tfjs-wasm.ts), `warmup + steps` steps on
 * one fixed batch, each timed to its loss readback. In the browser page it is imported as is; in
 * Node, bench/cpu-train.ts bundles this file with esbuild first (Node's ESM loader cannot import
 * TFJS's published dist, as for bench/dawn.ts).
 */
import type { ModelConfig } from '../src/engine/model/config';
import { TfjsTransformer } from './peers-tfjs';
import { tfjsWasm } from './peers-tfjs-wasm';
import { ADAMW } from './peers-ours';
import type { TfjsSteps } from './cpu-rows';

/** `wasmDir`: the folder of the package's .wasm files (a file path in Node, a URL in a page), ending in '/'. */
export async function tfjsWasmTrainSteps(
  wasmDir: string,
  threads: number | undefined,
  config: ModelConfig,
  weights: Float32Array,
  B: number,
  T: number,
  ids: Int32Array,
  targets: Int32Array,
  o: { warmup: number; steps: number },
): Promise<TfjsSteps> {
  const started = await tfjsWasm(wasmDir, threads);
  const model = new TfjsTransformer(config, weights, B, T, ids, targets);
  const ms: number[] = [];
  const losses: number[] = [];
  try {
    for (let i = 0; i < o.warmup + o.steps; i++) {
      const t0 = performance.now();
      losses.push(await model.trainStep(ADAMW));
      ms.push(performance.now() - t0);
    }
  } finally {
    model.dispose();
  }
  return { ms, losses, threads: started.threads, build: started.build };
}
