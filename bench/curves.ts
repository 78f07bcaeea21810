/**
 * `npx tsx bench/curves.ts OUT.svg METRIC LABEL=DIR [LABEL=DIR ...]`: learning curves of experiment
 * runs (their metrics.json) as one small SVG for docs/RESULTS.md: each run's raw values faint and a
 * debiased EMA (the lab's smoothing) solid, in the lab's colour-blind-safe palette. Also prints
 * the per-block means as a markdown table so the figures are in the text too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emaSmooth } from '../src/lab/smoothing';

const [out, metric, ...runs] = process.argv.slice(2);
if (!out || !metric || runs.length === 0) {
  console.error('usage: npx tsx bench/curves.ts OUT.svg METRIC LABEL=DIR [LABEL=DIR ...]');
  process.exit(2);
}
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9'];
const series = runs.map((r) => {
  const [label, dir] = r.split('=');
  const rows = JSON.parse(readFileSync(join(dir, 'metrics.json'), 'utf8')) as Record<string, number>[];
  return {
    label,
    points: rows.map((x) => [x.step, x[metric]] as [number, number]).filter(([, y]) => Number.isFinite(y)),
  };
});
const W = 780;
const H = 300;
const M = { l: 48, r: 250, t: 24, b: 36 };
const xs = series.flatMap((s) => s.points.map((p) => p[0]));
const ys = series.flatMap((s) => s.points.map((p) => p[1]));
const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
const pad = (y1 - y0) * 0.05 || 0.01;
[y0, y1] = [y0 - pad, y1 + pad];
const sx = (x: number) => M.l + ((x - x0) / Math.max(1e-9, x1 - x0)) * (W - M.l - M.r);
const sy = (y: number) => H - M.b - ((y - y0) / (y1 - y0)) * (H - M.t - M.b);
const path = (pts: [number, number][]) =>
  pts.map(([x, y], i) => `${i ? 'L' : 'M'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join('');
const parts: string[] = [];
parts.push(`<rect width="${W}" height="${H}" fill="white"/>`);
for (let k = 0; k <= 4; k++) {
  const y = y0 + ((y1 - y0) * k) / 4;
  parts.push(
    `<line x1="${M.l}" x2="${W - M.r}" y1="${sy(y)}" y2="${sy(y)}" stroke="#ddd"/><text x="${M.l - 6}" y="${sy(y) + 4}" font-size="11" text-anchor="end">${y.toFixed(3)}</text>`,
  );
}
for (let k = 0; k <= 4; k++) {
  const x = Math.round(x0 + ((x1 - x0) * k) / 4);
  parts.push(`<text x="${sx(x)}" y="${H - M.b + 16}" font-size="11" text-anchor="middle">${x}</text>`);
}
parts.push(`<text x="${(M.l + W - M.r) / 2}" y="${H - 4}" font-size="11" text-anchor="middle">step</text>`);
parts.push(`<text x="${M.l}" y="14" font-size="12" font-weight="bold">${metric}</text>`);
series.forEach((s, i) => {
  const c = PALETTE[i % PALETTE.length];
  const smooth = emaSmooth(
    s.points.map((p) => p[1]),
    0.8,
  );
  parts.push(`<path d="${path(s.points)}" fill="none" stroke="${c}" stroke-opacity="0.3"/>`);
  parts.push(
    `<path d="${path(s.points.map((p, j) => [p[0], smooth[j] ?? p[1]]))}" fill="none" stroke="${c}" stroke-width="2"/>`,
  );
  parts.push(`<text x="${W - M.r + 8}" y="${M.t + 16 * i + 8}" font-size="11" fill="${c}">${s.label}</text>`);
});
writeFileSync(
  out,
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif">${parts.join('')}</svg>\n`,
);
const block = 10;
const maxStep = Math.max(...xs);
const header = [
  'run',
  ...Array.from(
    { length: Math.ceil(maxStep / block) },
    (_, k) => `steps ${k * block + 1}–${Math.min(maxStep, (k + 1) * block)}`,
  ),
];
console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const s of series) {
  const cells = header.slice(1).map((_, k) => {
    const v = s.points.filter(([x]) => x > k * block && x <= (k + 1) * block).map((p) => p[1]);
    return v.length ? (v.reduce((a, b) => a + b, 0) / v.length).toFixed(3) : '';
  });
  console.log(`| ${s.label} | ${cells.join(' | ')} |`);
}
