/**
 * `npm run experiment -- [--config FILE] [--preset P] [--algo grpo|ppo|rloo] [--think [--free-think]]
 *   [--reward final|turn|both] [--difficulty D] [--steps N] [--seed S] [--out DIR] [--json]`:
 * trains headless from the preset's warm start (public/warmstart-<preset>.bin, or --init FILE, or a
 * fresh warm start when neither exists), plays the 100 benchmark profiles before and after, and
 * writes config.json, metrics.csv, metrics.json (both after every step), transcripts.jsonl and
 * checkpoint.bin to DIR. With --json the last line on stdout is {before, after, steps, seconds,
 * backend, threads, ...}; before and after carry the benchmark's score, success and failure and
 * the fluency figures of `npm run evaluate` (realWords, hacking, surprisal, surprisalCorpus, oov,
 * distinct2, meanReplyWords, meanReplyTokens: src/rl/fluency.ts).
 * `--backend wasm|cpu|webgpu`; by default WebGPU through Dawn on a hardware GPU, else wasm on all
 * cores (./backend.ts), saying which.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Backend } from '../engine/backend';
import { WasmBackend } from '../engine/wasm/backend';
import { CheckpointError, loadCheckpoint, type Checkpoint } from '../engine/model/checkpoint';
import { hasPresetShape, PRESETS, type PresetName } from '../engine/model/config';
import { encodeTrainingExamples } from '../engine/model/format';
import { perplexity } from '../engine/model/sft';
import { createHash } from 'node:crypto';
import { buildCorpus } from '../corpus/build';
import { runPresetWarmStart } from '../experiment/warmstart';
import { benchmarkProfiles, trainingProfiles } from '../persona/sets';
import { BENCHMARK_REDRAWS, parseRunConfig, parseRunConfigJson, type RunConfig } from '../rl/config';
import { Trainer, TrainingStopped, type EvalResult } from '../rl/trainer';
import type { DialogueRollout } from '../rl/rollout';
import { thinkFormat } from '../rl/think-format';
import { fluencyJson, fluencyOf } from '../rl/fluency';
import type { ReferenceLm } from '../rl/reference-lm';
import type { Profile } from '../persona/profile';
import { commandFlags, die, readReferenceLm } from './args';
import { BACKEND_FLAGS, chooseBackend } from './backend';

const SPEC = {
  config: { type: 'string', help: "run config JSON (fields not given take the preset's defaults; flags override it)" },
  preset: { type: 'string', help: `model preset: ${Object.keys(PRESETS).join(', ')} (default micro)` },
  algo: { type: 'string', help: 'grpo (default), ppo or rloo' },
  think: { type: 'boolean', help: 'think mode: <think> plan </think> before each reply' },
  'free-think': {
    type: 'boolean',
    help: 'think mode without the turn-format grammar: sample freely in training and on the benchmark (thinkGrammar false)',
  },
  reward: { type: 'string', help: 'final (default), turn or both' },
  difficulty: { type: 'string', help: 'training users: moderate (default) or strict' },
  steps: { type: 'number', help: "training steps (default: the preset's)" },
  seed: { type: 'number', help: 'seed (default 1)' },
  init: { type: 'string', help: 'starting checkpoint (default public/warmstart-<preset>.bin)' },
  out: {
    type: 'string',
    help: 'output folder (default runs/<preset>-<algo>[-think|-freethink]-<reward>-<difficulty>-s<seed>)',
  },
  'no-eval': { type: 'boolean', help: 'skip the benchmark and the perplexity before and after (quick runs)' },
  'bench-limit': {
    type: 'number',
    help: 'play only the first N of the 100 benchmark profiles before and after (quick runs)',
  },
  cache: {
    type: 'string',
    help: "folder to keep the starting policy's benchmark and perplexity in, reused by runs from the same start (npm run replicate uses it)",
  },
  ...BACKEND_FLAGS,
  json: { type: 'boolean', help: 'print a JSON summary last on stdout' },
  help: { type: 'boolean', help: 'this message' },
} as const;

const CMD = 'npm run experiment --';

const round = (x: number, k: number) => Math.round(x * 10 ** k) / 10 ** k;

/** The benchmark figures of `before` and `after`: the score, and the fluency keys `npm run evaluate` prints. */
function figures(e: EvalResult, profiles: readonly Profile[], lm: ReferenceLm, think: boolean) {
  return {
    score: round(e.score, 1),
    success: round(e.success, 3),
    failure: round(e.failure, 3),
    ...fluencyJson(fluencyOf(e.rollouts, profiles, lm, { maxExamples: 0 }), lm),
    meanReplyTokens: round(e.meanReplyTokens, 1),
    // Think mode: the share of well-formed think turns.
    ...(think ? { wellFormed: round(thinkFormat(e.rollouts).share, 3) } : {}),
  };
}

/** One line of the fluency figures for stderr. */
function fluencyLine(e: EvalResult, profiles: readonly Profile[], lm: ReferenceLm): string {
  const f = figures(e, profiles, lm, false);
  return `real words ${(f.realWords * 100).toFixed(0)}%, flagged ${(f.hacking.share * 100).toFixed(1)}%, surprisal ${f.surprisal} bits/word (corpus ${f.surprisalCorpus}), distinct-2 ${f.distinct2}`;
}

function transcriptLine(phase: string, step: number, d: DialogueRollout): string {
  return JSON.stringify({
    phase,
    step,
    profileId: d.profileId,
    opening: d.opening,
    finalEmotion: d.finalEmotion,
    reward: d.reward,
    endReason: d.endReason,
    turns: d.turns.map((t) => ({
      reply: t.reply,
      think: t.think,
      wellFormed: t.wellFormed,
      change: t.result.change,
      emotion: t.result.emotion,
      line: t.result.line,
      appraisal: t.result.appraisal,
    })),
  });
}

async function main(): Promise<void> {
  const f = commandFlags(CMD, SPEC);
  // Config: preset defaults < config file < flags; every value validated by the schema.
  let raw: Record<string, unknown> = {};
  if (f.config) {
    let text: string;
    try {
      text = readFileSync(f.config, 'utf8');
    } catch (e) {
      die(`cannot read ${f.config}: ${(e as Error).message}`);
    }
    const parsed = parseRunConfigJson(text, (f.preset ?? 'micro') as PresetName);
    if (!parsed.ok) die(`${f.config} is not a valid run config:\n  ${parsed.errors.join('\n  ')}`, 2);
    raw = parsed.config;
  }
  const overrides: Record<string, unknown> = {};
  if (f.preset !== undefined) overrides.preset = f.preset;
  if (f.algo !== undefined) overrides.algo = f.algo;
  if (f.think !== undefined) overrides.think = f.think;
  if (f['free-think']) overrides.thinkGrammar = false;
  if (f.reward !== undefined) overrides.reward = f.reward;
  if (f.difficulty !== undefined) overrides.difficulty = f.difficulty;
  if (f.steps !== undefined) overrides.steps = f.steps;
  if (f.seed !== undefined) overrides.seed = f.seed;
  // A preset given on the command line brings its own defaults, not the config file's.
  const base = f.preset !== undefined && raw.preset !== f.preset ? {} : raw;
  const parsed = parseRunConfig({ ...base, ...overrides }, 'micro');
  if (!parsed.ok) die(`bad run config:\n  ${parsed.errors.join('\n  ')}`, 2);
  const config: RunConfig = parsed.config;
  if (f['free-think'] && !config.think) die('--free-think needs think mode (--think)', 2);
  const out =
    f.out ??
    join(
      'runs',
      `${config.preset}-${config.algo}${config.think ? (config.thinkGrammar ? '-think' : '-freethink') : ''}-${config.reward}-${config.difficulty}-s${config.seed}`,
    );

  // The starting policy.
  const chosen = await chooseBackend(f);
  const be: Backend = chosen.be;
  console.error(chosen.line);
  const t0 = performance.now();
  const initPath = f.init ?? `public/warmstart-${config.preset}.bin`;
  let start: Checkpoint;
  if (existsSync(initPath)) {
    try {
      start = loadCheckpoint(readFileSync(initPath));
    } catch (e) {
      if (e instanceof CheckpointError) die(`${initPath}: ${e.message}`);
      throw e;
    }
    if (!hasPresetShape(start.config, config.preset)) {
      die(
        `${initPath} holds a model of another shape than the ${config.preset} preset (${JSON.stringify(start.config)})`,
      );
    }
    console.error(`start: ${initPath}`);
  } else {
    if (f.init) die(`cannot read ${f.init}: no such file`);
    console.error(
      `start: no ${initPath}; running the ${config.preset} warm start (npm run pretrain -- --preset ${config.preset})`,
    );
    const ws = await runPresetWarmStart(be, { preset: config.preset, seed: 1 });
    start = loadCheckpoint(ws.checkpoint);
  }

  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  const transcripts = join(out, 'transcripts.jsonl');
  writeFileSync(transcripts, '');
  const trainer = new Trainer(be, { config, start, trainProfiles: trainingProfiles() });
  if (f['bench-limit'] !== undefined && !(Number.isInteger(f['bench-limit']) && f['bench-limit'] >= 1))
    die('--bench-limit must be a positive integer', 2);
  const bench = benchmarkProfiles().slice(0, f['bench-limit'] ?? 100);
  const lm = readReferenceLm();
  const pplLen = Math.min(256, start.config.contextLength);
  const heldOut = f['no-eval']
    ? []
    : buildCorpus({ seed: 1 }).heldOut.flatMap((d) => encodeTrainingExamples(trainer.tokenizer, d.turns, pplLen + 1));
  const ppl = async () =>
    f['no-eval'] ? NaN : perplexity(trainer.model, heldOut, { batchSize: 16, seqLen: pplLen, lossOn: 'agent' });

  let before: EvalResult | null = null;
  // The starting policy's figures depend only on the start file, the think flags, the benchmark's
  // redraws and the users played (and the code): a grid of runs from one start can play them once
  // (--cache DIR).
  const cacheFile =
    f.cache && !f['no-eval'] && existsSync(initPath)
      ? join(
          f.cache,
          `before-${createHash('sha256')
            .update(readFileSync(initPath))
            .update(
              JSON.stringify({
                think: config.think,
                ...(config.think ? { thinkGrammar: config.thinkGrammar } : {}),
                redraws: BENCHMARK_REDRAWS,
                bench: bench.map((p) => p.id),
                backend: be.name,
              }),
            )
            .digest('hex')
            .slice(0, 16)}.json`,
        )
      : null;
  const cached =
    cacheFile && existsSync(cacheFile)
      ? (JSON.parse(readFileSync(cacheFile, 'utf8')) as { perplexity: number; before: EvalResult })
      : null;
  const perplexityBefore = cached ? cached.perplexity : await ppl();
  if (!f['no-eval']) {
    before = cached ? cached.before : await trainer.evaluate(bench);
    if (cacheFile && !cached) {
      mkdirSync(f.cache!, { recursive: true });
      writeFileSync(cacheFile, JSON.stringify({ perplexity: perplexityBefore, before }));
    }
    if (cached) console.error(`benchmark before: from ${cacheFile}`);
    for (const d of before.rollouts) appendFileSync(transcripts, `${transcriptLine('before', 0, d)}\n`);
    console.error(
      `benchmark before: score ${round(before.score, 1)}, success ${(before.success * 100).toFixed(0)}%, failure ${(before.failure * 100).toFixed(0)}% (${before.seconds.toFixed(0)} s); perplexity ${perplexityBefore.toFixed(2)}; ${fluencyLine(before, bench, lm)}`,
    );
  }

  const rows: Record<string, number>[] = [];
  let stopped: string | null = null;
  let lastGood = await trainer.checkpoint({ note: 'the starting policy' });
  const tTrain = performance.now();
  for (let k = 0; k < config.steps; k++) {
    let r;
    try {
      r = await trainer.step();
    } catch (e) {
      if (!(e instanceof TrainingStopped)) throw e;
      stopped = e.message;
      console.error(`stopped: ${e.message}`);
      break;
    }
    const row: Record<string, number> = {
      step: r.step,
      ...r.metrics,
      'time/seconds': (performance.now() - tTrain) / 1000,
    };
    if (config.evalEvery > 0 && r.step % config.evalEvery === 0 && r.step < config.steps) {
      const e = await trainer.evaluate(config.evalProfiles > 0 ? bench.slice(0, config.evalProfiles) : bench);
      row['benchmark/score'] = e.score;
      row['benchmark/success'] = e.success;
      row['benchmark/failure'] = e.failure;
      for (const d of e.rollouts) appendFileSync(transcripts, `${transcriptLine('eval', r.step, d)}\n`);
    }
    rows.push(row);
    writeMetrics(out, rows);
    for (const d of r.dialogues) appendFileSync(transcripts, `${transcriptLine('train', r.step, d)}\n`);
    const m = r.metrics;
    console.error(
      `step ${r.step}/${config.steps}  reward ${m['reward/mean'].toFixed(3)} ± ${m['reward/std'].toFixed(3)}  emotion ${m['emotion/final'].toFixed(1)}  ` +
        `turns ${m['dialogue/turns'].toFixed(1)}  reply ${m['dialogue/reply_tokens'].toFixed(1)}  pg ${m['losses/policy_loss'].toFixed(4)}  ` +
        `ent ${m['losses/entropy'].toFixed(3)}  kl ${m['losses/approx_kl'].toExponential(1)}  clip ${m['losses/clipfrac'].toFixed(3)}  ` +
        `grad ${m['train/grad_norm'].toFixed(2)}  lr ${m['train/lr'].toExponential(1)}  ` +
        (config.algo === 'ppo'
          ? `ev ${m['value/explained_variance'].toFixed(2)}${m['train/critic_only'] ? ' (critic only)' : ''}  `
          : '') +
        (config.ptxCoef > 0 ? `ptx ${m['losses/ptx_loss'].toFixed(3)}  ` : '') +
        (config.think ? `broken ${m['dialogue/broken_think'].toFixed(3)}  ` : '') +
        `${m['speed/step_seconds'].toFixed(1)} s` +
        (row['benchmark/score'] !== undefined ? `  benchmark ${row['benchmark/score'].toFixed(1)}` : ''),
    );
    if ((config.checkpointEvery > 0 && r.step % config.checkpointEvery === 0) || r.step === config.steps) {
      lastGood = await trainer.checkpoint();
      writeFileSync(join(out, 'checkpoint.bin'), lastGood);
    }
  }
  if (stopped) lastGood = await trainer.checkpoint({ stopped });
  writeFileSync(join(out, 'checkpoint.bin'), lastGood);
  writeMetrics(out, rows);

  let after: EvalResult | null = null;
  const perplexityAfter = await ppl();
  if (!f['no-eval']) {
    after = await trainer.evaluate(bench);
    for (const d of after.rollouts) appendFileSync(transcripts, `${transcriptLine('after', trainer.stepsDone, d)}\n`);
    console.error(
      `benchmark after: score ${round(after.score, 1)}, success ${(after.success * 100).toFixed(0)}%, failure ${(after.failure * 100).toFixed(0)}% (${after.seconds.toFixed(0)} s); perplexity ${perplexityAfter.toFixed(2)}; ${fluencyLine(after, bench, lm)}`,
    );
  }
  const seconds = (performance.now() - t0) / 1000;
  console.error(
    `wrote ${out}/{config.json, metrics.csv, metrics.json, transcripts.jsonl, checkpoint.bin} in ${seconds.toFixed(0)} s`,
  );
  const summary = {
    before: before ? figures(before, bench, lm, config.think) : null,
    after: after ? figures(after, bench, lm, config.think) : null,
    steps: trainer.stepsDone,
    seconds: Math.round(seconds),
    backend: be.name,
    threads: be instanceof WasmBackend ? be.threads : 1,
    perplexity: f['no-eval'] ? null : { before: round(perplexityBefore, 2), after: round(perplexityAfter, 2) },
    out,
    ...(stopped ? { stopped } : {}),
  };
  if (f.json) console.log(JSON.stringify(summary));
  trainer.release();
  chosen.close();
  if (stopped) process.exitCode = 3;
}

/**
 * The steps so far as metrics.csv and metrics.json, rewritten after every step, each through a
 * temporary file and a rename: a run cut short (Ctrl-C, a crash, a killed job) keeps every step it
 * finished, and never a half-written file.
 */
function writeMetrics(out: string, rows: readonly Record<string, number>[]): void {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const put = (name: string, text: string) => {
    const tmp = join(out, `.${name}.part`);
    writeFileSync(tmp, text);
    renameSync(tmp, join(out, name));
  };
  const csvRows = rows.map((r) => keys.map((k) => (r[k] === undefined ? '' : String(r[k]))).join(','));
  put('metrics.csv', `${keys.join(',')}\n${csvRows.map((l) => `${l}\n`).join('')}`);
  put('metrics.json', `${JSON.stringify(rows, null, 1)}\n`);
}

main().catch((e) => die(e instanceof Error ? e.message : String(e)));
