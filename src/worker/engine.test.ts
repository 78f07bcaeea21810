/**
 * The engine in Node on the CPU backend: a GPU check that throws (rather than finding no adapter)
 * still chooses a backend, so a Train request sent meanwhile starts and finishes instead of waiting
 * for ever; a run resumed from its checkpoint goes on from the checkpoint's step, exactly as the
 * run that never stopped (AdamW's state travels in the checkpoint); a run on the
 * person's own training user trains on that user, and a bad one is refused with the reason; a lost
 * device ends a paused run with a message that says so.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { loadCheckpoint, saveCheckpoint } from '../engine/model/checkpoint';
import { benchmarkProfiles } from '../persona/sets';
import { defaultRunConfig, type RunConfig } from '../rl/config';
import { wasmBackends } from '../engine/wasm/testing/same';
import { createEngine } from './engine';
import type { FromWorker, TrainProgress, TrainStartRequest } from './protocol';
import { TrainSession } from './training';

const CI = new Uint8Array(readFileSync(new URL('../../public/warmstart-ci.bin', import.meta.url)));
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

type Progress = { type: 'train-progress' } & TrainProgress;
const progressOf = (got: FromWorker[]) => got.filter((m): m is Progress => m.type === 'train-progress');

async function until(ok: () => boolean, ms = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!ok() && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
}

function session(req: Partial<TrainStartRequest>, config: Partial<RunConfig> = {}) {
  const got: FromWorker[] = [];
  const s = new TrainSession(
    new CpuBackend(),
    { runId: 'r1', config: { ...TINY, ...config }, start: 'ci', mode: 'run', ...req },
    {
      post: (m) => got.push(m),
      load: async () => CI,
    },
  );
  return {
    s,
    got,
    rows: () => progressOf(got).flatMap((m) => m.rows),
    dialogues: () => progressOf(got).flatMap((m) => m.dialogues),
  };
}

describe('the engine', () => {
  it('falls back to the CPU when the GPU check throws, and a Train request sent meanwhile runs to the end', async () => {
    const got: FromWorker[] = [];
    const engine = createEngine({
      post: (m) => got.push(m),
      acquire: async () => {
        throw new Error('adapter exploded');
      },
      fetchBytes: async () => CI,
    });
    engine.handle({ type: 'probe', force: null });
    engine.handle({
      type: 'train-start',
      request: { runId: 'r1', config: { ...TINY, steps: 1 }, start: 'http://lab.test/warmstart-ci.bin', mode: 'run' },
    });
    await until(() => progressOf(got).some((m) => m.state === 'done' || m.state === 'failed'));
    const backend = got.find((m) => m.type === 'backend');
    expect(backend).toMatchObject({ type: 'backend', backend: 'wasm', failure: { kind: 'adapter-error' } });
    expect(backend?.type === 'backend' && backend.line).toMatch(
      /^CPU \(WebAssembly SIMD, \d+ threads?\) \(checking the GPU failed\)$/,
    );
    expect(backend?.type === 'backend' && backend.failure?.message).toContain('adapter exploded');
    expect(progressOf(got).at(-1)).toMatchObject({ state: 'done', step: 1 });
    expect(got.some((m) => m.type === 'train-error')).toBe(false);
  });

  it('a Train request still gets an answer when the GPU check fails with no adapter', async () => {
    const got: FromWorker[] = [];
    const engine = createEngine({
      post: (m) => got.push(m),
      acquire: async () => ({ ok: false, failure: { kind: 'no-adapter', message: 'none here' } }),
      fetchBytes: async () => CI,
    });
    engine.handle({
      type: 'train-start',
      request: { runId: 'r2', config: { ...TINY, steps: 1 }, start: 'http://lab.test/warmstart-ci.bin', mode: 'step' },
    });
    engine.handle({ type: 'probe', force: null });
    await until(() => progressOf(got).some((m) => m.state === 'paused' || m.state === 'failed' || m.state === 'done'));
    expect(progressOf(got).at(-1)?.state).not.toBe('failed');
  });
});

describe('the warm start', () => {
  it('stops on Cancel between steps, says so, and the next warm start runs', async () => {
    const got: FromWorker[] = [];
    const one = (await wasmBackends()).one;
    const engine = createEngine({
      post: (m) => got.push(m),
      acquire: async () => ({ ok: false, failure: { kind: 'no-webgpu', message: 'none' } }),
      createWasm: async () => one,
    });
    engine.handle({ type: 'probe', force: null });
    await engine.backendReady;
    engine.handle({ type: 'warm-start', request: { preset: 'ci', seed: 1, steps: 500, dialogues: 60 } });
    await until(() => got.some((m) => m.type === 'warm-start-progress' && m.phase === 'training'), 120_000);
    engine.handle({ type: 'warm-start-cancel' });
    await until(() => got.some((m) => m.type === 'warm-start-cancelled' || m.type === 'warm-start-done'), 120_000);
    expect(got.some((m) => m.type === 'warm-start-done')).toBe(false);
    const steps = got.filter((m) => m.type === 'warm-start-progress' && m.phase === 'training');
    expect(steps.length).toBeLessThan(500);
    // Not left busy: a new warm start goes through to its end.
    engine.handle({ type: 'warm-start', request: { preset: 'ci', seed: 1, steps: 1, dialogues: 60 } });
    await until(() => got.some((m) => m.type === 'warm-start-done' || m.type === 'warm-start-failed'), 120_000);
    expect(got.some((m) => m.type === 'warm-start-done')).toBe(true);
  }, 300_000);
});

describe('the training session', () => {
  it('resumes from a checkpoint: steps go on from its step, the users are the ones the run would have met, no second benchmark before, and the same weights and metrics as a run that never stopped', async () => {
    const full = session({}, { checkpointEvery: 2 });
    await full.s.finished;
    expect(full.s.state).toBe('done');
    const ck = full.got.find((m) => m.type === 'train-checkpoint' && m.step === 2);
    expect(ck).toBeDefined();
    const bytes = ck!.type === 'train-checkpoint' ? ck!.bytes : new ArrayBuffer(0);
    const mid = loadCheckpoint(new Uint8Array(bytes));
    expect(mid.meta).toMatchObject({ kind: 'rl', steps: 2 });
    // A checkpoint a run may go on from carries AdamW's state; the finished run's last one does not.
    expect(mid.optimizer?.step).toBeGreaterThan(0);
    expect(mid.optimizer?.v.some((x) => x > 0)).toBe(true);
    const fullLast = full.got.filter((m) => m.type === 'train-checkpoint').at(-1);
    const fullEnd = loadCheckpoint(
      new Uint8Array(fullLast?.type === 'train-checkpoint' ? fullLast.bytes : new ArrayBuffer(0)),
    );
    expect(fullEnd.optimizer).toBeUndefined();

    const resumed = session({ resumeFrom: bytes.slice(0) });
    await resumed.s.finished;
    expect(resumed.s.state).toBe('done');
    expect(resumed.rows().map((r) => r.step)).toEqual([3]);
    expect(progressOf(resumed.got).some((m) => m.benchmarkBefore)).toBe(false);
    expect(progressOf(resumed.got).some((m) => m.benchmarkAfter)).toBe(true);
    const usersAt3 = (ds: { step: number; profileId: string }[]) =>
      ds.filter((d) => d.step === 3).map((d) => d.profileId);
    expect(usersAt3(resumed.dialogues())).toEqual(usersAt3(full.dialogues()));
    const last = resumed.got.filter((m) => m.type === 'train-checkpoint').at(-1);
    const resumedEnd = loadCheckpoint(
      new Uint8Array(last?.type === 'train-checkpoint' ? last.bytes : new ArrayBuffer(0)),
    );
    expect(resumedEnd.meta.steps).toBe(3);
    // AdamW went on from the checkpoint's moments: step 3 is the uninterrupted run's, bit for bit.
    const stable = (r: Record<string, number>) =>
      Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('speed/')));
    expect(stable(resumed.rows()[0])).toEqual(stable(full.rows().find((r) => r.step === 3)!));
    expect(Array.from(resumedEnd.weights)).toEqual(Array.from(fullEnd.weights));
    // ...which fresh moments would not give (what resuming did before checkpoints carried them).
    const { optimizer: _dropped, ...weightsOnly } = mid;
    const afresh = session({ resumeFrom: saveCheckpoint(weightsOnly).slice().buffer });
    await afresh.s.finished;
    const afreshLast = afresh.got.filter((m) => m.type === 'train-checkpoint').at(-1);
    const afreshEnd = loadCheckpoint(
      new Uint8Array(afreshLast?.type === 'train-checkpoint' ? afreshLast.bytes : new ArrayBuffer(0)),
    );
    expect(afresh.s.state).toBe('done');
    expect(Array.from(afreshEnd.weights)).not.toEqual(Array.from(fullEnd.weights));
  });

  it("evaluates a saved run's checkpoint on request: the benchmark of that step, and a clear refusal of a warm start", async () => {
    const run = session({}, { steps: 1, evalProfiles: 2 });
    await run.s.finished;
    const ck = run.got.find((m) => m.type === 'train-checkpoint');
    const bytes = ck?.type === 'train-checkpoint' ? ck.bytes : new ArrayBuffer(0);
    const got: FromWorker[] = [];
    const engine = createEngine({
      post: (m) => got.push(m),
      acquire: async () => ({ ok: false, failure: { kind: 'no-webgpu', message: 'none' } }),
      createWasm: async () => new CpuBackend(),
    });
    engine.handle({ type: 'probe', force: null });
    await engine.backendReady;
    engine.handle({
      type: 'evaluate-checkpoint',
      request: { runId: 'r1', checkpoint: bytes, evalProfiles: 2, think: false },
    });
    await until(() => got.some((m) => m.type === 'evaluate-done' || m.type === 'evaluate-failed'));
    const done = got.find((m) => m.type === 'evaluate-done');
    expect(done).toMatchObject({ runId: 'r1', step: 1, summary: { step: 1, dialogues: 2 } });
    // The run's own benchmark after its last step played the same users with the same policy.
    const after = progressOf(run.got).find((m) => m.benchmarkAfter)!.benchmarkAfter!;
    expect(done?.type === 'evaluate-done' && done.summary.score).toBe(after.score);
    // ...and the same dialogues, reply for reply.
    const runDialogues = progressOf(run.got).find((m) => m.benchmarkDialoguesAfter)!.benchmarkDialoguesAfter!;
    expect(runDialogues).toHaveLength(2);
    expect(done?.type === 'evaluate-done' && done.dialogues).toEqual(runDialogues);
    engine.handle({
      type: 'evaluate-checkpoint',
      request: { runId: 'w', checkpoint: CI.slice().buffer, evalProfiles: 1, think: false },
    });
    await until(() => got.some((m) => m.type === 'evaluate-failed'));
    expect(got.find((m) => m.type === 'evaluate-failed')).toMatchObject({
      runId: 'w',
      message: expect.stringMatching(/not one of an RL run/),
    });
  });

  it("refuses to resume a checkpoint that has no steps left, or is not a run's", async () => {
    const warm = session({ resumeFrom: CI.slice().buffer });
    await warm.s.finished;
    expect(warm.s.state).toBe('failed');
    expect(warm.got.find((m) => m.type === 'train-error')).toMatchObject({
      message: expect.stringMatching(/not an RL checkpoint/),
    });
  });

  it("trains on the person's own user when the run names one; a bad one is refused with the field and reason", async () => {
    const mine = { ...benchmarkProfiles()[3], id: 'custom-robin', name: 'Robin' };
    const ok = session({ profiles: [mine] }, { steps: 1 });
    await ok.s.finished;
    expect(ok.s.state).toBe('done');
    expect(ok.dialogues().length).toBeGreaterThan(0);
    expect(new Set(ok.dialogues().map((d) => d.profileId))).toEqual(new Set(['custom-robin']));
    expect(ok.dialogues()[0].who).toContain('Robin');

    const bad = session({ profiles: [{ ...mine, age: 7 }] }, { steps: 1 });
    await bad.s.finished;
    expect(bad.s.state).toBe('failed');
    const err = bad.got.find((m) => m.type === 'train-error');
    expect(err?.type === 'train-error' && err.message).toMatch(
      /training user 1 does not match the profile schema \(age:/,
    );
  });

  it('a lost device ends a paused run and says so', async () => {
    const run = session({ mode: 'step' });
    await until(() => run.s.state === 'paused');
    run.s.lose('The GPU device was lost (test).');
    await run.s.finished;
    expect(run.s.state).toBe('failed');
    expect(run.got.find((m) => m.type === 'train-error')).toMatchObject({
      message: 'The GPU device was lost (test).',
      step: 1,
    });
    expect(progressOf(run.got).at(-1)?.phase).toBe('GPU device lost after step 1: resume from the last checkpoint');
  });
});
