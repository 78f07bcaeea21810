/**
 * Command line for the warm-start corpus (Node; the library itself is pure):
 *
 *   npx tsx src/corpus/cli.ts stats  [--seed N] [--dialogues N] [--think-share X] [--max-turns N] [--turn-decay X]
 *                                     [--pair-share X] [--need-share X] [--fresh-replies] [--no-names]
 *   npx tsx src/corpus/cli.ts sample N [--seed N] [--think] [--pair-share X] [--need-share X]
 *   npx tsx src/corpus/cli.ts bench  [--profiles N] [--pair-share X] [--need-share X]
 *                                     the corpus's agent (as a policy) vs the reference policies
 *
 * Not here: building logic (build.ts) or the grammar (grammar.ts).
 */
import { playDialogue, runBenchmark, summarise } from '../persona/benchmark.ts';
import { benchmarkProfiles } from '../persona/sets.ts';
import {
  buildCorpus,
  CORPUS_DEFAULTS,
  corpusPolicy,
  corpusStats,
  type CorpusDialogue,
  type CorpusOptions,
} from './build.ts';
import { CORPUS_STRATEGIES } from './grammar.ts';

function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function options(args: readonly string[]): CorpusOptions {
  const num = (name: string, fallback: number) => {
    const v = flag(args, name);
    if (v === undefined) return fallback;
    const x = Number(v);
    if (!Number.isFinite(x)) throw new Error(`${name} needs a number, got "${v}"`);
    return x;
  };
  return {
    ...CORPUS_DEFAULTS,
    seed: num('--seed', CORPUS_DEFAULTS.seed),
    dialogues: num('--dialogues', CORPUS_DEFAULTS.dialogues),
    thinkShare: num('--think-share', CORPUS_DEFAULTS.thinkShare),
    maxTurns: num('--max-turns', CORPUS_DEFAULTS.maxTurns),
    turnDecay: num('--turn-decay', CORPUS_DEFAULTS.turnDecay),
    pairShare: num('--pair-share', CORPUS_DEFAULTS.pairShare),
    needShare: num('--need-share', CORPUS_DEFAULTS.needShare),
    freshReplies: args.includes('--fresh-replies'),
    names: !args.includes('--no-names'),
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const k = (n: number): string => n.toLocaleString('en-GB');

function stats(args: readonly string[]): void {
  const o = options(args);
  const t0 = performance.now();
  const corpus = buildCorpus(o);
  const ms = performance.now() - t0;
  const s = corpusStats(corpus);
  const all = s.dialogues.train + s.dialogues.heldOut;
  console.log(
    `corpus seed ${o.seed}: ${k(all)} dialogues (${k(s.dialogues.train)} train from ${s.profiles.train} profiles, ${k(s.dialogues.heldOut)} held out from ${s.profiles.heldOut} profiles), built in ${(ms / 1000).toFixed(1)} s`,
  );
  console.log(`think share ${pct(s.thinkShare)}; ${k(s.agentTurns)} agent turns`);
  console.log(
    `turns per dialogue: ${Object.entries(s.turns)
      .map(([n, c]) => `${n}: ${k(c)} (${pct(c / all)})`)
      .join(', ')}`,
  );
  console.log(
    `characters: agent ${k(s.chars.agent)} (mean reply ${s.meanReplyChars.toFixed(1)}), think ${k(s.chars.think)}, user ${k(s.chars.user)}, system ${k(s.chars.system)}`,
  );
  console.log('agent turns per strategy:');
  const counts = CORPUS_STRATEGIES.map((x) => s.strategies[x]);
  for (const x of CORPUS_STRATEGIES) console.log(`  ${x.padEnd(17)} ${String(s.strategies[x]).padStart(5)}`);
  console.log(`  max/min ratio ${(Math.max(...counts) / Math.min(...counts)).toFixed(2)}`);
  console.log(
    `replies of two strategies ${pct(s.pairs / s.agentTurns)}; led by the need the user shows ${pct(s.needLed / s.agentTurns)}`,
  );
  const share = (n: number): string => `${k(n)} (${pct(n / s.agentTurns)})`;
  console.log(
    `replies that repeat an earlier one of their dialogue ${share(s.repeats)}; name a person the user named ${share(s.named)}; say "your" with a relation ${share(s.byRelation)}`,
  );
}

function printDialogue(d: CorpusDialogue): void {
  const label = (i: number): string =>
    `${d.needLed[i] ? 'need: ' : ''}${d.strategies[i]}${d.companions[i] ? ` + ${d.companions[i]}` : ''}`;
  console.log(`--- ${d.profileId}${d.think ? ' (think)' : ''}: ${d.strategies.map((_, i) => label(i)).join(', ')}`);
  let a = 0;
  for (const t of d.turns) {
    if (t.role === 'system') continue;
    if (t.role === 'user') console.log(`user>  ${t.text}`);
    else {
      if (t.think !== undefined) console.log(`       <think> ${t.think} </think>`);
      console.log(`agent> [${label(a++)}] ${t.text}`);
    }
  }
}

function sample(args: readonly string[]): void {
  const n = Number(args[0] ?? 3);
  const o = options(args);
  const corpus = buildCorpus({ ...o, dialogues: Math.max(n * 4, 40) });
  const pool = args.includes('--think') ? corpus.train.filter((d) => d.think) : corpus.train;
  pool.slice(0, n).forEach(printDialogue);
}

function bench(args: readonly string[]): void {
  const profiles = benchmarkProfiles().slice(0, Number(flag(args, '--profiles') ?? 100));
  const o = options(args);
  const shares = { pairShare: o.pairShare, needShare: o.needShare, freshReplies: o.freshReplies, names: o.names };
  const name =
    (o.pairShare || o.needShare ? `corpus p${o.pairShare} n${o.needShare}` : 'corpus-uniform') +
    (o.freshReplies ? ' fresh' : '') +
    (o.names ? '' : ' no names');
  const corpus = summarise(
    name,
    'moderate',
    profiles.map((p) => playDialogue(p, corpusPolicy(0, shares), { seed: 0 })),
  );
  const rows = [
    corpus,
    ...(['random', 'generic', 'advisor', 'reflective', 'adaptive'] as const).map(
      (p) => runBenchmark(profiles, p, { seed: 0 }).summary,
    ),
  ];
  console.log(`Sentient-lite, moderate, ${profiles.length} benchmark profiles`);
  for (const r of rows)
    console.log(
      `  ${r.policy.padEnd(18)} score ${String(r.score).padStart(5)}  success ${pct(r.success)}  failure ${pct(r.failure)}  turns ${r.meanTurns}`,
    );
}

const [cmd, ...rest] = process.argv.slice(2);
const commands: Record<string, (args: readonly string[]) => void> = { stats, sample, bench };
if (cmd !== undefined && Object.hasOwn(commands, cmd)) {
  try {
    commands[cmd](rest);
  } catch (e) {
    // A flag out of range ("--turn-decay -1") is the user's to fix: its message, not a stack.
    console.error(`corpus ${cmd}: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 2;
  }
} else {
  console.log(
    'usage: npx tsx src/corpus/cli.ts stats [--seed N] [--dialogues N] [--max-turns N] [--turn-decay X] | sample N [--seed N] [--think] | bench [--profiles N]\n' +
      "  each also takes --pair-share X and --need-share X (0..1): the corpus agent's replies of two strategies, and led by the need;\n" +
      "  --fresh-replies: a reply that repeats the agent's earlier one in the dialogue is drawn again;\n" +
      '  and --no-names: the agent calls people by the relation the user gave ("your aunt"), not by name',
  );
  process.exitCode = cmd ? 1 : 0;
}
