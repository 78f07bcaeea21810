/**
 * `npm run evaluate -- --checkpoint FILE [--profiles FILE] [--difficulty D] [--think] [--json]`:
 * plays a checkpoint against the benchmark profiles (Sentient-lite: start 40, cap 10 replies) and
 * reports {score, success, failure, dialogues, meanTurns, realWords, hacking, surprisal,
 * surprisalCorpus, oov, distinct2, meanReplyTokens, meanReplyWords, perplexity, repeats, window,
 * redraws},
 * and with --think the share of well-formed think turns (all, first and later turns;
 * src/rl/think-format.ts). `--policy NAME|all` plays a reference policy (src/persona/policies.ts)
 * instead, for the same figures without perplexity. The fluency figures (real words, hacking,
 * surprisal, distinct-2, words per reply) are src/rl/fluency.ts, defined in NOTES below (the --help
 * text). Perplexity is on the held-out slice of the warm-start corpus (agent tokens; a think
 * dialogue is scored turn by turn on the history rollouts show, see encodeTrainingExamples);
 * repeats, the share of replies the user found repeating an earlier one (and how many repeated one
 * that had left the policy's context window); window, how often the context window slid
 * (src/rl/window.ts); redraws, how many replies were drawn again for repeating (the benchmark's
 * 3 each at most, or --redraws; src/rl/rollout.ts). `--backend wasm|cpu|webgpu` (./backend.ts; default: WebGPU on a hardware GPU,
 * else wasm).
 */
import { readFileSync } from 'node:fs';
import { encodeTrainingExamples } from '../engine/model/format';
import { perplexity } from '../engine/model/sft';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { buildCorpus } from '../corpus/build';
import { runBenchmark } from '../persona/benchmark';
import { REFERENCE_POLICIES, type PolicyName } from '../persona/policies';
import { benchmarkProfiles } from '../persona/sets';
import { parseProfilesJson } from '../persona/validate';
import type { Profile } from '../persona/profile';
import { BENCHMARK_SAMPLING, playBenchmark, summariseRollouts } from '../rl/rollout';
import { BENCHMARK_REDRAWS } from '../rl/config';
import { fluencyJson, fluencyOf, playedFromRecord, type FluencyReport } from '../rl/fluency';
import { DEFAULT_WINDOW, summariseRepeats, summariseWindow } from '../rl/window';
import { thinkFormat, type ThinkFormat } from '../rl/think-format';

import { commandFlags, die, readCheckpointFile, readReferenceLm } from './args';
import { BACKEND_FLAGS, chooseBackend } from './backend';

const SPEC = {
  checkpoint: { type: 'string', help: 'checkpoint file (this or --policy)' },
  policy: {
    type: 'string',
    help: `a reference policy instead of a checkpoint: ${REFERENCE_POLICIES.join(', ')} or all (users seeded 0)`,
  },
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
  redraws: {
    type: 'number',
    help: `times a reply that repeats an earlier one of its dialogue, or itself, is drawn again (default ${BENCHMARK_REDRAWS}, the benchmark's; 0: never)`,
  },
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

/** What the figures mean: the end of --help. */
const NOTES = `Figures (the benchmark as SAGE scores it, then the replies' fluency, src/rl/fluency.ts):
  score            mean final emotion (0-100; the users start at 40)
  success/failure  share of dialogues ending at 100 / below 10
  realWords        share of replies whose every word is a real word to the user: English, or a word
                   of the user's story or lines (the users' own non-word check); a reply with no word
                   is not
  hacking.share    share of replies the reward-hacking check flags (spam, non-language, talking to
                   the scorer; src/rl/hacking.ts)
  surprisal        mean bits per word of the replies (each reply's end counts as a word) under the
                   frozen word trigram model of the corpus's agent replies (public/reference-lm.json);
                   surprisalCorpus is the corpus's own held-out replies under it, the figure to read it
                   against; oov, the share of words outside the model's vocabulary
  distinct2        distinct word bigrams / all word bigrams, bigrams within each reply, over all replies
  meanReplyTokens  tokens per reply, think block and closing <|end|> included (--policy: counted with
                   the micro warm start's tokenizer); meanReplyWords, words per reply
  redraws          replies drawn again because they repeated an earlier reply of their dialogue, or
                   themselves (turns), each at most \`allowed\` times (the benchmark's ${BENCHMARK_REDRAWS}, or --redraws)`;

const round = (x: number, k: number) => Math.round(x * 10 ** k) / 10 ** k;

/** The text lines of the fluency figures (without --json). */
function printFluency(figures: ReturnType<typeof fluencyJson>, f: FluencyReport): void {
  const line = (k: string, v: string) => console.log(`${k.padEnd(16)} ${v}`);
  line(
    'real words',
    `${figures.realWords} (${f.replies - Math.round(f.realWords * f.replies)} of ${f.replies} replies have a word the user cannot read, or none)`,
  );
  const h = figures.hacking;
  line(
    'hacking',
    `${h.share} (${h.flagged} of ${h.replies} replies: spam ${h.byKind.spam}, non-language ${h.byKind.nonLanguage}, scorer ${h.byKind.scorer})`,
  );
  line(
    'surprisal',
    `${figures.surprisal} bits/word (the corpus's held-out replies: ${figures.surprisalCorpus}; ${round(100 * f.oov, 1)}% of words outside the reference model)`,
  );
  line('distinct-2', String(figures.distinct2));
  line('words/reply', String(figures.meanReplyWords));
  for (const e of f.hacking.examples) {
    console.log(
      `  ${e.profileId} turn ${e.turn} [${e.reason}]: ${JSON.stringify(e.reply.length > 120 ? e.reply.slice(0, 117) + '...' : e.reply)}`,
    );
  }
  for (const e of f.nonWordExamples) {
    console.log(
      `  ${e.profileId} turn ${e.turn} [${e.words.length ? `not words: ${e.words.join(', ')}` : 'no words'}]: ${JSON.stringify(e.reply.length > 120 ? e.reply.slice(0, 117) + '...' : e.reply)}`,
    );
  }
}

/**
 * `--policy`: the reference policies on the same users, one row each (no model, so no perplexity,
 * no sampling, no backend).
 */
function evaluatePolicies(
  names: readonly PolicyName[],
  profiles: readonly Profile[],
  difficulty: 'moderate' | 'strict',
  json: boolean,
): void {
  const lm = readReferenceLm();
  const tok = Tokenizer.fromJSON(
    readCheckpointFile(new URL('../../public/warmstart-micro.bin', import.meta.url).pathname).tokenizer,
  );
  const rows = names.map((policy) => {
    const { summary, records } = runBenchmark(profiles, policy, { difficulty, seed: 0 });
    const played = records.map(playedFromRecord);
    const f = fluencyOf(played, profiles, lm, { maxExamples: json ? 0 : 2 });
    const replies = played.flatMap((d) => d.turns.map((t) => t.reply));
    const tokens = replies.reduce((s, r) => s + tok.encode(r).length + 1, 0); // + <|end|>
    return {
      f,
      figures: {
        policy,
        score: summary.score,
        success: summary.success,
        failure: summary.failure,
        dialogues: summary.dialogues,
        meanTurns: summary.meanTurns,
        ...fluencyJson(f, lm),
        meanReplyTokens: round(tokens / Math.max(1, replies.length), 1),
      },
    };
  });
  if (json) {
    const out = rows.map((r) => r.figures);
    console.log(JSON.stringify(out.length === 1 ? out[0] : out, null, 2));
    return;
  }
  for (const { f, figures } of rows) {
    console.log(`\n${figures.policy}`);
    for (const k of ['score', 'success', 'failure', 'dialogues', 'meanTurns', 'meanReplyTokens'] as const)
      console.log(`${k.padEnd(16)} ${figures[k]}`);
    printFluency(figures, f);
  }
}

/** thinkFormat's counts with the shares rounded (NaN, no turns of a kind, prints as null in JSON). */
function thinkFigures(dialogues: Parameters<typeof thinkFormat>[0]): ThinkFormat {
  const t = thinkFormat(dialogues);
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { ...t, share: r(t.share), firstShare: r(t.firstShare), laterShare: r(t.laterShare) };
}

async function main(): Promise<void> {
  const f = commandFlags('npm run evaluate --', SPEC, [], NOTES);
  const difficulty = f.difficulty ?? 'moderate';
  if (difficulty !== 'moderate' && difficulty !== 'strict')
    die(`--difficulty must be moderate or strict, got "${difficulty}"`, 2);
  if ((f.checkpoint === undefined) === (f.policy === undefined))
    die('give one of --checkpoint FILE or --policy NAME (npm run evaluate -- --help)', 2);
  if (f.limit !== undefined && !(Number.isInteger(f.limit) && f.limit >= 1))
    die('--limit must be a positive integer', 2);
  let profiles: Profile[] = benchmarkProfiles();
  if (f.profiles) {
    const parsed = parseProfilesJson(readFileSync(f.profiles, 'utf8'));
    if (!parsed.ok) die(`${f.profiles} has bad profiles:\n  ${parsed.errors.join('\n  ')}`);
    profiles = parsed.profiles;
  }
  if (f.limit) profiles = profiles.slice(0, f.limit);
  if (f.policy !== undefined) {
    const modelOnly = (
      [
        'think',
        'free-think',
        'seed',
        'temperature',
        'top-p',
        'max-turn-tokens',
        'redraws',
        'window',
        'show',
        'backend',
        'threads',
      ] as const
    ).filter((k) => f[k] !== undefined);
    if (modelOnly.length) die(`--${modelOnly[0]} applies to a checkpoint, not to --policy`, 2);
    const names = f.policy === 'all' ? REFERENCE_POLICIES : REFERENCE_POLICIES.filter((p) => p === f.policy);
    if (names.length === 0)
      die(`--policy must be one of ${REFERENCE_POLICIES.join(', ')} or all, got "${f.policy}"`, 2);
    evaluatePolicies(names, profiles, difficulty, Boolean(f.json));
    return;
  }
  if (f.temperature !== undefined && !(f.temperature >= 0)) die('--temperature must be >= 0', 2);
  if (f['top-p'] !== undefined && !(f['top-p'] > 0 && f['top-p'] <= 1)) die('--top-p must be in (0, 1]', 2);
  if (f['max-turn-tokens'] !== undefined && !(Number.isInteger(f['max-turn-tokens']) && f['max-turn-tokens'] >= 2))
    die('--max-turn-tokens must be an integer >= 2', 2);
  if (f.redraws !== undefined && !(Number.isInteger(f.redraws) && f.redraws >= 0 && f.redraws <= 8))
    die('--redraws must be a whole number from 0 to 8', 2);
  if (f['free-think'] && !f.think) die('--free-think needs --think', 2);
  const window = f.window ?? DEFAULT_WINDOW;
  if (window !== 'pairs' && window !== 'replies') die(`--window must be pairs or replies, got "${window}"`, 2);
  const ck = readCheckpointFile(f.checkpoint!);
  const lm = readReferenceLm();
  const chosen = await chooseBackend(f);
  const be = chosen.be;
  console.error(`${chosen.line}; ${profiles.length} dialogues, ${difficulty}${f.think ? ', think mode' : ''}`);
  const tok = Tokenizer.fromJSON(ck.tokenizer);
  const redraws = f.redraws ?? BENCHMARK_REDRAWS;
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
    redraws,
    window,
  });
  const pplLen = Math.min(256, ck.config.contextLength);
  const heldOut = buildCorpus({ seed: 1 }).heldOut.flatMap((d) => encodeTrainingExamples(tok, d.turns, pplLen + 1));
  const ppl = await perplexity(model, heldOut, { batchSize: 16, seqLen: pplLen, lossOn: 'agent' });
  const s = summariseRollouts(dialogues);
  const fl = fluencyOf(dialogues, profiles, lm, { maxExamples: 3 });
  const rep = summariseRepeats(dialogues);
  const win = summariseWindow(dialogues);
  const figures = {
    score: round(s.score, 1),
    success: round(s.success, 3),
    failure: round(s.failure, 3),
    dialogues: s.dialogues,
    meanTurns: round(s.meanTurns, 2),
    ...fluencyJson(fl, lm),
    meanReplyTokens: round(s.meanReplyTokens, 1),
    perplexity: round(ppl, 2),
    repeats: { share: round(rep.share, 3), flagged: rep.flagged, unseen: rep.unseen, hacking: rep.hacking },
    window: { policy: window, slides: win.slides, perDialogue: round(win.perDialogue, 2) },
    redraws: { allowed: redraws, turns: dialogues.flatMap((d) => d.turns).filter((t) => (t.redrawn ?? 0) > 0).length },
    ...(f.think ? { think: { ...thinkFigures(dialogues), grammar: !f['free-think'] } } : {}),
    truncated: dialogues.flatMap((d) => d.turns).filter((t) => t.truncated).length,
  };
  console.error(`${((performance.now() - t0) / 1000).toFixed(0)} s`);
  if (f.json) console.log(JSON.stringify(figures, null, 2));
  else {
    for (const k of ['score', 'success', 'failure', 'dialogues', 'meanTurns', 'meanReplyTokens', 'perplexity'] as const)
      console.log(`${k.padEnd(16)} ${figures[k]}`);
    printFluency(figures, fl);
    const r = figures.repeats;
    console.log(
      `${'repeats'.padEnd(16)} ${r.share} (${r.flagged} of ${rep.turns} replies repeat an earlier one, ${r.unseen} one out of view; hacking check: ${r.hacking})`,
    );
    const w = figures.window;
    console.log(`${'window'.padEnd(16)} ${w.perDialogue} slides a dialogue (${w.slides} in all, ${w.policy})`);
    const rd = figures.redraws;
    if (rd.allowed > 0)
      console.log(
        `${'redraws'.padEnd(16)} ${rd.turns} of ${rep.turns} replies drawn again (up to ${rd.allowed} times each)`,
      );
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
