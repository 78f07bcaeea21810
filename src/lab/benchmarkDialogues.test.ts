/**
 * The benchmark dialogues a run keeps: the schema's bounds, the run store (kept apart from the run
 * list, counted in the size, gone with the run; a database of the version before them opens with
 * its runs), and the run file (they travel; older files still open; a damaged one is refused with
 * its field).
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { TURN_CAP } from '../persona/dynamics';
import { benchmarkProfiles } from '../persona/sets';
import { defaultRunConfig } from '../rl/config';
import { BenchmarkDialoguesSchema, type BenchmarkDialogue } from './benchmarkDialogues';
import { exportRun, importRun } from './runfile';
import { openRunStore, type RunRecord, type RunStore } from './runs';

const users = benchmarkProfiles();

function dialogue(i: number, finalEmotion: number, turns = 2): BenchmarkDialogue {
  const u = users[i];
  return {
    profileId: u.id,
    who: `${u.name}, ${u.age}: ${u.scenario.domain}`,
    intention: u.intention,
    opening: `opening of ${u.id}`,
    startEmotion: 40,
    finalEmotion,
    endReason: 'cap',
    turns: Array.from({ length: turns }, (_, k) => ({
      reply: `reply ${k}`,
      think: null,
      wellFormed: true,
      change: k === turns - 1 ? finalEmotion - 40 : 0,
      emotion: k === turns - 1 ? finalEmotion : 40,
      line: `line ${k}`,
      appraisal: { intent: 'asks', fit: 'close', inner: 'heard', feeling: 'calmer', reaction: 'heard', needMet: false },
    })),
  };
}

describe('the schema', () => {
  it('holds each side to the benchmark: at most 100 users, the turn cap, a known intention', () => {
    expect(BenchmarkDialoguesSchema.safeParse({ before: [dialogue(0, 40)], after: [] }).success).toBe(true);
    const many = Array.from({ length: 101 }, () => dialogue(0, 40));
    expect(BenchmarkDialoguesSchema.safeParse({ before: many }).success).toBe(false);
    expect(BenchmarkDialoguesSchema.safeParse({ after: [dialogue(0, 40, TURN_CAP.benchmark + 1)] }).success).toBe(
      false,
    );
    expect(BenchmarkDialoguesSchema.safeParse({ after: [{ ...dialogue(0, 40), intention: 'revenge' }] }).success).toBe(
      false,
    );
    expect(
      BenchmarkDialoguesSchema.safeParse({ after: [{ ...dialogue(0, 40), opening: 'x'.repeat(5_000) }] }).success,
    ).toBe(false);
  });
});

let dbCount = 0;
const open: RunStore[] = [];
async function freshStore(name = `played-test-${++dbCount}`): Promise<RunStore> {
  const store = await openRunStore(name);
  open.push(store);
  return store;
}
afterEach(() => {
  while (open.length) open.pop()!.close();
});

function makeRun(id: string, extra: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    name: `run ${id}`,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    status: 'done',
    config: defaultRunConfig('ci'),
    metrics: [{ step: 1, 'reward/mean': 0.4 }],
    transcripts: [],
    benchmark: { before: { score: 40 }, after: { score: 45, step: 1 } },
    ...extra,
  };
}

describe('in the run store', () => {
  const played = { before: [dialogue(0, 40), dialogue(1, 50)], after: [dialogue(0, 60), dialogue(1, 35)] };

  it('come back with get(), not with list(), and count in the run size', async () => {
    const store = await freshStore();
    await store.put(makeRun('a'));
    const bare = (await store.list())[0].bytes;
    await store.putBenchmarkDialogues('a', { before: played.before });
    await store.putBenchmarkDialogues('a', played);
    expect((await store.get('a'))?.benchmarkDialogues).toEqual(played);
    const [summary] = await store.list();
    expect(summary).not.toHaveProperty('benchmarkDialogues');
    expect(summary.bytes - bare).toBeGreaterThanOrEqual(JSON.stringify(played).length);
    // Replaced whole: a side left out is gone.
    await store.putBenchmarkDialogues('a', { before: played.before });
    expect((await store.get('a'))?.benchmarkDialogues).toEqual({ before: played.before });
    await expect(store.putBenchmarkDialogues('nope', played)).rejects.toThrow(/No run with id "nope"/);
  });

  it('go with put() of the whole record and with delete()', async () => {
    const store = await freshStore();
    await store.put(makeRun('a', { benchmarkDialogues: played }));
    expect((await store.get('a'))?.benchmarkDialogues).toEqual(played);
    await store.put(makeRun('a'));
    expect((await store.get('a'))?.benchmarkDialogues).toBeUndefined();
    await store.put(makeRun('a', { benchmarkDialogues: played }));
    await store.delete('a');
    await store.put(makeRun('a'));
    expect((await store.get('a'))?.benchmarkDialogues).toBeUndefined();
  });

  it('a database of the version before them opens with its runs, which then keep dialogues too', async () => {
    const name = `played-v1-${++dbCount}`;
    // The run store as version 1 made it: four object stores, a run and its metrics.
    const v1 = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('runs', { keyPath: 'id' });
        db.createObjectStore('metrics', { keyPath: ['runId', 'seq'] });
        db.createObjectStore('transcripts', { keyPath: 'runId' });
        db.createObjectStore('checkpoints', { keyPath: 'runId' });
      },
    });
    const { metrics: _m, transcripts: _t, ...record } = makeRun('old');
    await v1.put('runs', {
      ...record,
      metricRows: 1,
      transcriptCount: 0,
      hasCheckpoint: false,
      sizes: { meta: 100, metrics: 30, transcripts: 2, checkpoint: 0 },
    });
    await v1.put('metrics', { runId: 'old', seq: 0, row: { step: 1, 'reward/mean': 0.4 } });
    v1.close();

    const store = await freshStore(name);
    const [summary] = await store.list();
    expect(summary).toMatchObject({ id: 'old', bytes: 132 });
    const run = await store.get('old');
    expect(run?.metrics).toEqual([{ step: 1, 'reward/mean': 0.4 }]);
    expect(run?.benchmarkDialogues).toBeUndefined();
    await store.putBenchmarkDialogues('old', played);
    expect((await store.get('old'))?.benchmarkDialogues).toEqual(played);
  });
});

describe('in the run file', () => {
  const played = { before: [dialogue(0, 40)], after: [dialogue(0, 70)] };

  it('survive export and import', () => {
    const back = importRun(exportRun(makeRun('a', { benchmarkDialogues: played })));
    expect(back.ok && back.run.benchmarkDialogues).toEqual(played);
  });

  it('a file from before them still opens, without them', () => {
    const file = {
      format: 'empathy-rl-lab/run',
      version: 1,
      run: {
        id: 'run-old',
        name: 'an older run',
        createdAt: 1_700_000_000_000,
        updatedAt: 1_700_000_000_000,
        status: 'done',
        config: { version: defaultRunConfig('ci').version, preset: 'ci' },
        metrics: { step: [1, 2], 'reward/mean': [0.3, 0.35] },
        transcripts: [],
        benchmark: { before: { score: 40 }, after: { score: 42 } },
      },
    };
    const back = importRun(JSON.stringify(file));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.run.benchmarkDialogues).toBeUndefined();
    expect(back.run.benchmark?.after?.score).toBe(42);
  });

  it('a damaged dialogue is refused, naming where', () => {
    const doc = JSON.parse(exportRun(makeRun('a', { benchmarkDialogues: played })));
    doc.run.benchmarkDialogues.after[0].turns[1].change = 'lots';
    expect(importRun(JSON.stringify(doc))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/run\.benchmarkDialogues\.after\.0\.turns\.1\.change/),
    });
  });
});
