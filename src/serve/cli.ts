/**
 * `npm run serve-users [-- --port P --host H --profiles FILE --workers N --ttl S --max-dialogues N]`:
 * the simulated users over HTTP (./server.ts). Loopback unless --host says otherwise. The first
 * line on stdout is `listening http://HOST:PORT` (with --port 0 the port the system chose), so a
 * test or a launcher can read it; everything else goes to stderr. SIGTERM and SIGINT close the
 * server gracefully (requests in flight finish) and exit 0.
 *
 * Sets: `train` (500), `benchmark` (100), `fixtures` (hand-written benchmark profiles), and with
 * --profiles the file's profiles as set `loaded` (validated; a bad file names its fields, exit 1).
 * --workers N runs the engine in N worker threads behind the one HTTP thread (./shards.ts); each
 * holds the dialogues whose ids route to it, so any connection reaches any dialogue.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DEFAULT_LIMITS, UsersService, type Limits } from './api.ts';
import { inProcess, type UsersBackend } from './backend.ts';
import { startServer, type Started } from './server.ts';
import { loadedSet, loadSets } from './sets.ts';
import { sharded } from './shards.ts';

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

/** The engine the options ask for: in this thread, or in --workers threads. */
async function backendOf(o: ServeOptions): Promise<UsersBackend> {
  if (o.workers > 1) {
    if (o.profiles !== undefined) loadedSet(o.profiles); // a bad file fails here, once, not in every thread
    return sharded(o.workers, o.profiles, o.limits);
  }
  return inProcess(new UsersService(loadSets(o.profiles), { ...DEFAULT_LIMITS, ...o.limits }));
}

/** Serve in this process; resolves once listening. */
export async function serve(o: ServeOptions): Promise<Started> {
  return startServer(await backendOf(o), o.port, o.host);
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
  let s: Started;
  try {
    const o = parseServeArgs(argv);
    if (o.profiles !== undefined && !existsSync(o.profiles)) throw new UsageError(`no such file: ${o.profiles}`);
    s = await serve(o);
    process.stdout.write(`listening ${s.url}\n`);
    const b = s.backend;
    process.stderr.write(
      `serve-users: sets ${b.setSizes.map((x) => `${x.name} (${x.count})`).join(', ')}; ` +
        `ttl ${b.limits.ttlMs / 1000} s, at most ${b.limits.maxDialogues} dialogues` +
        `${o.workers > 1 ? ` per worker; ${o.workers} worker threads` : ''}\n`,
    );
  } catch (e) {
    process.stderr.write(
      `error: ${e instanceof Error ? e.message : String(e)}\n${e instanceof UsageError ? `\n${USAGE}\n` : ''}`,
    );
    return e instanceof UsageError ? 2 : 1;
  }
  closeOnSignals(s.close);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const code = await main(process.argv.slice(2));
  if (code !== 0) process.exit(code);
}
