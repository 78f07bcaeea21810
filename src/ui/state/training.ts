/**
 * Store: the RL run on screen. Either the live run in the engine worker (train, pause, step, stop,
 * reset; progress arrives batched at <= 10 Hz and is saved to the run store as it comes), or a saved
 * run opened from the list (read-only: its metrics and latest dialogues).
 *
 * Messages of a run the page has moved on from (after Reset) are ignored by run id.
 */
import { create } from 'zustand';
import type { Breakdown } from '../../lab/breakdown';
import type { RunRecord } from '../../lab/runs';
import type { RunConfig } from '../../rl/config';
import type { TrainAction, TrainProgress, TranscriptItem } from '../../worker/protocol';
import { onWorkerMessage, sendToWorker } from './worker';
import { askPersistentStorage, saveQueue, useRuns } from './runs';

/** Steps whose dialogues stay in memory, for clicking back along the reward chart. */
export const KEEP_DIALOGUE_STEPS = 50;

export type SessionStatus = 'idle' | 'starting' | 'loading' | 'running' | 'pausing' | 'paused' | 'done' | 'stopped' | 'failed' | 'saved';

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
  /** Their breakdowns by intention and personality type (live runs only: saved runs keep the summaries). */
  breakdownBefore: Breakdown | null;
  breakdownAfter: Breakdown | null;
  error: string | null;
  /** Wall-clock ms when the current run started (for throughput while nothing has been timed). */
  startedAt: number;
  /** Start a new run, or resume the paused one. */
  train(config: RunConfig, start: string): void;
  pause(): void;
  /** One step: of the paused run, or the first of a new one. */
  stepOnce(config: RunConfig, start: string): void;
  /** Save a checkpoint and end the run. */
  stop(): void;
  /** End the run without saving more; the next Train starts again from the same seed and weights. */
  reset(): void;
  /** Show a saved run (read-only). */
  showSaved(run: RunRecord): void;
}

/** A run has a live worker session in these states. */
export const isOpen = (s: SessionStatus) => s === 'starting' || s === 'loading' || s === 'running' || s === 'pausing' || s === 'paused';

const NO_BENCHMARK = { benchmarkBefore: null, benchmarkAfter: null, breakdownBefore: null, breakdownAfter: null } as const;

let subscribed = false;
/** The status last written to the run store, per run (progress repeats the state; the store needs it once). */
const savedStatus = new Map<string, string>();

function newRunId(): string {
  const rand = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
  return `run-${Date.now().toString(36)}-${rand}`;
}

function groupByStep(items: readonly TranscriptItem[], into: { step: number; items: TranscriptItem[] }[]): { step: number; items: TranscriptItem[] }[] {
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
  typeof x === 'object' && x !== null && typeof (x as TranscriptItem).step === 'number' && Array.isArray((x as TranscriptItem).turns);

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
    set({
      status,
      phase: m.phase,
      step: m.step,
      steps: m.steps,
      rows: m.rows.length ? [...s.rows, ...m.rows] : s.rows,
      dialogues: groupByStep(m.dialogues, s.dialogues),
      ...(m.benchmarkBefore ? { benchmarkBefore: m.benchmarkBefore } : {}),
      ...(m.benchmarkAfter ? { benchmarkAfter: m.benchmarkAfter } : {}),
      ...(m.breakdownBefore ? { breakdownBefore: m.breakdownBefore } : {}),
      ...(m.breakdownAfter ? { breakdownAfter: m.breakdownAfter } : {}),
    });
    const id = m.runId;
    if (m.rows.length) void saveQueue((st) => st.appendMetrics(id, m.rows));
    if (m.dialogues.length) void saveQueue((st) => st.appendTranscripts(id, m.dialogues));
    if (m.benchmarkBefore || m.benchmarkAfter) {
      const { benchmarkBefore, benchmarkAfter } = get();
      const benchmark = { ...(benchmarkBefore ? { before: benchmarkBefore } : {}), ...(benchmarkAfter ? { after: benchmarkAfter } : {}) };
      void saveQueue((st) => st.update(id, { benchmark }));
    }
    const runStatus = m.state === 'loading' ? 'running' : m.state;
    if (savedStatus.get(id) !== runStatus) {
      savedStatus.set(id, runStatus);
      void saveQueue((st) => st.update(id, { status: runStatus })).then(() => useRuns.getState().refresh());
    }
  };

  const begin = (config: RunConfig, start: string, mode: 'run' | 'step') => {
    const runId = newRunId();
    const now = Date.now();
    const runName = `${config.preset} ${config.algo.toUpperCase()} seed ${config.seed}`;
    set({ runId, runName, config, status: 'starting', phase: 'Starting', step: 0, steps: config.steps, rows: [], dialogues: [], ...NO_BENCHMARK, error: null, startedAt: now });
    const record: RunRecord = { id: runId, name: runName, createdAt: now, updatedAt: now, status: 'running', config, metrics: [], transcripts: [] };
    savedStatus.set(runId, 'running');
    void saveQueue((st) => st.put(record)).then(() => useRuns.getState().refresh());
    askPersistentStorage();
    sendToWorker({ type: 'train-start', request: { runId, config, start, mode } });
  };

  if (!subscribed) {
    subscribed = true;
    onWorkerMessage((m) => {
      if (m.type === 'train-progress') onProgress(m);
      else if (m.type === 'train-checkpoint') {
        const bytes = new Uint8Array(m.bytes);
        void saveQueue((st) => st.putCheckpoint(m.runId, bytes)).then(() => useRuns.getState().refresh());
      } else if (m.type === 'train-error') {
        if (m.runId === get().runId) set({ error: m.message });
        void saveQueue((st) => st.update(m.runId, { note: m.message }));
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
    error: null,
    startedAt: 0,
    train(config, start) {
      const s = get().status;
      if (s === 'paused') {
        set({ status: 'running' });
        control('resume');
      } else if (s === 'pausing') {
        set({ status: 'running' });
        control('resume');
      } else if (!isOpen(s)) begin(config, start, 'run');
    },
    pause() {
      const s = get().status;
      if (s === 'running' || s === 'loading' || s === 'starting') {
        set({ status: 'pausing', phase: `Pausing after step ${get().step + 1}` });
        control('pause');
      }
    },
    stepOnce(config, start) {
      const s = get().status;
      if (s === 'paused') {
        set({ status: 'running' });
        control('step');
      } else if (!isOpen(s)) begin(config, start, 'step');
    },
    stop() {
      if (isOpen(get().status)) control('stop');
    },
    reset() {
      const { runId, status } = get();
      if (runId && isOpen(status)) {
        control('reset');
        void saveQueue((st) => st.update(runId, { status: 'stopped', note: 'reset' })).then(() => useRuns.getState().refresh());
      }
      set({ runId: null, runName: '', status: 'idle', phase: '', step: 0, rows: [], dialogues: [], ...NO_BENCHMARK, error: null });
    },
    showSaved(run) {
      if (isOpen(get().status)) return;
      const items = run.transcripts.filter(isTranscript);
      // A run still marked running or paused belongs to no open session here: a reload or a closed tab ended it.
      const how = run.status === 'running' || run.status === 'paused' ? 'interrupted' : run.note === 'reset' ? 'reset' : run.status;
      set({
        runId: run.id, runName: run.name, config: run.config, status: 'saved', phase: `Saved run "${run.name}", ${how}`,
        step: run.metrics.at(-1)?.step ?? 0, steps: run.config.steps, rows: run.metrics, dialogues: groupByStep(items, []),
        ...NO_BENCHMARK, benchmarkBefore: run.benchmark?.before ?? null, benchmarkAfter: run.benchmark?.after ?? null, error: run.note && run.note !== 'reset' ? run.note : null, startedAt: run.createdAt,
      });
    },
  };
});
