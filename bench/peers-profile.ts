/**
 * Where a training step or a decoding step of our engine spends its time, op by op
 * (`npm run bench -- --peers --profile train|decode [--batch B] [--tokens T] [--weights f16] [--math f16]`). One step is run
 * through a recording proxy of the backend (every Backend call and its arguments, in order), then
 * each recorded call is replayed on its own: a warm-up call, then samples of `reps` calls ending in
 * `sync()`, median per call, after the start-up matmul choice has been made (as in the lab). Ops are pure functions of their arguments (forward ops overwrite, backward
 * ops accumulate), so replaying one changes values, never costs. The sum of the op times against the
 * whole step's time shows what submission and readback add. Where the device has `timestamp-query`,
 * each op's GPU time as well (the same calls in one compute pass, timestamps at its start and end:
 * the kernel's own time, without submission), and the GPU time of a whole training step's passes;
 * rows are then sorted by GPU time. Bench code: nothing here is a test.
 */
import type { Backend, Tensor } from '../src/engine/backend';
import type { WebGpuBackend } from '../src/engine/gpu/backend';
import { median } from '../src/engine/gpu/timing';
import { PRESETS, type PresetName } from '../src/engine/model/config';
import { KvSession } from '../src/engine/model/sampler';
import { fixedSftBuffers, queueSftStep } from '../src/engine/model/sft';
import { tuneMatmuls } from '../src/engine/ops/matmul';
import { initParams, Transformer } from '../src/engine/model/transformer';
import { Rng } from '../src/engine/rng';

export interface ProfileRow {
  /** Op and the shapes of its tensors. */
  label: string;
  calls: number;
  /** Median ms of one call × calls: this op's share of one step. */
  totalMs: number;
  msPerCall: number;
  /** With timestamp-query: the GPU's time for one call (compute passes only), median; else null. */
  gpuMsPerCall: number | null;
  /** gpuMsPerCall × calls (null without timestamp-query). */
  gpuTotalMs: number | null;
}

export interface ProfileResult {
  mode: 'train' | 'decode';
  preset: PresetName;
  B: number;
  T: number;
  /** The whole step, median of a few (with its readback). */
  stepMs: number;
  /** Σ totalMs over the rows. */
  sumOfOpsMs: number;
  /** With timestamp-query: Σ gpuTotalMs, and the GPU's time in the compute passes of one whole training step (recorded without its readback); else null. */
  sumOfOpsGpuMs: number | null;
  stepGpuMs: number | null;
  dispatches: number;
  rows: ProfileRow[];
  /** The kernel chosen per matmul shape before timing (tuneMatmuls, as the lab runs it). */
  matmulChoices: string[];
}

const OPS = new Set([
  'fill',
  'copy',
  'add',
  'addInto',
  'scale',
  'packHalf',
  'matmul',
  'addBias',
  'biasBackward',
  'embedding',
  'embeddingBackward',
  'layerNorm',
  'layerNormBackward',
  'gelu',
  'geluBackward',
  'attention',
  'attentionBackward',
  'attentionCached',
  'softmax',
  'softmaxBackward',
  'logSoftmax',
  'logSoftmaxBackward',
  'crossEntropy',
  'crossEntropyBackward',
  'adamw',
  'clipGradNorm',
]);

interface Call {
  op: string;
  args: unknown[];
}

function isTensor(x: unknown): x is Tensor {
  return typeof x === 'object' && x !== null && 'shape' in x && 'dtype' in x;
}

function label(c: Call): string {
  const shapes = c.args.filter(isTensor).map((t) => t.shape.join('x'));
  const opts = c.args.find((a) => !isTensor(a) && typeof a === 'object' && a !== null) as
    Record<string, unknown> | undefined;
  const flags =
    c.op === 'matmul' && opts
      ? ['transA', 'transB', 'accumulate']
          .filter((k) => opts[k])
          .map((k) => ` ${k}`)
          .join('')
      : '';
  return `${c.op} ${shapes.join(', ')}${flags}`;
}

/** A backend whose op calls are recorded (and still run). */
function recording(be: WebGpuBackend): { proxy: Backend; calls: Call[] } {
  const calls: Call[] = [];
  const proxy = new Proxy(be, {
    get(target, key) {
      const v = Reflect.get(target, key, target) as unknown;
      if (typeof v !== 'function') return v;
      if (typeof key === 'string' && OPS.has(key)) {
        return (...args: unknown[]) => {
          calls.push({ op: key, args });
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (v as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { proxy: proxy as unknown as Backend, calls };
}

/** One recorded call replayed alone: wall ms a call (submission and sync included) and, with timestamp-query, the GPU's ms a call. */
async function replay(be: WebGpuBackend, c: Call): Promise<{ ms: number; gpuMs: number | null }> {
  const fn = (be as unknown as Record<string, (...a: unknown[]) => void>)[c.op].bind(be);
  fn(...c.args);
  await be.sync();
  let t0 = performance.now();
  fn(...c.args);
  await be.sync();
  const probe = performance.now() - t0;
  const reps = Math.max(1, Math.min(20, Math.round(30 / Math.max(probe, 1e-3))));
  const samples: number[] = [];
  const gpuSamples: number[] = [];
  for (let s = 0; s < 3; s++) {
    t0 = performance.now();
    for (let r = 0; r < reps; r++) fn(...c.args);
    await be.sync();
    samples.push((performance.now() - t0) / reps);
    // The same calls in one pass, timed by the GPU (null without timestamp-query).
    const gpu = await be.gpuPassTime(() => {
      for (let r = 0; r < reps; r++) fn(...c.args);
    });
    if (gpu !== null) gpuSamples.push(gpu / reps);
  }
  return { ms: median(samples), gpuMs: gpuSamples.length ? median(gpuSamples) : null };
}

export async function profileStep(
  be: WebGpuBackend,
  o: {
    mode: 'train' | 'decode';
    preset: PresetName;
    B: number;
    T: number;
    weights?: 'f32' | 'f16';
    math?: 'f32' | 'f16';
  },
): Promise<ProfileResult> {
  const config = PRESETS[o.preset];
  const V = config.vocabSize;
  const rng = new Rng('peers-profile');
  const { proxy, calls } = recording(be);
  const model = new Transformer(proxy, config, initParams(config, 'peers'));
  const ids = (n: number) => Int32Array.from({ length: n }, () => rng.int(0, V - 1));
  let step: () => Promise<void>;
  let queueStep: (() => void) | null = null;
  if (o.mode === 'train') {
    // The lab's supervised step (queueSftStep: forward, CE, backward, clip, guarded AdamW), loss read back.
    const N = o.B * o.T;
    const b = fixedSftBuffers(be, ids(N), ids(N), V);
    let t = 0;
    queueStep = () =>
      queueSftStep(model, b, o.B, o.T, 1, {
        lr: 1e-3,
        beta1: 0.9,
        beta2: 0.95,
        eps: 1e-8,
        weightDecay: 0.01,
        step: ++t,
      });
    step = async () => {
      queueStep!();
      await be.read(b.losses);
    };
  } else {
    // Decoding: a session of B sequences with T tokens already cached, one new token each per step.
    const session = new KvSession(model, o.B, { weights: o.weights, math: o.math });
    await session.step(Array.from({ length: o.B }, () => Array.from(ids(o.T))));
    step = async () => {
      await session.step(Array.from({ length: o.B }, () => [rng.int(0, V - 1)]));
    };
  }
  await step();
  // As the lab does after its first step: choose tiled, regs or regs8 per matmul shape.
  const tuned = await tuneMatmuls(be);
  await step();
  const stepTimes: number[] = [];
  for (let i = 0; i < 3; i++) {
    calls.length = 0;
    const d0 = be.stats.dispatches;
    const t0 = performance.now();
    await step();
    stepTimes.push(performance.now() - t0);
    (step as { dispatches?: number }).dispatches = be.stats.dispatches - d0;
  }
  const recorded = calls.slice();
  // The whole training step's GPU time (its compute passes), median of three; null without timestamp-query.
  const stepGpu: number[] = [];
  for (let i = 0; i < 3 && queueStep; i++) {
    const ms = await be.gpuPassTime(queueStep);
    if (ms !== null) stepGpu.push(ms);
  }
  const byLabel = new Map<string, ProfileRow>();
  for (const c of recorded) {
    const { ms, gpuMs } = await replay(be, c);
    const l = label(c);
    const row = byLabel.get(l) ?? {
      label: l,
      calls: 0,
      totalMs: 0,
      msPerCall: 0,
      gpuMsPerCall: null,
      gpuTotalMs: null,
    };
    row.calls++;
    row.totalMs += ms;
    row.msPerCall = row.totalMs / row.calls;
    if (gpuMs !== null) {
      row.gpuTotalMs = (row.gpuTotalMs ?? 0) + gpuMs;
      row.gpuMsPerCall = row.gpuTotalMs / row.calls;
    }
    byLabel.set(l, row);
  }
  const rows = [...byLabel.values()].sort((a, b) => (b.gpuTotalMs ?? b.totalMs) - (a.gpuTotalMs ?? a.totalMs));
  const timed = rows.every((r) => r.gpuTotalMs !== null);
  return {
    mode: o.mode,
    preset: o.preset,
    B: o.B,
    T: o.T,
    stepMs: median(stepTimes),
    sumOfOpsMs: rows.reduce((s, r) => s + r.totalMs, 0),
    dispatches: (step as { dispatches?: number }).dispatches ?? 0,
    rows,
    sumOfOpsGpuMs: timed ? rows.reduce((s, r) => s + (r.gpuTotalMs ?? 0), 0) : null,
    stepGpuMs: stepGpu.length ? median(stepGpu) : null,
    matmulChoices: tuned.map((r) => `${r.shape}: ${r.choice}`),
  };
}

/** The profile as text: the step, then one Markdown row per op (GPU columns where timestamps were taken). */
export function profileText(r: ProfileResult, adapter: string): string {
  const ms = (x: number): string => x.toFixed(x < 10 ? 2 : 1);
  const gpu = r.sumOfOpsGpuMs !== null;
  const head = gpu
    ? [
        '| op (tensor shapes) | calls | ms / call | GPU ms / call | GPU ms / step | GPU share |',
        '|---|---:|---:|---:|---:|---:|',
      ]
    : ['| op (tensor shapes) | calls | ms / call | ms / step | share |', '|---|---:|---:|---:|---:|'];
  const row = (x: ProfileRow): string =>
    gpu
      ? `| ${x.label} | ${x.calls} | ${ms(x.msPerCall)} | ${(x.gpuMsPerCall ?? 0).toFixed(3)} | ${(x.gpuTotalMs ?? 0).toFixed(3)} | ${((100 * (x.gpuTotalMs ?? 0)) / r.sumOfOpsGpuMs!).toFixed(1)}% |`
      : `| ${x.label} | ${x.calls} | ${ms(x.msPerCall)} | ${ms(x.totalMs)} | ${((100 * x.totalMs) / r.sumOfOpsMs).toFixed(1)}% |`;
  return [
    `Adapter: ${adapter}`,
    `${r.mode} step, ${r.preset}, B=${r.B} T=${r.T}: ${ms(r.stepMs)} ms a step (${r.dispatches} dispatches); the ops alone ${ms(r.sumOfOpsMs)} ms`,
    gpu
      ? `GPU time (timestamp-query, compute passes only): the ops alone ${r.sumOfOpsGpuMs!.toFixed(3)} ms${r.stepGpuMs !== null ? `; a whole step's passes ${r.stepGpuMs.toFixed(3)} ms` : ''}`
      : 'GPU time: n/a (no timestamp-query on this device)',
    '',
    ...head,
    ...r.rows.map(row),
    '',
    `matmul kernels chosen at start-up: ${r.matmulChoices.join('; ') || 'none (no shape reached the big-matmul kernels)'}`,
    '',
  ].join('\n');
}
