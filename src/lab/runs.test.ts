import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { benchmarkProfiles } from '../persona/sets';
import { defaultRunConfig } from '../rl/config';
import { exportRun, findDuplicate, importRun, metricKeys, metricsCsv } from './runfile';
import { openRunStore, TRANSCRIPT_CAP, type MetricsRow, type RunRecord, type RunStore } from './runs';

let dbCount = 0;
const open: RunStore[] = [];
async function freshStore(): Promise<RunStore> {
  const store = await openRunStore(`runs-test-${++dbCount}`);
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
    status: 'running',
    config: defaultRunConfig('ci'),
    metrics: [
      { step: 1, 'reward/mean': 0.4 },
      { step: 2, 'reward/mean': 0.5, 'losses/approx_kl': 0.01 },
    ],
    transcripts: [{ turns: ['hi', 'hello'] }],
    ...extra,
  };
}

describe('run store (IndexedDB)', () => {
  it('puts and gets a run whole', async () => {
    const store = await freshStore();
    const run = makeRun('a', { benchmark: { before: { score: 41.5 } }, note: 'first try' });
    await store.put(run);
    expect(await store.get('a')).toEqual(run);
    expect(await store.get('missing')).toBeUndefined();
  });

  it('lists summaries newest first, without metrics or transcripts', async () => {
    const store = await freshStore();
    await store.put(makeRun('old', { createdAt: 1 }));
    await store.put(makeRun('new', { createdAt: 2 }));
    const list = await store.list();
    expect(list.map((r) => r.id)).toEqual(['new', 'old']);
    const s = list[0];
    expect(s).not.toHaveProperty('metrics');
    expect(s).not.toHaveProperty('transcripts');
    expect(s).not.toHaveProperty('sizes');
    expect(s.metricRows).toBe(2);
    expect(s.lastMetrics).toEqual({ step: 2, 'reward/mean': 0.5, 'losses/approx_kl': 0.01 });
    expect(s.transcriptCount).toBe(1);
    expect(s.hasCheckpoint).toBe(false);
    expect(s.bytes).toBeGreaterThan(100);
  });

  it('appends metrics after the last row and updates the summary', async () => {
    const store = await freshStore();
    await store.put(makeRun('a'));
    const before = (await store.list())[0];
    await store.appendMetrics('a', [{ step: 3, 'reward/mean': 0.6 }]);
    await store.appendMetrics('a', [{ step: 4, 'reward/mean': NaN }, { step: 5 }]);
    const run = (await store.get('a'))!;
    expect(run.metrics.map((r) => r.step)).toEqual([1, 2, 3, 4, 5]);
    expect(run.metrics[3]['reward/mean']).toBeNaN();
    const after = (await store.list())[0];
    expect(after.metricRows).toBe(5);
    expect(after.lastMetrics).toEqual({ step: 5 });
    expect(after.bytes).toBeGreaterThan(before.bytes);
    expect(after.updatedAt).toBeGreaterThan(before.updatedAt);
  });

  it('put replaces the metrics rows rather than mixing old and new', async () => {
    const store = await freshStore();
    await store.put(makeRun('a'));
    await store.put(makeRun('a', { metrics: [{ step: 10 }] }));
    expect((await store.get('a'))!.metrics).toEqual([{ step: 10 }]);
    expect((await store.list())[0].metricRows).toBe(1);
  });

  it('keeps only the latest transcripts', async () => {
    const store = await freshStore();
    const many = Array.from({ length: TRANSCRIPT_CAP + 30 }, (_, i) => ({ i }));
    await store.put(makeRun('a', { transcripts: many }));
    let run = (await store.get('a'))!;
    expect(run.transcripts).toHaveLength(TRANSCRIPT_CAP);
    expect(run.transcripts[0]).toEqual({ i: 30 });
    await store.appendTranscripts('a', [{ i: 'x' }, { i: 'y' }]);
    run = (await store.get('a'))!;
    expect(run.transcripts).toHaveLength(TRANSCRIPT_CAP);
    expect(run.transcripts.at(-1)).toEqual({ i: 'y' });
    expect(run.transcripts[0]).toEqual({ i: 32 });
  });

  it('updates status, note and benchmark without touching metrics', async () => {
    const store = await freshStore();
    await store.put(makeRun('a', { note: 'n' }));
    await store.update('a', { status: 'done', benchmark: { after: { score: 55 } } });
    await store.update('a', { note: undefined });
    const run = (await store.get('a'))!;
    expect(run.status).toBe('done');
    expect(run.benchmark).toEqual({ after: { score: 55 } });
    expect(run).not.toHaveProperty('note');
    expect(run.metrics).toHaveLength(2);
    expect(run.name).toBe('run a');
  });

  it('keeps the checkpoint in its own store, a copy of the bytes, counted in usage', async () => {
    const store = await freshStore();
    await store.put(makeRun('a'));
    const bytes = new Uint8Array(5000).fill(1);
    const before = await store.usage();
    await store.putCheckpoint('a', bytes);
    bytes[0] = 99;
    expect(await store.getCheckpoint('a')).toEqual(new Uint8Array(5000).fill(1));
    expect((await store.list())[0].hasCheckpoint).toBe(true);
    const after = await store.usage();
    expect(after.bytes - before.bytes).toBeGreaterThan(4990);
    expect(after.bytes - before.bytes).toBeLessThan(5010);
    // Replacing the record keeps the checkpoint.
    await store.put(makeRun('a', { status: 'done' }));
    expect((await store.list())[0].hasCheckpoint).toBe(true);
    expect(await store.getCheckpoint('a')).toHaveLength(5000);
  });

  it('deletes a run with its metrics, transcripts and checkpoint, leaving others', async () => {
    const store = await freshStore();
    await store.put(makeRun('a'));
    await store.put(makeRun('ab'));
    await store.putCheckpoint('a', new Uint8Array(10));
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
    expect(await store.getCheckpoint('a')).toBeUndefined();
    expect((await store.get('ab'))!.metrics).toHaveLength(2);
    expect(await store.usage()).toEqual({ runs: 1, bytes: (await store.list())[0].bytes });
    // A run put again under the same id starts clean.
    await store.put(makeRun('a', { metrics: [] }));
    expect((await store.get('a'))!.metrics).toEqual([]);
  });

  it('reads a run saved before a config field existed with that field at its default', async () => {
    const store = await freshStore();
    const older = { ...defaultRunConfig('ci') } as Partial<RunRecord['config']>;
    delete older.adamBeta1;
    delete older.weightDecay;
    await store.put(makeRun('old', { config: older as RunRecord['config'] }));
    expect((await store.get('old'))?.config).toEqual(defaultRunConfig('ci'));
    expect((await store.list())[0].config).toEqual(defaultRunConfig('ci'));
  });

  it('refuses writes to a run that does not exist', async () => {
    const store = await freshStore();
    await expect(store.appendMetrics('nope', [{ step: 1 }])).rejects.toThrow(/No run with id "nope"/);
    await expect(store.putCheckpoint('nope', new Uint8Array(1))).rejects.toThrow(/No run/);
    await expect(store.update('nope', { status: 'done' })).rejects.toThrow(/No run/);
  });

  it('survives closing and reopening the database', async () => {
    const name = `runs-test-reopen-${++dbCount}`;
    const first = await openRunStore(name);
    await first.put(makeRun('a'));
    first.close();
    const second = await openRunStore(name);
    open.push(second);
    expect((await second.get('a'))!.metrics).toHaveLength(2);
  });
});

describe('run file', () => {
  it('round-trips a run with NaN, Infinity and missing metrics, and its checkpoint', () => {
    const run = makeRun('a', {
      metrics: [
        { step: 1, 'reward/mean': NaN },
        { step: 2, 'losses/kl': Infinity, 'losses/x': -Infinity },
        { step: 3 },
      ],
      benchmark: { before: { score: 40 }, after: { score: NaN } },
      note: 'hello',
      status: 'failed',
    });
    const checkpoint = new Uint8Array(1000).map((_, i) => (i * 7) & 255);
    const text = exportRun(run, checkpoint);
    const doc = JSON.parse(text);
    expect(doc.format).toBe('empathy-rl-lab/run');
    expect(doc.run.metrics.step).toEqual([1, 2, 3]);
    expect(doc.run.metrics['reward/mean']).toEqual(['NaN', null, null]);
    const back = importRun(text);
    if (!back.ok) throw new Error(back.message);
    expect(back.run).toEqual(run);
    expect(back.checkpoint).toEqual(checkpoint);
    const noCkpt = importRun(exportRun(run));
    expect(noCkpt.ok && noCkpt.checkpoint).toBeUndefined();
  });

  function importErr(text: string): string {
    const r = importRun(text);
    if (r.ok) throw new Error('expected a failure');
    return r.message;
  }

  it('names what is wrong with a bad file', () => {
    const good = JSON.parse(exportRun(makeRun('a'), new Uint8Array([1, 2, 3])));
    const withRun = (patch: Record<string, unknown>) => JSON.stringify({ ...good, run: { ...good.run, ...patch } });
    expect(importErr('{"format": ')).toMatch(/not valid JSON/);
    expect(importErr('[1,2]')).toMatch(/not a JSON object/);
    expect(importErr('{"hello": 1}')).toMatch(/"format" is missing/);
    expect(importErr(JSON.stringify({ ...good, format: 'tm-model' }))).toMatch(/"format" is "tm-model"/);
    expect(importErr(JSON.stringify({ ...good, version: 7 }))).toMatch(/newer version of the lab \(file version 7/);
    expect(importErr(withRun({ status: 'exploded' }))).toMatch(/run\.status: /);
    expect(importErr(withRun({ createdAt: 'yesterday' }))).toMatch(/run\.createdAt: /);
    expect(importErr(withRun({ metrics: { step: [1, 'two'] } }))).toMatch(/run\.metrics\.step\.1: /);
    expect(importErr(withRun({ metrics: { step: [1, 2], 'reward/mean': [0.5] } }))).toMatch(
      /column "reward\/mean" has 1 values where "step" has 2/,
    );
    expect(importErr(withRun({ config: { ...good.run.config, lr: 7 } }))).toMatch(/run\.config\.lr: /);
    expect(importErr(JSON.stringify({ ...good, checkpoint: { ...good.checkpoint, data: '!!!' } }))).toMatch(
      /checkpoint\.data is not base64/,
    );
    expect(importErr(JSON.stringify({ ...good, checkpoint: { ...good.checkpoint, bytes: 4 } }))).toMatch(
      /holds 3 bytes where the file says 4/,
    );
  });

  it('never throws on junk', () => {
    for (const text of [
      '',
      'null',
      '0',
      '"x"',
      '{"format":"empathy-rl-lab/run"}',
      '{"format":"empathy-rl-lab/run","version":1,"run":null}',
    ]) {
      expect(importRun(text).ok).toBe(false);
    }
  });

  it('fills config fields an older file left out from the preset defaults', () => {
    const good = JSON.parse(exportRun(makeRun('a')));
    good.run.config = { version: 1, preset: 'ci', seed: 5 };
    const r = importRun(JSON.stringify(good));
    expect(r.ok && r.run.config).toEqual({ ...defaultRunConfig('ci'), seed: 5 });
  });
});

describe('the evaluation breakdown, the start, the training users and the checkpoint step', () => {
  const figures = (score: number, n: number) => ({ score, success: 0, failure: 0.5, n });
  const breakdown = {
    before: {
      overall: figures(31.5, 2),
      byIntention: { venting: figures(20, 1), advice: figures(43, 1) },
      byType: { anxious: figures(31.5, 2) },
      unmatched: 0,
    },
    after: {
      overall: figures(40, 2),
      byIntention: { venting: figures(35, 1), advice: figures(45, 1) },
      byType: { anxious: figures(40, 2) },
      unmatched: 0,
    },
  };
  const mine = { ...benchmarkProfiles()[0], id: 'custom-robin', name: 'Robin <b>' };

  it('are kept in the store (update patches the breakdown) and come back with get()', async () => {
    const store = await freshStore();
    await store.put(makeRun('a', { start: 'last', profiles: [mine] }));
    await store.update('a', { breakdown, backend: 'webgpu', softwareGpu: true });
    await store.putCheckpoint('a', new Uint8Array([1, 2, 3]), 7);
    const got = await store.get('a');
    expect(got?.breakdown).toEqual(breakdown);
    expect(got?.start).toBe('last');
    expect(got).toMatchObject({ backend: 'webgpu', softwareGpu: true });
    expect(got?.profiles?.[0].name).toBe('Robin <b>');
    expect((await store.list())[0]).toMatchObject({ checkpointStep: 7, hasCheckpoint: true });
    // put() of the whole record keeps the checkpoint and its step.
    await store.put({ ...got!, metrics: [] });
    expect((await store.list())[0]).toMatchObject({ checkpointStep: 7 });
  });

  it('survive export and import', () => {
    const run = makeRun('b', { breakdown, start: 'shipped', profiles: [mine], backend: 'wasm' });
    const back = importRun(exportRun(run, new Uint8Array([9, 8]), 5));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.run.backend).toBe('wasm');
    expect(back.run.breakdown).toEqual(breakdown);
    expect(back.run.start).toBe('shipped');
    expect(back.run.profiles).toEqual([mine]);
    expect(back.checkpointStep).toBe(5);
  });

  it('a file with a broken training user is refused with the field', () => {
    const text = exportRun(makeRun('c', { profiles: [{ ...mine, age: 7 }] }));
    const back = importRun(text);
    expect(back).toMatchObject({
      ok: false,
      message: expect.stringMatching(/run\.profiles\.0 .*profile schema: age:/),
    });
  });

  it('files without them (older ones) still open', () => {
    const back = importRun(exportRun(makeRun('d')));
    expect(back.ok && back.run.breakdown === undefined && back.run.profiles === undefined).toBe(true);
  });
});

describe('importing a run already here', () => {
  it('finds the run a file is a copy of (by id or an earlier imported copy), and not a run that went on', async () => {
    const store = await freshStore();
    const run = makeRun('x', { status: 'done' });
    const file = importRun(exportRun(run));
    if (!file.ok) throw new Error(file.message);
    expect(findDuplicate(await store.list(), file.run)).toBeUndefined();
    await store.put({ ...run, id: 'x-imported-abc' });
    expect(findDuplicate(await store.list(), file.run)?.id).toBe('x-imported-abc');
    await store.put(run);
    expect(findDuplicate(await store.list(), file.run)).toBeDefined();
    // The same run with a step more is another state of it: not a duplicate.
    await store.delete('x');
    await store.delete('x-imported-abc');
    await store.put({ ...run, metrics: [...run.metrics, { step: 3, 'reward/mean': 0.6 }] });
    expect(findDuplicate(await store.list(), file.run)).toBeUndefined();
  });
});

describe('metrics CSV', () => {
  it('puts step first, the other keys in alphabetical order, empty cells where missing', () => {
    const rows: MetricsRow[] = [{ 'reward/mean': 0.5, step: 1 }, { step: 2, 'losses/kl': 0.1 }, { 'reward/mean': NaN }];
    expect(metricKeys(rows)).toEqual(['step', 'losses/kl', 'reward/mean']);
    expect(metricsCsv(rows)).toBe('step,losses/kl,reward/mean\r\n1,,0.5\r\n2,0.1,\r\n,,NaN\r\n');
  });

  it('quotes keys with commas, quotes and line breaks', () => {
    expect(metricsCsv([{ 'a,b': 1, 'say "hi"': 2, 'two\nlines': 3 }])).toBe(
      '"a,b","say ""hi""","two\nlines"\r\n1,2,3\r\n',
    );
  });

  it('has just a blank header for no rows', () => {
    expect(metricsCsv([])).toBe('\r\n');
  });
});
