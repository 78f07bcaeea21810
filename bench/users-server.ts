/**
 * `npm run bench -- --users-server [--json] [--workers N] [--rate R | --closed] [--window W]
 * [--batch B] [--dialogues N] [--seconds S] [--appraisal]`: load on the users server. Starts
 * `src/serve/cli.ts --port 0 [--workers N]` as its own process and drives it from this one over
 * loopback, through a minimal keep-alive HTTP client (./http-client.ts).
 *
 * The dialogues: the reference policies over the 100 benchmark users (600 dialogues, about 4,800
 * turns), each played first here, single-threaded, for the replies to send and the changes and
 * rewards to expect, then sent again and again for S seconds (5 by default) from N dialogue slots
 * (256 by default). A slot plays one dialogue at a time, as verl plays a sample: start it, send its
 * replies one by one, delete it when it ends, take the next. Replies go without the appraisal
 * (`"appraisal": false`, what the verl interaction asks for) unless --appraisal.
 *
 * The load model (docs/SCALE-OUT.md, "Load"), in two parts:
 *   when a turn is due
 *     --rate R (default 5000)  paced: slot s's k-th turn is due at T0 + (s / N + k) × N / R, so R
 *                              turns a second are offered in all, evenly, with N / R seconds between
 *                              a dialogue's turns (the generation time a trainer spends between
 *                              them); a turn goes when due, or when its previous answer is in if
 *                              that is later. A dialogue starts one interval (N / R s) before
 *                              its first turn is due, so the first starts are spread too.
 *     --closed                 each slot's next turn is due the moment its answer is in: N turns
 *                              always in flight, the ceiling; mean latency is then about N /
 *                              throughput (Little's law).
 *   how it goes
 *     --window W (default 5)   turns wait up to W ms (or until B, --batch, default 256, are waiting)
 *                              and go together as one POST /v1/turns: the verl interaction's batch
 *                              window (integrations/verl, batch_window_ms).
 *     --window 0               a request per turn (POST /v1/dialogues/:id/reply).
 * A turn's latency runs from the time it was due to its answer: waiting in the window counts, and
 * a server that falls behind shows it (no coordinated omission).
 *
 * Prints turns per second (answered turns / time from the first due turn to the last answer), p50
 * and p99 latency of a turn in ms, errors (non-2xx answers and failed requests, starts and deletes
 * included), p50 and p99 of the dialogue starts (stderr, apart from the turns), the server's
 * resident memory before and after in MB (its worker threads included),
 * whether every change and final reward equals the single-threaded run's, and the CPU seconds the
 * server, its engine and this client used. With --json the last line is {turnsPerSecond, p50Ms,
 * p99Ms, errors, rssBeforeMb, rssAfterMb, sameRewards}. One second of the same load runs first
 * and is not measured (the JIT). Nothing here is a test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { loadavg } from 'node:os';
import { benchmarkProfiles } from '../src/persona/sets.ts';
import { makePolicy, REFERENCE_POLICIES } from '../src/persona/policies.ts';
import { createSimulatedUser, type TranscriptEntry } from '../src/persona/user.ts';
import { Connection, type JsonAnswer } from './http-client.ts';

interface Planned {
  profileId: string;
  seed: number;
  replies: string[];
  changes: number[];
  finalReward: number;
}

/** The distinct dialogues: every reference policy over every benchmark user, played in-process. */
function plan(n: number): { dialogues: Planned[]; ms: number } {
  const profiles = benchmarkProfiles();
  const t0 = performance.now();
  const dialogues = Array.from({ length: n }, (_, i) => {
    const p = profiles[i % profiles.length];
    const name = REFERENCE_POLICIES[Math.floor(i / profiles.length) % REFERENCE_POLICIES.length];
    const seed = i;
    const policy = makePolicy(name, { seed, intention: p.intention });
    const user = createSimulatedUser(p, { seed, mode: 'benchmark' });
    const transcript: TranscriptEntry[] = [{ role: 'user', text: user.opening }];
    const replies: string[] = [];
    const changes: number[] = [];
    while (!user.over) {
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

type Answer = JsonAnswer;

/** The server's engine time and turns so far (its /metrics). */
async function engineTotals(port: number): Promise<{ seconds: number; turns: number }> {
  const text = await new Promise<string>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
      let t = '';
      res.on('data', (c: Buffer) => (t += c.toString()));
      res.on('end', () => resolve(t));
    });
    req.on('error', reject);
    req.end();
  });
  const num = (name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { seconds: num('users_turn_seconds_total'), turns: num('users_turns_total') };
}

/** The process and its descendants (a server that forks its workers), from /proc. */
function processTree(pid: number): number[] {
  const f = `/proc/${pid}/task/${pid}/children`;
  const kids = existsSync(f) ? readFileSync(f, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number) : [];
  return [pid, ...kids.flatMap(processTree)];
}

/** Resident memory of the server (its threads share it; forked workers are added), in MB. */
function rssMb(pid: number): number {
  let kb = 0;
  for (const p of processTree(pid)) {
    const f = `/proc/${p}/status`;
    const m = existsSync(f) ? /VmRSS:\s+(\d+) kB/.exec(readFileSync(f, 'utf8')) : null;
    kb += m ? Number(m[1]) : 0;
  }
  return kb / 1024;
}

/** CPU seconds the server has used (all its threads and forked workers; /proc clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    const f = `/proc/${p}/stat`;
    if (!existsSync(f)) continue;
    const fields = readFileSync(f, 'utf8').split(') ')[1].split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
  }
  return ticks / 100;
}

async function startServer(workers: number): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.USERS_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      '--import',
      'tsx',
      'src/serve/cli.ts',
      '--port',
      '0',
      '--workers',
      String(workers),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (l) => resolve(l));
    child.once('exit', (c) => reject(new Error(`server exited (${c})`)));
  });
  const port = Number(/:(\d+)$/.exec(first)?.[1]);
  if (!port) throw new Error(`server said ${first}`);
  return { child, port };
}

/** When turns are due (paced at `rate` turns/s in all, or each the moment the last is answered) and how they go. */
interface Model {
  pacing: 'paced' | 'closed';
  rate: number;
  /** 0: a request per turn; else turns wait up to this many ms to go together as one POST /v1/turns. */
  window: number;
  /** At most this many turns in one POST /v1/turns. */
  batch: number;
}

interface Run {
  port: number;
  plan: Planned[];
  slots: number;
  seconds: number;
  model: Model;
  appraisal: boolean;
}

/**
 * Turns from every slot, gathered: the first to arrive opens a window of `window` ms (or `batch`
 * turns fill it first), then they go as one POST /v1/turns on a free connection and each turn's
 * answer goes back to its slot. What the verl interaction does with its batch window.
 */
class Coalescer {
  private waiting: { id: string; reply: string; done: (a: Answer) => void; fail: (e: Error) => void }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private free: Connection[] = [];
  private all: Connection[] = [];

  constructor(
    private readonly port: number,
    private readonly window: number,
    private readonly batch: number,
    private readonly appraisal: boolean,
  ) {}

  send(id: string, reply: string): Promise<Answer> {
    return new Promise((done, fail) => {
      this.waiting.push({ id, reply, done, fail });
      if (this.waiting.length >= this.batch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.window);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const turns = this.waiting.splice(0, this.batch);
    if (this.waiting.length) this.timer = setTimeout(() => this.flush(), this.window);
    if (turns.length === 0) return;
    let c = this.free.pop();
    if (!c) this.all.push((c = new Connection(this.port)));
    const conn = c;
    conn
      .send('POST', '/v1/turns', {
        turns: turns.map((t) => ({ id: t.id, reply: t.reply })),
        ...(this.appraisal ? {} : { appraisal: false }),
      })
      .then((a) => {
        this.free.push(conn);
        if (a.status !== 200) throw new Error(`POST /v1/turns: ${a.status}`);
        turns.forEach((t, j) => t.done({ status: a.json.results[j].status, json: a.json.results[j] }));
      })
      .catch((e: Error) => turns.forEach((t) => t.fail(e)));
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const c of this.all) c.close();
  }
}

/** What a run saw. */
class Tally {
  latencies: number[] = [];
  /** How long each start took (ms): reported beside the turns, not in them. */
  starts: number[] = [];
  errors = 0;
  same = true;
  lastAnswer = 0;
  private next = 0;

  constructor(private readonly plan: Planned[]) {}

  /** The next planned dialogue, round and round. */
  take(): Planned {
    return this.plan[this.next++ % this.plan.length];
  }

  turn(d: Planned, i: number, a: Answer, latency: number): boolean {
    this.lastAnswer = performance.now();
    if (a.status !== 200) {
      this.errors++;
      return false;
    }
    this.latencies.push(latency);
    if (a.json.change !== d.changes[i]) this.same = false;
    if (a.json.over && a.json.reward !== d.finalReward) this.same = false;
    if (a.json.over !== (i === d.replies.length - 1)) this.same = false;
    return true;
  }
}

/** Milliseconds between a slot's turns when paced (also how long before its first turn a dialogue starts); 0 when closed. */
const intervalMs = (model: Model, slots: number): number =>
  model.pacing === 'paced' ? (1000 * slots) / model.rate : 0;

const sleepUntil = (t: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, t - performance.now())));

/** Every slot plays dialogue after dialogue until nothing more is due. */
async function slots(r: Run, tally: Tally, t0: number): Promise<void> {
  const end = t0 + r.seconds * 1000;
  const interval = intervalMs(r.model, r.slots);
  const together = r.model.window > 0 ? new Coalescer(r.port, r.model.window, r.model.batch, r.appraisal) : null;
  await Promise.all(
    Array.from({ length: r.slots }, async (_, s) => {
      const c = new Connection(r.port);
      let k = 0;
      try {
        for (;;) {
          const d = tally.take();
          if ((interval ? t0 + (s / r.slots + k) * interval : performance.now()) >= end) return;
          // Paced, a dialogue starts one interval before its first turn is due (a trainer generates the
          // first reply in between), so the slots' first starts are spread like their turns, not sent
          // all at once.
          if (interval) await sleepUntil(t0 + (s / r.slots + k - 1) * interval);
          const asked = performance.now();
          const started = await c.send('POST', '/v1/dialogues', { profileId: d.profileId, seed: d.seed });
          tally.starts.push(performance.now() - asked);
          if (started.status !== 201) return void tally.errors++;
          const id = started.json.id as string;
          for (let i = 0; i < d.replies.length; i++, k++) {
            const due = interval ? t0 + (s / r.slots + k) * interval : performance.now();
            if (due >= end) return;
            if (interval) await sleepUntil(due);
            const a = together
              ? await together.send(id, d.replies[i])
              : await c.send('POST', `/v1/dialogues/${id}/reply`, {
                  reply: d.replies[i],
                  ...(r.appraisal ? {} : { appraisal: false }),
                });
            if (!tally.turn(d, i, a, performance.now() - due)) return;
          }
          const gone = await c.send('DELETE', `/v1/dialogues/${id}`);
          if (gone.status !== 204) tally.errors++;
        }
      } catch {
        tally.errors++;
      } finally {
        c.close();
      }
    }),
  );
  together?.close();
}

async function load(r: Run): Promise<{
  turns: number;
  seconds: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  startP50: number;
  startP99: number;
  errors: number;
  same: boolean;
}> {
  const tally = new Tally(r.plan);
  // The first starts go a moment from now, the first turns one interval later (paced).
  const t0 = performance.now() + 20 + intervalMs(r.model, r.slots);
  // A request that is never answered would hang the run: give up a minute after the last turn is due.
  let stuck: NodeJS.Timeout | undefined;
  await Promise.race([
    slots(r, tally, t0),
    new Promise<never>((_, reject) => {
      stuck = setTimeout(
        () => reject(new Error('requests still unanswered a minute after the run')),
        r.seconds * 1000 + 60_000,
      );
    }),
  ]).finally(() => clearTimeout(stuck));
  const seconds = (tally.lastAnswer - t0) / 1000;
  const lat = tally.latencies.sort((a, b) => a - b);
  const q = (p: number, of = lat): number => of[Math.min(of.length - 1, Math.floor(p * of.length))] ?? NaN;
  const starts = tally.starts.sort((a, b) => a - b);
  return {
    turns: lat.length,
    seconds,
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    max: lat[lat.length - 1] ?? NaN,
    startP50: q(0.5, starts),
    startP99: q(0.99, starts),
    errors: tally.errors,
    same: tally.same,
  };
}

export async function runUsersServerBench(argv: readonly string[]): Promise<number> {
  const flag = (f: string): string | undefined => (argv.includes(f) ? argv[argv.indexOf(f) + 1] : undefined);
  const whole = (f: string, fallback: number): number => {
    const v = flag(f);
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${f} takes a positive whole number`);
    return n;
  };
  const json = argv.includes('--json');
  const workers = whole('--workers', 1);
  const slotCount = whole('--dialogues', 256);
  const seconds = whole('--seconds', 5);
  if (argv.includes('--rate') && argv.includes('--closed')) throw new Error('choose --rate or --closed, not both');
  const windowFlag = flag('--window');
  const window = windowFlag === undefined ? 5 : Number(windowFlag);
  if (!Number.isFinite(window) || window < 0) throw new Error('--window takes milliseconds (0: a request per turn)');
  const model: Model = {
    pacing: argv.includes('--closed') ? 'closed' : 'paced',
    rate: whole('--rate', 5000),
    window,
    batch: whole('--batch', 256),
  };
  const appraisal = argv.includes('--appraisal');
  const log = (s: string): void => void process.stderr.write(`${s}\n`);

  const { dialogues, ms } = plan(600);
  const plannedTurns = dialogues.reduce((s, d) => s + d.replies.length, 0);
  log(
    `in-process, single-threaded (policy + engine): ${dialogues.length} dialogues, ${plannedTurns} turns in ${ms.toFixed(0)} ms`,
  );
  const pacing =
    model.pacing === 'paced'
      ? `paced: ${model.rate} turns/s offered, ${intervalMs(model, slotCount).toFixed(1)} ms between a dialogue's turns`
      : 'closed: each slot sends its next turn as soon as its answer is in';
  const transport = model.window
    ? `turns gathered for ${model.window} ms (at most ${model.batch}) into POST /v1/turns`
    : 'a request per turn';
  log(
    `load: ${slotCount} dialogue slots, ${pacing}; ${transport}; ${seconds} s, ${appraisal ? 'with' : 'without'} the appraisal; workers ${workers}`,
  );

  const { child, port } = await startServer(workers);
  try {
    const pid = child.pid!;
    const rssBefore = rssMb(pid);
    await load({ port, plan: dialogues, slots: slotCount, seconds: 1, model, appraisal }); // JIT warm-up
    const engine0 = await engineTotals(port);
    const cpu0 = { server: cpuSeconds(pid), client: process.cpuUsage() };
    const r = await load({ port, plan: dialogues, slots: slotCount, seconds, model, appraisal });
    const client = process.cpuUsage(cpu0.client);
    const serverCpu = cpuSeconds(pid) - cpu0.server;
    const engine1 = await engineTotals(port);
    const engineUs = (1e6 * (engine1.seconds - engine0.seconds)) / (engine1.turns - engine0.turns);
    const rssAfter = rssMb(pid);
    const out = {
      turnsPerSecond: Math.round(r.turns / r.seconds),
      p50Ms: Number(r.p50.toFixed(2)),
      p99Ms: Number(r.p99.toFixed(2)),
      errors: r.errors,
      rssBeforeMb: Number(rssBefore.toFixed(1)),
      rssAfterMb: Number(rssAfter.toFixed(1)),
      sameRewards: r.same && r.errors === 0,
    };
    log(
      `load avg ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    log(
      `${r.turns} turns in ${r.seconds.toFixed(2)} s: ${out.turnsPerSecond} turns/s, p50 ${out.p50Ms} ms, ` +
        `p90 ${r.p90.toFixed(2)} ms, p99 ${out.p99Ms} ms, max ${r.max.toFixed(1)} ms, errors ${out.errors}`,
    );
    log(`dialogue starts: p50 ${r.startP50.toFixed(2)} ms, p99 ${r.startP99.toFixed(2)} ms (not counted in the turns)`);
    log(
      `CPU over the run: server ${serverCpu.toFixed(2)} s, client ${((client.user + client.system) / 1e6).toFixed(2)} s ` +
        `(${((1e6 * serverCpu) / r.turns).toFixed(0)} and ${((client.user + client.system) / r.turns).toFixed(0)} us a turn; ` +
        `the engine ${engineUs.toFixed(0)} us a turn of the server's)`,
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
