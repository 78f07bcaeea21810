/**
 * Browser side of `npm run bench -- --peers` (bench/run.ts drives it in headless Chromium):
 * our engine measured against the libraries a person would otherwise use, in one page, on the same
 * WebGPU adapter, same model, same weights, same shapes:
 *   (a) forward pass: our engine vs onnxruntime-web on the model exported by src/onnx/export.ts
 *       (WebGPU execution provider where it works on this adapter, else wasm; `ortEp` says which);
 *   (b) one training step (forward, backward, clip, AdamW, loss read back): our engine vs the same
 *       transformer written with TensorFlow.js on its WebGPU backend (bench/peers-tfjs.ts);
 *   (c) batched rollout decoding with the KV cache (KvSession.step, as src/rl/rollout.ts does) at
 *       batch 1, 8, 32 and 64: ms per step and tokens/s (f32 caches), then the largest batch again
 *       with f16 caches;
 *   (d) ours alone: the RL policy update (src/rl/update.ts, PPO with a value loss) in ms per
 *       minibatch step, and the submits and readbacks one update costs.
 * Speedups are the peer's time over ours (> 1: we are faster). Timing: warm-up (pipelines, first
 * dispatch at a size), then the median of several timed repetitions, each ending in a readback.
 * `window.__peers.check()` is the harness's own test (e2e/peers.spec.ts): at a tiny shape the three
 * implementations must compute the same model (losses, logits) before their times mean anything.
 * Progress goes to console.log with a "[peers]" prefix. Not a test of speed: nothing is asserted.
 *
 * Longer than ~400 lines on purpose: four comparisons that share one page's model, weights and
 * adapter set-up; each peer's own code is in peers-ort.ts, peers-tfjs.ts and peers-ours.ts.
 */
import { ort } from '../src/onnx/ortBrowser';
import { exportOnnx } from '../src/onnx/export';
import { acquireGpu, adapterLine, type AdapterSummary } from '../src/engine/gpu/context';
import { WebGpuBackend } from '../src/engine/gpu/backend';
import { median } from '../src/engine/gpu/timing';
import { PRESETS, paramLayout, type ModelConfig, type PresetName } from '../src/engine/model/config';
import { candidateOrder, candidateOrderRef, KvSession, sampleToken } from '../src/engine/model/sampler';
import { initParams, Transformer } from '../src/engine/model/transformer';
import { Rng } from '../src/engine/rng';
import { tuneMatmuls, type MatmulTuneRow } from '../src/engine/ops/matmul';
import { responseSample, type TrainSample } from '../src/rl/samples';
import { policyUpdate, UPDATE_DEFAULTS } from '../src/rl/update';
import { TfjsTransformer, tfjsWebGpu, type AdamWSettings } from './peers-tfjs';
import { ADAMW, compareTrainingSteps, errText, OurTrainer, randomBatch, randomIds } from './peers-ours';
import { compareSavedAttention, type SavedAttentionResult } from './saved-attention';
import { compareForwardPasses, ortIds, ortSession } from './peers-ort';
import { profileStep, type ProfileResult } from './peers-profile';

export interface PeersOptions {
  /** Model preset (default micro). */
  preset: PresetName;
  /** Training step shape (batch × tokens). */
  trainB: number;
  trainT: number;
  /** Timed training steps per side (after `warmup`). */
  trainSteps: number;
  /** Forward-pass shape for the onnxruntime comparison. */
  fwdB: number;
  fwdT: number;
  fwdReps: number;
  /** Decoding: batch sizes, prompt tokens prefilled per sequence, timed steps per batch size. */
  decodeBatches: number[];
  decodePrompt: number;
  decodeSteps: number;
  /** Untimed repetitions before timing (each side). */
  warmup: number;
  /** (d) RL update: samples of rlT tokens (the last 3/4 policy rows), minibatches of rlMinibatch, timed updates. */
  rlSamples: number;
  rlT: number;
  rlMinibatch: number;
  rlReps: number;
}

export const PEERS_DEFAULTS: PeersOptions = {
  preset: 'micro',
  trainB: 4,
  trainT: 32,
  trainSteps: 5,
  fwdB: 4,
  fwdT: 32,
  fwdReps: 5,
  decodeBatches: [1, 8, 32, 64],
  decodePrompt: 16,
  decodeSteps: 6,
  warmup: 2,
  rlSamples: 16,
  rlT: 32,
  rlMinibatch: 4,
  rlReps: 3,
};

export interface Timing {
  /** Median ms per repetition. */
  medianMs: number;
  /** Every timed repetition, ms. */
  samplesMs: number[];
}

export interface PeersResult {
  adapter: {
    line: string;
    vendor: string;
    architecture: string;
    device: string;
    description: string;
    isFallback: boolean;
    features: string[];
  };
  userAgent: string;
  crossOriginIsolated: boolean;
  model: { preset: PresetName; config: ModelConfig; parameters: number };
  options: PeersOptions;
  /** (a) */
  forward: {
    B: number;
    T: number;
    ours: Timing;
    ort: Timing | null;
    ortEp: 'webgpu' | 'wasm' | null;
    ortWasmThreads: number | null;
    maxLogitDiff: number | null;
    ortError?: string;
  } | null;
  /** (b) */
  training: {
    B: number;
    T: number;
    ours: Timing;
    tfjs: Timing | null;
    tfjsBackend: string | null;
    tfjsError?: string;
    oursLoss: number[];
    tfjsLoss: number[];
  };
  /** (c) ms per decoding step (forward of one new token per sequence + logits readback) and tokens/s. */
  /**
   * f32 weights and caches at every batch, then the largest batch with f16 caches, then batch 1 and
   * the largest with half copies of the weights, and (where the adapter has shader-f16) those two
   * with f16 arithmetic as well.
   */
  decode: {
    B: number;
    cache: 'f32' | 'f16';
    weights: 'f32' | 'f16';
    math: 'f32' | 'f16';
    stepMs: Timing;
    tokensPerSecond: number;
    hostSampleMs: number;
  }[];
  /** (c) host side: ordering the candidates of every row of the largest batch's logits, the comparator sort vs the key sort (same order). */
  hostOrder: { rows: number; V: number; comparatorMs: number; keysMs: number } | null;
  /** (d) one policyUpdate over rlSamples samples: ms per minibatch step, and submits / readbacks per update. */
  rlUpdate: {
    samples: number;
    T: number;
    minibatch: number;
    minibatches: number;
    msPerMinibatch: Timing;
    submitsPerUpdate: number;
    readbacksPerUpdate: number;
  } | null;
  speedupVsOnnxruntime: number | null;
  speedupVsTfjs: number | null;
  decodeBatch64OverBatch1: number | null;
  /** The start-up choice of matmul kernel per shape (tiled, regs or regs8), timed after each section's first call. */
  matmulTuning: MatmulTuneRow[];
  totalSeconds: number;
}

export interface CheckResult {
  adapter: string;
  config: ModelConfig;
  B: number;
  T: number;
  /** Mean next-token CE on the same weights and batch: before any update, after 1 and after 2 AdamW steps. */
  oursLoss: number[];
  tfjsLoss: number[];
  tfjsBackend: string;
  /** Our first step's gradient norm before clipping, and the clip it was held to. */
  gradNorm: number;
  maxGradNorm: number;
  /** max |logits_ours − logits_ort| over the batch, and the largest |logit| (scale). */
  ortMaxAbsDiff: number | null;
  ortMaxAbsLogit: number | null;
  ortEp: 'webgpu' | 'wasm' | null;
  ortError?: string;
}

const log = (msg: string): void => console.log(`[peers] ${msg}`);
const timing = (samples: number[]): Timing => ({
  medianMs: median(samples),
  samplesMs: samples.map((x) => Math.round(x * 1000) / 1000),
});

// Our side of (b) and the shared batch helpers: bench/peers-ours.ts (also run in Node by bench/dawn.ts).

/** Median ms to order the candidates of all rows, with candidateOrderRef and candidateOrder alternately (7 each). */
function timeCandidateOrder(rows: Float32Array[]): PeersResult['hostOrder'] {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 7; i++) {
    let t0 = performance.now();
    for (const r of rows) candidateOrderRef(r);
    a.push(performance.now() - t0);
    t0 = performance.now();
    for (const r of rows) candidateOrder(r);
    b.push(performance.now() - t0);
  }
  return { rows: rows.length, V: rows[0]?.length ?? 0, comparatorMs: median(a), keysMs: median(b) };
}

// ---- shared ---------------------------------------------------------------------------------------

async function engine(): Promise<{ be: WebGpuBackend; summary: AdapterSummary }> {
  const acq = await acquireGpu();
  if (!acq.ok) throw new Error(`no WebGPU adapter: ${acq.failure.kind}: ${acq.failure.message}`);
  return { be: new WebGpuBackend(acq.ctx), summary: acq.ctx.summary };
}

// ---- the benchmark -------------------------------------------------------------------------------------

async function run(partial: Partial<PeersOptions> = {}): Promise<PeersResult> {
  const o: PeersOptions = { ...PEERS_DEFAULTS, ...partial };
  const t0 = performance.now();
  const { be, summary } = await engine();
  const line = adapterLine(summary);
  log(line);
  const config = PRESETS[o.preset];
  const V = config.vocabSize;
  const weights = initParams(config, 'peers');
  const rng = new Rng('peers-bench');
  // Our engine picks tiled, regs or regs8 per matmul shape at start-up (same bits whichever): after the
  // first call of each section, the shapes it used are timed once, before anything is measured.
  const matmulTuning: MatmulTuneRow[] = [];
  const tune = async (what: string): Promise<void> => {
    const rows = await tuneMatmuls(be);
    for (const r of rows)
      log(
        `  matmul ${r.shape}: tiled ${r.tiledMs.toFixed(1)} ms, regs ${r.regsMs.toFixed(1)} ms, regs8 ${r.regs8Ms.toFixed(1)} ms -> ${r.choice} (${what})`,
      );
    matmulTuning.push(...rows);
  };

  // (b) training step: ours vs TFJS, alternating steps so both see the same machine load.
  log(`training step: ${o.preset}, B=${o.trainB} T=${o.trainT}`);
  const batch = randomBatch(rng, o.trainB, o.trainT, V);
  const ours = new OurTrainer(new Transformer(be, config, weights), o.trainB, o.trainT, batch.ids, batch.targets);
  const cmp = await compareTrainingSteps(
    ours,
    async () => {
      const backend = await tfjsWebGpu();
      return { backend, model: new TfjsTransformer(config, weights, o.trainB, o.trainT, batch.ids, batch.targets) };
    },
    { warmup: o.warmup, steps: o.trainSteps, afterFirst: () => tune('training step'), log },
  );
  ours.release();
  const training = {
    B: o.trainB,
    T: o.trainT,
    ours: timing(cmp.oursMs),
    tfjs: cmp.tfjsMs ? timing(cmp.tfjsMs) : null,
    tfjsBackend: cmp.tfjsBackend,
    ...(cmp.tfjsError ? { tfjsError: cmp.tfjsError } : {}),
    oursLoss: cmp.oursLoss,
    tfjsLoss: cmp.tfjsLoss,
  };

  // (a) forward: ours vs onnxruntime-web on the exported model (same weights), alternating.
  log(`forward: B=${o.fwdB} T=${o.fwdT}`);
  const fwd = await compareForwardPasses(be, ort, config, weights, randomIds(rng, o.fwdB * o.fwdT, V), o.fwdB, o.fwdT, {
    warmup: o.warmup,
    reps: o.fwdReps,
    afterFirst: () => tune('forward'),
    log,
  });
  const forward: PeersResult['forward'] = {
    B: o.fwdB,
    T: o.fwdT,
    ours: timing(fwd.oursMs),
    ort: fwd.ortMs ? timing(fwd.ortMs) : null,
    ortEp: fwd.ortEp,
    ortWasmThreads: fwd.ortEp ? Number(ort.env.wasm.numThreads ?? 1) : null,
    maxLogitDiff: fwd.maxLogitDiff,
    ...(fwd.ortError ? { ortError: fwd.ortError } : {}),
  };

  // (c) batched decoding with the KV cache, as the RL rollouts do.
  const decode: PeersResult['decode'] = [];
  let hostOrder: PeersResult['hostOrder'] = null;
  {
    const model = new Transformer(be, config, weights);
    const sampling = { temperature: 0.7, topK: 0, topP: 1 };
    const sampleRng = new Rng('peers-sample');
    const largest = Math.max(...o.decodeBatches);

    type Precision = 'f32' | 'f16';
    // [batch, KV cache, weights, arithmetic]: f32 at every batch; then the largest batch with f16
    // caches, the smallest and largest with half copies of the weights, and, where the adapter has
    // shader-f16, those two with f16 arithmetic too.
    const runs: [number, Precision, Precision, Precision][] = o.decodeBatches.map((b) => [b, 'f32', 'f32', 'f32']);
    if (o.decodeBatches.length) {
      runs.push([largest, 'f16', 'f32', 'f32']);
      const ends = [...new Set([Math.min(...o.decodeBatches), largest])];
      for (const b of ends) runs.push([b, 'f32', 'f16', 'f32']);
      if (be.hasF16Math) for (const b of ends) runs.push([b, 'f32', 'f16', 'f16']);
    }
    for (const [B, cache, weightsAs, math] of runs) {
      log(`decode: batch ${B}, ${cache} KV cache, ${weightsAs} weights, ${math} arithmetic`);
      const session = new KvSession(model, B, { cache, weights: weightsAs, math });
      let logits = await session.step(Array.from({ length: B }, () => Array.from(randomIds(rng, o.decodePrompt, V))));
      const stepMs: number[] = [];
      let sampleMs = 0;
      for (let i = 0; i < o.warmup + o.decodeSteps; i++) {
        const s0 = performance.now();
        const next = logits.map((row) => [sampleToken(row, sampling, sampleRng)]);
        const s1 = performance.now();
        logits = await session.step(next);
        const s2 = performance.now();
        if (i === 0) await tune(`decode batch ${B}`);
        if (i >= o.warmup) {
          stepMs.push(s2 - s1);
          sampleMs += s1 - s0;
        }
      }
      if (B === largest && cache === 'f32' && weightsAs === 'f32') hostOrder = timeCandidateOrder(logits);
      session.release();
      const t = timing(stepMs);
      decode.push({
        B,
        cache,
        weights: weightsAs,
        math,
        stepMs: t,
        tokensPerSecond: (B * 1000) / t.medianMs,
        hostSampleMs: sampleMs / o.decodeSteps,
      });
      log(`  ${t.medianMs.toFixed(1)} ms/step, ${((B * 1000) / t.medianMs).toFixed(1)} tokens/s`);
    }
  }

  // (d) the RL policy update, ours alone: every minibatch's step queued, the figures read at the end.
  let rlUpdate: PeersResult['rlUpdate'] = null;
  if (o.rlReps > 0) {
    log(`RL update: ${o.rlSamples} samples of ${o.rlT} tokens, minibatches of ${o.rlMinibatch}`);
    const model = new Transformer(be, config, weights);
    const first = Math.floor(o.rlT / 4);
    const samples: TrainSample[] = Array.from({ length: o.rlSamples }, () => {
      const s = responseSample(Array.from(randomIds(rng, o.rlT, V)), first, 0);
      const n = s.rows.length;
      return {
        ...s,
        advantages: Array.from({ length: n }, () => rng.normal()),
        oldLogprobs: Array.from({ length: n }, () => -Math.log(V) + 0.1 * rng.normal()),
        returns: Array.from({ length: n }, () => rng.normal()),
        oldValues: Array.from({ length: n }, () => 0.1 * rng.normal()),
      };
    });
    const opts = { ...UPDATE_DEFAULTS, minibatchSize: o.rlMinibatch, valueCoef: 0.5 };
    const updateRng = new Rng('peers-rl');
    const step = { value: 0 };
    const minibatches = Math.ceil(o.rlSamples / o.rlMinibatch);
    const counts = { submits: 0, reads: 0 };
    const ms: number[] = [];
    for (let i = 0; i < 1 + o.rlReps; i++) {
      const [sub0, read0] = [be.stats.submits, be.stats.reads];
      const s0 = performance.now();
      await policyUpdate(model, samples, opts, updateRng, step);
      const dt = performance.now() - s0;
      if (i === 0) await tune('RL update');
      else {
        ms.push(dt / minibatches);
        [counts.submits, counts.reads] = [be.stats.submits - sub0, be.stats.reads - read0];
      }
      log(`  update ${i + 1}${i === 0 ? ' (warm-up)' : ''}: ${(dt / minibatches).toFixed(1)} ms a minibatch`);
    }
    rlUpdate = {
      samples: o.rlSamples,
      T: o.rlT,
      minibatch: o.rlMinibatch,
      minibatches,
      msPerMinibatch: timing(ms),
      submitsPerUpdate: counts.submits,
      readbacksPerUpdate: counts.reads,
    };
  }

  const d1 = decode.find((d) => d.B === 1 && d.cache === 'f32' && d.weights === 'f32');
  const d64 = decode.find((d) => d.B === 64 && d.cache === 'f32' && d.weights === 'f32');
  return {
    adapter: {
      line,
      vendor: summary.vendor,
      architecture: summary.architecture,
      device: summary.device,
      description: summary.description,
      isFallback: summary.isFallback,
      features: summary.features,
    },
    userAgent: navigator.userAgent,
    crossOriginIsolated: globalThis.crossOriginIsolated,
    model: { preset: o.preset, config, parameters: paramLayout(config).count },
    options: o,
    forward,
    training,
    decode,
    hostOrder,
    rlUpdate,
    speedupVsOnnxruntime: forward?.ort ? forward.ort.medianMs / forward.ours.medianMs : null,
    speedupVsTfjs: training.tfjs ? training.tfjs.medianMs / training.ours.medianMs : null,
    decodeBatch64OverBatch1: d1 && d64 ? d64.stepMs.medianMs / d1.stepMs.medianMs : null,
    matmulTuning,
    totalSeconds: (performance.now() - t0) / 1000,
  };
}

/** The tiny model of the harness check: every code path of the big one (2 blocks, 2 heads, tied head). */
export const CHECK_CONFIG: ModelConfig = { vocabSize: 64, contextLength: 16, channels: 16, layers: 2, heads: 2 };

/**
 * Does the harness compare like with like? At a tiny shape, from the same weights and batch: our
 * engine's and TFJS's losses before any update and after one and two AdamW steps (forward, backward,
 * clip and optimiser all equal), and onnxruntime's logits against ours on the exported model.
 */
async function check(): Promise<CheckResult> {
  const { be, summary } = await engine();
  const config = CHECK_CONFIG;
  const [B, T] = [3, 8];
  // Weights with some spread (random LayerNorm weights, biases), so a wrong wiring shows.
  const rng = new Rng('peers-check');
  const weights = initParams(config, 'peers-check');
  for (let i = 0; i < weights.length; i++) weights[i] += 0.1 * rng.normal();
  const batch = randomBatch(rng, B, T, config.vocabSize);
  const ours = new OurTrainer(new Transformer(be, config, weights), B, T, batch.ids, batch.targets);
  const tfjsBackend = await tfjsWebGpu();
  const tfjs = new TfjsTransformer(config, weights, B, T, batch.ids, batch.targets);
  // A large lr and a clip that bites, so a wrong optimiser or clip would move the losses apart.
  const o: AdamWSettings = { ...ADAMW, lr: 1e-2, weightDecay: 0.1, maxGradNorm: 0.5 };
  // trainStep returns the loss before its update: [initial, after step 1, after step 2].
  const oursLoss = [await ours.trainStep(o)];
  const gradNorm = await ours.readNorm();
  oursLoss.push(await ours.trainStep(o), await ours.lossValue());
  const tfjsLoss = [await tfjs.trainStep(o), await tfjs.trainStep(o), await tfjs.lossValue()];
  tfjs.dispose();
  ours.release();

  let ortMaxAbsDiff: number | null = null;
  let ortMaxAbsLogit: number | null = null;
  let ortEp: CheckResult['ortEp'] = null;
  let ortError: string | undefined;
  try {
    const ids = randomIds(rng, B * T, config.vocabSize);
    const feeds = { input_ids: ortIds(ort, ids, B, T) };
    const s = await ortSession(ort, exportOnnx({ config, weights }), feeds, log);
    ortEp = s.ep;
    const out = await s.session.run(feeds);
    const theirs = out.logits.data as Float32Array;
    const model = new Transformer(be, config, weights);
    const idsT = be.fromArray(ids, [ids.length]);
    const mine = await be.read(model.forward(idsT, B, T, { grad: false }).logits);
    ortMaxAbsDiff = 0;
    ortMaxAbsLogit = 0;
    for (let i = 0; i < mine.length; i++) {
      ortMaxAbsDiff = Math.max(ortMaxAbsDiff, Math.abs(mine[i] - theirs[i]));
      ortMaxAbsLogit = Math.max(ortMaxAbsLogit, Math.abs(mine[i]));
    }
    if (mine.length !== theirs.length) throw new Error(`onnxruntime gave ${theirs.length} logits, ours ${mine.length}`);
    await s.session.release();
  } catch (e) {
    ortError = errText(e);
  }
  return {
    adapter: adapterLine(summary),
    config,
    B,
    T,
    oursLoss,
    tfjsLoss,
    tfjsBackend,
    gradNorm,
    maxGradNorm: o.maxGradNorm,
    ortMaxAbsDiff,
    ortMaxAbsLogit,
    ortEp,
    ...(ortError ? { ortError } : {}),
  };
}

/** Our step op by op (bench/peers-profile.ts). */
async function profile(o: {
  mode: 'train' | 'decode';
  preset?: PresetName;
  B?: number;
  T?: number;
  weights?: 'f32' | 'f16';
  math?: 'f32' | 'f16';
}): Promise<ProfileResult & { adapter: string }> {
  const { be, summary } = await engine();
  const r = await profileStep(be, {
    mode: o.mode,
    preset: o.preset ?? 'micro',
    B: o.B ?? (o.mode === 'train' ? 4 : 64),
    T: o.T ?? (o.mode === 'train' ? 64 : 16),
    weights: o.weights,
    math: o.math,
  });
  return { ...r, adapter: adapterLine(summary) };
}

/** Attention probabilities saved in halves vs f32 (bench/saved-attention.ts), each mode on a device of its own. */
async function savedAttention(o: {
  preset?: PresetName;
  B?: number;
  T?: number;
  steps?: number;
}): Promise<SavedAttentionResult & { adapter: string }> {
  let adapter = '';
  const fresh = async (): Promise<WebGpuBackend> => {
    const { be, summary } = await engine();
    adapter = adapterLine(summary);
    return be;
  };
  const r = await compareSavedAttention(
    fresh,
    { preset: o.preset ?? 'micro', B: o.B ?? 4, T: o.T ?? 128, steps: o.steps ?? 3 },
    log,
  );
  return { ...r, adapter };
}

declare global {
  interface Window {
    __peers: { run: typeof run; check: typeof check; profile: typeof profile; savedAttention: typeof savedAttention };
  }
}

window.__peers = { run, check, profile, savedAttention };
log('ready');
