/**
 * `--workers N`: the engine in N worker threads behind the one HTTP thread. Each shard (./shard.ts)
 * holds the dialogues whose ids route to it (`shardOf`, FNV-1a of the id modulo N), so every
 * request for a dialogue reaches its shard on any connection: a client may open a new connection
 * per request. A start without an id goes to the shards in turn, and the shard picks an id that
 * routes to itself; replays and set listings go to the shards in turn; `POST /v1/turns` is checked
 * here, split by shard, run on every shard at once and put back in order. The HTTP thread parses
 * bodies and writes answers; a shard sends its answer as JSON text, so nothing large is copied
 * between threads as objects.
 *
 * A shard that dies fails its requests in flight (500), loses its dialogues (404 afterwards) and is
 * started again. Not here: what a shard runs (./shard.ts), sockets (./server.ts).
 */
import { Worker } from 'node:worker_threads';
import { DEFAULT_LIMITS, type Limits } from './api.ts';
import { shardOf, type Stats, type UsersAnswer, type UsersBackend, type UsersRequest } from './backend.ts';
import { fail, parse, TurnsBody, type TurnItem } from './schemas.ts';
import { toAnswer } from './backend.ts';

/** What the HTTP thread sends a shard, and what comes back (by `seq`). */
export type ToShard =
  | { seq: number; kind: 'op'; req: UsersRequest }
  | { seq: number; kind: 'items'; turns: TurnItem[]; at: number[]; appraisal: boolean }
  | { seq: number; kind: 'stats' };
export type FromShard =
  | { kind: 'ready'; setSizes: { name: string; count: number }[] }
  | { seq: number; kind: 'answer'; answer: UsersAnswer }
  | { seq: number; kind: 'items'; items: string[] }
  | { seq: number; kind: 'stats'; stats: Stats }
  | { seq: number; kind: 'error'; message: string };

/** What every shard is started with (worker data). */
export interface ShardData {
  index: number;
  count: number;
  profiles?: string;
  limits: Limits;
}

/**
 * A worker thread does not inherit tsx's loader hooks (Node 20), so the thread's entry is a line of
 * JavaScript that loads ./shard.ts through tsx's API.
 */
const SHARD_ENTRY = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ tsImport }) => tsImport(${JSON.stringify(
  new URL('./shard.ts', import.meta.url).href,
)}, ${JSON.stringify(import.meta.url)}))`;

type Reply = Exclude<FromShard, { kind: 'ready' }>;
/** A message without its sequence number (Omit of each member of the union). */
type Unnumbered<T> = T extends unknown ? Omit<T, 'seq'> : never;

class Shard {
  private worker!: Worker;
  private seq = 0;
  private pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private closing = false;
  ready!: Promise<{ name: string; count: number }[]>;

  constructor(private readonly data: ShardData) {
    this.spawn();
  }

  private spawn(): void {
    const worker = new Worker(SHARD_ENTRY, { eval: true, workerData: this.data });
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (m: FromShard): void => {
        if (m.kind === 'ready') return resolve(m.setSizes);
        const p = this.pending.get(m.seq);
        if (!p) return;
        this.pending.delete(m.seq);
        p.resolve(m);
      };
      worker.on('message', onMessage);
      worker.once('error', (e) => reject(e));
      worker.once('exit', (code) => {
        reject(new Error(`shard ${this.data.index} exited (${code}) before it was ready`));
        if (this.closing || this.worker !== worker) return;
        const lost = new Error(`shard ${this.data.index} stopped (exit ${code}); its dialogues are lost`);
        for (const p of this.pending.values()) p.reject(lost);
        this.pending.clear();
        process.stderr.write(`serve-users: ${lost.message}; starting it again\n`);
        this.spawn();
      });
    });
  }

  call(msg: Unnumbered<ToShard>): Promise<Reply> {
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.worker.postMessage({ ...msg, seq } as ToShard);
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }
}

const unwrap = <K extends Reply['kind']>(r: Reply, kind: K): Extract<Reply, { kind: K }> => {
  if (r.kind === 'error') throw new Error(r.message);
  if (r.kind !== kind) throw new Error(`shard answered ${r.kind}, not ${kind}`);
  return r as Extract<Reply, { kind: K }>;
};

/** Start `count` shards (each loads the sets) and resolve once all can serve. */
export async function sharded(
  count: number,
  profiles: string | undefined,
  limits: Partial<Limits>,
): Promise<UsersBackend> {
  const full: Limits = { ...DEFAULT_LIMITS, ...limits };
  const shards = Array.from(
    { length: count },
    (_, index) => new Shard({ index, count, limits: full, ...(profiles !== undefined ? { profiles } : {}) }),
  );
  const setSizes = (await Promise.all(shards.map((s) => s.ready)))[0];
  let next = 0;
  const any = (): Shard => shards[next++ % count];
  const op = async (shard: Shard, req: UsersRequest): Promise<UsersAnswer> =>
    unwrap(await shard.call({ kind: 'op', req }), 'answer').answer;

  const stats = async (): Promise<Stats> => {
    const all = await Promise.all(shards.map(async (s) => unwrap(await s.call({ kind: 'stats' }), 'stats').stats));
    const counters = { ...all[0].counters };
    for (const s of all.slice(1))
      for (const k of Object.keys(counters) as (keyof typeof counters)[]) counters[k] += s.counters[k];
    return { counters, dialogues: all.reduce((n, s) => n + s.dialogues, 0) };
  };

  const turns = async (body: unknown): Promise<UsersAnswer> => {
    const b = parse(TurnsBody, body);
    if (!('ok' in b)) return toAnswer(b);
    const { turns: items, appraisal } = b.value;
    if (items.length > full.maxBatchTurns)
      return toAnswer(fail(400, [`turns: at most ${full.maxBatchTurns} in one request (got ${items.length})`]));
    const groups = shards.map(() => ({ turns: [] as TurnItem[], at: [] as number[] }));
    items.forEach((t, i) => {
      const g = groups[shardOf(t.id, count)];
      g.turns.push(t);
      g.at.push(i);
    });
    const out: string[] = new Array(items.length);
    await Promise.all(
      groups.map(async (g, k) => {
        if (g.turns.length === 0) return;
        const done = unwrap(await shards[k].call({ kind: 'items', turns: g.turns, at: g.at, appraisal }), 'items');
        done.items.forEach((json, j) => (out[g.at[j]] = json));
      }),
    );
    return { status: 200, json: `{"results":[${out.join(',')}]}` };
  };

  return {
    limits: full,
    setSizes,
    stats,
    handle: async (req) => {
      switch (req.op) {
        case 'reply':
        case 'get':
        case 'restore':
        case 'remove':
          return op(shards[shardOf(req.id ?? '', count)], req);
        case 'start': {
          const id = (req.body as { id?: unknown } | null)?.id;
          return op(typeof id === 'string' ? shards[shardOf(id, count)] : any(), req);
        }
        case 'health': {
          const s = await stats();
          return toAnswer({
            status: 200,
            body: { ok: true, dialogues: s.dialogues, sets: setSizes.map((x) => x.name) },
          });
        }
        case 'turns':
          return turns(req.body);
        case 'sets':
        case 'set':
        case 'replay':
          return op(any(), req);
      }
    },
    close: async () => {
      await Promise.all(shards.map((s) => s.close()));
    },
  };
}
