/**
 * `npm run bench:dawn [-- --preset P] [--batches 1,8,32,64] [--steps N] [--train-steps N] [--fwd-reps N] [--ort-ep wasm] [--json]`:
 * first the peers benchmark's training step (b), ours vs TensorFlow.js on the same Dawn device
 * (`--train-steps 0` skips it), then its forward pass (a), ours vs onnxruntime-web's WebGPU EP on
 * the same Dawn instance (wasm where that fails, or by `--ort-ep wasm`; `--fwd-reps 0` skips it), then batched decoding; or with `--profile train|decode [--batch B]
 * [--tokens T] [--weights f16] [--math f16]` our step op by op (bench/peers-profile.ts) and nothing else; or with
 * `--saved-attention [--batch B] [--tokens T] [--train-steps N]` a training step with the attention
 * probabilities saved in halves vs f32: device memory, time and losses (bench/saved-attention.ts); or with
 * `--rl-memory [--preset ci|micro] [--rl-steps N] [--pool-limit none]` the device memory an RL run holds step by step (bench/rl-memory.ts). Batched decoding
 * (KvSession steps, as the RL rollouts run them) on Dawn for Node, the adapter `npm run test:dawn`
 * uses: here Mesa's lavapipe, the one adapter on a machine without a GPU that has `shader-f16`, so
 * the only place the f16 arithmetic path can be timed without one. For each batch: f32 weights,
 * half copies of the weights (f32 arithmetic), and half copies with f16 arithmetic where the adapter
 * has shader-f16; the three alternate step by step so drift on a loaded machine hits them alike.
 * Prints a table and the largest batch's step over the smallest's per mode (the decoding
 * goal: under 4 from batch 1 to 64), or one JSON object; progress goes to stderr. Nothing here is a
 * test. A software adapter's figures say what the paths cost on a CPU, not on a GPU. Packed with
 * Node for a machine that can fetch nothing by bench/device/pack.sh (run there: bench/device/run.sh).
 *
 * Longer than ~400 lines on purpose: one command's entry point, its set-up and the modes above; each
 * mode that grew lives in its own file (peers-profile.ts, saved-attention.ts, rl-memory.ts).
 */
import { dawnEnv, dawnInstance } from '../e2e/dawn/dawn';
import { compareTrainingSteps, OurTrainer, randomBatch, randomIds } from './peers-ours';
import { profileStep, profileText } from './peers-profile';
import { initParams, Transformer } from '../src/engine/model/transformer';
import { KvSession } from '../src/engine/model/sampler';
import { PRESETS, type PresetName } from '../src/engine/model/config';
import { tuneMatmuls } from '../src/engine/ops/matmul';
import { median } from '../src/engine/gpu/timing';
import { Rng } from '../src/engine/rng';
import type { OrtModule } from '../src/onnx/session';
import { compareForwardPasses } from './peers-ort';
import { compareSavedAttention, savedAttentionText } from './saved-attention';
import { rlMemory, rlMemoryText } from './rl-memory';
import { acquireGpu } from '../src/engine/gpu/context';
import { WebGpuBackend } from '../src/engine/gpu/backend';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const progress = (msg: string): void => void process.stderr.write(`${msg}\n`);
/** A flag's positive whole number, or `d` when the flag is absent. */
const num = (f: string, d: number): number => {
  const v = Number(flag(f) ?? d);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${f} takes a positive integer`);
  return v;
};

type Mode = { weights: 'f32' | 'f16'; math: 'f32' | 'f16' };

interface TrainingResult {
  B: number;
  T: number;
  oursMs: number;
  tfjsMs: number | null;
  tfjsError?: string;
  speedupVsTfjs: number | null;
  oursLoss: number[];
  tfjsLoss: number[];
}

/**
 * The peers benchmark's (b) on Dawn: one training step (forward, CE, backward, clip, AdamW, loss
 * read back) of our engine vs the same transformer in TensorFlow.js on its WebGPU backend, over the
 * same Dawn instance, from the same weights and batch, alternating steps; 2 warm-up steps, then
 * medians. TensorFlow.js is loaded only here (dev dependency), with navigator.gpu set to Dawn's.
 */
async function trainingStep(
  be: import('../src/engine/gpu/backend').WebGpuBackend,
  preset: PresetName,
  steps: number,
): Promise<TrainingResult> {
  const [B, T] = [4, 32];
  const config = PRESETS[preset];
  const weights = initParams(config, 'peers');
  const batch = randomBatch(new Rng('peers-bench'), B, T, config.vocabSize);
  const ours = new OurTrainer(new Transformer(be, config, weights), B, T, batch.ids, batch.targets);
  const cmp = await compareTrainingSteps(
    ours,
    async () => {
      const peer = await import('./peers-tfjs');
      const backend = await peer.tfjsWebGpu();
      return { backend, model: new peer.TfjsTransformer(config, weights, B, T, batch.ids, batch.targets) };
    },
    { warmup: 2, steps, afterFirst: async () => void (await tuneMatmuls(be)), log: progress },
  );
  ours.release();
  const oursMs = median(cmp.oursMs);
  const tfjsMs = cmp.tfjsMs ? median(cmp.tfjsMs) : null;
  return {
    B,
    T,
    oursMs,
    tfjsMs,
    ...(cmp.tfjsError ? { tfjsError: cmp.tfjsError } : {}),
    speedupVsTfjs: tfjsMs === null ? null : tfjsMs / oursMs,
    oursLoss: cmp.oursLoss,
    tfjsLoss: cmp.tfjsLoss,
  };
}

interface ForwardResult {
  B: number;
  T: number;
  /** null when onnxruntime-web did not load (nothing to compare with). */
  oursMs: number | null;
  ortMs: number | null;
  ortEp: 'webgpu' | 'wasm' | null;
  ortError?: string;
  maxLogitDiff: number | null;
  speedupVsOnnxruntime: number | null;
}

/**
 * Dawn for Node's queue.writeBuffer refuses data in a SharedArrayBuffer (browsers take it), and
 * onnxruntime-web's WebGPU EP uploads straight from its wasm memory, which is shared: such data is
 * copied into an ordinary buffer first. Only the benchmark installs this, before loading onnxruntime.
 */
function letDawnWriteSharedMemory(): void {
  const proto = (globalThis as unknown as { GPUQueue: { prototype: GPUQueue } }).GPUQueue.prototype;
  const write = proto.writeBuffer;
  proto.writeBuffer = function (
    this: GPUQueue,
    buffer: GPUBuffer,
    offset: number,
    data: BufferSource | SharedArrayBuffer,
    dataOffset = 0,
    size?: number,
  ): undefined {
    if (data instanceof SharedArrayBuffer) {
      const bytes = new Uint8Array(data, dataOffset, size ?? data.byteLength - dataOffset).slice();
      return write.call(this, buffer, offset, bytes, 0, bytes.length);
    }
    if (ArrayBuffer.isView(data) && data.buffer instanceof SharedArrayBuffer) {
      const unit =
        'BYTES_PER_ELEMENT' in data ? (data as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
      const count = size ?? data.byteLength / unit - dataOffset;
      const bytes = new Uint8Array(data.buffer, data.byteOffset + dataOffset * unit, count * unit).slice();
      return write.call(this, buffer, offset, bytes, 0, bytes.length);
    }
    return write.call(this, buffer, offset, data as BufferSource, dataOffset, size);
  } as GPUQueue['writeBuffer'];
}

/**
 * onnxruntime-web's browser bundle (wasm + the WebGPU EP, the build the app and the browser benchmark
 * use; the package's Node entry has no WebGPU EP), found in the nearest node_modules above this file
 * (the repository's, or .device/'s on a device machine). Single-threaded, as in the app.
 */
async function loadOrt(): Promise<OrtModule> {
  const rel = 'node_modules/onnxruntime-web/dist/ort.bundle.min.mjs';
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, rel))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`onnxruntime-web not found (${rel} above ${fileURLToPath(import.meta.url)})`);
    dir = up;
  }
  letDawnWriteSharedMemory();
  const ort = (await import(pathToFileURL(join(dir, rel)).href)) as OrtModule;
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'error';
  return ort;
}

/** The peers benchmark's (a) on Dawn: our forward pass vs onnxruntime-web's (WebGPU EP over the same Dawn instance, else wasm). */
async function forwardPass(
  be: import('../src/engine/gpu/backend').WebGpuBackend,
  preset: PresetName,
  reps: number,
  wasmOnly: boolean,
): Promise<ForwardResult> {
  const [B, T] = [4, 32];
  const config = PRESETS[preset];
  let ort: OrtModule;
  try {
    ort = await loadOrt();
  } catch (e) {
    const ortError = e instanceof Error ? e.message : String(e);
    progress(`onnxruntime-web failed to load: ${ortError}`);
    return { B, T, oursMs: null, ortMs: null, ortEp: null, ortError, maxLogitDiff: null, speedupVsOnnxruntime: null };
  }
  const ids = randomIds(new Rng('peers-forward'), B * T, config.vocabSize);
  const cmp = await compareForwardPasses(be, ort, config, initParams(config, 'peers'), ids, B, T, {
    warmup: 2,
    reps,
    afterFirst: async () => void (await tuneMatmuls(be)),
    log: progress,
    wasmOnly,
  });
  const oursMs = median(cmp.oursMs);
  const ortMs = cmp.ortMs ? median(cmp.ortMs) : null;
  return {
    B,
    T,
    oursMs,
    ortMs,
    ortEp: cmp.ortEp,
    ...(cmp.ortError ? { ortError: cmp.ortError } : {}),
    maxLogitDiff: cmp.maxLogitDiff,
    speedupVsOnnxruntime: ortMs === null ? null : ortMs / oursMs,
  };
}

async function main(): Promise<void> {
  const preset = (flag('--preset') ?? 'micro') as PresetName;
  if (!(preset in PRESETS)) throw new Error(`--preset takes one of ${Object.keys(PRESETS).join(', ')}`);
  const batches = (flag('--batches') ?? '1,8,32,64').split(',').map(Number);
  if (batches.some((b) => !Number.isInteger(b) || b < 1))
    throw new Error('--batches takes positive integers, e.g. 1,8,64');
  const steps = Number(flag('--steps') ?? 8);
  if (!Number.isInteger(steps) || steps < 1) throw new Error('--steps takes a positive integer');
  const trainSteps = Number(flag('--train-steps') ?? 5);
  if (!Number.isInteger(trainSteps) || trainSteps < 0)
    throw new Error('--train-steps takes a whole number (0: no training step)');
  const fwdReps = Number(flag('--fwd-reps') ?? 5);
  if (!Number.isInteger(fwdReps) || fwdReps < 0)
    throw new Error('--fwd-reps takes a whole number (0: no forward pass)');
  const ortEp = flag('--ort-ep') ?? 'webgpu';
  if (ortEp !== 'webgpu' && ortEp !== 'wasm') throw new Error('--ort-ep takes webgpu (wasm where it fails) or wasm');
  const env = await dawnEnv();
  const be = env.gpu;
  // The peers find WebGPU where a browser has it: Dawn's instance as navigator.gpu.
  Object.defineProperty(globalThis, 'navigator', {
    value: { gpu: dawnInstance(), userAgent: 'node' },
    configurable: true,
  });
  if (argv.includes('--saved-attention')) {
    // Attention probabilities saved in halves vs f32 (bench/saved-attention.ts), each mode on a device of its own.
    const fresh = async (): Promise<WebGpuBackend> => {
      const acq = await acquireGpu(dawnInstance()!);
      if (!acq.ok) throw new Error(acq.failure.message);
      return new WebGpuBackend(acq.ctx);
    };
    const r = await compareSavedAttention(
      fresh,
      { preset, B: num('--batch', 4), T: num('--tokens', 128), steps: num('--train-steps', 4) },
      progress,
    );
    const text = argv.includes('--json')
      ? `${JSON.stringify({ adapter: env.adapter, savedAttention: r }, null, 2)}\n`
      : savedAttentionText(r, `${env.adapter} (Dawn for Node)`);
    process.stdout.write(text, () => process.exit(0));
    return;
  }
  if (argv.includes('--rl-memory')) {
    // The device memory an RL run holds, step by step (bench/rl-memory.ts).
    if (preset !== 'ci' && preset !== 'micro')
      throw new Error('--rl-memory takes --preset ci or micro (the shipped warm starts)');
    // `--pool-limit none`: a pool that keeps every released buffer (as before it had a limit), to compare.
    if (flag('--pool-limit') === 'none') be.maxFreeBytes = () => Infinity;
    else if (flag('--pool-limit') !== undefined)
      throw new Error('--pool-limit takes none (the default limit otherwise)');
    const rows = await rlMemory(be, preset, num('--rl-steps', 8), progress);
    const text = argv.includes('--json')
      ? `${JSON.stringify({ adapter: env.adapter, preset, rlMemory: rows }, null, 2)}\n`
      : rlMemoryText(rows, preset, `${env.adapter} (Dawn for Node)`);
    process.stdout.write(text, () => process.exit(0));
    return;
  }
  const profileMode = flag('--profile');
  if (profileMode !== undefined) {
    // Our training or decoding step op by op on this adapter, as `npm run bench -- --peers --profile` does in Chromium.
    if (profileMode !== 'train' && profileMode !== 'decode') throw new Error('--profile takes train or decode');
    const precision = (f: string): 'f32' | 'f16' => {
      const v = flag(f) ?? 'f32';
      if (v !== 'f32' && v !== 'f16') throw new Error(`${f} takes f32 or f16`);
      if (profileMode === 'train' && v !== 'f32') throw new Error(`${f} is for --profile decode`);
      return v;
    };
    const r = await profileStep(be, {
      mode: profileMode,
      preset,
      B: num('--batch', profileMode === 'train' ? 4 : 64),
      T: num('--tokens', profileMode === 'train' ? 32 : 16),
      weights: precision('--weights'),
      math: precision('--math'),
    });
    const text = profileText(r, `${env.adapter} (Dawn for Node)`);
    process.stdout.write(text, () => process.exit(0));
    return;
  }
  let training: TrainingResult | null = null;
  if (trainSteps > 0) {
    progress(`training step: ours vs TensorFlow.js (WebGPU), ${preset}, B=4 T=32`);
    training = await trainingStep(be, preset, trainSteps);
  }
  let forward: ForwardResult | null = null;
  if (fwdReps > 0) {
    progress(`forward pass: ours vs onnxruntime-web, ${preset}, B=4 T=32`);
    forward = await forwardPass(be, preset, fwdReps, ortEp === 'wasm');
  }
  const config = PRESETS[preset];
  const model = new Transformer(be, config, initParams(config, 'peers'));
  const modes: Mode[] = [
    { weights: 'f32', math: 'f32' },
    { weights: 'f16', math: 'f32' },
  ];
  if (be.hasF16Math) modes.push({ weights: 'f16', math: 'f16' });
  progress(`adapter: ${env.adapter}; preset ${preset}; batches ${batches.join(', ')}; ${steps} timed steps each`);
  const rows: { B: number; weights: string; math: string; stepMs: number; tokensPerSecond: number }[] = [];
  const rng = new Rng('dawn-decode');
  for (const B of batches) {
    const sessions = modes.map((m) => new KvSession(model, B, { cache: 'f32', ...m }));
    const prompt = Array.from({ length: B }, () => Array.from({ length: 16 }, () => rng.int(0, config.vocabSize - 1)));
    for (const s of sessions) await s.step(prompt);
    const next = () => Array.from({ length: B }, () => [rng.int(0, config.vocabSize - 1)]);
    for (const s of sessions) await s.step(next()); // compile every pipeline
    await tuneMatmuls(be); // as the lab does after its first step (every mode's shapes)
    const times = modes.map(() => [] as number[]);
    for (let i = 0; i < steps; i++) {
      for (const [j, s] of sessions.entries()) {
        const t0 = performance.now();
        await s.step(next());
        times[j].push(performance.now() - t0);
      }
    }
    for (const [j, m] of modes.entries()) {
      const ms = median(times[j]);
      rows.push({ B, ...m, stepMs: ms, tokensPerSecond: (B * 1000) / ms });
      progress(`  batch ${B}, ${m.weights} weights, ${m.math} arithmetic: ${ms.toFixed(1)} ms/step`);
    }
    for (const s of sessions) s.release();
  }
  // The decoding goal: a step at the largest batch under 4 times one at the smallest, per mode.
  const [lo, hi] = [Math.min(...batches), Math.max(...batches)];
  const ratios = modes.map((m) => {
    const at = (B: number) => rows.find((r) => r.B === B && r.weights === m.weights && r.math === m.math)!.stepMs;
    return { ...m, batches: [lo, hi], ratio: at(hi) / at(lo) };
  });
  let text: string;
  if (argv.includes('--json')) {
    // The peers benchmark's key too (f32 weights and arithmetic, batch 64 over batch 1), where both were run.
    const b64 = lo === 1 && hi === 64 ? (ratios.find((r) => r.weights === 'f32')?.ratio ?? null) : null;
    text = `${JSON.stringify({
      adapter: env.adapter,
      features: env.features,
      preset,
      steps,
      forward,
      training,
      speedupVsOnnxruntime: forward?.speedupVsOnnxruntime ?? null,
      speedupVsTfjs: training?.speedupVsTfjs ?? null,
      decodeBatch64OverBatch1: b64,
      rows,
      largestOverSmallest: ratios,
    })}\n`;
  } else {
    const base = (B: number) => rows.find((r) => r.B === B && r.weights === 'f32')?.stepMs ?? NaN;
    text = [
      `Adapter (Dawn for Node): ${env.adapter}`,
      `Features: ${env.features.join(', ')}`,
      ...(forward
        ? [
            `Forward pass (B=${forward.B} T=${forward.T}, medians of ${fwdReps}): ours ${forward.oursMs?.toFixed(1) ?? '-'} ms, onnxruntime-web ${forward.ortMs === null ? `n/a (${forward.ortError ?? 'failed'})` : `${forward.ortMs.toFixed(1)} ms (${forward.ortEp} EP)`}; speedup ${forward.speedupVsOnnxruntime === null ? 'n/a' : `${forward.speedupVsOnnxruntime.toFixed(2)}x`}`,
            ...(forward.maxLogitDiff === null
              ? []
              : [
                  `  the same model on both sides: max |our logit - onnxruntime's| ${forward.maxLogitDiff.toExponential(2)}`,
                ]),
            ...(forward.ortError && forward.ortMs !== null ? [`  onnxruntime-web note: ${forward.ortError}`] : []),
          ]
        : []),
      ...(training
        ? [
            `Training step (B=${training.B} T=${training.T}, medians of ${trainSteps}): ours ${training.oursMs.toFixed(1)} ms, TensorFlow.js ${training.tfjsMs === null ? `n/a (${training.tfjsError ?? 'failed'})` : `${training.tfjsMs.toFixed(1)} ms`}; speedup ${training.speedupVsTfjs === null ? 'n/a' : `${training.speedupVsTfjs.toFixed(2)}x`}`,
            `  losses, ours / TensorFlow.js: ${training.oursLoss
              .slice(0, 3)
              .map((x) => x.toFixed(5))
              .join(' ')} / ${training.tfjsLoss
              .slice(0, 3)
              .map((x) => x.toFixed(5))
              .join(' ')}`,
            '',
          ]
        : []),
      `Decoding: preset ${preset}, ${steps} timed steps per row (medians), the rows of a batch alternating step by step`,
      '',
      '| batch | weights | arithmetic | ms / step | tokens / s | vs f32 weights |',
      '|---:|---|---|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.B} | ${r.weights} | ${r.math} | ${r.stepMs.toFixed(1)} | ${r.tokensPerSecond.toFixed(1)} | ${(base(r.B) / r.stepMs).toFixed(2)}x |`,
      ),
      '',
      ...ratios.map(
        (r) => `batch ${hi} / batch ${lo} step, ${r.weights} weights, ${r.math} arithmetic: ${r.ratio.toFixed(2)}`,
      ),
      '',
    ].join('\n');
  }
  // Dawn's instance keeps the event loop alive: exit once stdout has taken the text.
  process.stdout.write(text, () => process.exit(0));
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
