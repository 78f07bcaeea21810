/**
 * A chart as a standalone SVG document, for slides: the title, both axes with a few round ticks,
 * each series as a line in its colour and dash (a lone point as a dot), and a legend naming each
 * series. Drawn from the same columns the live chart plots (smoothing.ts), so what is exported is
 * what was on screen. Text is escaped: series labels hold run names a person typed.
 * Pure: no DOM.
 */

interface SvgSeries {
  label: string;
  color: string;
  /** Dash pattern in pixels ([] solid). */
  dash: readonly number[];
  /** One value per x (null: no point there). */
  values: readonly (number | null)[];
}

export interface SvgChart {
  title: string;
  xLabel: string;
  xs: readonly number[];
  series: readonly SvgSeries[];
  width?: number;
  height?: number;
  /** The y axis starts no lower than this (rates: 0). */
  yMin?: number;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** About `count` round tick values covering [lo, hi] (1, 2 or 5 times a power of ten apart). */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (lo === hi) return [lo];
  const raw = (hi - lo) / Math.max(1, count);
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

const label = (v: number) =>
  Math.abs(v) >= 1000 || v === Math.round(v) ? String(Math.round(v)) : String(Number(v.toPrecision(3)));

export function chartSvg(c: SvgChart): string {
  const W = c.width ?? 640;
  const H = c.height ?? 360;
  const legendH = 18 * Math.ceil(c.series.length / 2);
  const left = 56;
  const right = 16;
  const top = 36;
  const bottom = 40 + legendH;
  const plotW = W - left - right;
  const plotH = H - top - bottom;
  const ys = c.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  let yLo = ys.length ? Math.min(...ys) : 0;
  let yHi = ys.length ? Math.max(...ys) : 1;
  if (yLo === yHi) {
    const pad = yLo === 0 ? 1 : Math.abs(yLo) * 0.5;
    yLo -= pad;
    yHi += pad;
  }
  if (c.yMin !== undefined) yLo = Math.max(c.yMin, yLo - (yHi - yLo) * 0.05);
  let xLo = c.xs.length ? Math.min(...c.xs) : 0;
  let xHi = c.xs.length ? Math.max(...c.xs) : 1;
  if (xLo === xHi) {
    xLo -= 1;
    xHi += 1;
  }
  const X = (x: number) => left + ((x - xLo) / (xHi - xLo)) * plotW;
  const Y = (y: number) => top + plotH - ((y - yLo) / (yHi - yLo)) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${left}" y="22" font-size="15" font-weight="600" fill="#1d1d1f">${esc(c.title)}</text>`,
  ];
  for (const t of niceTicks(yLo, yHi)) {
    const y = Y(t).toFixed(1);
    parts.push(
      `<line x1="${left}" x2="${W - right}" y1="${y}" y2="${y}" stroke="#dcd8cf"/>`,
      `<text x="${left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#5b5b66">${label(t)}</text>`,
    );
  }
  for (const t of niceTicks(xLo, xHi).filter((t) => Number.isInteger(t))) {
    const x = X(t).toFixed(1);
    parts.push(`<text x="${x}" y="${top + plotH + 16}" text-anchor="middle" fill="#5b5b66">${label(t)}</text>`);
  }
  parts.push(
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" stroke="#5b5b66"/>`,
    `<line x1="${left}" x2="${W - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#5b5b66"/>`,
    `<text x="${left + plotW / 2}" y="${top + plotH + 32}" text-anchor="middle" fill="#5b5b66">${esc(c.xLabel)}</text>`,
  );
  c.series.forEach((s, k) => {
    const dash = s.dash.length ? ` stroke-dasharray="${s.dash.join(' ')}"` : '';
    // A line per run of consecutive points; a point with no neighbour is a dot.
    let run: string[] = [];
    const flush = () => {
      if (run.length === 1) {
        const [x, y] = run[0].split(',');
        parts.push(`<circle cx="${x}" cy="${y}" r="3" fill="${s.color}"/>`);
      } else if (run.length > 1) {
        parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2"${dash} points="${run.join(' ')}"/>`);
      }
      run = [];
    };
    s.values.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) return flush();
      run.push(`${X(c.xs[i]).toFixed(1)},${Y(v).toFixed(1)}`);
    });
    flush();
    const lx = left + (k % 2) * (plotW / 2);
    const ly = H - legendH + 18 * Math.floor(k / 2) + 4;
    parts.push(
      `<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="3"${dash}/>`,
      `<text x="${lx + 30}" y="${ly}" dominant-baseline="middle" fill="#1d1d1f">${esc(s.label)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}
