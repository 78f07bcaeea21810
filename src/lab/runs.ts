/**
 * Runs kept in the browser, so a reload loses nothing: each run's record (config, status, metrics,
 * the latest transcripts, benchmark before/after with their dialogues) in IndexedDB, and its
 * checkpoint in a store of its own. The run file (one JSON document, checkpoint optional) and the
 * metrics CSV are in runfile.ts.
 *
 * Layout (one database, five object stores), chosen so the frequent writes stay small:
 *   runs                id → the record without metrics, transcripts and benchmark dialogues, plus
 *                       counts and sizes: list() reads only this, however long the runs are
 *   metrics             [runId, seq] → one metrics row: appendMetrics adds rows, never rewrites the run
 *   transcripts         runId → the latest TRANSCRIPT_CAP transcripts
 *   benchmarkDialogues  runId → the benchmark's dialogues before and after (benchmarkDialogues.ts:
 *                       at most 100 a side), written only when a benchmark is played
 *   checkpoints         runId → the checkpoint bytes
 * Every method is one IndexedDB transaction, so a crash mid-write leaves the old state whole.
 * Sizes are approximate (JSON characters, checkpoint bytes): enough for a storage panel, which can
 * show `navigator.storage.estimate()` for the origin beside it.
 *
 * A run saved before a config field existed reads back with that field's default (what its run used:
 * see storedConfig); one saved before the benchmark dialogues were kept reads back without them.
 *
 * Not here: asking for persistent storage (`navigator.storage.persist()`), which belongs to the UI
 * action that saves a run; OPFS for checkpoints too big for one IndexedDB value (the small preset's
 * ~100 MB still fits).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Profile } from '../persona/profile';
import { parseRunConfig, type RunConfig } from '../rl/config';
import type { BenchmarkDialogues } from './benchmarkDialogues';
import type { Breakdown } from './breakdown';

export const RUN_STATUSES = ['running', 'paused', 'done', 'stopped', 'failed'] as const;
type RunStatus = (typeof RUN_STATUSES)[number];
/** One training step's metrics: `step` plus `namespace/name` keys (`reward/mean`, `losses/approx_kl`). */
export type MetricsRow = Record<string, number>;
/** A benchmark summary (score, success, failure, meanTurns, ...): numbers only. */
export type BenchmarkSummary = Record<string, number>;

export type RunRecord = {
  id: string;
  name: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
  status: RunStatus;
  config: RunConfig;
  /** One row per step, in order. */
  metrics: MetricsRow[];
  /** The latest TRANSCRIPT_CAP sampled dialogues, oldest first; their shape is the trainer's. */
  transcripts: unknown[];
  benchmark?: { before?: BenchmarkSummary; after?: BenchmarkSummary };
  /** The benchmark before and after broken down by the users' intention and personality type. */
  breakdown?: { before?: Breakdown; after?: Breakdown };
  /** The benchmark's dialogues before and after, one per user, trimmed (absent: none kept). */
  benchmarkDialogues?: BenchmarkDialogues;
  /** Where the run began: the preset's shipped warm start, or the one trained in that tab (absent: shipped). */
  start?: 'shipped' | 'last';
  /** Training users the person wrote (Play's form), when the run trained on them instead of the standard set. */
  profiles?: Profile[];
  /** The backend it trained on ('webgpu', 'wasm', 'cpu'): a run reproduces its numbers on the same one. */
  backend?: string;
  /** A software WebGPU adapter (SwiftShader), when the backend was webgpu. */
  softwareGpu?: boolean;
  note?: string;
};

/** What list() gives: the record without its long parts, with counts and an approximate size. */
export type RunSummary = Omit<RunRecord, 'metrics' | 'transcripts' | 'benchmarkDialogues'> & {
  metricRows: number;
  /** The newest metrics row, for a one-line status in the run list. */
  lastMetrics?: MetricsRow;
  transcriptCount: number;
  hasCheckpoint: boolean;
  /** The step the checkpoint was taken at, when known. */
  checkpointStep?: number;
  /** Approximate bytes this run takes (JSON characters plus checkpoint bytes). */
  bytes: number;
};

/** The fields update() may change without rewriting metrics or transcripts. */
type RunPatch = Partial<
  Pick<RunRecord, 'name' | 'status' | 'benchmark' | 'breakdown' | 'note' | 'updatedAt' | 'backend' | 'softwareGpu'>
>;

export interface RunStore {
  /** Every run's summary, newest first. */
  list(): Promise<RunSummary[]>;
  /** The whole record (metrics and transcripts included), or undefined. */
  get(id: string): Promise<RunRecord | undefined>;
  /** Create or replace a run whole (its checkpoint, if any, is kept). Transcripts are capped. */
  put(run: RunRecord): Promise<void>;
  /** Change status, name, note or benchmark; sets updatedAt unless the patch does. */
  update(id: string, patch: RunPatch): Promise<void>;
  /** Add metrics rows after the run's last one. */
  appendMetrics(id: string, rows: readonly MetricsRow[]): Promise<void>;
  /** Add transcripts, keeping only the latest TRANSCRIPT_CAP. */
  appendTranscripts(id: string, items: readonly unknown[]): Promise<void>;
  /** Replace the run's benchmark dialogues (both sides: a side left out is dropped). */
  putBenchmarkDialogues(id: string, dialogues: BenchmarkDialogues): Promise<void>;
  /** Keep the run's checkpoint (replacing the last), with the step it was taken at when known. */
  putCheckpoint(id: string, bytes: Uint8Array, step?: number): Promise<void>;
  getCheckpoint(id: string): Promise<Uint8Array | undefined>;
  /** Remove the run, its metrics, transcripts and checkpoint. */
  delete(id: string): Promise<void>;
  usage(): Promise<{ runs: number; bytes: number }>;
  close(): void;
}

const RUN_DB_NAME = 'empathy-rl-lab';
/** 1: runs, metrics, transcripts, checkpoints; 2: benchmarkDialogues. */
const RUN_DB_VERSION = 2;
/** Transcripts kept per run: enough to browse the recent ones, bounded so a long run stays small. */
export const TRANSCRIPT_CAP = 200;

type StoredRun = Omit<RunSummary, 'bytes'> & {
  /** benchmarkDialogues is absent in runs saved before the store kept them. */
  sizes: { meta: number; metrics: number; transcripts: number; checkpoint: number; benchmarkDialogues?: number };
};

interface RunDb extends DBSchema {
  runs: { key: string; value: StoredRun };
  metrics: { key: [string, number]; value: { runId: string; seq: number; row: MetricsRow } };
  transcripts: { key: string; value: { runId: string; items: unknown[] } };
  benchmarkDialogues: { key: string; value: { runId: string } & BenchmarkDialogues };
  checkpoints: { key: string; value: { runId: string; bytes: Uint8Array } };
}

const STORES = ['runs', 'metrics', 'transcripts', 'benchmarkDialogues', 'checkpoints'] as const;

function jsonSize(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

function metricsRange(id: string): IDBKeyRange {
  return IDBKeyRange.bound([id, 0], [id, Infinity]);
}

/**
 * A stored run's config as the lab reads configs now: fields added to the schema after the run was
 * saved take their defaults (each added field's default is what runs did before it existed). A
 * config the schema refuses is left as it was stored, for the run list to show.
 */
function storedConfig(config: RunConfig): RunConfig {
  const r = parseRunConfig(config, config.preset);
  return r.ok ? r.config : config;
}

function summaryOf(s: StoredRun): RunSummary {
  const { sizes, ...rest } = s;
  return {
    ...rest,
    config: storedConfig(rest.config),
    bytes: sizes.meta + sizes.metrics + sizes.transcripts + (sizes.benchmarkDialogues ?? 0) + sizes.checkpoint,
  };
}

/** Open (creating on first use) the run store. `name` lets tests use a database of their own. */
export async function openRunStore(name: string = RUN_DB_NAME): Promise<RunStore> {
  const db: IDBPDatabase<RunDb> = await openDB<RunDb>(name, RUN_DB_VERSION, {
    upgrade(database, oldVersion) {
      // Each version adds its own stores to what the one before made: a database from any earlier
      // version keeps its runs.
      if (oldVersion < 1) {
        database.createObjectStore('runs', { keyPath: 'id' });
        database.createObjectStore('metrics', { keyPath: ['runId', 'seq'] });
        database.createObjectStore('transcripts', { keyPath: 'runId' });
        database.createObjectStore('checkpoints', { keyPath: 'runId' });
      }
      if (oldVersion < 2) database.createObjectStore('benchmarkDialogues', { keyPath: 'runId' });
    },
    // A newer lab opened in another tab needs this connection closed to upgrade the database.
    blocking() {
      db.close();
    },
  });

  return {
    async list() {
      const all = await db.getAll('runs');
      return all.map(summaryOf).sort((x, y) => y.createdAt - x.createdAt || x.id.localeCompare(y.id));
    },

    async get(id) {
      const tx = db.transaction(['runs', 'metrics', 'transcripts', 'benchmarkDialogues'], 'readonly');
      const [meta, rows, transcripts, played] = await Promise.all([
        tx.objectStore('runs').get(id),
        tx.objectStore('metrics').getAll(metricsRange(id)),
        tx.objectStore('transcripts').get(id),
        tx.objectStore('benchmarkDialogues').get(id),
        tx.done,
      ]);
      if (!meta) return undefined;
      const {
        sizes: _s,
        metricRows: _m,
        lastMetrics: _l,
        transcriptCount: _t,
        hasCheckpoint: _c,
        checkpointStep: _k,
        ...record
      } = meta;
      const run: RunRecord = {
        ...record,
        config: storedConfig(record.config),
        metrics: rows.map((r) => r.row),
        transcripts: transcripts?.items ?? [],
      };
      if (played) {
        const { runId: _r, ...dialogues } = played;
        run.benchmarkDialogues = dialogues;
      }
      return run;
    },

    async put(run) {
      const tx = db.transaction(['runs', 'metrics', 'transcripts', 'benchmarkDialogues'], 'readwrite');
      const old = await tx.objectStore('runs').get(run.id);
      const { metrics, transcripts, benchmarkDialogues, ...record } = run;
      const items = transcripts.slice(-TRANSCRIPT_CAP);
      const metricStore = tx.objectStore('metrics');
      const writes: Promise<unknown>[] = [metricStore.delete(metricsRange(run.id))];
      let metricBytes = 0;
      metrics.forEach((row, seq) => {
        metricBytes += jsonSize(row);
        writes.push(metricStore.put({ runId: run.id, seq, row }));
      });
      writes.push(tx.objectStore('transcripts').put({ runId: run.id, items }));
      const played = tx.objectStore('benchmarkDialogues');
      writes.push(benchmarkDialogues ? played.put({ runId: run.id, ...benchmarkDialogues }) : played.delete(run.id));
      const meta: StoredRun = {
        ...record,
        metricRows: metrics.length,
        transcriptCount: items.length,
        hasCheckpoint: old?.hasCheckpoint ?? false,
        ...(old?.checkpointStep !== undefined ? { checkpointStep: old.checkpointStep } : {}),
        sizes: {
          meta: 0,
          metrics: metricBytes,
          transcripts: jsonSize(items),
          benchmarkDialogues: benchmarkDialogues ? jsonSize(benchmarkDialogues) : 0,
          checkpoint: old?.sizes.checkpoint ?? 0,
        },
      };
      if (metrics.length) meta.lastMetrics = metrics[metrics.length - 1];
      writes.push(tx.objectStore('runs').put(withMetaSize(meta)));
      await Promise.all([...writes, tx.done]);
    },

    async update(id, patch) {
      const tx = db.transaction('runs', 'readwrite');
      const meta = await tx.objectStore('runs').get(id);
      if (!meta) throw noRun(id);
      const next: StoredRun = { ...meta, updatedAt: Date.now() };
      if (patch.name !== undefined) next.name = patch.name;
      if (patch.status !== undefined) next.status = patch.status;
      if (patch.updatedAt !== undefined) next.updatedAt = patch.updatedAt;
      if (patch.backend !== undefined) next.backend = patch.backend;
      if (patch.softwareGpu !== undefined) next.softwareGpu = patch.softwareGpu;
      // `note: undefined` / `benchmark: undefined` in the patch removes them.
      if ('note' in patch) patch.note === undefined ? delete next.note : (next.note = patch.note);
      if ('benchmark' in patch)
        patch.benchmark === undefined ? delete next.benchmark : (next.benchmark = patch.benchmark);
      if ('breakdown' in patch)
        patch.breakdown === undefined ? delete next.breakdown : (next.breakdown = patch.breakdown);
      await Promise.all([tx.objectStore('runs').put(withMetaSize(next)), tx.done]);
    },

    async appendMetrics(id, rows) {
      if (rows.length === 0) return;
      const tx = db.transaction(['runs', 'metrics'], 'readwrite');
      const meta = await tx.objectStore('runs').get(id);
      if (!meta) throw noRun(id);
      const writes: Promise<unknown>[] = [];
      let bytes = 0;
      rows.forEach((row, i) => {
        bytes += jsonSize(row);
        writes.push(tx.objectStore('metrics').put({ runId: id, seq: meta.metricRows + i, row }));
      });
      const next: StoredRun = {
        ...meta,
        updatedAt: Date.now(),
        metricRows: meta.metricRows + rows.length,
        lastMetrics: rows[rows.length - 1],
        sizes: { ...meta.sizes, metrics: meta.sizes.metrics + bytes },
      };
      writes.push(tx.objectStore('runs').put(withMetaSize(next)));
      await Promise.all([...writes, tx.done]);
    },

    async appendTranscripts(id, newItems) {
      if (newItems.length === 0) return;
      const tx = db.transaction(['runs', 'transcripts'], 'readwrite');
      const [meta, old] = await Promise.all([tx.objectStore('runs').get(id), tx.objectStore('transcripts').get(id)]);
      if (!meta) throw noRun(id);
      const items = [...(old?.items ?? []), ...newItems].slice(-TRANSCRIPT_CAP);
      const next: StoredRun = {
        ...meta,
        updatedAt: Date.now(),
        transcriptCount: items.length,
        sizes: { ...meta.sizes, transcripts: jsonSize(items) },
      };
      await Promise.all([
        tx.objectStore('transcripts').put({ runId: id, items }),
        tx.objectStore('runs').put(withMetaSize(next)),
        tx.done,
      ]);
    },

    async putBenchmarkDialogues(id, dialogues) {
      const tx = db.transaction(['runs', 'benchmarkDialogues'], 'readwrite');
      const meta = await tx.objectStore('runs').get(id);
      if (!meta) throw noRun(id);
      const next: StoredRun = {
        ...meta,
        updatedAt: Date.now(),
        sizes: { ...meta.sizes, benchmarkDialogues: jsonSize(dialogues) },
      };
      await Promise.all([
        tx.objectStore('benchmarkDialogues').put({ runId: id, ...dialogues }),
        tx.objectStore('runs').put(withMetaSize(next)),
        tx.done,
      ]);
    },

    async putCheckpoint(id, bytes, step) {
      const tx = db.transaction(['runs', 'checkpoints'], 'readwrite');
      const meta = await tx.objectStore('runs').get(id);
      if (!meta) throw noRun(id);
      const next: StoredRun = {
        ...meta,
        updatedAt: Date.now(),
        hasCheckpoint: true,
        sizes: { ...meta.sizes, checkpoint: bytes.byteLength },
      };
      if (step === undefined) delete next.checkpointStep;
      else next.checkpointStep = step;
      // A copy: the caller may reuse or transfer its buffer; the store keeps these bytes.
      await Promise.all([
        tx.objectStore('checkpoints').put({ runId: id, bytes: bytes.slice() }),
        tx.objectStore('runs').put(withMetaSize(next)),
        tx.done,
      ]);
    },

    async getCheckpoint(id) {
      return (await db.get('checkpoints', id))?.bytes;
    },

    async delete(id) {
      const tx = db.transaction([...STORES], 'readwrite');
      await Promise.all([
        tx.objectStore('runs').delete(id),
        tx.objectStore('metrics').delete(metricsRange(id)),
        tx.objectStore('transcripts').delete(id),
        tx.objectStore('benchmarkDialogues').delete(id),
        tx.objectStore('checkpoints').delete(id),
        tx.done,
      ]);
    },

    async usage() {
      const all = await db.getAll('runs');
      return { runs: all.length, bytes: all.reduce((sum, s) => sum + summaryOf(s).bytes, 0) };
    },

    close() {
      db.close();
    },
  };
}

function noRun(id: string): Error {
  return new Error(`No run with id "${id}" in the store.`);
}

/** The stored meta with its own size recorded (the size field itself is left out of the count). */
function withMetaSize(meta: StoredRun): StoredRun {
  const { sizes, ...rest } = meta;
  return { ...meta, sizes: { ...sizes, meta: jsonSize(rest) } };
}
