/**
 * The HTTP face of ./api.ts on `node:http`: routing, bodies read with a byte limit, JSON in and
 * out, Prometheus-style counters on /metrics, and a graceful close (stop accepting, let requests
 * in flight finish, then drop idle keep-alive sockets). `node:http` rather than a framework: eight
 * routes with JSON bodies need no router, zod already validates every body, and the hot path
 * (one small POST per turn) stays free of middleware; nothing new to install or audit.
 *
 *   GET    /health                       liveness, dialogues held, set names
 *   GET    /metrics                      counters (text/plain; version=0.0.4)
 *   GET    /v1/profile-sets              [{name, count}]
 *   GET    /v1/profile-sets/:name        the set's profile ids
 *   POST   /v1/dialogues                 start → {id, opening, emotion, band, ...}
 *   POST   /v1/dialogues/:id/reply       one agent reply → the user's turn
 *   POST   /v1/turns                     many dialogues' replies in one request → their turns, in order
 *   GET    /v1/dialogues/:id             summary + state
 *   PUT    /v1/dialogues/:id             restore a saved state (checked by replaying it)
 *   DELETE /v1/dialogues/:id             drop it
 *   POST   /v1/replay                    stateless: profile, seed, replies → every turn
 *
 * Not here: the engine calls and schemas (./api.ts), where the engine runs (./backend.ts,
 * ./shards.ts), flags and signals (./cli.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toAnswer, type UsersAnswer, type UsersBackend, type UsersRequest } from './backend.ts';
import { fail } from './schemas.ts';

export interface Started {
  server: Server;
  backend: UsersBackend;
  url: string;
  port: number;
  /** Stop accepting, finish requests in flight, close; resolves when the socket is closed. */
  close(): Promise<void>;
}

/** Request counts by route and status, and bodies refused; the engine's counters come from the backend. */
class Metrics {
  requests = new Map<string, number>();
  bodyRejected = 0;
  internalErrors = 0;

  count(route: string, status: number): void {
    const k = `route="${route}",status="${status}"`;
    this.requests.set(k, (this.requests.get(k) ?? 0) + 1);
  }

  async text(backend: UsersBackend): Promise<string> {
    const { counters: c, dialogues } = await backend.stats();
    const lines = [
      '# HELP users_requests_total HTTP requests answered, by route and status.',
      '# TYPE users_requests_total counter',
      ...[...this.requests].map(([k, n]) => `users_requests_total{${k}} ${n}`),
      '# HELP users_dialogues_started_total Dialogues started.',
      '# TYPE users_dialogues_started_total counter',
      `users_dialogues_started_total ${c.dialoguesStarted}`,
      '# HELP users_dialogues_evicted_total Dialogues dropped, by reason (ttl, cap).',
      '# TYPE users_dialogues_evicted_total counter',
      `users_dialogues_evicted_total{reason="ttl"} ${c.dialoguesEvictedTtl}`,
      `users_dialogues_evicted_total{reason="cap"} ${c.dialoguesEvictedCap}`,
      '# HELP users_turns_total Agent replies scored.',
      '# TYPE users_turns_total counter',
      `users_turns_total ${c.turns}`,
      '# HELP users_turn_seconds_total Time the engine spent answering replies (all workers).',
      '# TYPE users_turn_seconds_total counter',
      `users_turn_seconds_total ${c.turnSeconds.toFixed(6)}`,
      '# HELP users_replays_total Stateless replays.',
      '# TYPE users_replays_total counter',
      `users_replays_total ${c.replays}`,
      '# HELP users_bodies_rejected_total Bodies refused (too large or not JSON).',
      '# TYPE users_bodies_rejected_total counter',
      `users_bodies_rejected_total ${this.bodyRejected}`,
      '# HELP users_internal_errors_total Requests that failed inside the server (500).',
      '# TYPE users_internal_errors_total counter',
      `users_internal_errors_total ${this.internalErrors}`,
      '# HELP users_dialogues_active Dialogues held now.',
      '# TYPE users_dialogues_active gauge',
      `users_dialogues_active ${dialogues}`,
      '# HELP process_resident_memory_bytes Resident memory of this process (its worker threads included).',
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${process.memoryUsage.rss()}`,
    ];
    return `${lines.join('\n')}\n`;
  }
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The body as JSON; an empty body is `{}`. Refuses more than `limit` bytes without reading on. */
function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyError(413, `body: at most ${limit} bytes (content-length ${declared})`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limit) {
        done = true;
        reject(new BodyError(413, `body: at most ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch (e) {
        reject(new BodyError(400, `body: not valid JSON (${e instanceof Error ? e.message : String(e)})`));
      }
    });
    req.on('error', (e) => {
      if (done) return;
      done = true;
      reject(new BodyError(400, `body: ${e.message}`));
    });
  });
}

const notFound = (what: string): UsersAnswer => toAnswer(fail(404, [what]));
const badMethod = (allowed: string): UsersAnswer =>
  toAnswer({
    status: 405,
    body: { error: `method: not allowed here (allowed: ${allowed})`, errors: [`method: allowed ${allowed}`] },
  });

type Answered = { label: string; answer: UsersAnswer | { text: string } };

/** Which operation a request is, and its route label for /metrics. */
async function route(req: IncomingMessage, backend: UsersBackend, metrics: Metrics): Promise<Answered> {
  const method = req.method ?? 'GET';
  const path = (req.url ?? '/').split('?')[0];
  const handle = async (label: string, allowed: string, r: () => Promise<UsersRequest>): Promise<Answered> => ({
    label,
    answer: method === allowed ? await backend.handle(await r()) : badMethod(allowed),
  });
  const body = (limit = backend.limits.maxBodyBytes): Promise<unknown> => readJson(req, limit);
  if (path === '/health') return handle('health', 'GET', async () => ({ op: 'health' }));
  if (path === '/metrics')
    return { label: 'metrics', answer: method === 'GET' ? { text: await metrics.text(backend) } : badMethod('GET') };
  if (path === '/v1/profile-sets') return handle('sets', 'GET', async () => ({ op: 'sets' }));
  let m = /^\/v1\/profile-sets\/([^/]+)$/.exec(path);
  if (m) {
    const name = decode(m[1]);
    return handle('set', 'GET', async () => ({ op: 'set', id: name }));
  }
  if (path === '/v1/dialogues') return handle('start', 'POST', async () => ({ op: 'start', body: await body() }));
  if (path === '/v1/replay') return handle('replay', 'POST', async () => ({ op: 'replay', body: await body() }));
  if (path === '/v1/turns')
    return handle('turns', 'POST', async () => ({
      op: 'turns',
      body: await body(backend.limits.maxBatchBodyBytes),
    }));
  m = /^\/v1\/dialogues\/([^/]+)\/reply$/.exec(path);
  if (m) {
    const id = decode(m[1]);
    return handle('reply', 'POST', async () => ({ op: 'reply', id, body: await body() }));
  }
  m = /^\/v1\/dialogues\/([^/]+)$/.exec(path);
  if (m) {
    const id = decode(m[1]);
    if (method === 'GET') return { label: 'get', answer: await backend.handle({ op: 'get', id }) };
    if (method === 'PUT')
      return { label: 'restore', answer: await backend.handle({ op: 'restore', id, body: await body() }) };
    if (method === 'DELETE') return { label: 'delete', answer: await backend.handle({ op: 'remove', id }) };
    return { label: 'dialogue', answer: badMethod('GET, PUT, DELETE') };
  }
  return { label: 'unknown', answer: notFound(`path: no route ${JSON.stringify(path.slice(0, 100))}`) };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function send(res: ServerResponse, answer: UsersAnswer | { text: string }): void {
  if ('text' in answer) {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end(answer.text);
    return;
  }
  if (answer.json === null) {
    res.writeHead(answer.status);
    res.end();
    return;
  }
  res.writeHead(answer.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(answer.json),
  });
  res.end(answer.json);
}

/** A server over `backend` on host:port (port 0 = any free one). */
export function startServer(backend: UsersBackend, port = 0, host = '127.0.0.1'): Promise<Started> {
  const metrics = new Metrics();
  const server = createServer((req, res) => {
    route(req, backend, metrics)
      .then(({ label, answer }) => {
        const status = 'text' in answer ? 200 : answer.status;
        if (status >= 500) metrics.internalErrors++;
        metrics.count(label, status);
        send(res, answer);
      })
      .catch((e: unknown) => {
        const status = e instanceof BodyError ? e.status : 500;
        if (e instanceof BodyError) metrics.bodyRejected++;
        else metrics.internalErrors++;
        metrics.count('error', status);
        const msg = e instanceof BodyError ? e.message : `internal: ${e instanceof Error ? e.message : String(e)}`;
        if (status === 413) res.setHeader('connection', 'close');
        send(res, toAnswer(fail(status, [msg])));
      });
  });
  // Bounds per connection: no slow-loris holding a socket, no header floods.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 100;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const a = server.address() as AddressInfo;
      const shownHost = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({
        server,
        backend,
        port: a.port,
        url: `http://${shownHost}:${a.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => void backend.close().then(done));
            server.closeIdleConnections();
          }),
      });
    });
  });
}
