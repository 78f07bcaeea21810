/**
 * `npm run bench -- --users-server [--json] [--workers N] [--dialogues N]`: load on the users
 * server. Starts `src/serve/cli.ts --port 0` as its own process and, from this process over
 * loopback, plays 256 concurrent dialogues (benchmark mode, up to 10 turns each) whose replies are
 * the reference policies' (what each policy said in a single-threaded in-process run of the same
 * dialogues). Prints turns per second, p50/p99 latency of a reply, errors, the server's resident
 * memory before and after (all its processes), and whether every change and reward equals the
 * in-process run's (determinism under concurrency). With --json the last line is
 * {turnsPerSecond, p50Ms, p99Ms, errors, rssBeforeMb, rssAfterMb, sameRewards}. Each dialogue uses
 * its own keep-alive connection, so under --workers it stays on one worker. Nothing here is a test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { loadavg } from 'node:os';
import { benchmarkProfiles } from '../src/persona/sets.ts';
import { makePolicy, REFERENCE_POLICIES } from '../src/persona/policies.ts';
import { createSimulatedUser, type TranscriptEntry } from '../src/persona/user.ts';

interface Planned {
  profileId: string;
  seed: number;
  replies: string[];
  changes: number[];
  finalReward: number;
}

/** The dialogues played in-process, one after another: the replies to send and the numbers to expect. */
function plan(n: number, seedBase: number): { dialogues: Planned[]; ms: number } {
  const profiles = benchmarkProfiles();
  const t0 = performance.now();
  const dialogues = Array.from({ length: n }, (_, i) => {
    const p = profiles[i % profiles.length];
    const seed = seedBase + i;
    const name = REFERENCE_POLICIES[i % REFERENCE_POLICIES.length];
    const policy = makePolicy(name, { seed, intention: p.intention });
    const user = createSimulatedUser(p, { seed, mode: 'benchmark' });
    const transcript: TranscriptEntry[] = [{ role: 'user', text: user.opening }];
    const replies: string[] = [];
    const changes: number[] = [];
    while (!user.state.over) {
      const reply = policy(transcript);
      const r = user.respond(reply);
      transcript.push({ role: 'agent', text: reply }, { role: 'user', text: r.line });
      replies.push(reply);
      changes.push(r.change);
    }
    return { profileId: p.id, seed, replies, changes, finalReward: user.reward() };
  });
  return { dialogues, ms: performance.now() - t0 };
}

function post(agent: Agent, port: number, path: string, body: unknown): Promise<{ status: number; json: any }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** Resident memory of a process and its children (a cluster's workers), in MB. */
function rssMb(pid: number): number {
  const one = (p: number): number => {
    const f = `/proc/${p}/status`;
    if (!existsSync(f)) return 0;
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(f, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  };
  const kids = existsSync(`/proc/${pid}/task/${pid}/children`)
    ? readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
    : [];
  return one(pid) + kids.reduce((s, k) => s + one(k), 0);
}

async function startServer(workers: number): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/serve/cli.ts', '--port', '0', '--workers', String(workers)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const first = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (l) => resolve(l));
    child.once('exit', (c) => reject(new Error(`server exited (${c})`)));
  });
  const port = Number(/:(\d+)$/.exec(first)?.[1]);
  if (!port) throw new Error(`server said ${first}`);
  return { child, port };
}

/** Play every planned dialogue at once; each on its own connection. */
async function load(port: number, dialogues: Planned[]) {
  const latencies: number[] = [];
  let errors = 0;
  let same = true;
  const t0 = performance.now();
  await Promise.all(
    dialogues.map(async (d) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const s = await post(agent, port, '/v1/dialogues', { profileId: d.profileId, seed: d.seed });
        if (s.status !== 201) return void errors++;
        let reward = s.json.reward as number;
        for (let i = 0; i < d.replies.length; i++) {
          const t = performance.now();
          const r = await post(agent, port, `/v1/dialogues/${s.json.id}/reply`, { reply: d.replies[i] });
          latencies.push(performance.now() - t);
          if (r.status !== 200) return void errors++;
          if (r.json.change !== d.changes[i]) same = false;
          reward = r.json.reward;
        }
        if (reward !== d.finalReward) same = false;
      } catch {
        errors++;
      } finally {
        agent.destroy();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return { turns: latencies.length, seconds, p50: q(0.5), p99: q(0.99), errors, same };
}

export async function runUsersServerBench(argv: readonly string[]): Promise<number> {
  const flag = (f: string): string | undefined => (argv.includes(f) ? argv[argv.indexOf(f) + 1] : undefined);
  const json = argv.includes('--json');
  const workers = Number(flag('--workers') ?? 1);
  const n = Number(flag('--dialogues') ?? 256);
  if (!Number.isInteger(workers) || workers < 1 || !Number.isInteger(n) || n < 1)
    throw new Error('--workers and --dialogues take positive integers');
  const log = (s: string): void => void process.stderr.write(`${s}\n`);
  const warm = plan(64, 1_000_000);
  const { dialogues, ms } = plan(n, 0);
  const plannedTurns = dialogues.reduce((s, d) => s + d.replies.length, 0);
  log(`in-process, single-threaded (policy + engine): ${plannedTurns} turns in ${ms.toFixed(0)} ms`);
  const { child, port } = await startServer(workers);
  try {
    const rssBefore = rssMb(child.pid!);
    await load(port, warm.dialogues); // JIT warm-up, not measured
    const r = await load(port, dialogues);
    const rssAfter = rssMb(child.pid!);
    const out = {
      turnsPerSecond: Math.round(r.turns / r.seconds),
      p50Ms: Number(r.p50.toFixed(2)),
      p99Ms: Number(r.p99.toFixed(2)),
      errors: r.errors + (r.turns === plannedTurns ? 0 : plannedTurns - r.turns),
      rssBeforeMb: Number(rssBefore.toFixed(1)),
      rssAfterMb: Number(rssAfter.toFixed(1)),
      sameRewards: r.same && r.turns === plannedTurns,
    };
    log(
      `load avg ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}, workers ${workers}`,
    );
    log(
      `${n} concurrent dialogues, ${r.turns} turns in ${r.seconds.toFixed(2)} s: ${out.turnsPerSecond} turns/s, p50 ${out.p50Ms} ms, p99 ${out.p99Ms} ms, errors ${out.errors}`,
    );
    log(
      `server RSS ${out.rssBeforeMb} MB before, ${out.rssAfterMb} MB after; same changes and rewards as in-process: ${out.sameRewards}`,
    );
    if (json) console.log(JSON.stringify(out));
    return out.errors === 0 && out.sameRewards ? 0 : 1;
  } finally {
    child.kill('SIGTERM');
  }
}
