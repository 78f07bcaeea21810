/**
 * The pure arithmetic behind the lab's charts: TensorBoard's debiased EMA smoothing, shaping the
 * series into the columnar arrays a canvas chart draws (one shared x column, one y column per line,
 * null for "no point here"), the rows of each chart's screen-reader table, and the ~10 Hz throttle
 * for streamed redraws. No DOM and no chart library here, so all of it is tested in Node; the chart
 * library stays inside src/ui/charts/LineChart.tsx.
 *
 * Smoothing runs on the full series, before any decimation (smoothing decimated points would change
 * the curve with the zoom level).
 */

/** A point of a series: x is usually the training step. */
export type Point = readonly [x: number, y: number];
export type SeriesInput = { label: string; points: readonly Point[] };

/** The smoothing slider's range; 1 would freeze the curve at its first value. */
const MAX_SMOOTHING = 0.99;

/** A smoothing weight the EMA can use: NaN → 0, clamped to [0, MAX_SMOOTHING]. */
export function clampSmoothing(weight: number): number {
  return Number.isFinite(weight) ? Math.min(MAX_SMOOTHING, Math.max(0, weight)) : 0;
}

/**
 * Debiased exponential moving average, as TensorBoard's scalar dashboard draws it
 * (tensorboard/webapp/widgets/line_chart_v2/data_transformer.ts, after TensorBoard #610/#639):
 *   ema_t      = w * ema_{t-1} + (1 - w) * y_t,  ema_0 = 0
 *   smoothed_t = ema_t / (1 - w^t)                   t counts only the points that had a value
 * Without the division the curve starts near 0 and crawls up; with it the first smoothed point is
 * the first value. A missing or non-finite y (NaN from a NaN stop, undefined from a step that did not
 * log the key) gives null there and is skipped: the average carries on over it, unbroken.
 * A constant series comes back as it is (TensorBoard does the same, so rounding shows no wiggle).
 */
export function emaSmooth(values: readonly (number | null | undefined)[], weight: number): (number | null)[] {
  const w = clampSmoothing(weight);
  const finite = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);
  const first = values.find(finite);
  const constant = values.every((v) => !finite(v) || v === first);
  let ema = 0;
  let t = 0;
  return values.map((v) => {
    if (!finite(v)) return null;
    if (w === 0 || constant) return v;
    ema = w * ema + (1 - w) * v;
    t += 1;
    return ema / (1 - Math.pow(w, t));
  });
}

/** Everything a chart draws: the shared x column and, per input series, its raw and smoothed y columns. */
export type ChartColumns = {
  xs: number[];
  raw: (number | null)[][];
  smoothed: (number | null)[][];
};

/**
 * Series → columns aligned on the union of their x values (ascending), null where a series has no
 * point. Each series is sorted by x (a repeated x keeps the last point) and smoothed on its own
 * points; on a log scale, values ≤ 0 (which a log axis cannot place) become null after smoothing.
 */
export function toColumns(series: readonly SeriesInput[], smoothing: number, logScale = false): ChartColumns {
  const perSeries = series.map((s) => {
    const byX = new Map<number, number>();
    for (const [x, y] of s.points) if (Number.isFinite(x)) byX.set(x, y);
    const xs = [...byX.keys()].sort((a, b) => a - b);
    const ys = xs.map((x) => byX.get(x)!);
    return { xs, ys, smoothed: emaSmooth(ys, smoothing) };
  });
  const xs = [...new Set(perSeries.flatMap((s) => s.xs))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const keep = (v: number | null): number | null =>
    v === null || !Number.isFinite(v) || (logScale && v <= 0) ? null : v;
  const raw = perSeries.map(() => new Array<number | null>(xs.length).fill(null));
  const smoothed = perSeries.map(() => new Array<number | null>(xs.length).fill(null));
  perSeries.forEach((s, k) => {
    s.xs.forEach((x, j) => {
      const i = index.get(x)!;
      raw[k][i] = keep(s.ys[j]);
      smoothed[k][i] = keep(s.smoothed[j]);
    });
  });
  return { xs, raw, smoothed };
}

/**
 * The columns as a canvas chart takes them: x first, then per series its raw line and, when
 * `withSmoothed`, its smoothed line right after it (so the faint raw line is drawn under the solid one).
 */
export function plotColumns(columns: ChartColumns, withSmoothed: boolean): [number[], ...(number | null)[][]] {
  const ys = columns.raw.flatMap((raw, k) => (withSmoothed ? [raw, columns.smoothed[k]] : [raw]));
  return [columns.xs, ...ys];
}

/** One row of a chart's data table: x, then per series its raw and smoothed value. */
export type TableRow = { x: number; values: { raw: number | null; smoothed: number | null }[] };

/**
 * The rows of the screen-reader table: the latest `limit` x values that have a point in some
 * series, oldest first (a table of every step of a long run would be useless to listen to and slow).
 */
export function tableRows(columns: ChartColumns, limit = 50): TableRow[] {
  const rows: TableRow[] = [];
  for (let i = columns.xs.length - 1; i >= 0 && rows.length < limit; i--) {
    const values = columns.raw.map((r, k) => ({ raw: r[i], smoothed: columns.smoothed[k][i] }));
    if (values.some((v) => v.raw !== null)) rows.push({ x: columns.xs[i], values });
  }
  return rows.reverse();
}

/** A value as the table and the hover legend print it: 4 significant digits, "–" for none. */
export function formatValue(v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
  if (v !== 0 && (Math.abs(v) < 1e-3 || Math.abs(v) >= 1e6)) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}

/**
 * Calls `fn` at most once per `intervalMs`: at once when idle, else once at the end of the interval
 * with the latest arguments, so the last update is never lost. `cancel` drops a pending call.
 * Charts use it to redraw at ~10 Hz however fast points stream in.
 */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => void,
  intervalMs: number,
): ((...args: A) => void) & { cancel(): void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const run = (args: A) => {
    last = Date.now();
    fn(...args);
  };
  const throttled = (...args: A) => {
    const wait = last + intervalMs - Date.now();
    if (wait <= 0 && timer === undefined) return run(args);
    pending = args;
    timer ??= setTimeout(
      () => {
        timer = undefined;
        const a = pending!;
        pending = undefined;
        run(a);
      },
      Math.max(0, wait),
    );
  };
  throttled.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  return throttled;
}
