/**
 * Up to four saved runs side by side, the way people compare them: for each figure one line per
 * run, labelled "A: name" to "D: name" (the chart draws each in its own colour-blind-safe colour and
 * dash, so neither alone tells them apart), the legend naming the settings that differ ("lr 0.001
 * vs 0.003"), one run pinned as the baseline (listed first). The benchmark line joins the score
 * before step 1 (at step 0), the scores played every "Benchmark every" steps, and the score after
 * the last step. Rates and scores keep their axis at 0 or above.
 * Pure: no DOM.
 */
import type { Point } from './smoothing';
import type { BenchmarkSummary, MetricsRow } from './runs';
import { RunConfigSchema, type RunConfig } from '../rl/config';

/** Every setting but the version, in schema order. */
const FIELD_ORDER = Object.keys(RunConfigSchema.shape).filter((k) => k !== 'version') as (keyof RunConfig)[];

export interface ComparedRun {
  name: string;
  metrics: readonly MetricsRow[];
  benchmark?: { before?: BenchmarkSummary; after?: BenchmarkSummary };
  config?: RunConfig;
}

export interface CompareFigure {
  title: string;
  help: string;
  /** A metrics key, or 'benchmark' for the benchmark line described above. */
  key: string;
  /** The axis goes no lower (rates, scores). */
  yMin?: number;
}

/** Runs compared at once. */
export const COMPARE_MAX = 4;

export const COMPARE_FIGURES: readonly CompareFigure[] = [
  { title: 'Mean reward', key: 'reward/mean', help: "Final emotion / 100, averaged over each step's dialogues." },
  {
    title: 'Benchmark score',
    key: 'benchmark',
    help: 'Mean final emotion of the held-out benchmark users: before step 1 (at 0), every "Benchmark every" steps, and after the last step.',
    yMin: 0,
  },
  {
    title: 'Success rate',
    key: 'emotion/success',
    help: 'Share of training dialogues ending at emotion 100.',
    yMin: 0,
  },
  {
    title: 'Mean final emotion',
    key: 'emotion/final',
    help: "The training users' emotion when their dialogue ended.",
    yMin: 0,
  },
];

export const RUN_LETTERS = ['A', 'B', 'C', 'D'] as const;

/** A setting's value as the legend writes it: 0.001 → 1e-3 where shorter, switches on/off. */
function valueText(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  if (typeof v === 'number' && v !== 0 && Math.abs(v) < 0.01)
    return v
      .toExponential()
      .replace(/e-0*/, 'e-')
      .replace(/\.?0+e/, 'e');
  return String(v);
}

/** Short names for the settings a comparison most often varies (the rest go by their key). */
const SHORT: Partial<Record<keyof RunConfig, string>> = {
  lr: 'lr',
  klCoef: 'KL',
  groupSize: 'group',
  profilesPerStep: 'users/step',
};

/** The settings (in schema order) whose values are not all the same across the runs. */
export function differingSettings(configs: readonly RunConfig[]): (keyof RunConfig)[] {
  if (configs.length < 2) return [];
  return FIELD_ORDER.filter((k) => new Set(configs.map((c) => JSON.stringify(c[k]))).size > 1);
}

/** One run's values of those settings: "lr 1e-3, algo ppo". */
export function settingsLabel(config: RunConfig, keys: readonly (keyof RunConfig)[]): string {
  return keys.map((k) => `${SHORT[k] ?? k} ${valueText(config[k])}`).join(', ');
}

/** What differs, in one line: "lr 1e-3 vs 3e-3; algo grpo vs ppo" (at most `limit` settings). */
export function differenceLine(configs: readonly RunConfig[], limit = 4): string {
  const keys = differingSettings(configs);
  const parts = keys.slice(0, limit).map((k) => `${SHORT[k] ?? k} ${configs.map((c) => valueText(c[k])).join(' vs ')}`);
  if (keys.length > limit) parts.push(`and ${keys.length - limit} more`);
  return parts.length ? parts.join('; ') : 'the same settings';
}

/** The runs with the baseline first (the others keep their order). */
export function baselineFirst<T>(runs: readonly T[], baseline: number): T[] {
  if (baseline <= 0 || baseline >= runs.length) return runs.slice();
  return [runs[baseline], ...runs.slice(0, baseline), ...runs.slice(baseline + 1)];
}

/** The points of one figure for one run, in step order (NaN and missing cells left out). */
export function figurePoints(run: ComparedRun, key: string): Point[] {
  const pts: Point[] = [];
  const push = (x: number, y: number | undefined) => {
    if (y !== undefined && Number.isFinite(y)) pts.push([x, y]);
  };
  if (key === 'benchmark') {
    push(0, run.benchmark?.before?.score);
    for (const r of run.metrics) push(r.step, r['eval/score']);
    const last = run.metrics.at(-1)?.step ?? 0;
    if (!pts.some(([x]) => x === last) || last === 0) push(last, run.benchmark?.after?.score);
  } else {
    for (const r of run.metrics) push(r.step, r[key]);
  }
  return pts.sort((a, b) => a[0] - b[0]);
}

/** One series per run for the figure, labelled with its letter and name. */
export function compareSeries(runs: readonly ComparedRun[], key: string): { label: string; points: Point[] }[] {
  return runs.map((run, i) => ({
    label: `${RUN_LETTERS[i] ?? String(i + 1)}: ${run.name}`,
    points: figurePoints(run, key),
  }));
}
