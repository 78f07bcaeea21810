/**
 * `npm run bench [-- --json] [-- --quick]`: the WebGPU kernel benchmark in headless Chromium.
 * Starts a Vite dev server on a free port (root = the repo), opens bench/kernels.html in Chromium
 * with WebGPU enabled (the SwiftShader software adapter where there is no GPU), runs
 * `window.__bench.run()` and prints a table, or with --json one JSON object on stdout (progress
 * always goes to stderr). Exits non-zero when there is no adapter, the page fails, or a required
 * row (the matmul naive/tiled comparison) fails. Node only; nothing here is a test.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createServer, type ViteDevServer } from 'vite';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium';
import type { BenchResult, BenchRow } from './kernels';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const JSON_OUT = args.has('--json');
const QUICK = args.has('--quick');
const progress = (msg: string): void => void process.stderr.write(`${msg}\n`);

function fmt(x: number | null, digits: number): string {
  return x === null ? 'n/a' : x.toFixed(digits);
}

function table(r: BenchResult): string {
  const head = ['op', 'shape', 'ms', 'GFLOP/s', 'samples x reps'];
  const body = r.rows.map((row: BenchRow) => [
    row.op,
    row.shape,
    row.ms === null ? `n/a (${row.error ?? 'failed'})` : fmt(row.ms, row.ms < 1 ? 3 : 1),
    row.gflops === null ? '-' : fmt(row.gflops, 3),
    row.ms === null ? '-' : `${row.samples} x ${row.reps}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  const out = [
    `Adapter: ${r.adapter}`,
    '',
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...body.map(line),
    '',
    'matmul tiled vs naive (speedup = naive ms / tiled ms):',
    ...r.speedups.map((s) => `  ${s.size}^3: naive ${fmt(s.naiveMs, 1)} ms, tiled ${fmt(s.tiledMs, 1)} ms, speedup ${fmt(s.speedup, 2)}x`),
    '',
    `total ${r.totalSeconds.toFixed(1)} s${r.quick ? ' (--quick)' : ''}`,
  ];
  return out.join('\n');
}

async function main(): Promise<number> {
  let server: ViteDevServer | null = null;
  let browser: Browser | null = null;
  try {
    server = await createServer({ root: ROOT, logLevel: 'error', server: { port: 0, host: '127.0.0.1', strictPort: false, hmr: false } });
    await server.listen();
    const port = (server.httpServer?.address() as AddressInfo | null)?.port;
    if (!port) throw new Error('the Vite dev server did not report a port');
    const url = `http://127.0.0.1:${port}/bench/kernels.html`;
    progress(`bench: ${url}`);
    browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage();
    page.on('console', (m) => progress(m.text()));
    page.on('pageerror', (e) => progress(`[page error] ${e.message}`));
    await page.goto(url);
    await page.waitForFunction(() => Boolean(window.__bench), null, { timeout: 60_000 });
    const result = await page.evaluate((quick) => window.__bench.run({ quick }), QUICK);
    if (JSON_OUT) process.stdout.write(`${JSON.stringify(result)}\n`);
    else process.stdout.write(`${table(result)}\n`);
    const failed = result.rows.filter((r) => r.required && r.ms === null);
    if (failed.length > 0) {
      progress(`bench: required rows failed: ${failed.map((r) => `${r.op} ${r.shape}: ${r.error}`).join('; ')}`);
      return 1;
    }
    return 0;
  } catch (e) {
    progress(`bench failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await browser?.close();
    await server?.close();
  }
}

main().then((code) => process.exit(code));
