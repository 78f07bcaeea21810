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
import { Trainer } from '../rl/trainer';
import { benchmarkProfiles, trainingProfiles } from '../persona/sets';
import { BenchmarkDialoguesSchema } from '../lab/benchmarkDialogues';
import { turnSpans } from '../rl/batch';

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
  /** When each progress message was posted (performance.now()). */
  const postedAt: number[] = [];
  const s = new TrainSession(
    be,
    { runId: 'r1', config: { ...TINY, ...config }, start: 'ci', mode, ...extra },
    {
      post: (m) => {
        if (m.type === 'train-progress') postedAt.push(performance.now());
        got.push(m);
      },
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
  return { s, got, progress, rows, until, postedAt };
}

const stable = (rows: Record<string, number>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('speed/'))));

describe('the worker training session', () => {
  it('runs to the end: rows per step, dialogues with the hidden need, the benchmark and a final checkpoint', async () => {
    const { s, got, progress, rows, postedAt } = open('run');
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
    // ...and each benchmark's dialogues, one per user played, their finals those the summary scored.
    const played = (side: 'benchmarkDialoguesBefore' | 'benchmarkDialoguesAfter') =>
      progress().flatMap((m) => (m[side] ? [m[side]] : []));
    expect(played('benchmarkDialoguesBefore')).toHaveLength(1);
    const [dialoguesBefore] = played('benchmarkDialoguesBefore');
    expect(before!.benchmarkDialoguesBefore).toBe(dialoguesBefore);
    expect(dialoguesBefore.map((d) => d.profileId)).toEqual([benchmarkProfiles()[0].id]);
    expect(dialoguesBefore[0].finalEmotion).toBe(before!.benchmarkBefore!.score);
    expect(dialoguesBefore[0].turns.length).toBeGreaterThan(0);
    expect(dialoguesBefore[0].turns.at(-1)!.emotion).toBe(dialoguesBefore[0].finalEmotion);
    expect(BenchmarkDialoguesSchema.safeParse({ before: dialoguesBefore }).success).toBe(true);
    expect(after.benchmarkDialoguesAfter?.[0].finalEmotion).toBe(after.benchmarkAfter!.score);
    // A checkpoint after step 1 on every backend (a reload can then resume), and the final one.
    const ck = got.flatMap((m) => (m.type === 'train-checkpoint' ? [m] : []));
    expect(ck.map((c) => [c.step, c.final])).toEqual([
      [1, false],
      [3, true],
    ]);
    expect(loadCheckpoint(new Uint8Array(ck[1].bytes)).meta).toMatchObject({ kind: 'rl', steps: 3, runId: 'r1' });
    expect(loadCheckpoint(new Uint8Array(ck[0].bytes)).meta).toMatchObject({ kind: 'rl', steps: 1 });
    // Batched: progress messages are at least OUTBOX_INTERVAL_MS apart, except the ones the session
    // sends at once (each benchmark's phase, the starting score, the end). On a loaded machine the
    // gaps only grow, so this holds however long the steps take.
    const gaps = postedAt.slice(1).map((t, i) => t - postedAt[i]);
    expect(gaps.filter((g) => g < OUTBOX_INTERVAL_MS - 1).length).toBeLessThanOrEqual(4);
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
    // Only the safety checkpoint of step 1: a reset saves nothing of its own.
    expect(a.got.filter((m) => m.type === 'train-checkpoint' && m.final)).toHaveLength(0);

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
    expect(b.got.filter((m) => m.type === 'train-checkpoint' && m.final)).toHaveLength(1);
  });

  it('shows the dialogues of a step round by round, and the benchmark users as they finish', async () => {
    const { s, progress } = open('run', { steps: 1, evalProfiles: 2 });
    await s.finished;
    const live = progress().flatMap((m) => (m.live ? [m.live] : []));
    const train = live.filter((l) => l.kind === 'train');
    const bench = live.filter((l) => l.kind === 'benchmark');
    expect(train.length).toBeGreaterThan(0);
    expect(train.every((l) => l.total === 2 && l.ended <= 2 && l.round >= 1)).toBe(true);
    expect(train.at(-1)!.ended).toBe(2);
    // The first dialogue as far as it has gone: its turns, the hidden need named, 'playing' until it ends.
    const preview = train[0].preview!;
    expect(preview.step).toBe(1);
    expect(preview.turns.length).toBe(train[0].round);
    expect(preview.intentionSummary.length).toBeGreaterThan(5);
    expect(bench.every((l) => l.total === 2 && l.preview === undefined)).toBe(true);
    // Each new phase clears it: the last message (done) has none.
    expect(progress().at(-1)!.live).toBeNull();
  });

  it("colours each token by the trainer's own advantages in a pinned run (GRPO), and by advantage × clipped ratio (PPO)", async () => {
    for (const algo of ['grpo', 'ppo'] as const) {
      const config: Partial<RunConfig> = { steps: 1, evalProfiles: 1, algo, seed: 5 };
      const { s, progress } = open('run', config);
      await s.finished;
      const sent = progress().flatMap((m) => m.dialogues);
      // The same pinned run on a trainer of its own: the advantages its update used.
      const t = new Trainer(new CpuBackend(), {
        config: { ...TINY, ...config },
        start: loadCheckpoint(CI),
        trainProfiles: trainingProfiles(),
      });
      const r = await t.step();
      const lc = t.lastCredit!;
      const c = { ...TINY, ...config };
      let compared = 0;
      sent.forEach((d, di) => {
        const spans = turnSpans(lc.stream, di);
        d.turns.forEach((turn, k) => {
          if (!turn.credit) return;
          expect(turn.credit.tokens).toHaveLength(r.dialogues[di].turns[k].response.length);
          turn.credit.values.forEach((v, j) => {
            const at = spans[k][0] + j;
            const a = lc.advantages[at] * lc.mask[at];
            if (algo === 'grpo') expect(v).toBe(a);
            else {
              // A × clip(ratio, 1 − ε, 1 + ε): between the two clip bounds times A.
              const lo = Math.min(a * (1 - c.clipLow), a * (1 + c.clipHigh));
              const hi = Math.max(a * (1 - c.clipLow), a * (1 + c.clipHigh));
              expect(v).toBeGreaterThanOrEqual(lo - 1e-7);
              expect(v).toBeLessThanOrEqual(hi + 1e-7);
            }
            compared++;
          });
        });
      });
      expect(compared).toBeGreaterThan(0);
      t.release();
    }
    // GRPO on the final reward alone: every trained token of a dialogue weighs the same, the group
    // mean's side decides its sign, and the masked closing token of a cut reply weighs 0.
    const { s, progress } = open('run', { steps: 1, evalProfiles: 1, reward: 'final', seed: 5 });
    await s.finished;
    const ds = progress().flatMap((m) => m.dialogues);
    const mean = (ds[0].reward + ds[1].reward) / 2;
    for (const d of ds.slice(0, 2)) {
      const vals = d.turns.flatMap((t) => t.credit!.values).filter((v) => v !== 0);
      expect(new Set(vals).size).toBeLessThanOrEqual(1);
      if (d.reward !== mean) expect(Math.sign(vals[0])).toBe(Math.sign(d.reward - mean));
    }
  });

  it('evaluates now on request, paused or running, and goes on as before', async () => {
    const { s, progress, until } = open('step', { steps: 3, evalProfiles: 1 });
    await until(() => s.state === 'paused');
    s.control('evaluate');
    await until(() => progress().some((m) => m.benchmarkAfter));
    await until(() => s.state === 'paused' && progress().at(-1)!.state === 'paused');
    const now = progress().find((m) => m.benchmarkAfter)!;
    expect(now.benchmarkAfter).toMatchObject({ step: 1, dialogues: 1 });
    expect(now.breakdownAfter!.overall.n).toBe(1);
    expect(now.benchmarkDialoguesAfter?.map((d) => d.finalEmotion)).toEqual([now.benchmarkAfter!.score]);
    expect(progress().some((m) => m.phase === 'Evaluating the policy of step 1 on 1 benchmark users')).toBe(true);
    s.control('resume');
    await s.finished;
    expect(s.state).toBe('done');
    expect(
      progress()
        .filter((m) => m.benchmarkAfter)
        .at(-1)!.benchmarkAfter,
    ).toMatchObject({ step: 3 });
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
