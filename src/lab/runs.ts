/**
 * Runs kept in the browser, so a reload loses nothing: each run's record (config, status, metrics,
 * the latest transcripts, benchmark before/after) in IndexedDB, and its checkpoint in a store of its
 * own. Plus the run file (one JSON document, checkpoint optional) and the metrics CSV.
 *
 * Layout (one database, four object stores), chosen so the frequent writes stay small:
 *   runs         id → the record without metrics and transcripts, plus counts and sizes: list() reads
 *                only this, however long the runs are
 *   metrics      [runId, seq] → one metrics row: appendMetrics adds rows, never rewrites the run
 *   transcripts  runId → the latest TRANSCRIPT_CAP transcripts
 *   checkpoints  runId → the checkpoint bytes
 * Every method is one IndexedDB transaction, so a crash mid-write leaves the old state whole.
 * Sizes are approximate (JSON characters, checkpoint bytes): enough for a storage panel, which can
 * show `navigator.storage.estimate()` for the origin beside it.
 *
 * Not here: asking for persistent storage (`navigator.storage.persist()`), which belongs to the UI
 * action that saves a run; OPFS for checkpoints too big for one IndexedDB value (the small preset's
 * ~100 MB still fits).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { z } from 'zod';
import { ProfileSchema, type Profile } from '../persona/profile';
import { parseRunConfig, type RunConfig } from '../rl/config';
import type { Breakdown } from './breakdown';
import { fromBase64, toBase64 } from './share';

export const RUN_STATUSES = ['running', 'paused', 'done', 'stopped', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
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
  /** Where the run began: the preset's shipped warm start, or the one trained in that tab (absent: shipped). */
  start?: 'shipped' | 'last';
  /** Training users the person wrote (Play's form), when the run trained on them instead of the standard set. */
  profiles?: Profile[];
  note?: string;
};

/** What list() gives: the record without its long parts, with counts and an approximate size. */
export type RunSummary = Omit<RunRecord, 'metrics' | 'transcripts'> & {
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
export type RunPatch = Partial<Pick<RunRecord, 'name' | 'status' | 'benchmark' | 'breakdown' | 'note' | 'updatedAt'>>;

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
  /** Keep the run's checkpoint (replacing the last), with the step it was taken at when known. */
  putCheckpoint(id: string, bytes: Uint8Array, step?: number): Promise<void>;
  getCheckpoint(id: string): Promise<Uint8Array | undefined>;
  /** Remove the run, its metrics, transcripts and checkpoint. */
  delete(id: string): Promise<void>;
  usage(): Promise<{ runs: number; bytes: number }>;
  close(): void;
}

export const RUN_DB_NAME = 'empathy-rl-lab';
const RUN_DB_VERSION = 1;
/** Transcripts kept per run: enough to browse the recent ones, bounded so a long run stays small. */
export const TRANSCRIPT_CAP = 200;

type StoredRun = Omit<RunSummary, 'bytes'> & {
  sizes: { meta: number; metrics: number; transcripts: number; checkpoint: number };
};

interface RunDb extends DBSchema {
  runs: { key: string; value: StoredRun };
  metrics: { key: [string, number]; value: { runId: string; seq: number; row: MetricsRow } };
  transcripts: { key: string; value: { runId: string; items: unknown[] } };
  checkpoints: { key: string; value: { runId: string; bytes: Uint8Array } };
}

const STORES = ['runs', 'metrics', 'transcripts', 'checkpoints'] as const;

function jsonSize(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

function metricsRange(id: string): IDBKeyRange {
  return IDBKeyRange.bound([id, 0], [id, Infinity]);
}

function summaryOf(s: StoredRun): RunSummary {
  const { sizes, ...rest } = s;
  return { ...rest, bytes: sizes.meta + sizes.metrics + sizes.transcripts + sizes.checkpoint };
}

/** Open (creating on first use) the run store. `name` lets tests use a database of their own. */
export async function openRunStore(name: string = RUN_DB_NAME): Promise<RunStore> {
  const db: IDBPDatabase<RunDb> = await openDB<RunDb>(name, RUN_DB_VERSION, {
    upgrade(database) {
      // Version 1 creates everything; a later version adds its steps here, keyed on oldVersion.
      database.createObjectStore('runs', { keyPath: 'id' });
      database.createObjectStore('metrics', { keyPath: ['runId', 'seq'] });
      database.createObjectStore('transcripts', { keyPath: 'runId' });
      database.createObjectStore('checkpoints', { keyPath: 'runId' });
    },
  });

  return {
    async list() {
      const all = await db.getAll('runs');
      return all.map(summaryOf).sort((x, y) => y.createdAt - x.createdAt || x.id.localeCompare(y.id));
    },

    async get(id) {
      const tx = db.transaction(['runs', 'metrics', 'transcripts'], 'readonly');
      const [meta, rows, transcripts] = await Promise.all([
        tx.objectStore('runs').get(id),
        tx.objectStore('metrics').getAll(metricsRange(id)),
        tx.objectStore('transcripts').get(id),
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
      return { ...record, metrics: rows.map((r) => r.row), transcripts: transcripts?.items ?? [] };
    },

    async put(run) {
      const tx = db.transaction(['runs', 'metrics', 'transcripts'], 'readwrite');
      const old = await tx.objectStore('runs').get(run.id);
      const { metrics, transcripts, ...record } = run;
      const items = transcripts.slice(-TRANSCRIPT_CAP);
      const metricStore = tx.objectStore('metrics');
      const writes: Promise<unknown>[] = [metricStore.delete(metricsRange(run.id))];
      let metricBytes = 0;
      metrics.forEach((row, seq) => {
        metricBytes += jsonSize(row);
        writes.push(metricStore.put({ runId: run.id, seq, row }));
      });
      writes.push(tx.objectStore('transcripts').put({ runId: run.id, items }));
      const meta: StoredRun = {
        ...record,
        metricRows: metrics.length,
        transcriptCount: items.length,
        hasCheckpoint: old?.hasCheckpoint ?? false,
        ...(old?.checkpointStep !== undefined ? { checkpointStep: old.checkpointStep } : {}),
        sizes: { meta: 0, metrics: metricBytes, transcripts: jsonSize(items), checkpoint: old?.sizes.checkpoint ?? 0 },
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

// ---- The run file ---------------------------------------------------------------------------------

export const RUN_FILE_FORMAT = 'empathy-rl-lab/run';
export const RUN_FILE_VERSION = 1;

/**
 * JSON has no NaN or Infinity, and a run that hit the NaN stop has them in its metrics: such values
 * are written as the strings "NaN", "Infinity", "-Infinity"; `null` is a cell the step did not log.
 */
const NumberCell = z.union([z.number(), z.literal('NaN'), z.literal('Infinity'), z.literal('-Infinity')]);
type NumberCellValue = z.infer<typeof NumberCell>;

function toCell(v: number): NumberCellValue {
  return Number.isFinite(v) ? v : Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
}

function fromCell(v: NumberCellValue): number {
  return typeof v === 'number' ? v : Number(v);
}

const SummarySchema = z.record(z.string(), NumberCell);
const FiguresSchema = z.object({ score: z.number(), success: z.number(), failure: z.number(), n: z.number() });
const BreakdownSchema = z.object({
  overall: FiguresSchema,
  byIntention: z.record(z.string(), FiguresSchema),
  byType: z.record(z.string(), FiguresSchema),
  unmatched: z.number(),
});

/** The run file. Metrics are columnar (one array per key, all the same length): far smaller than rows. */
const RunFileSchema = z.object({
  format: z.literal(RUN_FILE_FORMAT),
  version: z.literal(RUN_FILE_VERSION),
  exportedAt: z.string().optional(),
  run: z.object({
    id: z.string().min(1),
    name: z.string(),
    createdAt: z.number(),
    updatedAt: z.number(),
    status: z.enum(RUN_STATUSES),
    config: z.unknown(),
    metrics: z.record(z.string(), z.array(NumberCell.nullable())),
    transcripts: z.array(z.unknown()),
    benchmark: z.object({ before: SummarySchema.optional(), after: SummarySchema.optional() }).optional(),
    // Added within file version 1: optional, so older files still open and older labs skip them.
    breakdown: z.object({ before: BreakdownSchema.optional(), after: BreakdownSchema.optional() }).optional(),
    start: z.enum(['shipped', 'last']).optional(),
    profiles: z.array(z.unknown()).optional(),
    note: z.string().optional(),
  }),
  checkpoint: z
    .object({
      encoding: z.literal('base64'),
      bytes: z.number().int().min(0),
      data: z.string(),
      step: z.number().int().min(0).optional(),
    })
    .optional(),
});
type RunFile = z.infer<typeof RunFileSchema>;

/** One JSON document for the run, with its checkpoint (base64, and the step it was taken at) when given. */
export function exportRun(run: RunRecord, checkpoint?: Uint8Array, checkpointStep?: number): string {
  const keys = metricKeys(run.metrics);
  const metrics: Record<string, (NumberCellValue | null)[]> = {};
  for (const k of keys) metrics[k] = run.metrics.map((row) => (k in row ? toCell(row[k]) : null));
  const mapSummary = (s?: BenchmarkSummary) =>
    s ? Object.fromEntries(Object.entries(s).map(([k, v]) => [k, toCell(v)])) : undefined;
  const file: RunFile = {
    format: RUN_FILE_FORMAT,
    version: RUN_FILE_VERSION,
    exportedAt: new Date().toISOString(),
    run: {
      id: run.id,
      name: run.name,
      createdAt: run.createdAt,
      updatedAt: run.updatedAt,
      status: run.status,
      config: run.config,
      metrics,
      transcripts: run.transcripts,
      benchmark: run.benchmark && { before: mapSummary(run.benchmark.before), after: mapSummary(run.benchmark.after) },
      breakdown: run.breakdown,
      start: run.start,
      profiles: run.profiles,
      note: run.note,
    },
    checkpoint: checkpoint && {
      encoding: 'base64',
      bytes: checkpoint.byteLength,
      data: toBase64(checkpoint),
      ...(checkpointStep !== undefined ? { step: checkpointStep } : {}),
    },
  };
  return JSON.stringify(file);
}

export type ImportResult =
  { ok: true; run: RunRecord; checkpoint?: Uint8Array; checkpointStep?: number } | { ok: false; message: string };

/** Read a run file. Never throws: a bad file gets a message naming what is wrong with it. */
export function importRun(text: string): ImportResult {
  const fail = (why: string): ImportResult => ({
    ok: false,
    message: `This is not a run file the lab can open: ${why}`,
  });
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return fail(`it is not valid JSON (${(e as Error).message}).`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return fail('it is not a JSON object.');
  const head = doc as Record<string, unknown>;
  if (head.format !== RUN_FILE_FORMAT)
    return fail(`its "format" is ${JSON.stringify(head.format) ?? 'missing'}, not "${RUN_FILE_FORMAT}".`);
  if (typeof head.version === 'number' && head.version > RUN_FILE_VERSION) {
    return {
      ok: false,
      message: `This run file was made by a newer version of the lab (file version ${head.version}; this lab reads up to ${RUN_FILE_VERSION}).`,
    };
  }
  const parsed = RunFileSchema.safeParse(doc);
  if (!parsed.success) {
    const lines = parsed.error.issues
      .slice(0, 8)
      .map((i) => `  ${i.path.length ? i.path.join('.') : '(file)'}: ${i.message}`);
    const more = parsed.error.issues.length > 8 ? `\n  ...and ${parsed.error.issues.length - 8} more` : '';
    return fail(`\n${lines.join('\n')}${more}`);
  }
  const file = parsed.data;
  const config = parseRunConfig(file.run.config);
  if (!config.ok)
    return fail(`its run config is not valid:\n${config.errors.map((e) => `  run.config.${e}`).join('\n')}`);

  const columns = Object.entries(file.run.metrics);
  const length = columns[0]?.[1].length ?? 0;
  const uneven = columns.find(([, values]) => values.length !== length);
  if (uneven)
    return fail(
      `run.metrics: column "${uneven[0]}" has ${uneven[1].length} values where "${columns[0][0]}" has ${length}.`,
    );
  const metrics: MetricsRow[] = Array.from({ length }, () => ({}));
  for (const [key, values] of columns) {
    values.forEach((v, i) => {
      if (v !== null) metrics[i][key] = fromCell(v);
    });
  }
  const mapSummary = (s?: Record<string, NumberCellValue>) =>
    s ? Object.fromEntries(Object.entries(s).map(([k, v]) => [k, fromCell(v)])) : undefined;

  let profiles: Profile[] | undefined;
  if (file.run.profiles) {
    profiles = [];
    for (const [i, p] of file.run.profiles.entries()) {
      const r = ProfileSchema.safeParse(p);
      if (!r.success)
        return fail(
          `run.profiles.${i} (a training user) does not match the profile schema: ${r.error.issues
            .slice(0, 3)
            .map((x) => `${x.path.join('.') || '(profile)'}: ${x.message}`)
            .join('; ')}.`,
        );
      profiles.push(r.data);
    }
  }

  let checkpoint: Uint8Array | undefined;
  if (file.checkpoint) {
    const bytes = fromBase64(file.checkpoint.data);
    if (!bytes) return fail('checkpoint.data is not base64 (the file may have been cut or edited).');
    if (bytes.byteLength !== file.checkpoint.bytes) {
      return fail(
        `checkpoint.data holds ${bytes.byteLength} bytes where the file says ${file.checkpoint.bytes} (the file may have been cut).`,
      );
    }
    checkpoint = bytes;
  }

  const r = file.run;
  const run: RunRecord = {
    id: r.id,
    name: r.name,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    status: r.status,
    config: config.config,
    metrics,
    transcripts: r.transcripts.slice(-TRANSCRIPT_CAP),
  };
  if (r.benchmark) run.benchmark = { before: mapSummary(r.benchmark.before), after: mapSummary(r.benchmark.after) };
  if (r.breakdown) run.breakdown = r.breakdown;
  if (r.start) run.start = r.start;
  if (profiles) run.profiles = profiles;
  if (r.note !== undefined) run.note = r.note;
  if (!checkpoint) return { ok: true, run };
  return file.checkpoint?.step !== undefined
    ? { ok: true, run, checkpoint, checkpointStep: file.checkpoint.step }
    : { ok: true, run, checkpoint };
}

// ---- CSV ------------------------------------------------------------------------------------------

/** Every key in the rows: `step` first when present, then the rest in alphabetical order. */
export function metricKeys(rows: readonly MetricsRow[]): string[] {
  const keys = new Set<string>();
  for (const row of rows) for (const k of Object.keys(row)) keys.add(k);
  const rest = [...keys].filter((k) => k !== 'step').sort();
  return keys.has('step') ? ['step', ...rest] : rest;
}

/** RFC 4180 quoting: a field with a comma, quote or line break is quoted, its quotes doubled. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** All metrics as CSV: a header of every key (see metricKeys), a row per step, empty where missing. */
export function metricsCsv(rows: readonly MetricsRow[]): string {
  const keys = metricKeys(rows);
  const lines = [keys.map(csvField).join(',')];
  for (const row of rows) lines.push(keys.map((k) => (k in row ? csvField(String(row[k])) : '')).join(','));
  return lines.join('\r\n') + '\r\n';
}
