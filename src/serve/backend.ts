/**
 * What the HTTP layer (./server.ts) asks of the users, wherever the engine runs: a request names
 * an operation, the dialogue id or set name where there is one, and the parsed JSON body; the
 * answer is a status and the JSON text to send (null for 204). `inProcess` runs a UsersService in
 * this thread; ./shards.ts runs one per worker thread, each holding the dialogues whose ids route
 * to it. Also the route itself (`shardOf`), so a shard and the router agree on it.
 *
 * Not here: sockets and bodies (./server.ts), the endpoints' logic (./api.ts), threads (./shards.ts).
 */
import type { Counters, Limits, UsersService } from './api.ts';
import type { Answer } from './schemas.ts';

type Op = 'health' | 'sets' | 'set' | 'start' | 'reply' | 'get' | 'restore' | 'remove' | 'replay' | 'turns';

export interface UsersRequest {
  op: Op;
  /** The dialogue (reply, get, restore, remove) or the set (set). */
  id?: string;
  body?: unknown;
}

export interface UsersAnswer {
  status: number;
  /** The body as JSON text; null when there is none (204). */
  json: string | null;
}

/** The counters of every engine together, and the dialogues they hold now. */
export interface Stats {
  counters: Counters;
  dialogues: number;
}

export interface UsersBackend {
  readonly limits: Limits;
  /** Set names and sizes, for the log line. */
  readonly setSizes: readonly { name: string; count: number }[];
  handle(req: UsersRequest): Promise<UsersAnswer>;
  stats(): Promise<Stats>;
  /** Stop the sweeps (and threads); requests in flight have finished by then. */
  close(): Promise<void>;
}

export const toAnswer = (a: Answer): UsersAnswer => ({
  status: a.status,
  json: a.status === 204 ? null : JSON.stringify(a.body),
});

/** One operation on one service (in this thread, or in a shard's). */
export function serve(service: UsersService, req: UsersRequest): Answer {
  const id = req.id ?? '';
  switch (req.op) {
    case 'health':
      return service.health();
    case 'sets':
      return service.listSets();
    case 'set':
      return service.getSet(id);
    case 'start':
      return service.start(req.body);
    case 'reply':
      return service.reply(id, req.body);
    case 'get':
      return service.get(id);
    case 'restore':
      return service.restore(id, req.body);
    case 'remove':
      return service.remove(id);
    case 'replay':
      return service.replay(req.body);
    case 'turns':
      return service.turns(req.body);
  }
}

/** How often a service drops expired dialogues: a quarter of the TTL, between 1 s and 1 min. */
export const sweepMs = (limits: Limits): number => Math.max(1000, Math.min(60_000, limits.ttlMs / 4));

/** The engine in this thread: the simplest backend, and `--workers 1`. */
export function inProcess(service: UsersService): UsersBackend {
  const sweep = setInterval(() => service.sweep(), sweepMs(service.limits));
  sweep.unref();
  return {
    limits: service.limits,
    setSizes: service.sets.map((s) => ({ name: s.name, count: s.profiles.length })),
    handle: (req) => Promise.resolve(toAnswer(serve(service, req))),
    stats: () => Promise.resolve({ counters: { ...service.counters }, dialogues: service.size }),
    close: () => {
      clearInterval(sweep);
      return Promise.resolve();
    },
  };
}

/**
 * The shard that holds dialogue `id` among `count`: FNV-1a of the id's UTF-16 units, modulo the
 * count. Every request for a dialogue, on any connection, reaches the shard that started it.
 */
export function shardOf(id: string, count: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % count;
}
