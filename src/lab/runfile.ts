/**
 * The run file: one JSON document for a run (config, metrics in columns, transcripts, benchmark with
 * its breakdown and dialogues, checkpoint optional as base64), what Export writes and Import reads
 * back; and the metrics CSV.
 * Reading never throws and never trusts the file: the schema, then the run config's own checks.
 * Not here: the browser's run store (runs.ts), which these files are made from and go back into.
 */
import { z } from 'zod';
import { ProfileSchema, type Profile } from '../persona/profile';
import { BenchmarkDialoguesSchema } from './benchmarkDialogues';
import { parseRunConfig } from '../rl/config';
import {
  RUN_STATUSES,
  TRANSCRIPT_CAP,
  type BenchmarkSummary,
  type MetricsRow,
  type RunRecord,
  type RunSummary,
} from './runs';
import { fromBase64, toBase64 } from './share';

const RUN_FILE_FORMAT = 'empathy-rl-lab/run';
const RUN_FILE_VERSION = 1;

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
    benchmarkDialogues: BenchmarkDialoguesSchema.optional(),
    start: z.enum(['shipped', 'last']).optional(),
    profiles: z.array(z.unknown()).optional(),
    backend: z.string().max(40).optional(),
    softwareGpu: z.boolean().optional(),
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
      benchmarkDialogues: run.benchmarkDialogues,
      start: run.start,
      profiles: run.profiles,
      backend: run.backend,
      softwareGpu: run.softwareGpu,
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
  if (r.benchmarkDialogues) run.benchmarkDialogues = r.benchmarkDialogues;
  if (r.start) run.start = r.start;
  if (profiles) run.profiles = profiles;
  if (r.note !== undefined) run.note = r.note;
  if (r.backend !== undefined) run.backend = r.backend;
  if (r.softwareGpu !== undefined) run.softwareGpu = r.softwareGpu;
  if (!checkpoint) return { ok: true, run };
  return file.checkpoint?.step !== undefined
    ? { ok: true, run, checkpoint, checkpointStep: file.checkpoint.step }
    : { ok: true, run, checkpoint };
}

/**
 * The run already in the browser that `run` (just read from a file) is a copy of: the same id, or a
 * copy imported earlier under `<id>-imported-…`, made at the same moment, with as many steps, the
 * same status and the same last metrics. Importing it again would only make an identical row.
 */
export function findDuplicate(runs: readonly RunSummary[], run: RunRecord): RunSummary | undefined {
  // Key order differs between a stored row and one read back from a file's columns.
  const key = (row: MetricsRow | undefined) =>
    row ? JSON.stringify(Object.entries(row).sort(([a], [b]) => a.localeCompare(b))) : '';
  const last = key(run.metrics.at(-1));
  return runs.find(
    (r) =>
      (r.id === run.id || r.id.startsWith(`${run.id}-imported-`)) &&
      r.createdAt === run.createdAt &&
      r.status === run.status &&
      r.metricRows === run.metrics.length &&
      key(r.lastMetrics) === last,
  );
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
