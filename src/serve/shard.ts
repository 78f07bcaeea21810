/**
 * One shard of a `--workers N` server (./shards.ts): a worker thread with its own UsersService,
 * which starts only dialogues whose ids route to it, answers operations as JSON text, answers a
 * part of `POST /v1/turns` item by item, and reports its counters. Sweeps its own expired dialogues.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { UsersService } from './api.ts';
import { serve, shardOf, sweepMs, toAnswer } from './backend.ts';
import { loadSets } from './sets.ts';
import type { FromShard, ShardData, ToShard } from './shards.ts';

const data = workerData as ShardData;
const port = parentPort;
if (!port) throw new Error('src/serve/shard.ts runs as a worker thread of src/serve/shards.ts');

const service = new UsersService(
  loadSets(data.profiles),
  data.limits,
  Date.now,
  'd',
  (id) => shardOf(id, data.count) === data.index,
);
setInterval(() => service.sweep(), sweepMs(service.limits)).unref();

function answer(m: ToShard): FromShard {
  switch (m.kind) {
    case 'op':
      return { seq: m.seq, kind: 'answer', answer: toAnswer(serve(service, m.req)) };
    case 'items':
      return {
        seq: m.seq,
        kind: 'items',
        items: service.turnItems(m.turns, m.appraisal, m.at).map((x) => JSON.stringify(x)),
      };
    case 'stats':
      return { seq: m.seq, kind: 'stats', stats: { counters: { ...service.counters }, dialogues: service.size } };
  }
}

port.on('message', (m: ToShard) => {
  let out: FromShard;
  try {
    out = answer(m);
  } catch (e) {
    out = { seq: m.seq, kind: 'error', message: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(out);
});
port.postMessage({
  kind: 'ready',
  setSizes: service.sets.map((s) => ({ name: s.name, count: s.profiles.length })),
} satisfies FromShard);
