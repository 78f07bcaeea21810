/**
 * The worker's RL session on the CPU backend with the shipped ci warm start and a tiny batch: it
 * steps, pauses between steps, single-steps, resets and stops as asked; a reset run repeats the
 * same metrics; progress is batched; the end brings the benchmark and a checkpoint.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { TrackingBackend } from '../engine/testing/tracking';
import { loadCheckpoint } from '../engine/model/checkpoint';
import { defaultRunConfig, type RunConfig } from '../rl/config';
import type { FromWorker, TrainProgress, TrainStartRequest } from './protocol';
import { OUTBOX_INTERVAL_MS } from './progress';
import { TrainSession } from './training';

const CI = new Uint8Array(readFileSync(new URL('../../public/warmstart-ci.bin', import.meta.url)));
const LM = new Uint8Array(readFileSync(new URL('../../public/reference-lm.json', import.meta.url)));
const LM_URL = 'http://lab.test/reference-lm.json';
const TINY: RunConfig = {
  ...defaultRunConfig('ci'),
  profilesPerStep: 1,
  groupSize: 2,
  maxAgentTurns: 2,
  maxTurnTokens: 8,
  minibatchSize: 4,
  steps: 3,
  evalProfiles: 1,
};

function open(
  mode: TrainStartRequest['mode'],
  config: Partial<RunConfig> = {},
  be: CpuBackend = new CpuBackend(),
  extra: Partial<TrainStartRequest> = {},
  lm: Uint8Array = LM,
) {
  const got: FromWorker[] = [];
  const s = new TrainSession(
    be,
    { runId: 'r1', config: { ...TINY, ...config }, start: 'ci', mode, ...extra },
    {
      post: (m) => got.push(m),
      load: async (url) => (url === LM_URL ? lm : CI),
    },
  );
  const progress = () =>
    got.filter((m): m is { type: 'train-progress' } & TrainProgress => m.type === 'train-progress');
  const rows = () => progress().flatMap((m) => m.rows);
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 2000 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(ok()).toBe(true);
  };
  return { s, got, progress, rows, until };
}

const stable = (rows: Record<string, number>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('speed/'))));

describe('the worker training session', () => {
  it('runs to the end: rows per step, dialogues with the hidden need, the benchmark and a final checkpoint', async () => {
    const { s, got, progress, rows } = open('run');
    await s.finished;
    expect(s.state).toBe('done');
    expect(rows().map((r) => r.step)).toEqual([1, 2, 3]);
    const dialogues = progress().flatMap((m) => m.dialogues);
    expect(dialogues).toHaveLength(6);
    expect(dialogues[0].intentionSummary.length).toBeGreaterThan(5);
    expect(dialogues[0].turns.length).toBeGreaterThan(0);
    expect(Object.keys(dialogues[0].turns[0].appraisal)).toEqual([
      'intent',
      'fit',
      'inner',
      'feeling',
      'reaction',
      'needMet',
    ]);
    const last = progress().at(-1)!;
    expect(last.state).toBe('done');
    expect(progress().some((m) => m.benchmarkAfter?.score !== undefined)).toBe(true);
    // The benchmark before step 1 and after the last, each with its breakdown (1 user: one intention, one type).
    const before = progress().find((m) => m.benchmarkBefore);
    expect(before?.rows).toEqual([]);
    expect(progress().indexOf(before!)).toBeLessThan(progress().findIndex((m) => m.rows.length > 0));
    expect(before!.benchmarkBefore).toMatchObject({ dialogues: 1 });
    expect(before!.breakdownBefore!.overall).toMatchObject({ n: 1, score: before!.benchmarkBefore!.score });
    expect(Object.values(before!.breakdownBefore!.byIntention).map((f) => f.n)).toEqual([1]);
    expect(Object.values(before!.breakdownBefore!.byType).map((f) => f.n)).toEqual([1]);
    const after = progress().find((m) => m.breakdownAfter)!;
    expect(after.breakdownAfter!.overall.score).toBe(after.benchmarkAfter!.score);
    expect(progress().filter((m) => m.benchmarkBefore)).toHaveLength(1);
    expect(progress().some((m) => m.phase === 'Evaluating on 1 benchmark users (before training)')).toBe(true);
    const ck = got.filter((m) => m.type === 'train-checkpoint');
    expect(ck).toHaveLength(1);
    if (ck[0].type === 'train-checkpoint') {
      expect(ck[0].final).toBe(true);
      expect(loadCheckpoint(new Uint8Array(ck[0].bytes)).meta).toMatchObject({ kind: 'rl', steps: 3, runId: 'r1' });
    }
    // Batched: progress messages are at least OUTBOX_INTERVAL_MS apart, except the final flush.
    expect(progress().length).toBeLessThanOrEqual(rows().length * 4 + 4);
    expect(OUTBOX_INTERVAL_MS).toBeLessThanOrEqual(100);
  });

  it('single-steps, pauses, and a reset run repeats the same metrics from the same seed and weights', async () => {
    const a = open('step');
    await a.until(() => a.s.state === 'paused');
    expect(a.rows().map((r) => r.step)).toEqual([1]);
    a.s.control('step');
    await a.until(() => a.rows().length === 2 && a.s.state === 'paused');
    a.s.control('reset');
    await a.s.finished;
    expect(a.s.state).toBe('reset');
    expect(a.got.some((m) => m.type === 'train-checkpoint')).toBe(false);

    const b = open('run');
    b.s.control('pause');
    await b.until(() => b.s.state === 'paused');
    // Pause is honoured between steps: at most the step in flight finishes.
    expect(b.rows().length).toBeLessThanOrEqual(1);
    b.s.control('resume');
    await b.until(() => b.rows().length >= 2);
    b.s.control('stop');
    b.s.control('resume'); // Stop is final
    await b.s.finished;
    expect(b.s.state).toBe('stopped');
    expect(stable(b.rows().slice(0, 2))).toEqual(stable(a.rows()));
    expect(b.got.filter((m) => m.type === 'train-checkpoint')).toHaveLength(1);
  });

  it('gives back every tensor the run took: a finished run (with a KL reference), a reset one and a stopped one', async () => {
    const ended = async (mode: TrainStartRequest['mode'], config: Partial<RunConfig>, control?: 'reset' | 'stop') => {
      const be = new TrackingBackend();
      const r = open(mode, config, be);
      if (control) {
        await r.until(() => r.s.state === 'paused');
        expect(be.live.size).toBeGreaterThan(0); // a paused run holds its model
        r.s.control(control);
      }
      await r.s.finished;
      expect(be.live.size, `still held after a ${r.s.state} run:\n${be.report()}`).toBe(0);
      expect(be.doubleReleases).toBe(0);
      return r.s.state;
    };
    expect(await ended('run', { steps: 2, klCoef: 0.1 })).toBe('done');
    expect(await ended('step', {}, 'reset')).toBe('reset');
    expect(await ended('step', {}, 'stop')).toBe('stopped');
  });

  it("scores the benchmark's fluency, surprisal under the reference model the request names", async () => {
    const { s, progress } = open('run', { steps: 1 }, new CpuBackend(), { referenceModel: LM_URL });
    await s.finished;
    const before = progress().find((m) => m.benchmarkBefore)!.benchmarkBefore!;
    const after = progress().find((m) => m.benchmarkAfter)!.benchmarkAfter!;
    for (const b of [before, after]) {
      for (const k of ['realWords', 'hackingShare', 'distinct2', 'meanReplyWords'])
        expect(b[k], k).toBeGreaterThanOrEqual(0);
      expect(b.surprisal).toBeGreaterThan(b.surprisalCorpus);
      expect(b.surprisalCorpus).toBeCloseTo(JSON.parse(new TextDecoder().decode(LM)).heldOut.surprisal, 12);
    }
    // Without a reference model the run goes on, surprisal left out.
    const bare = open('run', { steps: 1 });
    await bare.s.finished;
    expect(bare.progress().find((m) => m.benchmarkBefore)!.benchmarkBefore!.surprisal).toBeNaN();
  });

  it('refuses a damaged reference model, with the reason', async () => {
    const { s, got } = open('run', {}, new CpuBackend(), { referenceModel: LM_URL }, new TextEncoder().encode('{}'));
    await s.finished;
    expect(s.state).toBe('failed');
    const err = got.find((m) => m.type === 'train-error');
    expect(err && err.type === 'train-error' && err.message).toMatch(/reference-lm\.json: not a reference model/);
  });

  it('refuses a start checkpoint of another shape, with a reason', async () => {
    const { s, got } = open('run', { preset: 'micro' });
    await s.finished;
    expect(s.state).toBe('failed');
    const err = got.find((m) => m.type === 'train-error');
    expect(err && err.type === 'train-error' && err.message).toMatch(/another shape than the micro preset/);
  });
});
