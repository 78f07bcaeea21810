/**
 * The policy model on both backends: the same seed gives the same initial weights; forward logits
 * and values, and the whole backward (the gradient arena), agree with the CPU reference; cached
 * decoding agrees; greedy decoding of the `ci` preset gives identical tokens on both backends; the
 * start-up choice between the big-matmul kernels never changes a forward or backward bit.
 *
 * Longer than ~400 lines on purpose: every test builds the same seeded model on both backends from
 * one set of helpers (weights, token batches, ADAM), which separate files would each copy.
 */
import { ladderSize, type Backend, type Tensor } from '../backend';
import type { GpuTensor, WebGpuBackend } from '../gpu/backend';
import { tuneMatmuls } from '../ops/matmul';
import { Rng } from '../rng';
import { compare, type CompareReport } from '../testing/compare';
import type { GpuTest } from '../testing/gpu-test';
import { paramLayout, PRESETS, type ModelConfig } from './config';
import { loadCheckpoint, saveCheckpoint } from './checkpoint';
import { generate, GREEDY, KvSession } from './sampler';
import { Tokenizer } from './tokenizer';
import { fixedSftBuffers, queueSftStep } from './sft';
import { initParams, Transformer, type TransformerOptions } from './transformer';
import { Slabs } from './slabs';

const TINY: ModelConfig = { vocabSize: 37, contextLength: 12, channels: 16, layers: 2, heads: 4 };
/** AdamW's settings for the training-step tests (the step number added per step). */
const ADAM = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.01 };

/** N random token ids and next-token targets of TINY's vocabulary. */
function tokenBatch(rng: Rng, N: number): { ids: Int32Array; targets: Int32Array } {
  const ids = Int32Array.from({ length: N }, () => rng.int(0, TINY.vocabSize - 1));
  const targets = Int32Array.from({ length: N }, () => rng.int(0, TINY.vocabSize - 1));
  return { ids, targets };
}

/**
 * A batch of B = 3 rows of T = 7 tokens (a fifth of the targets skipped), value-head gradients, and
 * weights a little off `config`'s init so every path carries a gradient: one draw from `seed`.
 */
function modelCase(config: ModelConfig, seed: string) {
  const [B, T] = [3, 7];
  const N = B * T;
  const rng = new Rng(seed);
  const ids = Int32Array.from({ length: N }, () => rng.int(0, TINY.vocabSize - 1));
  const targets = Int32Array.from({ length: N }, (_, n) => (n % 5 === 0 ? -1 : rng.int(0, TINY.vocabSize - 1)));
  const dValues = Float32Array.from({ length: N }, () => rng.normal());
  const weights = initParams(config, seed);
  for (let i = 0; i < weights.length; i++) weights[i] += rng.normal() * 0.05;
  return { B, T, ids, targets, dValues, weights };
}

/**
 * One forward and full backward of a fresh model: next-token cross-entropy (mean over the N = B·T
 * positions; target -1 is skipped) into the logits, `dValues` into the value head.
 */
async function forwardBackward(
  be: Backend,
  cfg: ModelConfig,
  weights: Float32Array,
  B: number,
  T: number,
  ids: Int32Array,
  targets: Int32Array,
  dValues: Float32Array,
  opts: TransformerOptions = {},
): Promise<{ logits: Float32Array; values: Float32Array; grads: Float32Array; model: Transformer }> {
  const N = B * T;
  const model = new Transformer(be, cfg, weights, opts);
  const tIds = be.fromArray(ids, [N]);
  const { logits, values } = model.forward(tIds, B, T);
  const dLogits = be.zeros([N, cfg.vocabSize]);
  be.crossEntropyBackward(
    dLogits,
    logits,
    be.fromArray(targets, [N]),
    be.fromArray(new Float32Array(N).fill(1 / N), [N]),
  );
  model.zeroGrads();
  model.backward(tIds, dLogits, be.fromArray(dValues, [N, 1]));
  return { logits: await be.read(logits), values: await be.read(values), grads: await be.read(model.grads), model };
}

export const modelGpuTests: GpuTest[] = [
  {
    name: "matmul start-up choice: tuneMatmuls times the model's big matmuls; tiled, regs or regs8, same bits",
    async run(env) {
      const cfg: ModelConfig = { vocabSize: 96, contextLength: 48, channels: 64, layers: 1, heads: 2 };
      const [B, T] = [2, 40]; // 80 rows: the QKV, MLP and logits matmuls and their gradients are big enough for tiled
      const N = B * T;
      const rng = new Rng('matmul-choice');
      const ids = Int32Array.from({ length: N }, () => rng.int(0, cfg.vocabSize - 1));
      const targets = Int32Array.from({ length: N }, () => rng.int(0, cfg.vocabSize - 1));
      const weights = initParams(cfg, 'matmul-choice');
      const be: WebGpuBackend = env.gpu;
      const run = () => forwardBackward(be, cfg, weights, B, T, ids, targets, new Float32Array(N));
      const first = await run();
      // A matmul over packed-half b (decoding with half weights) is timed as a shape of its own
      // (dispatched a few times, so it is among the most used and gets timed).
      const halfB = be.fromArray(new Float32Array(64 * 48).fill(0.5), [64, 48]);
      const halfA = be.fromArray(new Float32Array(N * 64).fill(1), [N, 64]);
      const halfOut = be.zeros([N, 96]);
      for (let i = 0; i < 4; i++) be.matmul(halfOut, halfA, halfB, { bHalf: true });
      // With shader-f16, the same shape in f16 arithmetic is another (its kernels differ), timed on its own.
      const f16Out = be.zeros([N, 96]);
      const f16Opts = { bHalf: true, math: 'f16' } as const;
      if (be.hasF16Math) for (let i = 0; i < 4; i++) be.matmul(f16Out, halfA, halfB, f16Opts);
      const f16Before = be.hasF16Math ? await be.read(f16Out) : null;
      const rows = await tuneMatmuls(be, { samples: 1, maxShapes: 5 });
      if (!rows.some((r) => r.shape === `(${N}×64)·(64×96) half b`))
        throw new Error(`tuneMatmuls did not time the packed-half shape: ${rows.map((r) => r.shape).join('; ')}`);
      if (be.hasF16Math && !rows.some((r) => r.shape === `(${N}×64)·(64×96) half b f16`))
        throw new Error(`tuneMatmuls did not time the f16-arithmetic shape: ${rows.map((r) => r.shape).join('; ')}`);
      if (rows.length === 0)
        throw new Error("tuneMatmuls timed no shape: the model's matmuls did not reach the tiled kernel");
      for (const r of rows) {
        if (!(r.tiledMs > 0 && r.regsMs > 0 && r.regs8Ms > 0 && Number.isFinite(r.tiledMs + r.regsMs + r.regs8Ms)))
          throw new Error(`tuneMatmuls: bad timing ${JSON.stringify(r)}`);
        // Timed by the GPU's own timestamps where the device has them (SwiftShader and lavapipe do).
        const want = be.device.features.has('timestamp-query') ? 'gpu' : 'wall';
        if (r.timer !== want)
          throw new Error(`tuneMatmuls timed ${r.shape} by the ${r.timer} clock; this device should use ${want}`);
      }
      be.matmulChooser.force('regs');
      const regs = await run();
      be.matmulChooser.force('regs8');
      const regs8 = await run();
      be.matmulChooser.force('tiled');
      const tiled = await run();
      const exact = { abs: 0, rel: 0 };
      const f16Reports: CompareReport[] = [];
      if (f16Before) {
        for (const k of ['regs', 'regs8', 'tiled'] as const) {
          be.matmulChooser.force(k);
          be.matmul(f16Out, halfA, halfB, f16Opts);
          f16Reports.push(
            compare(`f16 arithmetic, ${k} chosen: the bits before tuning`, await be.read(f16Out), f16Before, exact),
          );
        }
      }
      return [
        ...f16Reports,
        compare(
          `regs everywhere: logits (tuned ${rows.map((r) => `${r.shape} ${r.choice}`).join(', ')})`,
          regs.logits,
          first.logits,
          exact,
        ),
        compare('regs everywhere: values', regs.values, first.values, exact),
        compare('regs everywhere: gradient arena', regs.grads, first.grads, exact),
        compare('regs8 everywhere: logits', regs8.logits, first.logits, exact),
        compare('regs8 everywhere: gradient arena', regs8.grads, first.grads, exact),
        compare('tiled everywhere: gradient arena', tiled.grads, first.grads, exact),
      ];
    },
  },
  {
    name: 'transformer: forward and full backward agree on both backends',
    async run(env) {
      const { B, T, ids, targets, dValues, weights } = modelCase(TINY, 'model-gpu');
      const run = (be: Backend, opts: TransformerOptions = {}) =>
        forwardBackward(be, TINY, weights, B, T, ids, targets, dValues, opts);
      const want = await run(env.cpu);
      const got = await run(env.gpu);
      // Attention probabilities saved as packed halves: the forward keeps its bits; the backward
      // reads the halves (each backend rounds its own probabilities, WGSL either way at a tie).
      const half = { savedAttention: 'f16' } as const;
      const wantHalf = await run(env.cpu, half);
      const gotHalf = await run(env.gpu, half);
      if (gotHalf.grads.every((g, i) => g === got.grads[i]))
        throw new Error('savedAttention f16 gave the f32 gradient exactly: are the halves read?');
      return [
        compare('logits', got.logits, want.logits),
        compare('values', got.values, want.values),
        compare('gradient arena', got.grads, want.grads, { abs: 1e-5, rel: 1e-3 }),
        compare("savedAttention f16: logits = the f32 run's bits", gotHalf.logits, got.logits, { abs: 0, rel: 0 }),
        compare("savedAttention f16: values = the f32 run's bits", gotHalf.values, got.values, { abs: 0, rel: 0 }),
        compare('savedAttention f16: gradient arena vs cpu', gotHalf.grads, wantHalf.grads, { abs: 1e-5, rel: 1e-3 }),
      ];
    },
  },
  {
    name: 'transformer reading the previous token (previousToken): forward, full backward and cached decoding agree on both backends',
    async run(env) {
      const config: ModelConfig = { ...TINY, previousToken: true };
      const { B, T, ids, targets, dValues, weights } = modelCase(config, 'model-gpu-prev');
      const want = await forwardBackward(env.cpu, config, weights, B, T, ids, targets, dValues);
      const got = await forwardBackward(env.gpu, config, weights, B, T, ids, targets, dValues);
      const wprev = paramLayout(config).byName.wprev;
      if (want.grads.subarray(wprev.offset, wprev.offset + wprev.size).every((g) => g === 0))
        throw new Error("wprev's gradient is all zero on the CPU: is the previous token read?");
      const decode = async (be: Backend) => {
        const session = new KvSession(new Transformer(be, config, weights), 3);
        const a = await session.step([[1, 2, 3, 4, 5], [6], [7, 8, 9]]);
        const b = await session.step([[10], [11], []]);
        session.release();
        return [...a, ...b];
      };
      const wantKv = await decode(env.cpu);
      const gotKv = await decode(env.gpu);
      return [
        compare('logits', got.logits, want.logits),
        compare('values', got.values, want.values),
        compare('gradient arena', got.grads, want.grads, { abs: 1e-5, rel: 1e-3 }),
        ...wantKv.map((w, i) => compare(`cached decoding: logits row ${i}`, gotKv[i], w)),
      ];
    },
  },
  {
    name: 'optimizerStep with its own rate for the value head (PPO critic) and 0 for the trunk (critic warm-up): both backends agree',
    async run(env) {
      const [B, T] = [2, 6];
      const N = B * T;
      const rng = new Rng('head-rates');
      const { ids, targets } = tokenBatch(rng, N);
      const dValues = Float32Array.from({ length: N }, () => rng.normal());
      const weights = initParams(TINY, 'head-rates');
      const step = async (be: Backend, rates: { trunk?: number; head?: number }) => {
        const { model } = await forwardBackward(be, TINY, weights, B, T, ids, targets, dValues);
        model.optimizerStep({ ...ADAM, step: 1 }, [], rates);
        return { p: await be.read(model.params), m: await be.read(model.adamM) };
      };
      const out: CompareReport[] = [];
      for (const rates of [
        { trunk: ADAM.lr, head: 10 * ADAM.lr },
        { trunk: 0, head: 10 * ADAM.lr },
      ]) {
        const want = await step(env.cpu, rates);
        const got = await step(env.gpu, rates);
        const at = new Transformer(env.cpu, TINY, weights, { frozen: true }).layout.byName['value.w'].offset;
        if (rates.trunk === 0 && !got.p.subarray(0, at).every((x, i) => x === weights[i]))
          throw new Error('a trunk rate of 0 moved the trunk on the GPU');
        // AdamW's first step is lr · g / (|g| + ε): where |g| is near ε, the backends' last-bit
        // gradient differences move a weight by a few 1e-5; abs 1e-4 is 1% of the trunk's lr.
        out.push(
          compare(`trunk ${rates.trunk}, head ${rates.head}: weights`, got.p, want.p, { abs: 1e-4, rel: 1e-3 }),
          compare(`trunk ${rates.trunk}, head ${rates.head}: first moments`, got.m, want.m, { abs: 1e-6, rel: 1e-3 }),
        );
      }
      return out;
    },
  },
  {
    name: 'transformer training steps, attention saved in f32 or halves: the same losses and weights on both backends, no buffer or pipeline after step 1',
    async run(env) {
      const [B, T] = [2, 9]; // 2·4·81 = 648 probabilities a layer
      const N = B * T;
      const { ids, targets } = tokenBatch(new Rng('sft-steps'), N);
      const weights = initParams(TINY, 'sft-steps');
      const steps = async (be: Backend, opts: TransformerOptions, afterFirst?: () => void) => {
        const model = new Transformer(be, TINY, weights, opts);
        const b = fixedSftBuffers(be, ids, targets, TINY.vocabSize);
        const losses: number[] = [];
        for (let k = 1; k <= 3; k++) {
          queueSftStep(model, b, B, T, 1, { ...ADAM, step: k });
          losses.push((await be.read(b.losses)).reduce((a, x) => a + x, 0) / N);
          if (k === 1) afterFirst?.();
        }
        return { losses, params: await model.readParams() };
      };
      const reports: CompareReport[] = [];
      for (const savedAttention of ['f32', 'f16'] as const) {
        const want = await steps(env.cpu, { savedAttention });
        const gpu: WebGpuBackend = env.gpu;
        let first = { buffers: 0, pipelines: 0 };
        const got = await steps(
          gpu,
          { savedAttention },
          () => (first = { buffers: gpu.stats.buffersCreated, pipelines: gpu.stats.pipelinesCreated }),
        );
        reports.push(
          compare(`${savedAttention}: losses of 3 steps`, got.losses, want.losses, { abs: 0, rel: 1e-4 }),
          compare(`${savedAttention}: weights after 3 steps`, got.params, want.params, { abs: 1e-5, rel: 1e-3 }),
          compare(`${savedAttention}: buffers created after step 1`, [gpu.stats.buffersCreated], [first.buffers], {
            abs: 0,
            rel: 0,
          }),
          compare(
            `${savedAttention}: pipelines compiled after step 1`,
            [gpu.stats.pipelinesCreated],
            [first.pipelines],
            { abs: 0, rel: 0 },
          ),
        );
      }
      return reports;
    },
  },
  {
    name: "transformer memory: a released model's buffers serve the next (nothing new allocated, the same numbers); a frozen model, one set of layer activations, computes the same bits",
    async run(env) {
      const gpu: WebGpuBackend = env.gpu;
      const [B, T] = [2, 9];
      const N = B * T;
      const { ids, targets } = tokenBatch(new Rng('release-reuse'), N);
      const weights = initParams(TINY, 'release-reuse');
      // A run: a trainable model takes two steps, a frozen copy of its weights scores the batch.
      const run = async () => {
        const model = new Transformer(gpu, TINY, weights);
        const b = fixedSftBuffers(gpu, ids, targets, TINY.vocabSize);
        const losses: number[] = [];
        for (let k = 1; k <= 2; k++) {
          queueSftStep(model, b, B, T, 1, { ...ADAM, step: k });
          losses.push(...(await gpu.read(b.losses)));
        }
        const trained = await model.readParams();
        const frozen = new Transformer(gpu, TINY, trained, { frozen: true });
        const tIds = gpu.fromArray(ids, [N]);
        const frozenLogits = await gpu.read(frozen.forward(tIds, B, T).logits);
        const ownLogits = await gpu.read(model.forward(tIds, B, T, { grad: false }).logits);
        for (const t of [...Object.values(b), tIds]) gpu.release(t);
        model.release();
        frozen.release();
        return { losses, trained, frozenLogits, ownLogits };
      };
      const first = await run();
      const bytes = gpu.stats.bytesCreated;
      const buffers = gpu.stats.buffersCreated;
      const second = await run();
      return [
        compare('frozen vs trainable forward: logits', first.frozenLogits, first.ownLogits, { abs: 0, rel: 0 }),
        compare('second run: losses', second.losses, first.losses, { abs: 0, rel: 0 }),
        compare('second run: weights', second.trained, first.trained, { abs: 0, rel: 0 }),
        compare('second run: frozen logits', second.frozenLogits, first.frozenLogits, { abs: 0, rel: 0 }),
        compare('buffers created by the second run', [gpu.stats.buffersCreated], [buffers], { abs: 0, rel: 0 }),
        compare('bytes created by the second run', [gpu.stats.bytesCreated], [bytes], { abs: 0, rel: 0 }),
      ];
    },
  },
  {
    name: "pool limit: released buffers beyond it go back to the device, also while recorded work still uses them; shapes that change keep a bounded footprint and the CPU's numbers",
    async run(env) {
      const gpu: WebGpuBackend = env.gpu;
      const weights = initParams(TINY, 'pool-limit');
      const rng = new Rng('pool-limit');
      // Training steps whose batch shape changes every step (as RL minibatches of dialogues do).
      const shapes = [
        [2, 5],
        [1, 9],
        [3, 7],
        [2, 11],
        [2, 5],
        [3, 12],
      ];
      const batches = shapes.map(([B, T]) => ({ B, T, ...tokenBatch(rng, B * T) }));
      const run = async (be: Backend, afterStep: () => void = () => {}) => {
        const model = new Transformer(be, TINY, weights);
        const losses: number[] = [];
        for (const [k, x] of batches.entries()) {
          const b = fixedSftBuffers(be, x.ids, x.targets, TINY.vocabSize);
          queueSftStep(model, b, x.B, x.T, 1, { ...ADAM, step: k + 1 });
          for (const t of Object.values(b)) if (t !== b.losses) be.release(t); // given back before the step is even submitted
          losses.push(...(await be.read(b.losses)));
          be.release(b.losses);
          afterStep();
        }
        const params = await model.readParams();
        model.release();
        return { losses, params };
      };
      const want = await run(env.cpu);
      const pooled = await run(gpu); // the default pool: the same device's bits to hold the no-pool run to
      const limit = gpu.maxFreeBytes;
      const before = { ...gpu.stats };
      let maxPooled = 0;
      gpu.maxFreeBytes = () => 0; // no pool: every release goes back to the device, while the step that used it is still unsubmitted
      let got;
      try {
        got = await run(gpu, () => (maxPooled = Math.max(maxPooled, gpu.pooledBytes)));
      } finally {
        gpu.maxFreeBytes = limit;
      }
      if (gpu.stats.buffersDestroyed - before.buffersDestroyed < 20)
        throw new Error(`only ${gpu.stats.buffersDestroyed - before.buffersDestroyed} buffers went back to the device`);
      // Memory of sizes that change per call is sized on the ladder, so a nearby size reuses it.
      const onLadder = (t: Tensor) => (t as GpuTensor).buffer.size;
      const scratch = gpu.scratch([5000]);
      const [perCall, own] = [new Slabs(gpu, { ladder: true }), new Slabs(gpu)];
      const sizes = [onLadder(scratch), onLadder(perCall.take('y', [5000])), onLadder(own.take('y', [5000]))];
      gpu.release(scratch);
      perCall.release();
      own.release();
      return [
        compare('losses, shapes changing every step, no pool, vs the CPU', got.losses, want.losses, {
          abs: 0,
          rel: 1e-4,
        }),
        compare('losses, no pool vs the default pool (same device: the same bits)', got.losses, pooled.losses, {
          abs: 0,
          rel: 0,
        }),
        compare('weights after 6 steps, no pool vs the default pool', got.params, pooled.params, { abs: 0, rel: 0 }),
        compare('pooled bytes after a step (limit 0)', [maxPooled], [0], { abs: 0, rel: 0 }),
        compare(
          "buffer bytes of scratch, a per-call Slabs' and a model's Slabs' 5,000 values",
          sizes,
          [ladderSize(5000) * 4, ladderSize(5000) * 4, 5000 * 4],
          { abs: 0, rel: 0 },
        ),
      ];
    },
  },
  {
    name: 'transformer: cached decoding agrees on both backends (ragged prefill, then steps), f32 and f16 caches, f32 weights and half copies, f16 arithmetic where shader-f16 is',
    async run(env) {
      const weights = initParams(TINY, 'kv-gpu');
      const prompts = [[1, 2, 3, 4, 5], [6], [7, 8, 9]];
      const steps = [[10], [11], []];
      const run = async (be: Backend, cache: 'f32' | 'f16', w: 'f32' | 'f16' = 'f32', math: 'f32' | 'f16' = 'f32') => {
        const session = new KvSession(new Transformer(be, TINY, weights), prompts.length, { cache, weights: w, math });
        const a = await session.step(prompts);
        const b = await session.step(steps);
        session.release();
        return [...a, ...b];
      };
      const reports: CompareReport[] = [];
      for (const cache of ['f32', 'f16'] as const) {
        const want = await run(env.cpu, cache);
        const got = await run(env.gpu, cache);
        reports.push(...want.map((w, i) => compare(`${cache} cache: logits row ${i}`, got[i], w)));
        if (cache === 'f16') {
          // The half rounding of k and v shows in the logits, and only a little.
          const full = await run(env.cpu, 'f32');
          const moved = want.some((w, i) => w.some((x, j) => x !== full[i][j]));
          if (!moved) throw new Error('the f16 cache gave the f32 logits exactly: is it used?');
          reports.push(
            ...want.map((w, i) =>
              compare(`f16 vs f32 cache (CPU): logits row ${i}`, w, full[i], { abs: 5e-3, rel: 5e-3 }),
            ),
          );
        }
      }
      // Half copies of the weights (packHalf on each backend; WGSL may round a value either way, so
      // a little more than f32's tolerance), and their rounding shows in the logits, only a little.
      const want = await run(env.cpu, 'f32', 'f16');
      const got = await run(env.gpu, 'f32', 'f16');
      reports.push(...want.map((w, i) => compare(`f16 weights: logits row ${i}`, got[i], w, { abs: 1e-3, rel: 1e-3 })));
      const full = await run(env.cpu, 'f32');
      if (!want.some((w, i) => w.some((x, j) => x !== full[i][j])))
        throw new Error('half weights gave the f32 logits exactly: are they used?');
      reports.push(
        ...want.map((w, i) =>
          compare(`f16 vs f32 weights (CPU): logits row ${i}`, w, full[i], { abs: 2e-2, rel: 2e-2 }),
        ),
      );
      // f16 arithmetic (shader-f16): the GPU's half sums against the CPU's emulation of them. Without
      // the feature (SwiftShader) a session asking for it is refused, and none uses it by default.
      if (env.gpu.hasF16Math) {
        const want16 = await run(env.cpu, 'f16', 'f16', 'f16');
        const got16 = await run(env.gpu, 'f16', 'f16', 'f16');
        reports.push(
          ...want16.map((w, i) =>
            compare(`f16 cache, weights and arithmetic: logits row ${i}`, got16[i], w, { abs: 5e-3, rel: 5e-3 }),
          ),
        );
        const half = await run(env.cpu, 'f16', 'f16');
        if (!want16.some((w, i) => w.some((x, j) => x !== half[i][j])))
          throw new Error("f16 arithmetic gave the f32 arithmetic's logits exactly: is it used?");
        reports.push(
          ...want16.map((w, i) =>
            compare(`f16 vs f32 arithmetic (CPU): logits row ${i}`, w, half[i], { abs: 3e-2, rel: 3e-2 }),
          ),
        );
      } else {
        const model = new Transformer(env.gpu, TINY, weights);
        let refused = '';
        try {
          new KvSession(model, 1, { weights: 'f16', math: 'f16' }).release();
        } catch (e) {
          refused = String(e);
        }
        const byDefault = new KvSession(model, 1);
        const math = byDefault.math;
        byDefault.release();
        reports.push(
          compare(
            `no shader-f16: math f16 refused (${refused || 'not refused'}), default arithmetic ${math}`,
            [+/needs a GPU with the shader-f16 feature/.test(refused), +(math === 'f32')],
            [1, 1],
            { abs: 0, rel: 0 },
          ),
        );
      }
      return reports;
    },
  },
  {
    name: 'ci preset: greedy decoding gives identical tokens on both backends',
    async run(env) {
      const weights = initParams(PRESETS.ci, 'greedy');
      const prompts = [
        [256 + 2, 72, 101, 108, 108, 111],
        [256 + 2, 87, 104, 121],
      ];
      const run = (be: Backend) =>
        generate(new Transformer(be, PRESETS.ci, weights), prompts, {
          maxNewTokens: 12,
          stop: [],
          sampling: GREEDY,
          rng: new Rng(0),
          cache: 'f32',
        });
      const want = (await run(env.cpu)).flat();
      const got = (await run(env.gpu)).flat();
      const report: CompareReport = compare('greedy tokens (exact)', got, want, { abs: 0, rel: 0 });
      return [report];
    },
  },
  {
    name: 'checkpoint: saved from the GPU, loaded on the CPU (and back), same logits',
    async run(env) {
      const rng = new Rng('ck-gpu');
      const tok = Tokenizer.train(['a checkpoint round trip'], 270);
      const config = { ...TINY, vocabSize: tok.vocabSize };
      const weights = initParams(config, 'ck');
      for (let i = 0; i < weights.length; i++) weights[i] += rng.normal() * 0.05;
      const gpuModel = new Transformer(env.gpu, config, weights);
      const bytes = saveCheckpoint({ config, tokenizer: tok.toJSON(), weights: await gpuModel.readParams(), meta: {} });
      const ck = loadCheckpoint(bytes);
      const ids = Int32Array.from({ length: 10 }, () => rng.int(0, config.vocabSize - 1));
      const logitsOf = async (be: Backend, w: Float32Array) => {
        const m = new Transformer(be, ck.config, w);
        return be.read(m.forward(be.fromArray(ids, [10]), 2, 5).logits);
      };
      return [
        compare('weights after a GPU save', ck.weights, weights, { abs: 0, rel: 0 }),
        compare(
          'logits: GPU model vs CPU model from the file',
          await logitsOf(env.gpu, weights),
          await logitsOf(env.cpu, ck.weights),
        ),
      ];
    },
  },
];
