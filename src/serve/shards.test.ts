/**
 * The server with the engine in two worker threads (`--workers 2`): dialogues spread over both
 * shards, and every request reaches its dialogue's shard whatever connection it comes on (each
 * request here opens its own). Turns played one by one, in batches split across the shards, and
 * restored under an id that routes to the other shard all give exactly the in-process engine's
 * numbers; health and metrics add the shards up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from './backend.ts';
import { startServer, type Started } from './server.ts';
import { sharded } from './shards.ts';
import { benchmarkProfiles } from '../persona/sets.ts';
import { createSimulatedUser, type SimulatedUser } from '../persona/user.ts';

let s: Started;

/** One request on a connection of its own (`connection: close`), as a client without keep-alive sends it. */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(s.url + path, {
    method,
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  s = await startServer(await sharded(2, undefined, { maxReplyChars: 2000 }), 0, '127.0.0.1');
}, 60_000);
afterAll(async () => {
  await s.close();
});

const REPLIES = [
  'That sounds exhausting. What happened?',
  'You should talk to them about it.',
  'It makes complete sense that you feel hurt.',
  'What was the hardest part of it for you?',
];

describe('users server on two worker threads', () => {
  it('spreads dialogues over both shards and answers each turn as the engine does, by reply or by batch', async () => {
    const profiles = benchmarkProfiles().slice(0, 10);
    const local: SimulatedUser[] = profiles.map((p, i) => createSimulatedUser(p, { seed: i, mode: 'benchmark' }));
    const ids: string[] = [];
    for (const [i, p] of profiles.entries()) {
      const r = await call('POST', '/v1/dialogues', {
        profileId: p.id,
        seed: i,
        ...(i % 2 ? { id: `given-${i}` } : {}),
      });
      expect(r.status).toBe(201);
      expect(r.json.opening).toBe(local[i].opening);
      ids.push(r.json.id);
    }
    expect(new Set(ids.map((id) => shardOf(id, 2))).size).toBe(2);
    for (let t = 0; t < 3; t++) {
      // Odd dialogues one request each, even ones in one batch across both shards.
      for (let i = 1; i < ids.length; i += 2) {
        const want = local[i].respond(REPLIES[(t + i) % 4]);
        const got = await call('POST', `/v1/dialogues/${ids[i]}/reply`, { reply: REPLIES[(t + i) % 4] });
        expect(got.json).toMatchObject({ line: want.line, change: want.change, emotion: want.emotion });
        expect(got.json.appraisal.total).toBe(want.appraisal.total);
      }
      const even = ids.map((id, i) => ({ id, i })).filter((x) => x.i % 2 === 0);
      const batch = await call('POST', '/v1/turns', {
        turns: [...even.map((x) => ({ id: x.id, reply: REPLIES[(t + x.i) % 4] })), { id: 'nobody', reply: 'hi' }],
        appraisal: false,
      });
      expect(batch.status).toBe(200);
      even.forEach((x, j) => {
        const want = local[x.i].respond(REPLIES[(t + x.i) % 4]);
        expect(batch.json.results[j]).toMatchObject({ status: 200, id: x.id, line: want.line, change: want.change });
      });
      expect(batch.json.results[even.length]).toMatchObject({
        status: 404,
        error: `turns[${even.length}].id: no dialogue "nobody" (never started, deleted or expired)`,
      });
    }
    for (const [i, id] of ids.entries())
      expect((await call('GET', `/v1/dialogues/${id}`)).json.state).toEqual(local[i].state);
    expect((await call('GET', '/health')).json).toMatchObject({ ok: true, dialogues: 10 });
    const metrics = await (await fetch(`${s.url}/metrics`)).text();
    expect(metrics).toContain('users_turns_total 30');
    expect(metrics).toContain('users_dialogues_active 10');
  });

  it('restores a state under an id of the other shard, deletes, and replays statelessly', async () => {
    const p = benchmarkProfiles()[40];
    const a = (await call('POST', '/v1/dialogues', { profileId: p.id, seed: 3 })).json.id as string;
    await call('POST', `/v1/dialogues/${a}/reply`, { reply: REPLIES[0] });
    const state = (await call('GET', `/v1/dialogues/${a}`)).json.state;
    const other = ['copy-a', 'copy-b', 'copy-c', 'copy-d'].find((id) => shardOf(id, 2) !== shardOf(a, 2))!;
    expect((await call('PUT', `/v1/dialogues/${other}`, { state })).status).toBe(200);
    const r1 = (await call('POST', `/v1/dialogues/${a}/reply`, { reply: REPLIES[3] })).json;
    const r2 = (await call('POST', `/v1/dialogues/${other}/reply`, { reply: REPLIES[3] })).json;
    expect(r2.line).toBe(r1.line);
    expect((await call('DELETE', `/v1/dialogues/${a}`)).status).toBe(204);
    expect((await call('GET', `/v1/dialogues/${a}`)).status).toBe(404);
    const replayed = await call('POST', '/v1/replay', { profileId: p.id, seed: 3, replies: [REPLIES[0], REPLIES[3]] });
    expect(replayed.json.results.map((x: { line: string }) => x.line)[1]).toBe(r1.line);
  });
});
