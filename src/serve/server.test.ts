/**
 * The users server on 127.0.0.1, port 0: every endpoint, the errors that name their field, size
 * limits, TTL and LRU eviction, restore checked by replay, and a fuzz over the HTTP API (no input
 * gives a 5xx or stops the server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { UsersService } from './api.ts';
import { inProcess } from './backend.ts';
import { startServer, type Started } from './server.ts';
import { loadSets } from './sets.ts';
import { benchmarkProfiles } from '../persona/sets.ts';
import { createSimulatedUser } from '../persona/user.ts';

let s: Started;
let service: UsersService;
let clock = 0;
const sets = loadSets();

async function call(
  method: string,
  path: string,
  body?: unknown,
  raw?: string,
): Promise<{ status: number; json: any }> {
  const res = await fetch(s.url + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
}

beforeAll(async () => {
  service = new UsersService(
    sets,
    { maxDialogues: 50, ttlMs: 1000, maxBodyBytes: 64 * 1024, maxReplyChars: 2000 },
    () => clock,
  );
  s = await startServer(inProcess(service), 0, '127.0.0.1');
});
afterAll(async () => {
  await s.close();
});

describe('users server', () => {
  it('listens on loopback and answers health, sets and metrics', async () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await call('GET', '/health')).json).toMatchObject({ ok: true });
    const list = (await call('GET', '/v1/profile-sets')).json;
    expect(list.sets).toEqual([
      { name: 'train', count: 500 },
      { name: 'benchmark', count: 100 },
      { name: 'fixtures', count: sets[2].profiles.length },
    ]);
    const one = (await call('GET', '/v1/profile-sets/benchmark')).json;
    expect(one.profiles[0]).toEqual({ id: 'bench-001', name: benchmarkProfiles()[0].name, hasOpeningLine: true });
    expect(JSON.stringify(one)).not.toContain('intention');
    const m = await call('GET', '/metrics');
    expect(m.json).toContain('users_requests_total{route="health",status="200"} 1');
    expect(m.json).toContain('users_dialogues_active');
  });

  it('plays a dialogue exactly as the engine does in-process, then refuses a reply after the end', async () => {
    const p = benchmarkProfiles()[3];
    const local = createSimulatedUser(p, { seed: 9, difficulty: 'strict', mode: 'benchmark' });
    const started = await call('POST', '/v1/dialogues', { profileId: p.id, seed: 9, difficulty: 'strict' });
    expect(started.status).toBe(201);
    expect(started.json).toMatchObject({
      opening: local.opening,
      emotion: 40,
      band: 'B',
      mode: 'benchmark',
      over: false,
    });
    const id = started.json.id as string;
    let over = false;
    for (let t = 0; !over; t++) {
      const reply = t % 2 ? 'That sounds so hard. What happened next?' : 'You should just talk to them.';
      const want = local.respond(reply);
      const got = await call('POST', `/v1/dialogues/${id}/reply`, { reply });
      expect(got.status).toBe(200);
      expect(got.json).toMatchObject({
        line: want.line,
        change: want.change,
        emotion: want.emotion,
        band: want.band,
        over: want.over,
        endReason: want.endReason,
        reward: local.reward(),
      });
      expect(got.json.appraisal).toMatchObject({
        intent: want.appraisal.intent,
        fit: want.appraisal.fit,
        inner: want.appraisal.inner,
        feeling: want.appraisal.feeling,
        change: want.change,
      });
      expect(got.json.appraisal.detectors.map((d: { reason: string }) => d.reason)).toEqual(
        want.appraisal.detectors.map((d) => d.reason),
      );
      over = got.json.over;
    }
    const after = await call('POST', `/v1/dialogues/${id}/reply`, { reply: 'hello?' });
    expect(after.status).toBe(409);
    const state = (await call('GET', `/v1/dialogues/${id}`)).json.state;
    expect(state).toEqual(local.state);
  });

  it('restores a state under a new id, and refuses a tampered one naming the field', async () => {
    const a = (await call('POST', '/v1/dialogues', { profileId: 'train-0010', seed: 3 })).json;
    await call('POST', `/v1/dialogues/${a.id}/reply`, { reply: 'That sounds heavy. Tell me more?' });
    const state = (await call('GET', `/v1/dialogues/${a.id}`)).json.state;
    const copy = await call('PUT', '/v1/dialogues/copy-1', { state });
    expect(copy.status).toBe(200);
    const r1 = (await call('POST', `/v1/dialogues/${a.id}/reply`, { reply: 'I am here.' })).json;
    const r2 = (await call('POST', '/v1/dialogues/copy-1/reply', { reply: 'I am here.' })).json;
    expect(r2.line).toBe(r1.line);
    expect(r2.emotion).toBe(r1.emotion);
    const bad = await call('PUT', '/v1/dialogues/copy-2', { state: { ...state, emotion: 99 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("state.emotion: does not match a replay of the state's transcript");
  });

  it('answers many dialogues in one request, in order, each turn as a single reply gives it', async () => {
    const profiles = benchmarkProfiles().slice(20, 23);
    const local = profiles.map((p, i) => createSimulatedUser(p, { seed: i, mode: 'benchmark' }));
    const ids: string[] = [];
    for (const [i, p] of profiles.entries())
      ids.push((await call('POST', '/v1/dialogues', { profileId: p.id, seed: i })).json.id);
    const replies = [
      'That sounds exhausting. What happened?',
      'You should ask for help.',
      'It makes sense you feel hurt.',
    ];
    // The first dialogue twice: its turns are answered in the order given.
    const turns = [0, 1, 0, 2].map((k, j) => ({ id: ids[k], reply: replies[j % 3] }));
    const r = await call('POST', '/v1/turns', { turns, appraisal: false });
    expect(r.status).toBe(200);
    expect(r.json.results).toHaveLength(4);
    [0, 1, 0, 2].forEach((k, j) => {
      const want = local[k].respond(replies[j % 3]);
      expect(r.json.results[j]).toEqual({
        status: 200,
        id: ids[k],
        line: want.line,
        change: want.change,
        emotion: want.emotion,
        band: want.band,
        over: want.over,
        endReason: want.endReason,
        reward: local[k].reward(),
        turns: local[k].state.turns,
      });
    });
    // With the appraisal, and a turn that fails among turns that do not: each says its own status.
    const mixed = await call('POST', '/v1/turns', {
      turns: [
        { id: ids[1], reply: 'What was the hardest part?' },
        { id: 'nobody', reply: 'hi' },
        { id: ids[2], reply: 'x'.repeat(2001) },
      ],
    });
    expect(mixed.status).toBe(200);
    const want = local[1].respond('What was the hardest part?');
    expect(mixed.json.results[0].appraisal.detectors.map((d: { reason: string }) => d.reason)).toEqual(
      want.appraisal.detectors.map((d) => d.reason),
    );
    expect(mixed.json.results[1]).toMatchObject({
      status: 404,
      id: 'nobody',
      error: expect.stringMatching(/^turns\[1\]\.id: /),
    });
    expect(mixed.json.results[2]).toMatchObject({
      status: 400,
      error: 'turns[2].reply: at most 2000 characters (got 2001)',
    });
    // The dialogue whose reply was refused is untouched: its next turn is the engine's next.
    const next = await call('POST', `/v1/dialogues/${ids[2]}/reply`, { reply: replies[0] });
    expect(next.json.line).toBe(local[2].respond(replies[0]).line);
  });

  it('refuses a malformed or oversized batch as a whole, naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ turns: [] }, /^turns: /],
      [{ turns: [{ id: 'a b', reply: 'hi' }] }, /^turns\[0\]\.id: /],
      [{ turns: [{ id: 'a', reply: 7 }] }, /^turns\[0\]\.reply: /],
      [{ turns: [{ id: 'a', reply: 'hi', mood: 1 }] }, /mood: unknown field/],
      [{ turns: [{ id: 'a', reply: 'hi' }], appraisal: 'no' }, /^appraisal: /],
      [
        { turns: Array.from({ length: 1025 }, () => ({ id: 'a', reply: 'hi' })) },
        /^turns: at most 1024 in one request/,
      ],
    ];
    for (const [body, error] of cases) {
      const r = await call('POST', '/v1/turns', body);
      expect(r.status).toBe(400);
      expect(r.json.error).toMatch(error);
    }
    const big = await call('POST', '/v1/turns', {
      turns: [{ id: 'a', reply: 'x'.repeat(service.limits.maxBatchBodyBytes) }],
    });
    expect(big.status).toBe(413);
    expect((await call('GET', '/v1/turns')).status).toBe(405);
  });

  it('plays to a turn cap of its own (turnCap), restores and replays it, and refuses a cap out of range', async () => {
    const p = sets.find((x) => x.name === 'train')!.profiles.find((x) => x.id === 'train-0011')!;
    const local = createSimulatedUser(p, { seed: 3, difficulty: 'moderate', mode: 'train', turnCap: 10 });
    const started = await call('POST', '/v1/dialogues', { profileId: p.id, seed: 3, mode: 'train', turnCap: 10 });
    expect(started.status).toBe(201);
    expect(started.json).toMatchObject({ opening: local.opening, turnCap: 10, mode: 'train' });
    const id = started.json.id as string;
    const replies = Array.from({ length: 10 }, (_, t) =>
      t % 2 ? 'That sounds so hard. What happened next?' : `It makes sense you feel that way ${t}.`,
    );
    const changes: number[] = [];
    for (const reply of replies) {
      if (local.over) break;
      const want = local.respond(reply);
      const got = (await call('POST', `/v1/dialogues/${id}/reply`, { reply, appraisal: false })).json;
      expect(got).toMatchObject({ line: want.line, change: want.change, over: want.over, endReason: want.endReason });
      changes.push(want.change);
    }
    expect(changes).toHaveLength(10); // past the train mode's own cap of 8, to its own
    expect(local.state.endReason).toBe('cap');
    const state = (await call('GET', `/v1/dialogues/${id}`)).json.state;
    expect(state).toEqual(local.state);
    expect(state.turnCap).toBe(10);
    const copy = await call('PUT', '/v1/dialogues/capped-copy', { state });
    expect(copy.status).toBe(200);
    expect(copy.json.turnCap).toBe(10);
    const r = await call('POST', '/v1/replay', { profileId: p.id, seed: 3, mode: 'train', turnCap: 10, replies });
    expect(r.status).toBe(200);
    expect(r.json.results.map((x: { change: number }) => x.change)).toEqual(changes);
    expect(r.json.state).toEqual(local.state);
    // Without the cap the same replies stop at the mode's 8.
    const plain = await call('POST', '/v1/replay', { profileId: p.id, seed: 3, mode: 'train', replies });
    expect(plain.json.turnCap).toBe(8);
    expect(plain.json.results.length).toBeLessThanOrEqual(8);
    for (const bad of [0, 11, 2.5, '10']) {
      const b = await call('POST', '/v1/dialogues', { profileId: p.id, turnCap: bad });
      expect(b.status).toBe(400);
      expect(b.json.error).toMatch(/^turnCap: /);
    }
    const short = await call('PUT', '/v1/dialogues/capped-short', { state: { ...state, turnCap: 3 } });
    expect(short.status).toBe(400);
    expect(short.json.error).toMatch(/more than the cap 3/);
  });

  it('replays statelessly: the same numbers as a held dialogue', async () => {
    const replies = ['That sounds awful.', 'What was the hardest part?', 'It makes sense you feel hurt.'];
    const held = (await call('POST', '/v1/dialogues', { profileId: 'bench-010', seed: 4 })).json;
    const changes = [];
    for (const reply of replies)
      changes.push((await call('POST', `/v1/dialogues/${held.id}/reply`, { reply })).json.change);
    const r = await call('POST', '/v1/replay', { profileId: 'bench-010', seed: 4, replies });
    expect(r.status).toBe(200);
    expect(r.json.results.map((x: { change: number }) => x.change)).toEqual(changes);
    expect(r.json.opening).toBe(held.opening);
  });

  it('starts from a whole profile, and names the bad field of an invalid one', async () => {
    const p = benchmarkProfiles()[0];
    const ok = await call('POST', '/v1/dialogues', { profile: { ...p, id: 'my-user' } });
    expect(ok.status).toBe(201);
    expect(ok.json.profileId).toBe('my-user');
    const bad = await call('POST', '/v1/dialogues', { profile: { ...p, age: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/^profile\.age: /);
  });

  it('answers bad input with a 4xx naming the field', async () => {
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', '/v1/dialogues', { profileId: 'bench-001', seed: -1 }, 400, /^seed: /],
      ['POST', '/v1/dialogues', { profileId: 'bench-001', difficulty: 'easy' }, 400, /^difficulty: /],
      ['POST', '/v1/dialogues', { profileId: 'bench-001', colour: 1 }, 400, /colour: unknown field/],
      ['POST', '/v1/dialogues', {}, 400, /^profileId: missing/],
      ['POST', '/v1/dialogues', { profileId: 'nobody' }, 404, /^profileId: /],
      ['POST', '/v1/dialogues', { profileId: 'train-0001', mode: 'benchmark' }, 400, /^mode: /],
      ['POST', '/v1/dialogues/none/reply', { reply: 'hi' }, 404, /^id: no dialogue "none"/],
      ['GET', '/v1/dialogues/none', undefined, 404, /^id: /],
      ['POST', '/v1/replay', { profileId: 'bench-001', replies: 'hi' }, 400, /^replies: /],
      ['GET', '/nowhere', undefined, 404, /^path: /],
      ['DELETE', '/health', undefined, 405, /^method: /],
    ];
    for (const [method, path, body, status, error] of cases) {
      const r = await call(method, path, body);
      expect([path, r.status]).toEqual([path, status]);
      expect(r.json.error).toMatch(error);
    }
    const d = (await call('POST', '/v1/dialogues', { profileId: 'bench-001' })).json;
    const long = await call('POST', `/v1/dialogues/${d.id}/reply`, { reply: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.json.error).toBe('reply: at most 2000 characters (got 2001)');
    const notJson = await call('POST', '/v1/dialogues', undefined, '{"profileId": ');
    expect(notJson.status).toBe(400);
    expect(notJson.json.error).toMatch(/^body: not valid JSON/);
    const big = await call('POST', '/v1/dialogues', undefined, JSON.stringify({ profileId: 'x'.repeat(70 * 1024) }));
    expect(big.status).toBe(413);
  });

  it('drops dialogues after the TTL and the least recently used past the cap', async () => {
    clock = 10_000;
    const first = (await call('POST', '/v1/dialogues', { profileId: 'bench-001', id: 'keep' })).json.id;
    expect(first).toBe('keep');
    for (let i = 0; i < 60; i++) {
      await call('POST', '/v1/dialogues', { profileId: 'bench-002' });
      if (i % 10 === 0) expect((await call('GET', '/v1/dialogues/keep')).status).toBe(200); // touched: stays
    }
    expect(service.size).toBe(50);
    expect((await call('GET', '/v1/dialogues/keep')).status).toBe(200);
    expect(service.counters.dialoguesEvictedCap).toBeGreaterThan(0);
    clock += 1001;
    expect((await call('GET', '/v1/dialogues/keep')).status).toBe(404);
    service.sweep();
    expect(service.size).toBe(0);
    expect((await call('GET', '/metrics')).json).toMatch(/users_dialogues_evicted_total\{reason="ttl"\} [1-9]/);
  });

  it('fuzz: no input gives a 5xx, and the server keeps serving', async () => {
    clock = 1e9;
    const d = (await call('POST', '/v1/dialogues', { profileId: 'train-0001', id: 'fuzz' })).json.id;
    const paths = [
      '/v1/dialogues',
      `/v1/dialogues/${d}/reply`,
      `/v1/dialogues/${d}`,
      '/v1/turns',
      '/v1/replay',
      '/v1/profile-sets/train',
      '/health',
      '/v1/dialogues/%E0%A4%A/reply',
    ];
    const value = fc.oneof(
      fc.jsonValue(),
      fc.string(),
      fc.constantFrom('bench-001', 'train-0002', 'moderate', 'strict', 'train', 'benchmark'),
      // A batch's turns, some for the live dialogue.
      fc.array(fc.record({ id: fc.oneof(fc.constant(d), fc.string()), reply: fc.oneof(fc.string(), fc.jsonValue()) })),
    );
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string(),
      fc
        .dictionary(
          fc.constantFrom(
            'profileId',
            'seed',
            'difficulty',
            'mode',
            'reply',
            'replies',
            'profile',
            'state',
            'set',
            'id',
            'turns',
            'appraisal',
          ),
          value,
        )
        .map((o) => JSON.stringify(o)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        fc.oneof(
          fc.constantFrom(...paths),
          fc.string().map((x) => `/v1/dialogues/${encodeURIComponent(x)}`),
        ),
        body,
        async (method, path, raw) => {
          const r = await call(method, path, undefined, method === 'GET' || method === 'DELETE' ? undefined : raw);
          expect(r.status).toBeLessThan(500);
        },
      ),
      { numRuns: 300, seed: 27 },
    );
    expect((await call('GET', '/health')).status).toBe(200);
    expect((await call('GET', '/metrics')).json).toContain('users_internal_errors_total 0');
  });
});
