/**
 * `npm run evaluate -- --checkpoint FILE [--profiles FILE] [--difficulty D] [--think] [--json]`:
 * plays a checkpoint against the benchmark profiles (Sentient-lite: start 40, cap 10 replies) and
 * reports {score, success, failure, dialogues, meanTurns, meanReplyTokens, perplexity, hacking,
 * repeats, window}, and with --think the share of well-formed think turns (all, first and later
 * turns; src/rl/think-format.ts). Perplexity is on the held-out slice of the warm-start corpus
 * (agent tokens; a think dialogue is scored turn by turn on the history rollouts show, see
 * encodeTrainingExamples); hacking is the share of replies flagged as spam, non-language or talking
 * to the scorer (src/rl/hacking.ts); repeats, the share of replies the user found repeating an
 * earlier one (and how many repeated one that had left the policy's context window); window, how
 * often the context window slid (src/rl/window.ts). `--backend wasm|cpu|webgpu` (./backend.ts;
 * default: WebGPU on a hardware GPU, else wasm).
 */
import { readFileSync } from 'node:fs';
import { encodeTrainingExamples } from '../engine/model/format';
import { perplexity } from '../engine/model/sft';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { buildCorpus } from '../corpus/build';
import { benchmarkProfiles } from '../persona/sets';
import { parseProfilesJson } from '../persona/validate';
import type { Profile } from '../persona/profile';
import { BENCHMARK_SAMPLING, playBenchmark, summariseRollouts } from '../rl/rollout';
import { checkRewardHacking } from '../rl/hacking';
import { DEFAULT_WINDOW, summariseRepeats, summariseWindow } from '../rl/window';
import { thinkFormat, type ThinkFormat } from '../rl/think-format';

import { commandFlags, die, readCheckpointFile } from './args';
import { BACKEND_FLAGS, chooseBackend } from './backend';

const SPEC = {
  checkpoint: { type: 'string', help: 'checkpoint file (required)' },
  profiles: {
    type: 'string',
    help: 'profile JSON file (one profile or an array; default: the 100 benchmark profiles)',
  },
  difficulty: { type: 'string', help: 'moderate (default) or strict' },
  think: { type: 'boolean', help: 'think mode: <think> plan </think> before each reply' },
  'free-think': {
    type: 'boolean',
    help: "think mode without the turn format's grammar (default: sampled under it, src/rl/think-grammar.ts)",
  },
  seed: { type: 'number', help: 'sampling seed (default 0)' },
  temperature: { type: 'number', help: 'sampling temperature (default 0.7)' },
  'top-p': { type: 'number', help: 'nucleus sampling (default 0.9)' },
  'max-turn-tokens': { type: 'number', help: 'cap on tokens per reply (default 64)' },
  limit: { type: 'number', help: 'only the first N profiles' },
  window: {
    type: 'string',
    help: `what leaves a full context first: replies (old user lines, then old replies) or pairs (default ${DEFAULT_WINDOW})`,
  },
  show: { type: 'number', help: 'print the first N dialogues with every change (default 1 without --json)' },
  ...BACKEND_FLAGS,
  json: { type: 'boolean', help: 'print the figures as JSON' },
  help: { type: 'boolean', help: 'this message' },
} as const;

/** thinkFormat's counts with the shares rounded (NaN, no turns of a kind, prints as null in JSON). */
function thinkFigures(dialogues: Parameters<typeof thinkFormat>[0]): ThinkFormat {
  const t = thinkFormat(dialogues);
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { ...t, share: r(t.share), firstShare: r(t.firstShare), laterShare: r(t.laterShare) };
}

async function main(): Promise<void> {
  const f = commandFlags('npm run evaluate --', SPEC, ['checkpoint']);
  const difficulty = f.difficulty ?? 'moderate';
  if (difficulty !== 'moderate' && difficulty !== 'strict')
    die(`--difficulty must be moderate or strict, got "${difficulty}"`, 2);
  if (f.temperature !== undefined && !(f.temperature >= 0)) die('--temperature must be >= 0', 2);
  if (f['top-p'] !== undefined && !(f['top-p'] > 0 && f['top-p'] <= 1)) die('--top-p must be in (0, 1]', 2);
  if (f['max-turn-tokens'] !== undefined && !(Number.isInteger(f['max-turn-tokens']) && f['max-turn-tokens'] >= 2))
    die('--max-turn-tokens must be an integer >= 2', 2);
  if (f['free-think'] && !f.think) die('--free-think needs --think', 2);
  if (f.limit !== undefined && !(Number.isInteger(f.limit) && f.limit >= 1))
    die('--limit must be a positive integer', 2);
  const window = f.window ?? DEFAULT_WINDOW;
  if (window !== 'pairs' && window !== 'replies') die(`--window must be pairs or replies, got "${window}"`, 2);
  const ck = readCheckpointFile(f.checkpoint);
  let profiles: Profile[] = benchmarkProfiles();
  if (f.profiles) {
    const parsed = parseProfilesJson(readFileSync(f.profiles, 'utf8'));
    if (!parsed.ok) die(`${f.profiles} has bad profiles:\n  ${parsed.errors.join('\n  ')}`);
    profiles = parsed.profiles;
  }
  if (f.limit) profiles = profiles.slice(0, f.limit);
  const chosen = await chooseBackend(f);
  const be = chosen.be;
  console.error(`${chosen.line}; ${profiles.length} dialogues, ${difficulty}${f.think ? ', think mode' : ''}`);
  const tok = Tokenizer.fromJSON(ck.tokenizer);
  const model = new Transformer(be, ck.config, ck.weights, { frozen: true });
  const t0 = performance.now();
  const dialogues = await playBenchmark(model, tok, profiles, {
    difficulty,
    think: Boolean(f.think),
    thinkGrammar: !f['free-think'],
    seed: f.seed,
    sampling: {
      temperature: f.temperature ?? BENCHMARK_SAMPLING.temperature,
      topK: 0,
      topP: f['top-p'] ?? BENCHMARK_SAMPLING.topP,
    },
    maxTurnTokens: f['max-turn-tokens'],
    window,
  });
  const pplLen = Math.min(256, ck.config.contextLength);
  const heldOut = buildCorpus({ seed: 1 }).heldOut.flatMap((d) => encodeTrainingExamples(tok, d.turns, pplLen + 1));
  const ppl = await perplexity(model, heldOut, { batchSize: 16, seqLen: pplLen, lossOn: 'agent' });
  const round = (x: number, k: number) => Math.round(x * 10 ** k) / 10 ** k;
  const s = summariseRollouts(dialogues);
  const hack = checkRewardHacking(dialogues, { maxExamples: 3 });
  const rep = summariseRepeats(dialogues);
  const win = summariseWindow(dialogues);
  const figures = {
    score: round(s.score, 1),
    success: round(s.success, 3),
    failure: round(s.failure, 3),
    dialogues: s.dialogues,
    meanTurns: round(s.meanTurns, 2),
    meanReplyTokens: round(s.meanReplyTokens, 1),
    perplexity: round(ppl, 2),
    hacking: { share: round(hack.share, 3), flagged: hack.flagged, replies: hack.replies, byKind: hack.byKind },
    repeats: { share: round(rep.share, 3), flagged: rep.flagged, unseen: rep.unseen, hacking: rep.hacking },
    window: { policy: window, slides: win.slides, perDialogue: round(win.perDialogue, 2) },
    ...(f.think ? { think: { ...thinkFigures(dialogues), grammar: !f['free-think'] } } : {}),
    truncated: dialogues.flatMap((d) => d.turns).filter((t) => t.truncated).length,
  };
  console.error(`${((performance.now() - t0) / 1000).toFixed(0)} s`);
  if (f.json) console.log(JSON.stringify(figures, null, 2));
  else {
    for (const [k, v] of Object.entries(figures)) if (typeof v !== 'object') console.log(`${k.padEnd(16)} ${v}`);
    const h = figures.hacking;
    console.log(
      `${'hacking'.padEnd(16)} ${h.share} (${h.flagged} of ${h.replies} replies: spam ${h.byKind.spam}, non-language ${h.byKind.nonLanguage}, scorer ${h.byKind.scorer})`,
    );
    const r = figures.repeats;
    console.log(
      `${'repeats'.padEnd(16)} ${r.share} (${r.flagged} of ${rep.turns} replies repeat an earlier one, ${r.unseen} one out of view; hacking check: ${r.hacking})`,
    );
    const w = figures.window;
    console.log(`${'window'.padEnd(16)} ${w.perDialogue} slides a dialogue (${w.slides} in all, ${w.policy})`);
    for (const e of hack.examples) {
      console.log(
        `  ${e.profileId} turn ${e.turn} [${e.reason}]: ${JSON.stringify(e.reply.length > 120 ? e.reply.slice(0, 117) + '...' : e.reply)}`,
      );
    }
    if (figures.think) {
      const t = figures.think;
      console.log(
        `${'think format'.padEnd(16)} ${t.share} well formed (${t.wellFormed} of ${t.turns} turns; first turns ${t.firstShare}, ${t.firstWellFormed} of ${t.firstTurns}; later turns ${t.laterShare}, ${t.laterWellFormed} of ${t.laterTurns}; ${t.grammar ? 'sampled under the grammar' : 'sampled freely'})`,
      );
    }
  }
  const show = f.show ?? (f.json ? 0 : 1);
  for (const d of dialogues.slice(0, show)) {
    const profile = profiles.find((p) => p.id === d.profileId)!;
    const out = f.json ? console.error : console.log;
    out(
      `\n${d.profileId} (${profile.name}, ${profile.scenario.domain}; hidden intention: ${profile.intention}), final emotion ${d.finalEmotion}:`,
    );
    out(`  user> ${d.opening}`);
    for (const t of d.turns) {
      out(`  agent> ${t.think !== null ? `<think>${t.think}</think> ` : ''}${t.reply}`);
      out(
        `        [${t.result.change > 0 ? '+' : ''}${t.result.change} -> ${t.result.emotion}] ${t.result.appraisal.intent}`,
      );
      out(`  user> ${t.result.line}`);
    }
  }
  chosen.close();
}

main().catch((e) => die(e instanceof Error ? e.message : String(e)));
