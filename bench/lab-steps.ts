/**
 * `npm run bench:lab -- [--preset micro] [--steps 3] [--backends cpu,webgpu] [--json]`: how fast the
 * lab itself trains a preset's default recipe in headless Chromium, on the CPU backend (wasm SIMD,
 * navigator.hardwareConcurrency threads: the page is cross-origin isolated) and on WebGPU (the
 * SwiftShader software adapter where there is no GPU). For each backend it opens the lab with a
 * share link of the preset's default config (only `evalProfiles` lowered to 1: the benchmark played
 * before step 1 is not a training step) and `autoplay=1`, and times the status line's step counter:
 * the wall time between the first sight of "step k" and of "step k + 1" is one training step
 * (rollouts, scoring, the update, the charts), for k = 2 … steps + 1 (step 1 carries the kernels'
 * compilation). Prints seconds a step (median; the slower middle one of an even count), steps a minute and the minutes the preset's full run
 * would take at that pace; with --json the last line of stdout is one JSON object. Starts a Vite dev
 * server on a free port (root: the repo). Node only; nothing here is a test.
 */
import { cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createServer } from 'vite';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium';
import { commandFlags, die } from '../src/cli/args';
import { encodeShareLink } from '../src/lab/share';
import { defaultRunConfig } from '../src/rl/config';
import { median } from '../src/engine/gpu/timing';
import { PRESETS, type PresetName } from '../src/engine/model/config';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const f = commandFlags('npm run bench:lab --', {
  preset: { type: 'string', help: 'model preset whose default recipe is timed (default micro)' },
  steps: { type: 'number', help: 'training steps timed on each backend, after the first (default 3)' },
  backends: { type: 'string', help: 'comma-separated: cpu, webgpu (default both)' },
  json: { type: 'boolean', help: 'print a JSON summary last on stdout' },
  help: { type: 'boolean', help: 'this message' },
});
const preset = (f.preset ?? 'micro') as PresetName;
if (!(preset in PRESETS)) die(`--preset must be one of ${Object.keys(PRESETS).join(', ')}, got "${preset}"`, 2);
const timed = f.steps ?? 3;
if (!(Number.isInteger(timed) && timed >= 1)) die('--steps takes a whole number >= 1', 2);
const backends = (f.backends ?? 'cpu,webgpu').split(',');
for (const b of backends) if (b !== 'cpu' && b !== 'webgpu') die(`--backends takes cpu and/or webgpu, got "${b}"`, 2);
const say = (s: string): void => void (f.json ? process.stderr : process.stdout).write(`${s}\n`);

const config = { ...defaultRunConfig(preset), evalProfiles: 1 };
if (config.steps < timed + 2) die(`--steps ${timed} needs a preset of at least ${timed + 2} steps`, 2);

interface Row {
  backend: 'cpu' | 'webgpu';
  where: string;
  stepSeconds: number[];
  medianSeconds: number;
  stepsPerMinute: number;
  fullRunMinutes: number;
}

const server = await createServer({
  root: ROOT,
  logLevel: 'error',
  server: { port: 0, host: '127.0.0.1', strictPort: false, hmr: false },
});
await server.listen();
const base = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}`;
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
const rows: Row[] = [];
try {
  for (const backend of backends as ('cpu' | 'webgpu')[]) {
    const page = await browser.newPage();
    page.on('pageerror', (e) => say(`[page error] ${e.message}`));
    const link = encodeShareLink(config, `${base}/?backend=${backend}`).replace('#', '#autoplay=1&');
    await page.goto(link);
    const line = page.getByTestId('adapter-line').filter({ hasText: /WebGPU adapter:|CPU \(/ });
    await line.waitFor({ timeout: 180_000 });
    const where = (await line.textContent())?.trim() ?? '';
    if (backend === 'webgpu' && !where.includes('WebGPU adapter:')) throw new Error(`no WebGPU adapter: ${where}`);
    say(`${backend}: ${where}`);
    const status = page.getByRole('status', { name: 'Training status' });
    const seen = new Map<number, number>();
    const last = timed + 2;
    const t0 = performance.now();
    const limitMs = 60 * 60_000;
    while (!seen.has(last)) {
      if (performance.now() - t0 > limitMs) throw new Error(`${backend}: step ${last} not reached in an hour`);
      const text = (await status.textContent()) ?? '';
      const m = /step (\d+) of \d+/i.exec(text);
      if (/error|failed/i.test(text) && !m) throw new Error(`${backend}: ${text}`);
      if (m && !seen.has(Number(m[1]))) {
        seen.set(Number(m[1]), performance.now());
        say(`${backend}: step ${m[1]} at ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
      await page.waitForTimeout(200);
    }
    const stepSeconds: number[] = [];
    for (let k = 2; k < last; k++) {
      const a = seen.get(k);
      const b = seen.get(k + 1);
      if (a !== undefined && b !== undefined) stepSeconds.push((b - a) / 1000);
    }
    const med = median(stepSeconds);
    rows.push({
      backend,
      where,
      stepSeconds,
      medianSeconds: med,
      stepsPerMinute: 60 / med,
      fullRunMinutes: (config.steps * med) / 60,
    });
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}

say(
  `preset ${preset}, its default recipe (${config.steps} steps, ${config.profilesPerStep} profiles x ${config.groupSize} dialogues a step, ${config.algo})`,
);
say(`CPU: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} logical cores`);
say('| backend | where | s / step (median) | steps / min | full run, min |');
say('|---|---|---:|---:|---:|');
for (const r of rows)
  say(
    `| ${r.backend} | ${r.where.replace(/\|/g, '/')} | ${r.medianSeconds.toFixed(1)} | ${r.stepsPerMinute.toFixed(2)} | ${r.fullRunMinutes.toFixed(0)} |`,
  );
if (f.json) console.log(JSON.stringify({ preset, steps: config.steps, cpu: cpus()[0]?.model, rows }));
