/**
 * The lab's one chart: a line chart over uPlot that every metric panel uses, so uPlot's types and
 * quirks stay in this file. Each series is drawn twice, raw (faint) and smoothed with TensorBoard's
 * debiased EMA (solid); the legend shows both values under the cursor. Okabe-Ito colours plus a dash
 * pattern per series (never colour alone); axis and grid colours come from CSS variables
 * (chart.css), re-read when the colour scheme changes. The chart follows its container's width and
 * redraws at most ~10 times a second however fast points stream in.
 *
 * Canvas is invisible to assistive technology, so the chart is a `<figure aria-label={title}>` whose
 * canvas is hidden from it, and a visually hidden `<table>` (caption = title) holds the latest values.
 *
 * A chart of one step draws its point (uPlot draws lines between points, so a lone point gets a
 * dot), and each chart exports itself as PNG (the canvas under its title and legend) or SVG
 * (src/lab/chartSvg.ts, from the same columns) for slides.
 *
 * Not here: decimation (not needed at the lab's few thousand steps per run; it would go after
 * smoothing), zoom controls beyond uPlot's drag-to-zoom and double-click reset.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './chart.css';
import { chartSvg } from '../../lab/chartSvg';
import { download } from '../state/runs';
import {
  clampSmoothing,
  formatValue,
  plotColumns,
  tableRows,
  throttle,
  toColumns,
  type Point,
} from '../../lab/smoothing';

export type LineSeries = {
  label: string;
  points: readonly Point[];
  /** Overrides the palette colour (e.g. a colour kept per run id when runs are compared). */
  color?: string;
};

export type LineChartProps = {
  /** The chart's accessible name and visible heading, e.g. "Mean reward". */
  title: string;
  series: readonly LineSeries[];
  /** EMA weight, 0 (raw only) to 0.99. */
  smoothing?: number;
  logScale?: boolean;
  /** Called with the x (step) of the point under the cursor when the plot is clicked. */
  onPointClick?: (x: number) => void;
  xLabel?: string;
  /** Height of the plot area with its axes, in CSS pixels (the legend comes below). */
  height?: number;
  /** Rows in the screen-reader table (the latest ones). */
  tableLimit?: number;
  /** The y axis goes no lower than this (0 for rates and shares). */
  yMin?: number;
};

/** Okabe & Ito (2008), colour-blind-safe; black and yellow left out (invisible on one of the themes). */
export const CHART_PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9'] as const;
export const CHART_DASHES: readonly (readonly number[])[] = [[], [6, 3], [2, 3], [10, 3, 2, 3]];
/** Opacity of the raw line under the smoothed one. */
const RAW_ALPHA = 0.3;
/** ~10 Hz: fast enough to look live, slow enough to leave the main thread to the page. */
const REDRAW_INTERVAL_MS = 100;
/** A click that moved further than this is the end of a drag-to-zoom, not a point click. */
const CLICK_SLOP_PX = 4;

/** Tick spacings of the x axis (steps): whole numbers only. */
const WHOLE_TICKS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];

/**
 * uPlot's own padded range, except for a flat line: uPlot gives 0 a 0..100 axis, which reads as a
 * scale of percent; a flat series gets a small band around its value instead.
 */
function linearRange(min: number | null, max: number | null, floor?: number): uPlot.Range.MinMax {
  if (min === null || max === null) return [floor ?? 0, 1];
  let r: uPlot.Range.MinMax;
  if (min === max) {
    const pad = min === 0 ? 1 : Math.abs(min) * 0.5;
    r = [min - pad, max + pad];
  } else r = uPlot.rangeNum(min, max, 0.1, true);
  return floor === undefined ? r : [Math.max(floor, r[0] ?? floor), r[1]];
}

/** The x range: the steps themselves, or a band around the only one (uPlot gives a lone x no width). */
function xRange(_u: uPlot, min: number | null, max: number | null): uPlot.Range.MinMax {
  if (min === null || max === null) return [0, 1];
  return min === max ? [min - 1, max + 1] : [min, max];
}

/** Points in a plotted column. */
function pointCount(col: ArrayLike<number | null | undefined> | undefined): number {
  let n = 0;
  for (let i = 0; i < (col?.length ?? 0); i++) if (col![i] !== null && col![i] !== undefined) n++;
  return n;
}

/** A series whose points have no neighbours to draw a line to shows them as dots. */
const lonePoints = (u: uPlot, seriesIdx: number) => pointCount(u.data[seriesIdx]) <= 1;

type ChartTheme = { axis: string; grid: string };

function readTheme(el: Element): ChartTheme {
  const css = getComputedStyle(el);
  return {
    axis: css.getPropertyValue('--chart-axis').trim() || '#5b5b66',
    grid: css.getPropertyValue('--chart-grid').trim() || 'rgba(128, 128, 128, 0.25)',
  };
}

type Shown = { series: readonly LineSeries[]; smoothing: number; logScale: boolean };

/** Each series' colour and dash, as the chart draws them. */
const styleOf = (s: LineSeries, k: number) => ({
  stroke: s.color ?? CHART_PALETTE[k % CHART_PALETTE.length],
  dash: [...CHART_DASHES[k % CHART_DASHES.length]],
});

function options(
  shown: Shown,
  width: number,
  height: number,
  xLabel: string,
  theme: { current: ChartTheme },
  yMin: number | undefined,
): uPlot.Options {
  const smoothed = shown.smoothing > 0;
  const lines: uPlot.Series[] = shown.series.flatMap((s, k) => {
    const { stroke, dash } = styleOf(s, k);
    const value = (_u: uPlot, v: number | null) => formatValue(v);
    // Gaps (a step that did not log this key, a NaN) are bridged: the line goes on past them.
    const raw: uPlot.Series = {
      label: s.label,
      stroke,
      dash,
      width: smoothed ? 1 : 2,
      alpha: smoothed ? RAW_ALPHA : 1,
      spanGaps: true,
      value,
      points: { show: lonePoints, size: 7, fill: stroke },
    };
    return smoothed
      ? [
          raw,
          {
            label: `${s.label} (smoothed)`,
            stroke,
            dash,
            width: 2,
            spanGaps: true,
            value,
            points: { show: lonePoints, size: 7, fill: stroke },
          },
        ]
      : [raw];
  });
  const axis = (label?: string): uPlot.Axis => ({
    label,
    stroke: () => theme.current.axis,
    grid: { stroke: () => theme.current.grid, width: 1 },
    ticks: { stroke: () => theme.current.grid, width: 1 },
  });
  return {
    width,
    height,
    scales: {
      x: { time: false, range: xRange },
      y: shown.logScale ? { distr: 3, log: 10 } : { range: (_u, min, max) => linearRange(min, max, yMin) },
    },
    series: [{ label: xLabel, value: (_u, v) => (v === null ? '–' : String(v)) }, ...lines],
    // Steps are whole numbers: ticks at 1, 2, 5, 10, ... steps apart, never at 1.5.
    axes: [{ ...axis(xLabel), incrs: WHOLE_TICKS }, axis()],
    cursor: { points: { show: false } },
    legend: { live: true },
  };
}

export function LineChart({
  title,
  series,
  smoothing = 0.6,
  logScale = false,
  onPointClick,
  xLabel = 'Step',
  height = 220,
  tableLimit = 50,
  yMin,
}: LineChartProps) {
  // What is on screen lags the props by at most REDRAW_INTERVAL_MS (canvas and table alike).
  const [shown, setShown] = useState<Shown>(() => ({ series, smoothing: clampSmoothing(smoothing), logScale }));
  const update = useMemo(() => throttle(setShown, REDRAW_INTERVAL_MS), []);
  useEffect(() => {
    update({ series, smoothing: clampSmoothing(smoothing), logScale });
  }, [series, smoothing, logScale, update]);
  useEffect(() => () => update.cancel(), [update]);

  const columns = useMemo(() => toColumns(shown.series, shown.smoothing, shown.logScale), [shown]);
  const withSmoothed = shown.smoothing > 0;
  const data = useMemo(() => plotColumns(columns, withSmoothed) as uPlot.AlignedData, [columns, withSmoothed]);

  const figureRef = useRef<HTMLElement>(null);
  const plotRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const dataRef = useRef(data);
  const shownRef = useRef(shown);
  const clickRef = useRef(onPointClick);
  useEffect(() => {
    dataRef.current = data;
    shownRef.current = shown;
    clickRef.current = onPointClick;
  });

  // Rebuild the chart when its lines or scale kind change (`structure` stands for everything
  // options() reads); new points only call setData (below).
  const structure = JSON.stringify([
    shown.series.map((s) => [s.label, s.color ?? '']),
    shown.logScale,
    withSmoothed,
    xLabel,
    height,
    yMin ?? null,
  ]);
  useEffect(() => {
    const el = plotRef.current;
    const figure = figureRef.current;
    if (!el || !figure) return;
    const theme = { current: readTheme(figure) };
    const chart = new uPlot(
      options(shownRef.current, el.clientWidth || 600, height, xLabel, theme, yMin),
      dataRef.current,
      el,
    );
    chartRef.current = chart;

    // Resize in a task of its own: resizing inside the observer's callback changes the observed box
    // again and the browser reports a "ResizeObserver loop" error.
    let pending: ReturnType<typeof setTimeout> | undefined;
    const resize = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry.contentRect.width);
      clearTimeout(pending);
      pending = setTimeout(() => {
        if (width > 0 && width !== chart.width) chart.setSize({ width, height });
      }, 0);
    });
    resize.observe(el);

    // Canvas colours do not follow CSS by themselves: re-read them and redraw on a scheme change.
    const retheme = () => {
      theme.current = readTheme(figure);
      chart.redraw(false);
    };
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', retheme);
    const rootAttrs = new MutationObserver(retheme);
    rootAttrs.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['class', 'data-theme', 'style'],
    });

    let down: { x: number; y: number } | null = null;
    const onDown = (e: MouseEvent) => (down = { x: e.clientX, y: e.clientY });
    const onClick = (e: MouseEvent) => {
      const moved = down ? Math.hypot(e.clientX - down.x, e.clientY - down.y) : 0;
      const idx = chart.cursor.idx;
      if (moved > CLICK_SLOP_PX || idx === null || idx === undefined) return;
      const x = chart.data[0][idx];
      if (x !== undefined) clickRef.current?.(x);
    };
    chart.over.addEventListener('mousedown', onDown);
    chart.over.addEventListener('click', onClick);

    return () => {
      clearTimeout(pending);
      resize.disconnect();
      scheme.removeEventListener('change', retheme);
      rootAttrs.disconnect();
      chart.destroy();
      chartRef.current = null;
    };
  }, [structure]);

  useEffect(() => {
    chartRef.current?.setData(data);
  }, [data]);

  const rows = useMemo(() => tableRows(columns, tableLimit), [columns, tableLimit]);
  const total = columns.xs.length;
  const fileName =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'chart';

  const exportSvg = () => {
    const svg = chartSvg({
      title,
      xLabel,
      xs: columns.xs,
      series: shown.series.map((s, k) => ({
        label: s.label,
        ...styleOf(s, k),
        color: styleOf(s, k).stroke,
        values: withSmoothed ? columns.smoothed[k] : columns.raw[k],
      })),
      ...(yMin !== undefined ? { yMin } : {}),
    });
    download(`${fileName}.svg`, svg, 'image/svg+xml');
  };
  const exportPng = () => {
    const chart = chartRef.current;
    const figure = figureRef.current;
    if (!chart || !figure) return;
    const src = chart.ctx.canvas;
    const dpr = src.width / Math.max(1, chart.width);
    const titleH = Math.round(28 * dpr);
    const legendH = Math.round(20 * dpr * shown.series.length + 8 * dpr);
    const out = document.createElement('canvas');
    out.width = src.width;
    out.height = src.height + titleH + legendH;
    const ctx = out.getContext('2d');
    if (!ctx) return;
    const css = getComputedStyle(figure);
    ctx.fillStyle = css.getPropertyValue('--panel').trim() || '#ffffff';
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.fillStyle = css.color || '#1d1d1f';
    ctx.font = `600 ${Math.round(15 * dpr)}px system-ui, sans-serif`;
    ctx.fillText(title, 8 * dpr, 19 * dpr);
    ctx.drawImage(src, 0, titleH);
    ctx.font = `${Math.round(12 * dpr)}px system-ui, sans-serif`;
    shown.series.forEach((s, k) => {
      const { stroke, dash } = styleOf(s, k);
      const y = titleH + src.height + (k + 0.8) * 20 * dpr;
      ctx.strokeStyle = stroke;
      ctx.lineWidth = 3 * dpr;
      ctx.setLineDash(dash.map((d) => d * dpr));
      ctx.beginPath();
      ctx.moveTo(8 * dpr, y);
      ctx.lineTo(36 * dpr, y);
      ctx.stroke();
      ctx.fillText(s.label, 44 * dpr, y + 4 * dpr);
    });
    out.toBlob((blob) => blob && download(`${fileName}.png`, blob, 'image/png'));
  };

  return (
    <figure className="lab-chart" aria-label={title} ref={figureRef}>
      <figcaption className="lab-chart-title">
        <span>{title}</span>
        <span className="lab-chart-export">
          <button type="button" onClick={exportPng} disabled={total === 0} aria-label={`Save ${title} as PNG`}>
            PNG
          </button>
          <button type="button" onClick={exportSvg} disabled={total === 0} aria-label={`Save ${title} as SVG`}>
            SVG
          </button>
        </span>
      </figcaption>
      <div
        className={onPointClick ? 'lab-chart-plot lab-chart-clickable' : 'lab-chart-plot'}
        ref={plotRef}
        aria-hidden="true"
      />
      {/* The wrapper hides the table: a table box itself does not clip to a 1px width. */}
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{xLabel}</th>
              {shown.series.map((s, k) =>
                withSmoothed ? (
                  [
                    <th scope="col" key={`${k}r`}>
                      {s.label}
                    </th>,
                    <th scope="col" key={`${k}s`}>{`${s.label} (smoothed)`}</th>,
                  ]
                ) : (
                  <th scope="col" key={k}>
                    {s.label}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.x}>
                <th scope="row">{row.x}</th>
                {row.values.map((v, k) =>
                  withSmoothed ? (
                    [<td key={`${k}r`}>{formatValue(v.raw)}</td>, <td key={`${k}s`}>{formatValue(v.smoothed)}</td>]
                  ) : (
                    <td key={k}>{formatValue(v.raw)}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
          {total > rows.length && (
            <tfoot>
              <tr>
                <td
                  colSpan={1 + shown.series.length * (withSmoothed ? 2 : 1)}
                >{`The latest ${rows.length} of ${total} ${xLabel.toLowerCase()} values.`}</td>
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </figure>
  );
}
