/**
 * The CPU benchmark's rows, shared by `npm run bench:cpu` (Node, bench/cpu-train.ts) and
 * `npm run bench -- --cpu` (headless Chromium, bench/cpu-page.ts): for each preset, on each CPU
 * backend (the JavaScript reference CpuBackend, the wasm backend on 1 thread and on all threads),
 *   train      one supervised training step, SftTrainer.trainStep (forward, backward, clip, AdamW)
 *              at B×T tokens; also TensorFlow.js on its wasm backend (bench/cpu-tfjs.ts) on the
 *              same model, weights and batch, where the caller provides it;
 *   rlUpdate   one RL policy update (src/rl/update.ts policyUpdate) over one packed minibatch the
 *              size of the ci recipe's (defaultRunConfig('ci'): 4 profiles × group 4 = 16 dialogues,
 *              minibatchSize 16, with its KL term and replay batch), synthetic dialogues of
 *              rlT tokens whose agent turns are the policy rows;
 *   decodeB    one decoding step with the KV cache (KvSession.step, one new token per sequence) at
 *              batch B after a prefilled prompt, as the rollouts do.
 * Figures: the median of `reps` timed repetitions after `warmup` untimed ones; tokens/s counts B·T
 * tokens for a training step, the minibatch's B·T sequence tokens for the RL update, B tokens for
 * a decoding step. Nothing here reads the clock of another thread: each repetition is synchronous
 * work on the calling thread (and the wasm pool it drives), ended by a readback.
 */
import type { Backend } from '../src/engine/backend';
import { CpuBackend } from '../src/engine/cpu/backend';
import { PRESETS, paramLayout, type ModelConfig, type PresetName } from '../src/engine/model/config';
import type { Encoded } from '../src/engine/model/format';
import { KvSession } from '../src/engine/model/sampler';
import { SFT_DEFAULTS, SftTrainer } from '../src/engine/model/sft';
import { initParams, Transformer } from '../src/engine/model/transformer';
import { Rng } from '../src/engine/rng';
import { WasmBackend } from '../src/engine/wasm/backend';
import { defaultRunConfig } from '../src/rl/config';
import type { TrainSample } from '../src/rl/samples';
import { policyUpdate, updateOptions } from '../src/rl/update';

export interface CpuBenchOptions {
  presets: PresetName[];
  /** Training step shape. */
  trainB: number;
  trainT: number;
  /** RL update: tokens per synthetic dialogue (the minibatch is the ci recipe's: 16 dialogues). */
  rlT: number;
  rlSamples: number;
  /** Decoding: batch sizes, and the prompt prefilled per sequence before the timed steps. */
  decodeBatches: number[];
  decodePrompt: number;
  /** Untimed and timed repetitions of every case (decoding: steps). */
  warmup: number;
  reps: number;
  decodeWarmup: number;
  decodeSteps: number;
  /** "All threads" for the wasm backend (os.availableParallelism() in Node, hardwareConcurrency in a page). */
  threads: number;
  /** Skip the TensorFlow.js peer even where one is given. */
  noTfjs: boolean;
}

const CI = defaultRunConfig('ci');

export const CPU_DEFAULTS: CpuBenchOptions = {
  presets: ['ci', 'micro'],
  trainB: 8,
  trainT: 256,
  rlT: 256,
  rlSamples: CI.minibatchSize,
  decodeBatches: [1, 16, 64],
  decodePrompt: 32,
  warmup: 1,
  reps: 3,
  decodeWarmup: 2,
  decodeSteps: 8,
  threads: 1,
  noTfjs: false,
};

/** --quick: one timed repetition; --small: tiny shapes as well (checks that everything runs, no figure). */
export const CPU_QUICK: Partial<CpuBenchOptions> = { reps: 1, decodeWarmup: 1, decodeSteps: 2 };
export const CPU_SMALL: Partial<CpuBenchOptions> = {
  ...CPU_QUICK,
  trainB: 2,
  trainT: 32,
  rlT: 48,
  rlSamples: 4,
  decodeBatches: [1, 4],
  decodePrompt: 8,
};

export type CpuCase = 'train' | 'rlUpdate' | `decode${number}`;
export type CpuBackendName = 'js' | 'wasm' | 'tfjs-wasm';

export interface CpuRow {
  preset: PresetName;
  case: CpuCase;
  backend: CpuBackendName;
  threads: number;
  /** Median ms per repetition (null: the case failed, `error` says why). */
  ms: number | null;
  tokensPerSecond: number | null;
  /** The shape: "B=8 T=256" and the like. */
  shape: string;
  samplesMs: number[];
  /** TensorFlow.js: which wasm build ran. */
  build?: string;
  /** Training: the loss of the first step (the same model and batch on every backend). */
  firstLoss?: number;
  error?: string;
}

/** What the TensorFlow.js peer measured: every step's ms (warm-up included) and loss, and its threads. */
export interface TfjsSteps {
  ms: number[];
  losses: number[];
  threads: number;
  /** Which of TFJS's wasm builds ran: 'simd', or 'threaded-simd' (a cross-origin-isolated page). */
  build: string;
}

/** Runs `warmup + steps` TFJS training steps of `config` from `weights` on one fixed batch. */
export type TfjsRunner = (
  config: ModelConfig,
  weights: Float32Array,
  B: number,
  T: number,
  ids: Int32Array,
  targets: Int32Array,
  o: { warmup: number; steps: number },
) => Promise<TfjsSteps>;

export interface CpuSpeedups {
  /** Wasm on all threads over the JS backend (ms of JS / ms of wasm): micro training step. */
  microTrain: number | null;
  /** The same, micro decoding at batch 16. */
  microDecode16: number | null;
  /** Wasm on all threads over TensorFlow.js's wasm backend, micro training step. */
  microTrainVsTfjsWasm: number | null;
}

export interface CpuResult {
  environment: string;
  cpu: string;
  threads: number;
  crossOriginIsolated: boolean | null;
  wasmDescription: string[];
  options: CpuBenchOptions;
  rows: CpuRow[];
  speedups: CpuSpeedups;
  totalSeconds: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const errText = (e: unknown): string => (e instanceof Error ? e.message.split('\n')[0] : String(e));

/** B dialogues of T + 1 tokens, every token scored: SftTrainer draws all B each step (shuffled). */
function trainData(rng: Rng, B: number, T: number, V: number): Encoded[] {
  return Array.from({ length: B }, () => ({
    ids: Array.from({ length: T + 1 }, () => rng.int(0, V - 1)),
    agentMask: new Array<number>(T + 1).fill(1),
  }));
}

/**
 * A synthetic RL dialogue of T tokens: a 16-token opening, then user turns of 16 tokens and agent
 * turns of 48 (the ci recipe's maxTurnTokens) alternating; the agent tokens are the policy rows,
 * with made-up advantages and old / reference log-probs near uniform.
 */
function rlSample(rng: Rng, T: number, V: number): TrainSample {
  const ids = Array.from({ length: T }, () => rng.int(0, V - 1));
  const rows: number[] = [];
  for (let t = 16, agent = false; t < T; agent = !agent) {
    const end = Math.min(T, t + (agent ? 48 : 16));
    if (agent) for (let i = t; i < end; i++) rows.push(i - 1);
    t = end;
  }
  const n = rows.length;
  const near = () => -Math.log(V) + 0.1 * rng.normal();
  return {
    ids,
    rows,
    advantages: Array.from({ length: n }, () => rng.normal()),
    oldLogprobs: Array.from({ length: n }, near),
    refLogprobs: Array.from({ length: n }, near),
  };
}

interface Measured {
  ms: number[];
  firstLoss?: number;
}

async function timeReps(warmup: number, reps: number, run: () => Promise<number | void>): Promise<Measured> {
  const ms: number[] = [];
  let firstLoss: number | undefined;
  for (let i = 0; i < warmup + reps; i++) {
    const t0 = performance.now();
    const r = await run();
    const dt = performance.now() - t0;
    if (i === 0 && typeof r === 'number') firstLoss = r;
    if (i >= warmup) ms.push(dt);
  }
  return { ms, firstLoss };
}

interface BackendSpec {
  name: 'js' | 'wasm';
  threads: number;
  make: () => Promise<Backend>;
}

/** The backends of a run: JS, wasm on 1 thread, wasm on all threads (when that is more than 1). */
function backendSpecs(threads: number): BackendSpec[] {
  const specs: BackendSpec[] = [
    { name: 'js', threads: 1, make: () => Promise.resolve(new CpuBackend()) },
    { name: 'wasm', threads: 1, make: () => WasmBackend.create({ threads: 1 }) },
  ];
  if (threads > 1) specs.push({ name: 'wasm', threads, make: () => WasmBackend.create({ threads }) });
  return specs;
}

export async function runCpuRows(
  o: CpuBenchOptions,
  env: { environment: string; cpu: string; tfjs?: TfjsRunner; log: (msg: string) => void },
): Promise<CpuResult> {
  const t0 = performance.now();
  const { log } = env;
  const rows: CpuRow[] = [];
  const wasmDescription: string[] = [];
  const push = (r: CpuRow) => {
    rows.push(r);
    log(`  ${rowLine(r)}`);
  };

  for (const preset of o.presets) {
    const config = PRESETS[preset];
    const V = config.vocabSize;
    const weights = initParams(config, 1);
    const rng = new Rng(`cpu-bench-${preset}`);
    const data = trainData(rng, o.trainB, o.trainT, V);
    const samples = Array.from({ length: o.rlSamples }, () => rlSample(rng, Math.min(o.rlT, config.contextLength), V));
    const ptx = trainData(rng, CI.ptxBatch * 2, 128, V);
    const prompts = Array.from({ length: Math.max(...o.decodeBatches) }, () =>
      Array.from({ length: o.decodePrompt }, () => rng.int(0, V - 1)),
    );
    log(`${preset}: ${paramLayout(config).count.toLocaleString('en-US')} parameters`);

    for (const spec of backendSpecs(o.threads)) {
      let be: Backend;
      try {
        be = await spec.make();
      } catch (e) {
        log(`  ${spec.name} (${spec.threads} thread(s)) failed to start: ${errText(e)}`);
        continue;
      }
      const threads = be instanceof WasmBackend ? be.threads : 1;
      if (threads !== spec.threads) {
        // No shared memory (a page that is not cross-origin isolated): the 1-thread row has it.
        log(`  ${be.description}: skipped, ${spec.threads} threads asked for`);
        if (be instanceof WasmBackend) be.dispose();
        continue;
      }
      if (be instanceof WasmBackend && !wasmDescription.includes(be.description)) wasmDescription.push(be.description);
      const base = { preset, backend: spec.name, threads } as const;
      const fail = (c: CpuCase, shape: string, e: unknown): CpuRow => ({
        ...base,
        case: c,
        shape,
        ms: null,
        tokensPerSecond: null,
        samplesMs: [],
        error: errText(e),
      });
      const done = (c: CpuCase, shape: string, tokens: number, m: Measured): CpuRow => {
        const ms = median(m.ms);
        return {
          ...base,
          case: c,
          shape,
          ms,
          tokensPerSecond: (tokens * 1000) / ms,
          samplesMs: m.ms,
          ...(m.firstLoss !== undefined ? { firstLoss: m.firstLoss } : {}),
        };
      };

      // train
      {
        const shape = `B=${o.trainB} T=${o.trainT}`;
        log(`${preset} train ${shape} on ${be.description}`);
        try {
          const model = new Transformer(be, config, weights);
          const trainer = new SftTrainer(model, data, {
            ...SFT_DEFAULTS,
            batchSize: o.trainB,
            seqLen: o.trainT,
            steps: 1000,
          });
          const m = await timeReps(o.warmup, o.reps, async () => (await trainer.trainStep()).loss);
          trainer.release();
          model.release();
          push(done('train', shape, o.trainB * o.trainT, m));
        } catch (e) {
          push(fail('train', shape, e));
        }
      }

      // rlUpdate: one policyUpdate over one minibatch of the ci recipe's update (epochs 1).
      {
        const T = Math.min(o.rlT, config.contextLength);
        const shape = `B=${samples.length} T=${T}`;
        log(`${preset} rlUpdate ${shape} on ${be.description}`);
        try {
          const model = new Transformer(be, config, weights);
          const opts = { ...updateOptions(CI), epochs: 1, minibatchSize: samples.length };
          const updateRng = new Rng('cpu-bench-rl');
          const step = { value: 0 };
          const m = await timeReps(o.warmup, o.reps, async () => {
            await policyUpdate(model, samples, opts, updateRng, step, ptx);
          });
          model.release();
          push(done('rlUpdate', shape, samples.length * T, m));
        } catch (e) {
          push(fail('rlUpdate', shape, e));
        }
      }

      // decode at each batch
      for (const B of o.decodeBatches) {
        const c: CpuCase = `decode${B}`;
        const shape = `B=${B} after ${o.decodePrompt} tokens`;
        log(`${preset} ${c} on ${be.description}`);
        try {
          const model = new Transformer(be, config, weights);
          const session = new KvSession(model, B);
          await session.step(prompts.slice(0, B));
          const tokens = new Rng(`cpu-bench-decode-${B}`);
          const next = () => Array.from({ length: B }, () => [tokens.int(0, V - 1)]);
          const m = await timeReps(o.decodeWarmup, o.decodeSteps, async () => {
            await session.step(next());
          });
          session.release();
          model.release();
          push(done(c, shape, B, m));
        } catch (e) {
          push(fail(c, shape, e));
        }
      }
      if (be instanceof WasmBackend) be.dispose();
    }

    // TensorFlow.js on its wasm backend: the training step, same weights and batch.
    if (env.tfjs && !o.noTfjs) {
      const shape = `B=${o.trainB} T=${o.trainT}`;
      log(`${preset} train ${shape} on TensorFlow.js wasm`);
      const ids = new Int32Array(o.trainB * o.trainT);
      const targets = new Int32Array(o.trainB * o.trainT);
      data.forEach((d, b) => {
        for (let t = 0; t < o.trainT; t++) {
          ids[b * o.trainT + t] = d.ids[t];
          targets[b * o.trainT + t] = d.ids[t + 1];
        }
      });
      try {
        const r = await env.tfjs(config, weights, o.trainB, o.trainT, ids, targets, {
          warmup: o.warmup,
          steps: o.reps,
        });
        const ms = r.ms.slice(o.warmup);
        const med = median(ms);
        push({
          preset,
          case: 'train',
          backend: 'tfjs-wasm',
          threads: r.threads,
          build: r.build,
          shape,
          ms: med,
          tokensPerSecond: (o.trainB * o.trainT * 1000) / med,
          samplesMs: ms,
          firstLoss: r.losses[0],
        });
      } catch (e) {
        push({
          preset,
          case: 'train',
          backend: 'tfjs-wasm',
          threads: 1,
          shape,
          ms: null,
          tokensPerSecond: null,
          samplesMs: [],
          error: errText(e),
        });
      }
    }
  }

  return {
    environment: env.environment,
    cpu: env.cpu,
    threads: o.threads,
    crossOriginIsolated: (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated ?? null,
    wasmDescription,
    options: o,
    rows,
    speedups: cpuSpeedups(rows, o.threads),
    totalSeconds: (performance.now() - t0) / 1000,
  };
}

/** The headline ratios (ms of the slower side over ms of wasm on all threads; > 1: wasm is faster). */
export function cpuSpeedups(rows: readonly CpuRow[], threads: number): CpuSpeedups {
  const ms = (c: CpuCase, backend: CpuBackendName, t?: number) =>
    rows.find(
      (r) => r.preset === 'micro' && r.case === c && r.backend === backend && (t === undefined || r.threads === t),
    )?.ms ?? null;
  const ratio = (a: number | null, b: number | null) => (a !== null && b !== null ? a / b : null);
  // "All threads": the wasm row with the most threads (the 1-thread row on a 1-core machine).
  const allThreads = (c: CpuCase) => {
    const w = rows.filter((r) => r.preset === 'micro' && r.case === c && r.backend === 'wasm');
    const best = w.find((r) => r.threads === threads) ?? w.sort((a, b) => b.threads - a.threads)[0];
    return best?.ms ?? null;
  };
  return {
    microTrain: ratio(ms('train', 'js'), allThreads('train')),
    microDecode16: ratio(ms('decode16', 'js'), allThreads('decode16')),
    microTrainVsTfjsWasm: ratio(ms('train', 'tfjs-wasm'), allThreads('train')),
  };
}

const fmtMs = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(1));

function backendLabel(r: CpuRow): string {
  if (r.backend === 'js') return 'JS (CpuBackend)';
  if (r.backend === 'wasm') return `wasm, ${r.threads} thread${r.threads === 1 ? '' : 's'}`;
  return `TF.js wasm${r.build ? ` (${r.build})` : ''}, ${r.threads} thread${r.threads === 1 ? '' : 's'}`;
}

function rowLine(r: CpuRow): string {
  const fig =
    r.ms === null ? `failed: ${r.error}` : `${fmtMs(r.ms)} ms, ${(r.tokensPerSecond ?? 0).toFixed(0)} tokens/s`;
  return `${r.preset} ${r.case} ${r.shape} on ${backendLabel(r)}: ${fig}`;
}

/** A readable table of the rows, one column per backend. */
export function cpuTable(r: CpuResult): string {
  const cols = [...new Map(r.rows.map((x) => [`${x.backend}/${x.threads}`, x])).values()];
  const key = (x: CpuRow) => `${x.preset} ${x.case}`;
  const cases = [...new Map(r.rows.map((x) => [key(x), x])).values()];
  const head = ['preset', 'case', 'shape', ...cols.map(backendLabel)];
  const body = cases.map((c) => [
    c.preset,
    c.case,
    c.shape,
    ...cols.map((col) => {
      const x = r.rows.find((y) => key(y) === key(c) && y.backend === col.backend && y.threads === col.threads);
      if (!x) return '-';
      if (x.ms === null) return `failed: ${x.error}`;
      return `${fmtMs(x.ms)} ms (${(x.tokensPerSecond ?? 0).toFixed(0)} tok/s)`;
    }),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => `| ${cells.map((x, i) => x.padEnd(widths[i])).join(' | ')} |`;
  const sp = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(2)}x`);
  const losses = r.rows
    .filter((x) => x.case === 'train' && x.firstLoss !== undefined)
    .map((x) => `${x.preset} ${backendLabel(x)} ${x.firstLoss?.toFixed(5)}`);
  return [
    `${r.environment}; CPU: ${r.cpu}; ${r.threads} thread(s)${r.crossOriginIsolated === null ? '' : `; cross-origin isolated: ${r.crossOriginIsolated}`}`,
    ...r.wasmDescription.map((d) => `wasm backend: ${d}`),
    'median ms per repetition after warm-up (tokens/s: B·T per training step or update, B per decoding step)',
    '',
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...body.map(line),
    '',
    `speedups (wasm on all threads; > 1: wasm faster): micro train vs JS ${sp(r.speedups.microTrain)}, micro decode16 vs JS ${sp(r.speedups.microDecode16)}, micro train vs TF.js wasm ${sp(r.speedups.microTrainVsTfjsWasm)}`,
    `first training-step loss (same model and batch): ${losses.join('; ') || 'n/a'}`,
    `total ${r.totalSeconds.toFixed(1)} s`,
  ].join('\n');
}
