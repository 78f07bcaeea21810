/**
 * Two saved runs side by side: for each compared figure, one line per run, labelled "A: name" and
 * "B: name" (the chart draws A solid and B dashed in two colour-blind-safe colours, so neither colour
 * nor dash alone tells them apart). The benchmark line joins the score before step 1 (at step 0),
 * the scores played every "Benchmark every" steps, and the score after the last step.
 * Pure: no DOM.
 */
import type { Point } from './smoothing';
import type { BenchmarkSummary, MetricsRow } from './runs';

export interface ComparedRun {
  name: string;
  metrics: readonly MetricsRow[];
  benchmark?: { before?: BenchmarkSummary; after?: BenchmarkSummary };
}

export interface CompareFigure {
  title: string;
  help: string;
  /** A metrics key, or 'benchmark' for the benchmark line described above. */
  key: string;
}

export const COMPARE_FIGURES: readonly CompareFigure[] = [
  { title: 'Mean reward', key: 'reward/mean', help: "Final emotion / 100, averaged over each step's dialogues." },
  {
    title: 'Benchmark score',
    key: 'benchmark',
    help: 'Mean final emotion of the held-out benchmark users: before step 1 (at 0), every "Benchmark every" steps, and after the last step.',
  },
  { title: 'Success rate', key: 'emotion/success', help: 'Share of training dialogues ending at emotion 100.' },
  { title: 'Mean final emotion', key: 'emotion/final', help: "The training users' emotion when their dialogue ended." },
];

export const RUN_LETTERS = ['A', 'B'] as const;

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
