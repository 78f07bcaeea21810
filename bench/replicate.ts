/**
 * `npm run replicate -- [--preset ci] [--seeds 1,2,3] [--steps N] [--jobs J] [--only NAME,...] [--out DIR]
 *   [--backend B]`:
 * the replication grid of docs/RESULTS.md at our scale. Each variant changes one thing from the
 * baseline (GRPO, no think, moderate training users): think vs non-think, PPO vs GRPO, strict vs
 * moderate. Every (variant, seed) is one `npm run experiment` in its own process (J at a time, each
 * given the machine's cores / J wasm threads; `--backend` is passed on); finished runs are kept, so
 * an interrupted grid resumes; a failed run does not stop the others (the failures are listed at the
 * end, exit 1).
 * Prints a markdown table of benchmark score, success and failure (mean ± sample std over seeds)
 * before and after, the gain, perplexity, the share of real-word replies and the reward-hacking
 * share, and writes it with every run's summary to DIR/summary.json. The starting policy's
 * benchmark is played once per think mode and kept in DIR/.cache (experiment --cache).
 * A second table scores the starting policy and every non-think run's checkpoint on the moderate
 * benchmark, the strict benchmark and the challenge users (`npm run evaluate`, kept beside each
 * run as eval-strict.json and eval-challenge.json): RLVER's moderate against strict training users.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const USAGE =
  'npm run replicate -- [--preset ci] [--seeds 1,2,3] [--steps N] [--jobs J] [--only NAME,...] [--out DIR] [--backend B]';
const KNOWN = new Set(['preset', 'seeds', 'steps', 'jobs', 'only', 'out', 'backend']);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(
    `${USAGE}\nruns each (variant, seed) as one npm run experiment; variants: grpo, grpo-think, ppo, ppo-think, grpo-strict, ppo-strict`,
  );
  process.exit(0);
}
for (let i = 0; i < argv.length; i += 2) {
  const name = argv[i].startsWith('--') ? argv[i].slice(2) : null;
  if (name === null || !KNOWN.has(name) || argv[i + 1] === undefined) {
    console.error(
      `${name === null ? `unexpected "${argv[i]}"` : KNOWN.has(name) ? `--${name} needs a value` : `unknown flag --${name}`}\n${USAGE}`,
    );
    process.exit(2);
  }
}
const flag = (name: string, dflt: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : dflt;
};
const preset = flag('preset', 'ci');
const seeds = flag('seeds', '1,2,3').split(',').map(Number);
const steps = flag('steps', '');
const jobs = Number(flag('jobs', '2'));
if (!Number.isInteger(jobs) || jobs < 1) {
  console.error(`--jobs must be a whole number >= 1\n${USAGE}`);
  process.exit(2);
}
if (seeds.some((s) => !Number.isInteger(s))) {
  console.error(`--seeds must be whole numbers separated by commas\n${USAGE}`);
  process.exit(2);
}
const root = flag('out', join('runs', `replicate-${preset}`));
const only = flag('only', '');
const backend = flag('backend', '');
const threads = Math.max(1, Math.floor(availableParallelism() / Math.max(1, jobs)));

const VARIANTS: { name: string; args: string[] }[] = [
  { name: 'grpo', args: ['--algo', 'grpo'] },
  { name: 'grpo-think', args: ['--algo', 'grpo', '--think'] },
  { name: 'ppo', args: ['--algo', 'ppo'] },
  { name: 'ppo-think', args: ['--algo', 'ppo', '--think'] },
  { name: 'grpo-strict', args: ['--algo', 'grpo', '--difficulty', 'strict'] },
  { name: 'ppo-strict', args: ['--algo', 'ppo', '--difficulty', 'strict'] },
];

/** The benchmark figures of one side; `hacking` was a bare share in summaries written before the fluency figures. */
interface Side {
  score: number;
  success: number;
  failure: number;
  hacking: number | { share: number };
  realWords?: number;
}

interface Summary {
  before: Side | null;
  after: Side | null;
  steps: number;
  seconds: number;
  perplexity: { before: number; after: number };
}

const jobsList = VARIANTS.filter((v) => !only || only.split(',').includes(v.name)).flatMap((v) =>
  seeds.map((seed) => ({ v, seed, dir: join(root, `${v.name}-s${seed}`) })),
);

/** `npx tsx SCRIPT ARGS` with the grid's backend and threads: its exit code, stdout and stderr. */
function tsx(script: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const all = [
    'tsx',
    script,
    ...args,
    ...(backend ? ['--backend', backend] : []),
    ...(backend === '' || backend === 'wasm' ? ['--threads', String(threads)] : []),
  ];
  return new Promise((resolve) => {
    const p = spawn('npx', all, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

/** A failed child, with the last lines it wrote to stderr. */
const failed = (what: string, code: number | null, err: string): Error =>
  new Error(`${what} failed (${code}): ${err.trim().split('\n').slice(-3).join(' / ')}`);

async function run(job: (typeof jobsList)[number]): Promise<Summary> {
  const done = join(job.dir, 'summary.json');
  if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as Summary;
  mkdirSync(job.dir, { recursive: true });
  const { code, out, err } = await tsx('src/cli/experiment.ts', [
    '--preset',
    preset,
    ...job.v.args,
    '--seed',
    String(job.seed),
    '--out',
    job.dir,
    '--cache',
    join(root, '.cache'),
    '--json',
    ...(steps ? ['--steps', steps] : []),
  ]);
  writeFileSync(join(job.dir, 'log.txt'), err);
  if (code !== 0) throw failed(`${job.v.name} seed ${job.seed}`, code, err);
  const last = out.trim().split('\n').pop() ?? '';
  writeFileSync(done, last);
  console.error(`done ${job.v.name} seed ${job.seed}: ${last}`);
  return JSON.parse(last) as Summary;
}

const shareOf = (h: Side['hacking']): number => (typeof h === 'number' ? h : h.share);

/** Where a checkpoint is scored besides the moderate benchmark the experiment plays. */
const CROSS = [
  { name: 'strict', args: ['--difficulty', 'strict'] },
  { name: 'challenge', args: ['--profiles', 'public/personas/challenge.json'] },
] as const;

/** `npm run evaluate` of `checkpoint` on one of CROSS, kept in `file` (an interrupted grid resumes). */
async function evaluateOn(checkpoint: string, where: (typeof CROSS)[number], file: string): Promise<Side> {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Side;
  const { code, out, err } = await tsx('src/cli/evaluate.ts', ['--checkpoint', checkpoint, ...where.args, '--json']);
  if (code !== 0) throw failed(`evaluate ${checkpoint} on ${where.name}`, code, err);
  writeFileSync(file, out);
  console.error(`scored ${checkpoint} on ${where.name}`);
  return JSON.parse(out) as Side;
}

async function main(): Promise<void> {
  const results = new Map<string, Summary>();
  // A failed run or evaluation does not stop the others: they finish, the tables hold what did,
  // and the failures are listed at the end (exit 1). A rerun redoes only what has no summary.
  const failures: string[] = [];
  const attempt = async (what: () => Promise<void>) => {
    try {
      await what();
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      failures.push(msg);
      console.error(msg);
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < jobsList.length) {
      const job = jobsList[next++];
      await attempt(async () => void results.set(`${job.v.name}:${job.seed}`, await run(job)));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  const ms = (xs: number[], k = 1) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = xs.length > 1 ? Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1)) : 0;
    return `${m.toFixed(k)} ± ${sd.toFixed(k)}`;
  };
  /** Real-word replies after, or a dash where a run's summary predates the figure. */
  const realWords = (rs: Summary[]): string =>
    rs.every((r) => r.after!.realWords !== undefined)
      ? `${ms(
          rs.map((r) => 100 * r.after!.realWords!),
          0,
        )}%`
      : '—';
  const lines = [
    `| variant | seeds | score before | score after | gain | success after | failure after | perplexity after | real words after | hacking after | minutes |`,
    `|---|---|---|---|---|---|---|---|---|---|---|`,
  ];
  for (const v of VARIANTS) {
    const rs = seeds
      .map((s) => results.get(`${v.name}:${s}`))
      .filter((r): r is Summary => !!r && !!r.before && !!r.after);
    if (rs.length === 0) continue;
    lines.push(
      `| ${v.name} | ${rs.length} | ${ms(rs.map((r) => r.before!.score))} | ${ms(rs.map((r) => r.after!.score))} | ${ms(rs.map((r) => r.after!.score - r.before!.score))} | ${ms(
        rs.map((r) => 100 * r.after!.success),
        0,
      )}% | ${ms(
        rs.map((r) => 100 * r.after!.failure),
        0,
      )}% | ${ms(
        rs.map((r) => r.perplexity.after),
        1,
      )} | ${realWords(rs)} | ${ms(
        rs.map((r) => 100 * shareOf(r.after!.hacking)),
        1,
      )}% | ${ms(
        rs.map((r) => r.seconds / 60),
        1,
      )} |`,
    );
  }
  // Every non-think checkpoint (and the start) on the strict benchmark and the challenge users.
  const crossJobs = [
    { key: 'start', checkpoint: join('public', `warmstart-${preset}.bin`), dir: join(root, '.cache') },
    ...jobsList
      .filter((j) => !j.v.args.includes('--think') && results.has(`${j.v.name}:${j.seed}`))
      .map((j) => ({ key: `${j.v.name}:${j.seed}`, checkpoint: join(j.dir, 'checkpoint.bin'), dir: j.dir })),
  ];
  const cross = new Map<string, Side>();
  let nextCross = 0;
  const crossWorker = async () => {
    while (nextCross < crossJobs.length * CROSS.length) {
      const i = nextCross++;
      const job = crossJobs[Math.floor(i / CROSS.length)];
      const where = CROSS[i % CROSS.length];
      mkdirSync(job.dir, { recursive: true });
      const file = join(job.dir, job.key === 'start' ? `start-${where.name}.json` : `eval-${where.name}.json`);
      await attempt(
        async () => void cross.set(`${job.key}:${where.name}`, await evaluateOn(job.checkpoint, where, file)),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, crossWorker));
  const crossLines = [
    '| policy | seeds | moderate benchmark | strict benchmark | challenge users | failure: moderate / strict / challenge |',
    '|---|---|---|---|---|---|',
  ];
  const moderateStart = crossJobs.map((j) => results.get(j.key)?.before).find((b) => b);
  const startStrict = cross.get('start:strict');
  const startChallenge = cross.get('start:challenge');
  if (moderateStart && startStrict && startChallenge)
    crossLines.push(
      `| starting policy | | ${moderateStart.score.toFixed(1)} | ${startStrict.score.toFixed(1)} | ${startChallenge.score.toFixed(1)} | ${[moderateStart, startStrict, startChallenge].map((x) => `${(100 * x.failure).toFixed(0)}%`).join(' / ')} |`,
    );
  for (const v of VARIANTS.filter((x) => !x.args.includes('--think'))) {
    const ok = seeds.filter(
      (s) =>
        results.get(`${v.name}:${s}`)?.after &&
        cross.has(`${v.name}:${s}:strict`) &&
        cross.has(`${v.name}:${s}:challenge`),
    );
    if (ok.length === 0) continue;
    const on = (where: string) => ok.map((s) => cross.get(`${v.name}:${s}:${where}`)!);
    const moderate = ok.map((s) => results.get(`${v.name}:${s}`)!.after!);
    crossLines.push(
      `| ${v.name} | ${ok.length} | ${ms(moderate.map((r) => r.score))} | ${ms(on('strict').map((r) => r.score))} | ${ms(on('challenge').map((r) => r.score))} | ${[
        moderate,
        on('strict'),
        on('challenge'),
      ]
        .map(
          (xs) =>
            `${ms(
              xs.map((x) => 100 * x.failure),
              0,
            )}%`,
        )
        .join(' / ')} |`,
    );
  }
  const table = `${lines.join('\n')}\n\n${crossLines.join('\n')}`;
  writeFileSync(
    join(root, 'summary.json'),
    `${JSON.stringify({ preset, seeds, steps: steps || 'preset default', runs: Object.fromEntries(results), table }, null, 1)}\n`,
  );
  console.log(table);
  if (failures.length > 0) {
    console.error(`${failures.length} failed (the same command again retries only these):\n${failures.join('\n')}`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
