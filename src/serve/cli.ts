/**
 * `npm run serve-users [-- --port P --host H --profiles FILE --workers N --ttl S --max-dialogues N]`:
 * the simulated users over HTTP (./server.ts). Loopback unless --host says otherwise. The first
 * line on stdout is `listening http://HOST:PORT` (with --port 0 the port the system chose), so a
 * test or a launcher can read it; everything else goes to stderr. SIGTERM and SIGINT close the
 * server gracefully (requests in flight finish) and exit 0.
 *
 * Sets: `train` (500), `benchmark` (100), `fixtures` (hand-written benchmark profiles), and with
 * --profiles the file's profiles as set `loaded` (validated; a bad file names its fields, exit 1).
 * --workers N runs N engine processes behind the one port (node:cluster; each holds its own
 * dialogues, so a dialogue must be driven through one connection, as HTTP keep-alive does).
 */
import cluster from 'node:cluster';
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { benchmarkProfiles, trainingProfiles } from '../persona/sets.ts';
import { FIXTURE_BENCHMARK_PROFILES } from '../persona/fixtures.ts';
import { parseProfilesJson } from '../persona/validate.ts';
import { DEFAULT_LIMITS, UsersService, type Limits, type ProfileSet } from './api.ts';
import { startServer, type Started } from './server.ts';

const USAGE = `usage: npm run serve-users -- [--port P] [--host H] [--profiles FILE] [--workers N]
                                [--ttl SECONDS] [--max-dialogues N] [--max-reply-chars N]
  --port 8787 by default (0: any free port); --host 127.0.0.1 by default.`;

export interface ServeOptions {
  port: number;
  host: string;
  profiles?: string;
  workers: number;
  limits: Partial<Limits>;
}

class UsageError extends Error {}

export function parseServeArgs(argv: readonly string[]): ServeOptions {
  const o: ServeOptions = { port: 8787, host: '127.0.0.1', workers: 1, limits: {} };
  const int = (flag: string, v: string | undefined, min: number, max: number): number => {
    const n = Number(v);
    if (v === undefined || !/^\d+$/.test(v) || n < min || n > max)
      throw new UsageError(`${flag} takes a whole number from ${min} to ${max}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    i++;
    if (a === '--port') o.port = int(a, v, 0, 65535);
    else if (a === '--host') {
      if (!v || v.startsWith('--')) throw new UsageError('--host needs a value');
      o.host = v;
    } else if (a === '--profiles') {
      if (!v || v.startsWith('--')) throw new UsageError('--profiles needs a file');
      o.profiles = v;
    } else if (a === '--workers') o.workers = int(a, v, 1, 64);
    else if (a === '--ttl') o.limits.ttlMs = int(a, v, 1, 86_400) * 1000;
    else if (a === '--max-dialogues') o.limits.maxDialogues = int(a, v, 1, 10_000_000);
    else if (a === '--max-reply-chars') o.limits.maxReplyChars = int(a, v, 1, 1_000_000);
    else throw new UsageError(`unknown flag "${a}"`);
  }
  return o;
}

/** The sets a server offers: the shipped three, plus a validated file as `loaded`. */
export function loadSets(file?: string): ProfileSet[] {
  const sets: ProfileSet[] = [
    { name: 'train', profiles: trainingProfiles() },
    { name: 'benchmark', profiles: benchmarkProfiles() },
    { name: 'fixtures', profiles: FIXTURE_BENCHMARK_PROFILES },
  ];
  if (file !== undefined) {
    if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
    const r = parseProfilesJson(readFileSync(file, 'utf8'));
    if (!r.ok) throw new Error(`${file} has invalid profiles:\n  ${r.errors.join('\n  ')}`);
    sets.push({ name: 'loaded', profiles: r.profiles });
  }
  return sets;
}

/** Serve in this process; resolves once listening. */
export async function serve(o: ServeOptions, prefix = 'd'): Promise<Started> {
  const service = new UsersService(loadSets(o.profiles), { ...DEFAULT_LIMITS, ...o.limits }, Date.now, prefix);
  return startServer(service, o.port, o.host);
}

function closeOnSignals(close: () => Promise<void>): void {
  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    close().then(() => process.exit(0));
    // In-flight requests get a few seconds; a stuck one does not keep the process alive.
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function main(argv: readonly string[]): Promise<number> {
  let o: ServeOptions;
  try {
    o = parseServeArgs(argv);
    if (cluster.isPrimary) loadSets(o.profiles); // fail on a bad file before forking
  } catch (e) {
    process.stderr.write(
      `error: ${e instanceof Error ? e.message : String(e)}\n${e instanceof UsageError ? `\n${USAGE}\n` : ''}`,
    );
    return e instanceof UsageError ? 2 : 1;
  }
  if (o.workers > 1 && cluster.isPrimary) {
    let announced = false;
    cluster.on('listening', (_w, a) => {
      if (announced) return;
      announced = true;
      const host = a.addressType === 6 ? `[${a.address}]` : (a.address ?? o.host);
      process.stdout.write(`listening http://${host}:${a.port}\n`);
      process.stderr.write(`serve-users: ${o.workers} workers\n`);
    });
    cluster.on('exit', (w, code) => {
      if (!shuttingDown) process.stderr.write(`serve-users: worker ${w.process.pid} exited (${code})\n`);
    });
    let shuttingDown = false;
    const stop = (): void => {
      shuttingDown = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      setTimeout(() => process.exit(0), 6000).unref();
      cluster.on('exit', () => {
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    // Every worker listens on the port the first one got (port 0 stays one port under cluster).
    for (let i = 0; i < o.workers; i++) cluster.fork({ SERVE_USERS_WORKER: String(i) });
    return 0;
  }
  const worker = process.env.SERVE_USERS_WORKER;
  const s = await serve(o, worker !== undefined ? `w${worker}-` : 'd');
  if (worker === undefined) {
    process.stdout.write(`listening ${s.url}\n`);
    process.stderr.write(
      `serve-users: sets ${s.service.sets.map((x) => `${x.name} (${x.profiles.length})`).join(', ')}; ` +
        `ttl ${s.service.limits.ttlMs / 1000} s, at most ${s.service.limits.maxDialogues} dialogues\n`,
    );
  }
  closeOnSignals(s.close);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const code = await main(process.argv.slice(2));
  if (code !== 0) process.exit(code);
}
