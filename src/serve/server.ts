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
 *   GET    /v1/dialogues/:id             summary + state
 *   PUT    /v1/dialogues/:id             restore a saved state (checked by replaying it)
 *   DELETE /v1/dialogues/:id             drop it
 *   POST   /v1/replay                    stateless: profile, seed, replies → every turn
 *
 * Not here: the engine calls and schemas (./api.ts), flags and signals (./cli.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsersService } from './api.ts';
import type { Answer } from './schemas.ts';

export interface Started {
  server: Server;
  service: UsersService;
  url: string;
  port: number;
  /** Stop accepting, finish requests in flight, close; resolves when the socket is closed. */
  close(): Promise<void>;
}

/** Request counts by route and status, and the time spent answering turns. */
class Metrics {
  requests = new Map<string, number>();
  turnSeconds = 0;
  bodyRejected = 0;
  internalErrors = 0;

  count(route: string, status: number): void {
    const k = `route="${route}",status="${status}"`;
    this.requests.set(k, (this.requests.get(k) ?? 0) + 1);
  }

  text(service: UsersService): string {
    const c = service.counters;
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
      '# HELP users_turn_seconds_total Time spent answering replies.',
      '# TYPE users_turn_seconds_total counter',
      `users_turn_seconds_total ${this.turnSeconds.toFixed(6)}`,
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
      `users_dialogues_active ${service.size}`,
      '# HELP process_resident_memory_bytes Resident memory of this process.',
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

const notFound = (what: string): Answer => ({ status: 404, body: { error: what, errors: [what] } });
const badMethod = (allowed: string): Answer => ({
  status: 405,
  body: { error: `method: not allowed here (allowed: ${allowed})`, errors: [`method: allowed ${allowed}`] },
});

/** Which handler a request goes to, and its route label for /metrics. */
async function route(
  req: IncomingMessage,
  service: UsersService,
  metrics: Metrics,
): Promise<{ label: string; answer: Answer | { text: string } }> {
  const method = req.method ?? 'GET';
  const path = (req.url ?? '/').split('?')[0];
  const body = (): Promise<unknown> => readJson(req, service.limits.maxBodyBytes);
  if (path === '/health') return { label: 'health', answer: method === 'GET' ? service.health() : badMethod('GET') };
  if (path === '/metrics')
    return { label: 'metrics', answer: method === 'GET' ? { text: metrics.text(service) } : badMethod('GET') };
  if (path === '/v1/profile-sets')
    return { label: 'sets', answer: method === 'GET' ? service.listSets() : badMethod('GET') };
  let m = /^\/v1\/profile-sets\/([^/]+)$/.exec(path);
  if (m) return { label: 'set', answer: method === 'GET' ? service.getSet(decode(m[1])) : badMethod('GET') };
  if (path === '/v1/dialogues')
    return { label: 'start', answer: method === 'POST' ? service.start(await body()) : badMethod('POST') };
  if (path === '/v1/replay')
    return { label: 'replay', answer: method === 'POST' ? service.replay(await body()) : badMethod('POST') };
  m = /^\/v1\/dialogues\/([^/]+)\/reply$/.exec(path);
  if (m) {
    if (method !== 'POST') return { label: 'reply', answer: badMethod('POST') };
    const b = await body();
    const t0 = performance.now();
    const answer = service.reply(decode(m[1]), b);
    metrics.turnSeconds += (performance.now() - t0) / 1000;
    return { label: 'reply', answer };
  }
  m = /^\/v1\/dialogues\/([^/]+)$/.exec(path);
  if (m) {
    const id = decode(m[1]);
    if (method === 'GET') return { label: 'get', answer: service.get(id) };
    if (method === 'PUT') return { label: 'restore', answer: service.restore(id, await body()) };
    if (method === 'DELETE') return { label: 'delete', answer: service.remove(id) };
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

function send(res: ServerResponse, answer: Answer | { text: string }): void {
  if ('text' in answer) {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end(answer.text);
    return;
  }
  if (answer.status === 204) {
    res.writeHead(204);
    res.end();
    return;
  }
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A server over `service` on host:port (port 0 = any free one). */
export function startServer(service: UsersService, port = 0, host = '127.0.0.1'): Promise<Started> {
  const metrics = new Metrics();
  const server = createServer((req, res) => {
    route(req, service, metrics)
      .then(({ label, answer }) => {
        metrics.count(label, 'text' in answer ? 200 : answer.status);
        send(res, answer);
      })
      .catch((e: unknown) => {
        const status = e instanceof BodyError ? e.status : 500;
        if (e instanceof BodyError) metrics.bodyRejected++;
        else metrics.internalErrors++;
        metrics.count('error', status);
        const msg = e instanceof BodyError ? e.message : `internal: ${e instanceof Error ? e.message : String(e)}`;
        if (status === 413) res.setHeader('connection', 'close');
        send(res, { status, body: { error: msg, errors: [msg] } });
      });
  });
  // Bounds per connection: no slow-loris holding a socket, no header floods.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 100;
  const sweep = setInterval(() => service.sweep(), Math.max(1000, Math.min(60_000, service.limits.ttlMs / 4)));
  sweep.unref();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const a = server.address() as AddressInfo;
      const shownHost = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({
        server,
        service,
        port: a.port,
        url: `http://${shownHost}:${a.port}`,
        close: () =>
          new Promise<void>((done) => {
            clearInterval(sweep);
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
