/**
 * Command line for the persona engine (the only file here that touches Node: files, readline,
 * process). `npm run personas -- <command>`:
 *
 *   play --profile <id|file> [--seed N] [--difficulty moderate|strict] [--mode train|benchmark]
 *        [--replies FILE] [--json]
 *   benchmark --policy <name|all> [--profiles SET|FILE] [--difficulty D] [--seed N] [--json]
 *   calibrate [--profiles SET|FILE] [--difficulty D] [--seed N] [--json]
 *   probe --replies FILE [--profiles SET|FILE] [--difficulty D] [--seed N] [--json]
 *
 * SET is a fixed set's name (train, benchmark, challenge; a name wins over a file of that name,
 * write ./challenge for the file). Profile files hold one profile or a JSON array of them; bad
 * files get the offending fields named. Bad data (a profile or replies file that does not read)
 * exits with status 1; unknown commands or flags print the usage and exit with status 2.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { runBenchmark } from './benchmark.ts';
import { calibrate } from './calibrate.ts';
import { CHANGES, DIFFICULTIES, type Difficulty, type Mode } from './dynamics.ts';
import { POLICY_NAMES, REFERENCE_POLICIES, type PolicyName } from './policies.ts';
import type { Profile } from './profile.ts';
import { parseProfilesJson } from './validate.ts';
import { benchmarkProfiles, challengeProfiles, isProfileSetName, PROFILE_SETS, trainingProfiles } from './sets.ts';
import { changeKey, probe, type ProbeLine } from './probe.ts';
import { FIXTURE_BENCHMARK_PROFILES } from './fixtures.ts';
import { createSimulatedUser, type TurnResult } from './user.ts';

const USAGE = `usage: npm run personas -- <command> [flags]

  play --profile <id|file> [--seed N] [--difficulty moderate|strict] [--mode train|benchmark]
       [--replies FILE] [--json]
      Talk to a simulated user (type replies; Ctrl-D ends), or play the replies in FILE (one per line).
  benchmark --policy <${POLICY_NAMES.join('|')}|all> [--profiles SET|FILE] [--difficulty D] [--seed N] [--json]
      Sentient-lite: {score, success, failure, dialogues, meanTurns} over the benchmark profiles.
  calibrate [--profiles SET|FILE] [--difficulty D] [--seed N] [--json]
      Strategy acceptance rate and need-expression rate (default: the training profiles).
  probe --replies FILE [--profiles SET|FILE] [--difficulty D] [--seed N] [--json]
      Each line of FILE as the first reply to every user (default: the benchmark set) and as every
      reply of a whole dialogue: the changes, the mean final emotion, every positive change and why.
      --json prints one object {lines, positives, worst} on the last line.

  SET: ${Object.keys(PROFILE_SETS).join(', ')} (or a JSON file of profiles). D: moderate or strict.`;

class UsageError extends Error {}
/** Bad input data (a profile file that does not validate): exit 1, no usage text. */
class InputError extends Error {}

/** Where the CLI writes; the tests pass their own. */
export interface Io {
  out(s: string): void;
  err(s: string): void;
}
let io: Io = { out: (s) => console.log(s), err: (s) => console.error(s) };

const FLAGS: Record<string, readonly string[]> = {
  play: ['profile', 'seed', 'difficulty', 'mode', 'replies', 'json'],
  benchmark: ['policy', 'profiles', 'difficulty', 'seed', 'json'],
  calibrate: ['profiles', 'difficulty', 'seed', 'json'],
  probe: ['replies', 'profiles', 'difficulty', 'seed', 'json'],
};
const BOOLEAN = new Set(['json']);

function parseArgs(argv: readonly string[]): { command: string; flags: Map<string, string> } {
  const [command, ...rest] = argv;
  if (!command || !(command in FLAGS))
    throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  const flags = new Map<string, string>();
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const name = a.startsWith('--') ? a.slice(2) : '';
    if (!name || !FLAGS[command].includes(name)) throw new UsageError(`unknown flag "${a}" for ${command}`);
    if (BOOLEAN.has(name)) flags.set(name, 'true');
    else {
      const v = rest[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      flags.set(name, v);
    }
  }
  return { command, flags };
}

function difficultyOf(flags: Map<string, string>): Difficulty {
  const d = flags.get('difficulty') ?? 'moderate';
  if (!(DIFFICULTIES as readonly string[]).includes(d))
    throw new UsageError(`--difficulty must be one of ${DIFFICULTIES.join(', ')}`);
  return d as Difficulty;
}

function seedOf(flags: Map<string, string>): number {
  const s = flags.get('seed') ?? '0';
  if (!/^\d+$/.test(s)) throw new UsageError('--seed must be a non-negative integer');
  return Number(s) >>> 0;
}

/** Profiles from a file; exits with the validator's messages if the file is bad. */
function loadFile(path: string): Profile[] {
  if (!existsSync(path)) throw new UsageError(`no such file: ${path}`);
  const r = parseProfilesJson(readFileSync(path, 'utf8'));
  if (!r.ok) throw new InputError(`${path} has invalid profiles:\n  ${r.errors.map(String).join('\n  ')}`);
  return r.profiles;
}

/** `--profiles`: a fixed set by name, else a profile file. */
function profilesOf(flags: Map<string, string>, fallback: () => Profile[]): Profile[] {
  const ref = flags.get('profiles');
  if (ref === undefined) return fallback();
  if (isProfileSetName(ref)) return PROFILE_SETS[ref]();
  if (!existsSync(ref))
    throw new UsageError(`--profiles ${ref}: no such set or file (sets: ${Object.keys(PROFILE_SETS).join(', ')})`);
  return loadFile(ref);
}

/** The non-empty lines of a text file of replies; a missing, empty or binary file is bad data. */
function readReplies(path: string): string[] {
  if (!existsSync(path)) throw new InputError(`no such replies file: ${path}`);
  if (!statSync(path).isFile()) throw new InputError(`${path} is not a file (expected a text file, one reply a line)`);
  const bytes = readFileSync(path);
  let text: string;
  try {
    if (bytes.includes(0)) throw new Error('NUL byte');
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`${path} is not a text file (expected UTF-8 text, one reply a line)`);
  }
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l.trim().length > 0);
  if (lines.length === 0)
    throw new InputError(`${path} has no replies (expected one reply a line; blank lines are skipped)`);
  return lines;
}

function findProfile(ref: string): Profile {
  if (existsSync(ref)) return loadFile(ref)[0];
  const all = [...benchmarkProfiles(), ...trainingProfiles(), ...challengeProfiles(), ...FIXTURE_BENCHMARK_PROFILES];
  const p = all.find((x) => x.id === ref);
  if (!p)
    throw new UsageError(
      `no profile with id "${ref}" in the training, benchmark, challenge or fixture sets, and no such file`,
    );
  return p;
}

const sign = (n: number): string => (n > 0 ? `+${n}` : `${n}`);

function printTurn(reply: string, r: TurnResult): void {
  io.out(`agent> ${reply}`);
  io.out(`  [${sign(r.change)} -> ${r.emotion} ${r.band}] ${r.appraisal.intent}`);
  io.out(`  fit: ${r.appraisal.fit}`);
  io.out(`  inner: ${r.appraisal.inner}  feels: ${r.appraisal.feeling}`);
  for (const d of r.appraisal.detectors)
    if (d.contribution !== 0) io.out(`    ${sign(d.contribution).padStart(7)}  ${d.id}: ${d.reason} (${d.why})`);
  io.out(`user> ${r.line}${r.over ? `   [dialogue over: ${r.endReason}]` : ''}`);
}

async function play(flags: Map<string, string>): Promise<void> {
  const ref = flags.get('profile');
  if (!ref) throw new UsageError('play needs --profile <id|file>');
  const profile = findProfile(ref);
  const mode = (flags.get('mode') ?? (profile.openingLine ? 'benchmark' : 'train')) as Mode;
  if (mode !== 'train' && mode !== 'benchmark') throw new UsageError('--mode must be train or benchmark');
  const seed = seedOf(flags);
  const difficulty = difficultyOf(flags);
  const user = createSimulatedUser(profile, { seed, difficulty, mode });
  const json = flags.has('json');
  const turns: { reply: string; result: TurnResult }[] = [];
  const step = (reply: string): boolean => {
    const r = user.respond(reply);
    turns.push({ reply, result: r });
    if (!json) printTurn(reply, r);
    return r.over;
  };
  if (!json)
    io.out(
      `${profile.name} (${profile.id}, ${difficulty}, ${mode}, emotion ${user.state.emotion})\nuser> ${user.opening}`,
    );
  const file = flags.get('replies');
  if (file) {
    if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
    const lines = readFileSync(file, 'utf8').split(/\r?\n/);
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    for (const l of lines) if (step(l)) break;
  } else {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
    try {
      for (;;) {
        let line: string;
        try {
          line = await rl.question(json ? '' : 'you> ');
        } catch {
          break; // input closed
        }
        if (step(line)) break;
      }
    } finally {
      rl.close();
    }
  }
  const s = user.state;
  if (json) {
    const out = {
      profileId: profile.id,
      seed,
      difficulty,
      mode,
      finalEmotion: s.emotion,
      reward: user.reward(),
      endReason: s.endReason,
      transcript: s.transcript,
      turns,
    };
    io.out(JSON.stringify(out, null, 2));
  } else io.out(`final emotion ${s.emotion} (reward ${user.reward()})${s.endReason ? `, ended: ${s.endReason}` : ''}`);
}

function benchmark(flags: Map<string, string>): void {
  const name = flags.get('policy');
  if (!name) throw new UsageError('benchmark needs --policy');
  const names: PolicyName[] = name === 'all' ? [...REFERENCE_POLICIES] : [name as PolicyName];
  for (const n of names)
    if (!(POLICY_NAMES as readonly string[]).includes(n))
      throw new UsageError(`unknown policy "${n}"; one of ${POLICY_NAMES.join(', ')}, or all`);
  const profiles = profilesOf(flags, benchmarkProfiles);
  const missing = profiles.find((p) => !p.openingLine);
  if (missing) throw new UsageError(`profile "${missing.id}" has no openingLine; benchmark profiles need one`);
  const opts = { difficulty: difficultyOf(flags), seed: seedOf(flags) };
  const rows = names.map((n) => runBenchmark(profiles, n, opts).summary);
  if (flags.has('json')) {
    const strip = (r: (typeof rows)[number]) => ({
      score: r.score,
      success: r.success,
      failure: r.failure,
      dialogues: r.dialogues,
      meanTurns: r.meanTurns,
    });
    io.out(
      JSON.stringify(
        name === 'all' ? Object.fromEntries(rows.map((r) => [r.policy, strip(r)])) : strip(rows[0]),
        null,
        2,
      ),
    );
    return;
  }
  io.out(
    `| policy | score | success | failure | mean turns |  (${opts.difficulty}, ${profiles.length} profiles, seed ${opts.seed})`,
  );
  io.out('|---|---|---|---|---|');
  for (const r of rows)
    io.out(
      `| ${r.policy} | ${r.score.toFixed(1)} | ${(100 * r.success).toFixed(0)}% | ${(100 * r.failure).toFixed(0)}% | ${r.meanTurns.toFixed(1)} |`,
    );
}

function calibrateCmd(flags: Map<string, string>): void {
  const profiles = profilesOf(flags, trainingProfiles);
  const c = calibrate(profiles, { difficulty: difficultyOf(flags), seed: seedOf(flags) });
  if (flags.has('json')) io.out(JSON.stringify(c, null, 2));
  else
    io.out(
      `${c.difficulty}, ${c.profiles} profiles: strategy acceptance ${(100 * c.acceptance).toFixed(1)}%, need expression ${(100 * c.needExpression).toFixed(1)}%`,
    );
}

const clip = (s: string, n = 72): string => (s.length > n ? `${s.slice(0, n - 3)}...` : s);
/** Counts per change, in the order -10 .. +10 (object keys would put "0" first). */
const counts = (c: Record<string, number>): string =>
  CHANGES.map((k) => `${changeKey(k)}: ${c[changeKey(k)]}`).join(', ');

function probeCmd(flags: Map<string, string>): void {
  const file = flags.get('replies');
  if (!file) throw new UsageError('probe needs --replies FILE');
  const difficulty = difficultyOf(flags);
  const seed = seedOf(flags);
  const profiles = profilesOf(flags, benchmarkProfiles);
  const report = probe(readReplies(file), profiles, { difficulty, seed });
  if (flags.has('json')) {
    const summary = ({ positives, ...rest }: ProbeLine) => ({ ...rest, positives: positives.length });
    io.out(
      JSON.stringify({
        difficulty,
        seed,
        profiles: profiles.length,
        lines: report.lines.map(summary),
        positives: report.positives,
        worst: report.worst,
      }),
    );
    return;
  }
  io.out(
    `probe: ${report.lines.length} line${report.lines.length === 1 ? '' : 's'} x ${profiles.length} users (${difficulty}, seed ${seed}); each line as the first reply, then as every reply of a dialogue`,
  );
  report.lines.forEach((l, i) => {
    io.out(`\n${i + 1}. ${clip(l.line)}`);
    io.out(`   first reply: ${counts(l.first)}`);
    io.out(
      `   whole dialogue: mean final emotion ${l.meanFinal.toFixed(1)}; changes ${counts(l.all)}; positive changes ${l.positives.length}`,
    );
    for (const p of l.positives)
      io.out(`   ${changeKey(p.change)} ${p.profileId} turn ${p.turn} (-> ${p.emotion}): ${p.reasons.join('; ')}`);
  });
  io.out(`\npositive changes: ${report.positives} over ${report.lines.length} lines`);
}

/** Run the CLI with these arguments; returns the exit status. */
export async function runCli(argv: readonly string[], out: Io = io): Promise<number> {
  io = out;
  try {
    const { command, flags } = parseArgs(argv);
    if (command === 'play') await play(flags);
    else if (command === 'benchmark') benchmark(flags);
    else if (command === 'probe') probeCmd(flags);
    else calibrateCmd(flags);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`error: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof InputError) {
      io.err(`error: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = await runCli(process.argv.slice(2));
