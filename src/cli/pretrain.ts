/**
 * `npm run pretrain -- [--preset P] [--seed S] [--steps N] [--out FILE] [--backend B] [--json]`: the
 * supervised warm start from the command line, every phase of the preset's recipe (micro: two),
 * on the backend ./backend.ts chooses (WebGPU through Dawn on a hardware GPU, else wasm on all
 * cores; `--backend cpu` the JavaScript reference), saying which. On one backend (and machine) the same flags give the same checkpoint, byte for byte;
 * the shipped warm starts were made on wasm, whose bits do not depend on the machine or the thread count.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { crc32, loadCheckpoint, type Checkpoint } from '../engine/model/checkpoint';
import { WasmBackend } from '../engine/wasm/backend';
import { PRESETS, type PresetName } from '../engine/model/config';
import {
  firstPhaseLabel,
  fromMismatch,
  runPresetWarmStart,
  runWarmStart,
  WARM_START_DEFAULTS,
  type WarmStartOptions,
  type WarmStartProgress,
} from '../experiment/warmstart';
import { commandFlags } from './args';
import { BACKEND_FLAGS, chooseBackend } from './backend';

const SPEC = {
  preset: { type: 'string', help: `model preset: ${Object.keys(PRESETS).join(', ')} (default micro)` },
  seed: { type: 'number', help: 'seed for the corpus, the initial weights and the batch order (default 1)' },
  steps: { type: 'number', help: "training steps of the first phase (default: the preset's)" },
  dialogues: { type: 'number', help: "dialogues in the first phase's generated corpus (default: the preset's)" },
  vocab: { type: 'number', help: "tokenizer vocabulary size, 300..16384 (default: the preset's)" },
  'eval-every': {
    type: 'number',
    help: 'print the held-out perplexity (first 256 examples) every N steps (default 0: never; same checkpoint)',
  },
  'pair-share': {
    type: 'number',
    help: "share of the corpus's replies that join two strategies, 0..1 (default: the preset's)",
  },
  'need-share': {
    type: 'number',
    help: "share of the corpus's replies led by the need the user's lines show, 0..1 (default: the preset's)",
  },
  'fresh-replies': {
    type: 'string',
    help: "on: the corpus redraws a reply that repeats the agent's earlier one in the dialogue; off: keeps first draws (default: the preset's)",
  },
  names: {
    type: 'string',
    help: 'on: the corpus\'s agent calls people by the names the user gave; off: by the relation the user gave ("your aunt") (default: the preset\'s)',
  },
  'swap-share': {
    type: 'number',
    help: "share of the training dialogues whose story details and names are swapped for another story's, 0..1 (default: the preset's)",
  },
  'copy-share': {
    type: 'number',
    help: "share of the training examples that are the copying task (a span of random tokens said again), 0..0.9 (default: the preset's)",
  },
  'copy-window': {
    type: 'number',
    help: 'tokens per copying row in training, 16.. (default: the whole window; shorter rows are a curriculum, the probe keeps whole windows)',
  },
  from: {
    type: 'string',
    help: "go on from this checkpoint (its model and tokenizer) instead of fresh weights, one phase with these flags (the preset's own second phase is not run)",
  },
  'first-phase': {
    type: 'boolean',
    help: `stop after the first phase of a two-phase recipe (the file its second phase goes on from, ${firstPhaseLabel('micro')} for micro)`,
  },
  'previous-token': {
    type: 'boolean',
    help: "the model also reads the previous token's embedding through a learned map (a copying aid; default off)",
  },
  out: { type: 'string', help: 'checkpoint file to write (default public/warmstart-<preset>.bin)' },
  ...BACKEND_FLAGS,
  json: { type: 'boolean', help: 'print a JSON summary last on stdout' },
  help: { type: 'boolean', help: 'this message' },
} as const;

async function main(): Promise<void> {
  const flags = commandFlags('npm run pretrain --', SPEC);
  const preset = (flags.preset ?? 'micro') as PresetName;
  if (!(preset in PRESETS)) {
    console.error(`unknown preset "${preset}"; one of ${Object.keys(PRESETS).join(', ')}`);
    process.exit(2);
  }
  const defaults = WARM_START_DEFAULTS[preset];
  const steps = flags.steps ?? defaults.steps;
  if (!Number.isInteger(steps) || steps < 1) {
    console.error('--steps must be a positive integer');
    process.exit(2);
  }
  const evalEvery = flags['eval-every'] ?? 0;
  if (!Number.isInteger(evalEvery) || evalEvery < 0) {
    console.error('--eval-every must be a whole number >= 0');
    process.exit(2);
  }
  const vocabSize = flags.vocab ?? defaults.vocabSize;
  if (!Number.isInteger(vocabSize) || vocabSize < 300 || vocabSize > 16384) {
    console.error('--vocab must be a whole number from 300 to 16384');
    process.exit(2);
  }
  const corpus = { ...defaults.corpus };
  for (const [flag, key] of [
    ['pair-share', 'pairShare'],
    ['need-share', 'needShare'],
  ] as const) {
    const x = flags[flag];
    if (x === undefined) continue;
    if (!(x >= 0 && x <= 1)) {
      console.error(`--${flag} must be between 0 and 1`);
      process.exit(2);
    }
    corpus[key] = x;
  }
  const fresh = flags['fresh-replies'];
  if (fresh !== undefined) {
    if (fresh !== 'on' && fresh !== 'off') {
      console.error(`--fresh-replies must be on or off, got "${fresh}"`);
      process.exit(2);
    }
    // Off is the corpus's default: leave the key out, so the checkpoint records the recipe as files
    // made before the option did (same corpus, same bytes).
    if (fresh === 'on') corpus.freshReplies = true;
    else delete corpus.freshReplies;
  }
  const names = flags.names;
  if (names !== undefined) {
    if (names !== 'on' && names !== 'off') {
      console.error(`--names must be on or off, got "${names}"`);
      process.exit(2);
    }
    // On is the corpus's default: leave the key out, as for --fresh-replies.
    if (names === 'off') corpus.names = false;
    else delete corpus.names;
  }
  const swapShare = flags['swap-share'] ?? defaults.swapShare ?? 0;
  if (!(swapShare >= 0 && swapShare <= 1)) {
    console.error('--swap-share must be between 0 and 1');
    process.exit(2);
  }
  const copyShare = flags['copy-share'] ?? defaults.copyShare ?? 0;
  if (!(copyShare >= 0 && copyShare <= 0.9)) {
    console.error('--copy-share must be between 0 and 0.9');
    process.exit(2);
  }
  const copyWindow = flags['copy-window'];
  if (copyWindow !== undefined && !(Number.isInteger(copyWindow) && copyWindow >= 16)) {
    console.error('--copy-window must be a whole number of at least 16');
    process.exit(2);
  }
  let from: { checkpoint: Checkpoint; label: string; crc32: number } | undefined;
  if (flags.from !== undefined) {
    try {
      const bytes = new Uint8Array(readFileSync(flags.from));
      from = { checkpoint: loadCheckpoint(bytes), label: basename(flags.from), crc32: crc32(bytes) };
    } catch (e) {
      console.error(`--from ${flags.from}: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(2);
    }
    const mismatch = fromMismatch(from.checkpoint.config, preset, flags['previous-token'] ? true : undefined);
    if (mismatch) {
      console.error(`--from ${flags.from}: ${mismatch}`);
      process.exit(2);
    }
  }
  if (from && flags['first-phase']) {
    console.error('--first-phase and --from: a run from a checkpoint is one phase already; give one of them');
    process.exit(2);
  }
  const seed = flags.seed ?? 1;
  const out = flags.out ?? `public/warmstart-${preset}.bin`;
  const chosen = await chooseBackend(flags);
  const be = chosen.be;
  console.error(chosen.line);
  const t0 = performance.now();
  const first: Omit<WarmStartOptions, 'preset' | 'seed'> = {
    steps,
    dialogues: flags.dialogues ?? defaults.dialogues,
    corpus,
    vocabSize,
    sft: defaults.sft,
    evalEvery,
    ...(swapShare > 0 ? { swapShare } : {}),
    ...(copyShare > 0 ? { copyShare } : {}),
    ...(copyWindow !== undefined ? { copyWindow } : {}),
    ...(flags['previous-token'] ? { previousToken: true } : {}),
  };
  const progress = (p: WarmStartProgress) => {
    const stage = p.stage && p.stage.count > 1 ? `phase ${p.stage.index}/${p.stage.count}  ` : '';
    const total = p.stage?.index === 2 && defaults.then ? defaults.then.steps : steps;
    if (p.phase === 'held-out' && p.heldOut)
      console.error(
        `${stage}step ${p.heldOut.step}  held-out perplexity ${p.heldOut.perplexity.toFixed(3)}  copy perplexity ${p.heldOut.copyPerplexity.toFixed(1)}`,
      );
    else if (p.phase !== 'training') console.error(`${stage}… ${p.phase}`);
    else if (p.step && (p.step.step % 10 === 0 || p.step.step === total)) {
      const s = (performance.now() - t0) / 1000;
      console.error(
        `${stage}step ${p.step.step}/${total}  loss ${p.step.loss.toFixed(4)}  lr ${p.step.lr.toExponential(2)}  grad ${p.step.gradNorm.toFixed(3)}  ${s.toFixed(0)} s`,
      );
    }
  };
  const result = from
    ? await runWarmStart(be, { ...first, preset, seed, from }, progress).then((r) => ({
        ...r,
        phases: [{ steps, perplexityBefore: r.perplexityBefore, perplexityAfter: r.perplexityAfter }],
      }))
    : await runPresetWarmStart(be, { preset, seed, first, ...(flags['first-phase'] ? { phases: 1 } : {}) }, progress);
  writeFileSync(out, result.checkpoint);
  const seconds = (performance.now() - t0) / 1000;
  const summary = {
    preset,
    seed,
    steps: result.phases.reduce((n, p) => n + p.steps, 0),
    phases: result.phases,
    out,
    bytes: result.checkpoint.length,
    backend: be.name,
    threads: be instanceof WasmBackend ? be.threads : 1,
    seconds: Math.round(seconds),
    perplexityBefore: result.perplexityBefore,
    perplexityAfter: result.perplexityAfter,
    uniformPerplexity: result.uniformPerplexity,
    finalLoss: result.losses[result.losses.length - 1],
    trainTokens: result.trainTokens,
  };
  console.error(
    `wrote ${out} (${(result.checkpoint.length / 1e6).toFixed(2)} MB) in ${seconds.toFixed(0)} s; held-out perplexity ${result.phases.map((p) => `${p.perplexityBefore.toFixed(1)} -> ${p.perplexityAfter.toFixed(2)}`).join(', then on the second corpus ')} (uniform ${result.uniformPerplexity})`,
  );
  if (flags.json) console.log(JSON.stringify(summary, null, 2));
  chosen.close();
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
