/**
 * Store: the RL run on screen. Either the live run in the engine worker (train, pause, step, stop,
 * reset; progress arrives batched at <= 10 Hz and is saved to the run store as it comes), or a saved
 * run opened from the list (read-only: its metrics and latest dialogues).
 *
 * Messages of a run the page has moved on from (after Reset) are ignored by run id.
 */
import { create } from 'zustand';
import { readCheckpointHeader } from '../../engine/model/checkpoint';
import type { BenchmarkDialogue } from '../../lab/benchmarkDialogues';
import type { Breakdown } from '../../lab/breakdown';
import type { RunRecord } from '../../lab/runs';
import type { Profile } from '../../persona/profile';
import type { RunConfig } from '../../rl/config';
import type { LiveProgress, TrainAction, TrainProgress, TranscriptItem } from '../../worker/protocol';
import { onWorkerMessage, sendToWorker } from './worker';
import { askPersistentStorage, runStore, saveQueue, useRuns } from './runs';
import { referenceModelUrl, startUrl, useConfig, type StartFrom } from './config';
import { useEngine } from './engine';
import { useUi } from './ui';

/** What a run trains on beyond its config: where it starts, and the person's own training users. */
export interface RunExtras {
  startFrom?: StartFrom;
  profiles?: Profile[];
}

/** Steps whose dialogues stay in memory, for clicking back along the reward chart. */
const KEEP_DIALOGUE_STEPS = 50;

export type SessionStatus =
  'idle' | 'starting' | 'loading' | 'running' | 'pausing' | 'paused' | 'done' | 'stopped' | 'failed' | 'saved';

export type MetricsRow = Record<string, number>;

interface TrainingState {
  runId: string | null;
  runName: string;
  config: RunConfig | null;
  status: SessionStatus;
  phase: string;
  step: number;
  steps: number;
  rows: MetricsRow[];
  /** Dialogues of the latest KEEP_DIALOGUE_STEPS steps, oldest first. */
  dialogues: { step: number; items: TranscriptItem[] }[];
  /** The benchmark on the starting policy (played before step 1) and at the end of a finished run. */
  benchmarkBefore: Record<string, number> | null;
  benchmarkAfter: Record<string, number> | null;
  /** Their breakdowns by intention and personality type. */
  breakdownBefore: Breakdown | null;
  breakdownAfter: Breakdown | null;
  /** Their dialogues, one per benchmark user (the Evaluate panel's comparison). */
  benchmarkDialoguesBefore: BenchmarkDialogue[] | null;
  benchmarkDialoguesAfter: BenchmarkDialogue[] | null;
  /** The person's own training users of the run on screen (null: the standard training set). */
  profiles: Profile[] | null;
  error: string | null;
  /** Why the GPU device was lost during the run on screen (the run can be resumed from its last checkpoint). */
  lost: string | null;
  /** The step of the run's latest saved checkpoint (null: none yet). */
  checkpointStep: number | null;
  /** Wall-clock ms when the current run started (for throughput while nothing has been timed). */
  startedAt: number;
  /** What is being played inside the current step (the training rollout or the benchmark). */
  live: LiveProgress | null;
  /** Where the run on screen trained: the backend, and whether a WebGPU one was a software adapter. */
  backend: { name: string; software: boolean } | null;
  /** Evaluate now is playing the benchmark on the current policy. */
  evaluating: boolean;
  /** Start a new run, or resume the paused one. */
  train(config: RunConfig, start: string, extras?: RunExtras): void;
  pause(): void;
  /** One step: of the paused run, or the first of a new one. */
  stepOnce(config: RunConfig, start: string, extras?: RunExtras): void;
  /**
   * Go on training a saved run from its last checkpoint, with its config; the metrics after that
   * checkpoint's step (if any) are dropped and new ones appended. Resolves with why not, or null.
   */
  resumeSaved(id: string): Promise<string | null>;
  /** Save a checkpoint and end the run. */
  stop(): void;
  /** End the run without saving more; the next Train starts again from the same seed and weights. */
  reset(): void;
  /** Show a saved run (read-only); `loadForm`: its settings go into Configure too (opened from the list). */
  showSaved(run: RunRecord, o?: { loadForm?: boolean }): void;
  /** Play the benchmark on the policy as it is now: the open run's, or a saved run's latest checkpoint. Resolves with why not, or null. */
  evaluateNow(): Promise<string | null>;
}

/** A run has a live worker session in these states. */
export const isOpen = (s: SessionStatus) =>
  s === 'starting' || s === 'loading' || s === 'running' || s === 'pausing' || s === 'paused';

const NO_BENCHMARK = {
  benchmarkBefore: null,
  benchmarkAfter: null,
  breakdownBefore: null,
  breakdownAfter: null,
  benchmarkDialoguesBefore: null,
  benchmarkDialoguesAfter: null,
  lost: null,
  checkpointStep: null,
} as const;

let subscribed = false;
/** The status last written to the run store, per run (progress repeats the state; the store needs it once). */
const savedStatus = new Map<string, string>();
/** Runs whose backend is written to the store. */
const savedBackend = new Set<string>();
/** Runs reset (deleted from the store): what the worker still sends about them is dropped. */
const discarded = new Set<string>();

/** Where the engine runs now, as a run records it. */
function engineBackend(): { name: string; software: boolean } | null {
  const e = useEngine.getState();
  return e.phase === 'ready' && e.backend ? { name: e.backend, software: e.adapter?.isFallback === true } : null;
}

function newRunId(): string {
  const rand = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
  return `run-${Date.now().toString(36)}-${rand}`;
}

function groupByStep(
  items: readonly TranscriptItem[],
  into: { step: number; items: TranscriptItem[] }[],
): { step: number; items: TranscriptItem[] }[] {
  if (items.length === 0) return into;
  const out = into.slice();
  for (const it of items) {
    const last = out[out.length - 1];
    if (last && last.step === it.step) out[out.length - 1] = { step: it.step, items: [...last.items, it] };
    else out.push({ step: it.step, items: [it] });
  }
  return out.slice(-KEEP_DIALOGUE_STEPS);
}

const isTranscript = (x: unknown): x is TranscriptItem =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as TranscriptItem).step === 'number' &&
  Array.isArray((x as TranscriptItem).turns);

export const useTraining = create<TrainingState>((set, get) => {
  const control = (action: TrainAction) => {
    const id = get().runId;
    if (id) sendToWorker({ type: 'train-control', runId: id, action });
  };

  const onProgress = (m: TrainProgress) => {
    const s = get();
    if (m.runId !== s.runId || m.state === 'reset') return;
    // A pause asked for stays "pausing" until the worker is between steps.
    const status: SessionStatus = m.state === 'running' && s.status === 'pausing' ? 'pausing' : m.state;
    const backend = s.backend ?? engineBackend();
    set({
      status,
      phase: m.phase,
      step: m.step,
      steps: m.steps,
      live: m.live ?? null,
      backend,
      rows: m.rows.length ? [...s.rows, ...m.rows] : s.rows,
      dialogues: groupByStep(m.dialogues, s.dialogues),
      ...(m.benchmarkBefore ? { benchmarkBefore: m.benchmarkBefore } : {}),
      ...(m.benchmarkAfter ? { benchmarkAfter: m.benchmarkAfter } : {}),
      ...(m.breakdownBefore ? { breakdownBefore: m.breakdownBefore } : {}),
      ...(m.breakdownAfter ? { breakdownAfter: m.breakdownAfter } : {}),
      ...(m.benchmarkDialoguesBefore ? { benchmarkDialoguesBefore: m.benchmarkDialoguesBefore } : {}),
      ...(m.benchmarkDialoguesAfter ? { benchmarkDialoguesAfter: m.benchmarkDialoguesAfter } : {}),
    });
    const id = m.runId;
    if (backend && !savedBackend.has(id)) {
      savedBackend.add(id);
      void saveQueue((st) => st.update(id, { backend: backend.name, softwareGpu: backend.software }));
    }
    if (m.rows.length) void saveQueue((st) => st.appendMetrics(id, m.rows));
    if (m.dialogues.length) void saveQueue((st) => st.appendTranscripts(id, m.dialogues));
    if (m.benchmarkBefore || m.benchmarkAfter || m.breakdownBefore || m.breakdownAfter) {
      const { benchmarkBefore, benchmarkAfter, breakdownBefore, breakdownAfter } = get();
      const benchmark = {
        ...(benchmarkBefore ? { before: benchmarkBefore } : {}),
        ...(benchmarkAfter ? { after: benchmarkAfter } : {}),
      };
      const breakdown = {
        ...(breakdownBefore ? { before: breakdownBefore } : {}),
        ...(breakdownAfter ? { after: breakdownAfter } : {}),
      };
      void saveQueue((st) => st.update(id, { benchmark, breakdown }));
    }
    if (m.benchmarkDialoguesBefore || m.benchmarkDialoguesAfter) saveBenchmarkDialogues(id);
    const runStatus = m.state === 'loading' ? 'running' : m.state;
    if (savedStatus.get(id) !== runStatus) {
      savedStatus.set(id, runStatus);
      void saveQueue((st) => st.update(id, { status: runStatus })).then(() => useRuns.getState().refresh());
    }
  };

  /** Write the run on screen's benchmark dialogues (both sides) to the run store. */
  const saveBenchmarkDialogues = (id: string) => {
    const { benchmarkDialoguesBefore: before, benchmarkDialoguesAfter: after } = get();
    void saveQueue((st) =>
      st.putBenchmarkDialogues(id, { ...(before ? { before } : {}), ...(after ? { after } : {}) }),
    );
  };

  const begin = (config: RunConfig, start: string, mode: 'run' | 'step', extras: RunExtras = {}) => {
    const runId = newRunId();
    const now = Date.now();
    const profiles = extras.profiles?.length ? extras.profiles : undefined;
    const runName = `${config.preset} ${config.algo.toUpperCase()} seed ${config.seed}${profiles ? ` on ${profiles.map((p) => p.name).join(', ')}` : ''}`;
    set({
      runId,
      runName,
      config,
      status: 'starting',
      phase: 'Starting',
      step: 0,
      steps: config.steps,
      rows: [],
      dialogues: [],
      ...NO_BENCHMARK,
      profiles: profiles ?? null,
      error: null,
      startedAt: now,
      live: null,
      backend: null,
      evaluating: false,
    });
    useUi.getState().setLastRun(runId);
    // The settings fold away once a run starts: the charts and the dialogue take the room.
    useUi.getState().setSettingsOpen(false);
    const record: RunRecord = {
      id: runId,
      name: runName,
      createdAt: now,
      updatedAt: now,
      status: 'running',
      config,
      metrics: [],
      transcripts: [],
      start: extras.startFrom ?? (start === 'last' ? 'last' : 'shipped'),
      ...(profiles ? { profiles } : {}),
    };
    savedStatus.set(runId, 'running');
    void saveQueue((st) => st.put(record)).then(() => useRuns.getState().refresh());
    askPersistentStorage();
    sendToWorker({
      type: 'train-start',
      request: { runId, config, start, mode, referenceModel: referenceModelUrl(), ...(profiles ? { profiles } : {}) },
    });
  };

  if (!subscribed) {
    subscribed = true;
    onWorkerMessage((m) => {
      if (m.type === 'train-progress') onProgress(m);
      else if (m.type === 'train-checkpoint') {
        if (discarded.has(m.runId)) return;
        const bytes = new Uint8Array(m.bytes);
        if (m.runId === get().runId) set({ checkpointStep: m.step });
        void saveQueue((st) => st.putCheckpoint(m.runId, bytes, m.step)).then(() => useRuns.getState().refresh());
      } else if (m.type === 'train-error') {
        if (discarded.has(m.runId)) return;
        if (m.runId === get().runId) set({ error: m.message });
        void saveQueue((st) => st.update(m.runId, { note: m.message }));
      } else if (m.type === 'evaluate-done' || m.type === 'evaluate-failed') {
        if (m.runId !== get().runId) return;
        if (m.type === 'evaluate-failed') {
          set({ evaluating: false, error: `Evaluate now failed: ${m.message}` });
          return;
        }
        set({
          evaluating: false,
          benchmarkAfter: m.summary,
          breakdownAfter: m.breakdown,
          benchmarkDialoguesAfter: m.dialogues,
          phase: `Evaluated the policy of step ${m.step}`,
        });
        saveBenchmarkDialogues(m.runId);
        const { benchmarkBefore, breakdownBefore } = get();
        void saveQueue((st) =>
          st.update(m.runId, {
            benchmark: { ...(benchmarkBefore ? { before: benchmarkBefore } : {}), after: m.summary },
            breakdown: { ...(breakdownBefore ? { before: breakdownBefore } : {}), after: m.breakdown },
          }),
        ).then(() => useRuns.getState().refresh());
      } else if (m.type === 'device-lost') {
        if (m.runId !== undefined && m.runId === get().runId) {
          set({
            lost: m.message,
            error: m.message,
            status: 'failed',
            phase: `GPU device lost after step ${m.step ?? get().step}: resume from the last checkpoint`,
          });
          void saveQueue((st) => st.update(m.runId!, { note: m.message }));
        }
      }
    });
  }

  return {
    runId: null,
    runName: '',
    config: null,
    status: 'idle',
    phase: '',
    step: 0,
    steps: 0,
    rows: [],
    dialogues: [],
    ...NO_BENCHMARK,
    profiles: null,
    error: null,
    startedAt: 0,
    live: null,
    backend: null,
    evaluating: false,
    train(config, start, extras) {
      const s = get().status;
      if (s === 'paused' || s === 'pausing') {
        set({ status: 'running' });
        control('resume');
      } else if (!isOpen(s)) begin(config, start, 'run', extras);
    },
    pause() {
      const s = get().status;
      if (s === 'running' || s === 'loading' || s === 'starting') {
        set({ status: 'pausing', phase: `Pausing after step ${get().step + 1}` });
        control('pause');
      }
    },
    stepOnce(config, start, extras) {
      const s = get().status;
      if (s === 'paused') {
        set({ status: 'running' });
        control('step');
      } else if (!isOpen(s)) begin(config, start, 'step', extras);
    },
    async resumeSaved(id) {
      if (isOpen(get().status)) return 'A run is open: pause and reset it first.';
      const store = await runStore();
      const [run, bytes] = await Promise.all([store.get(id), store.getCheckpoint(id)]);
      if (!run) return 'This run is no longer in the browser.';
      if (!bytes)
        return `"${run.name}" has no checkpoint to resume from (a run keeps one after its first step, then every minute and every "Checkpoint every" steps, and at the end).`;
      let at: number;
      try {
        // The header alone: the worker checks the whole file (checksum, arenas) when it loads it.
        const steps = readCheckpointHeader(bytes).meta.steps;
        if (typeof steps !== 'number')
          return `The checkpoint of "${run.name}" is not a training checkpoint (it has no step count).`;
        at = steps;
      } catch (e) {
        return `The checkpoint of "${run.name}" cannot be read: ${e instanceof Error ? e.message : String(e)}.`;
      }
      if (at >= run.config.steps) return `"${run.name}" has already trained all ${run.config.steps} steps.`;
      const rows = run.metrics.filter((r) => r.step <= at);
      const items = run.transcripts.filter(isTranscript).filter((t) => t.step <= at);
      const now = Date.now();
      set({
        runId: run.id,
        runName: run.name,
        config: run.config,
        status: 'starting',
        phase: `Resuming from the checkpoint of step ${at}`,
        step: at,
        steps: run.config.steps,
        rows,
        dialogues: groupByStep(items, []),
        ...NO_BENCHMARK,
        checkpointStep: at,
        profiles: run.profiles ?? null,
        benchmarkBefore: run.benchmark?.before ?? null,
        breakdownBefore: run.breakdown?.before ?? null,
        benchmarkDialoguesBefore: run.benchmarkDialogues?.before ?? null,
        error: null,
        startedAt: now,
        live: null,
        backend: null,
        evaluating: false,
      });
      useUi.getState().setLastRun(run.id);
      useUi.getState().setSettingsOpen(false);
      savedBackend.delete(run.id);
      // The record is rewritten without what came after the checkpoint; its checkpoint stays.
      const { after: _a, ...benchmark } = run.benchmark ?? {};
      const { after: _b, ...breakdown } = run.breakdown ?? {};
      const { after: _c, ...benchmarkDialogues } = run.benchmarkDialogues ?? {};
      const record: RunRecord = {
        ...run,
        status: 'running',
        updatedAt: now,
        metrics: rows,
        transcripts: items,
        benchmark,
        breakdown,
        benchmarkDialogues,
      };
      delete record.note;
      savedStatus.set(run.id, 'running');
      await saveQueue((st) => st.put(record));
      void useRuns.getState().refresh();
      const resumeFrom = bytes.slice().buffer as ArrayBuffer;
      sendToWorker({
        type: 'train-start',
        request: {
          runId: run.id,
          config: run.config,
          start: startUrl(run.config, run.start ?? 'shipped'),
          referenceModel: referenceModelUrl(),
          mode: 'run',
          resumeFrom,
          ...(run.profiles ? { profiles: run.profiles } : {}),
        },
      });
      return null;
    },
    stop() {
      if (isOpen(get().status)) control('stop');
    },
    reset() {
      const { runId, status } = get();
      if (runId && isOpen(status)) {
        control('reset');
        // A reset run leaves nothing behind: its row, metrics and checkpoint go.
        discarded.add(runId);
        void saveQueue((st) => st.delete(runId)).then(() => useRuns.getState().refresh());
      }
      useUi.getState().setLastRun(null);
      set({
        runId: null,
        runName: '',
        status: 'idle',
        phase: '',
        step: 0,
        rows: [],
        dialogues: [],
        ...NO_BENCHMARK,
        profiles: null,
        error: null,
        live: null,
        backend: null,
        evaluating: false,
      });
    },
    showSaved(run, o = {}) {
      if (isOpen(get().status)) return;
      if (o.loadForm) {
        const form = useConfig.getState();
        form.load(run.config);
        form.setStart(run.start ?? 'shipped');
        form.setTrainUser(run.profiles?.[0] ?? null);
      }
      useUi.getState().setLastRun(run.id);
      const items = run.transcripts.filter(isTranscript);
      // A run still marked running or paused belongs to no open session here: a reload or a closed tab ended it.
      const how =
        run.status === 'running' || run.status === 'paused'
          ? 'interrupted'
          : run.note === 'reset'
            ? 'reset'
            : run.status;
      set({
        runId: run.id,
        runName: run.name,
        config: run.config,
        status: 'saved',
        phase: `Saved run "${run.name}", ${how}`,
        step: run.metrics.at(-1)?.step ?? 0,
        steps: run.config.steps,
        rows: run.metrics,
        dialogues: groupByStep(items, []),
        ...NO_BENCHMARK,
        benchmarkBefore: run.benchmark?.before ?? null,
        benchmarkAfter: run.benchmark?.after ?? null,
        breakdownBefore: run.breakdown?.before ?? null,
        breakdownAfter: run.breakdown?.after ?? null,
        benchmarkDialoguesBefore: run.benchmarkDialogues?.before ?? null,
        benchmarkDialoguesAfter: run.benchmarkDialogues?.after ?? null,
        profiles: run.profiles ?? null,
        checkpointStep: useRuns.getState().runs.find((r) => r.id === run.id)?.checkpointStep ?? null,
        error: run.note && run.note !== 'reset' ? run.note : null,
        startedAt: run.createdAt,
        live: null,
        backend: run.backend ? { name: run.backend, software: run.softwareGpu === true } : null,
        evaluating: false,
      });
    },
    async evaluateNow() {
      const s = get();
      if (!s.runId || !s.config) return 'There is no run to evaluate: train one, or open one from Runs.';
      if (s.evaluating) return null;
      if (isOpen(s.status)) {
        if (s.status === 'starting' || s.status === 'loading')
          return 'The run is still starting: evaluate it after its first step.';
        control('evaluate');
        return null;
      }
      const bytes = await (await runStore()).getCheckpoint(s.runId);
      if (!bytes) return `"${s.runName}" has no checkpoint to evaluate (it stopped before its first step).`;
      const checkpoint = bytes.slice().buffer as ArrayBuffer;
      set({ evaluating: true, error: null, phase: `Evaluating the saved policy on the benchmark users` });
      sendToWorker({
        type: 'evaluate-checkpoint',
        request: {
          runId: s.runId,
          checkpoint,
          evalProfiles: s.config.evalProfiles,
          think: s.config.think,
          referenceModel: referenceModelUrl(),
        },
      });
      return null;
    },
  };
});
