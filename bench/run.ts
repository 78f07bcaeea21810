/**
 * `npm run bench [-- --json] [-- --quick]`: the WebGPU kernel benchmark in headless Chromium.
 * `npm run bench -- --peers [--json] [--quick] [--preset P] [--check]`: our engine against
 * onnxruntime-web (forward), TensorFlow.js (training step) and itself at batch 1–64 (decoding), in
 * one page (bench/peers.html, bench/peers.ts); --check runs only the harness self-check (the peers
 * compute the same model at a tiny shape) and prints it; --profile train|decode [--batch B]
 * [--tokens T] [--weights f16] [--math f16] times our training or decoding step op by op (bench/peers-profile.ts);
 * --saved-attention [--preset P] [--batch B] [--tokens T] [--train-steps N] a training step with the
 * attention probabilities saved in halves vs f32 (bench/saved-attention.ts).
 * `npm run bench -- --users-server [--json] [--workers N] [--rate R | --closed] [--window W]`: load on the
 * simulated-users server (bench/users-server.ts); `-- --users-engine [--json]`: a turn of the persona engine
 * alone (bench/users-engine.ts).
 * `npm run bench -- --cpu [--json] [--quick] [--small] [--preset ci|micro] [--no-tfjs]`: the CPU benchmark's rows
 * (bench/cpu-rows.ts, as `npm run bench:cpu` in Node) in the page bench/cpu.html: JS backend, wasm backend on 1 and
 * on all threads, TensorFlow.js's wasm backend; the page is served cross-origin isolated (COOP/COEP) for threads.
 * Starts a Vite dev server on a free port (root = the repo), opens bench/kernels.html in Chromium
 * with WebGPU enabled (the SwiftShader software adapter where there is no GPU), runs
 * `window.__bench.run()` and prints a table, or with --json one JSON object on stdout (progress
 * always goes to stderr). Exits non-zero when there is no adapter, the page fails, or a required
 * row (the matmul naive/tiled comparison) fails. Node only; nothing here is a test.
 */
import { cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createServer, type ViteDevServer } from 'vite';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium';
import type { BenchResult, BenchRow } from './kernels';
import type { CheckResult, PeersOptions, PeersResult } from './peers';
import type { CpuBenchOptions } from './cpu-rows';
import { savedAttentionText } from './saved-attention';
import { profileText } from './peers-profile';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const args = new Set(argv);
const JSON_OUT = args.has('--json');
const QUICK = args.has('--quick');
const PEERS = args.has('--peers');
const CHECK = args.has('--check');
const CPU = args.has('--cpu');
const flagValue = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const progress = (msg: string): void => void process.stderr.write(`${msg}\n`);
/** A flag's positive whole number, or undefined when the flag is absent (the page's default then). */
const num = (f: string): number | undefined => {
  if (flagValue(f) === undefined) return undefined;
  const v = Number(flagValue(f));
  if (!Number.isInteger(v) || v < 1) throw new Error(`${f} takes a positive integer`);
  return v;
};

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
    ...r.speedups.map(
      (s) =>
        `  ${s.size}^3: naive ${fmt(s.naiveMs, 1)} ms, tiled ${fmt(s.tiledMs, 1)} ms, speedup ${fmt(s.speedup, 2)}x; regs ${fmt(s.regsMs, 1)} ms, regs8 ${fmt(s.regs8Ms, 1)} ms`,
    ),
    '',
    `total ${r.totalSeconds.toFixed(1)} s${r.quick ? ' (--quick)' : ''}`,
  ];
  return out.join('\n');
}

const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const speedup = (x: number | null): string => (x === null ? 'n/a' : `${x.toFixed(2)}x`);

function peersTable(r: PeersResult): string {
  const c = r.model.config;
  const f = r.forward;
  const t = r.training;
  const out = [
    `Adapter: ${r.adapter.line}`,
    `Browser: ${r.userAgent}`,
    `Model: ${r.model.preset} (V=${c.vocabSize} C=${c.channels} L=${c.layers} H=${c.heads}, ${r.model.parameters.toLocaleString('en-US')} parameters)`,
    '',
    'speedup = peer ms / our ms (> 1: we are faster); medians after warm-up',
    '',
    '| comparison | shape | ours ms | peer ms | speedup |',
    '|---|---|---:|---:|---:|',
  ];
  if (f) {
    const peer = f.ort
      ? `${ms(f.ort.medianMs)} (onnxruntime-web ${f.ortEp} EP${f.ortEp === 'wasm' ? `, ${f.ortWasmThreads} thread(s)` : ''})`
      : `n/a (${f.ortError ?? 'failed'})`;
    out.push(
      `| (a) forward vs onnxruntime-web | B=${f.B} T=${f.T} | ${ms(f.ours.medianMs)} | ${peer} | ${speedup(r.speedupVsOnnxruntime)} |`,
    );
  }
  const tpeer = t.tfjs ? `${ms(t.tfjs.medianMs)} (TensorFlow.js ${t.tfjsBackend})` : `n/a (${t.tfjsError ?? 'failed'})`;
  out.push(
    `| (b) training step vs TensorFlow.js | B=${t.B} T=${t.T} | ${ms(t.ours.medianMs)} | ${tpeer} | ${speedup(r.speedupVsTfjs)} |`,
  );
  if (f?.ortError && f.ort) out.push('', `onnxruntime-web note: ${f.ortError}`);
  if (f?.maxLogitDiff != null)
    out.push(
      '',
      `(a) the same model on both sides: max |our logit − onnxruntime's| ${f.maxLogitDiff.toExponential(2)}`,
    );
  out.push(
    '',
    '(c) batched decoding with the KV cache (one new token per sequence; forward + logits readback):',
    '',
    '| batch | KV cache | weights | arithmetic | ms / step | tokens / s | step / batch-1 step | host sampling ms |',
    '|---:|---|---|---|---:|---:|---:|---:|',
  );
  const d1 = r.decode.find((d) => d.B === 1 && d.cache === 'f32' && d.weights === 'f32');
  for (const d of r.decode) {
    out.push(
      `| ${d.B} | ${d.cache} | ${d.weights} | ${d.math} | ${ms(d.stepMs.medianMs)} | ${d.tokensPerSecond.toFixed(1)} | ${d1 ? (d.stepMs.medianMs / d1.stepMs.medianMs).toFixed(2) : '-'} | ${ms(d.hostSampleMs)} |`,
    );
  }
  if (r.hostOrder) {
    const h = r.hostOrder;
    out.push(
      '',
      `host sampling, ordering the candidates of ${h.rows} rows of ${h.V} logits: comparator sort ${ms(h.comparatorMs)} ms, key sort ${ms(h.keysMs)} ms (${(h.comparatorMs / h.keysMs).toFixed(1)}x; same order)`,
    );
  }
  if (r.rlUpdate) {
    const u = r.rlUpdate;
    out.push(
      '',
      `(d) RL policy update (ours alone; PPO with a value loss, ${u.samples} samples of ${u.T} tokens, ${u.minibatches} minibatches of ${u.minibatch}):`,
      `  ${ms(u.msPerMinibatch.medianMs)} ms a minibatch step; ${u.submitsPerUpdate} submits and ${u.readbacksPerUpdate} readbacks an update`,
    );
  }
  if (r.matmulTuning.length > 0) {
    out.push(
      '',
      'matmul kernel chosen at start-up per shape (tiled, regs or regs8; same bits whichever):',
      '',
      '| shape | calls before | tiled ms | regs ms | regs8 ms | chosen |',
      '|---|---:|---:|---:|---:|---|',
      ...r.matmulTuning.map(
        (m) =>
          `| ${m.shape} | ${m.calls} | ${ms(m.tiledMs)} | ${ms(m.regsMs)} | ${ms(m.regs8Ms)} | ${m.choice} (${m.timer} clock) |`,
      ),
    );
  }
  out.push(
    '',
    `decodeBatch64OverBatch1 = ${r.decodeBatch64OverBatch1 === null ? 'n/a' : r.decodeBatch64OverBatch1.toFixed(2)}`,
    `losses (ours / tfjs, first steps): ${t.oursLoss
      .slice(0, 3)
      .map((x) => x.toFixed(5))
      .join(' ')} / ${t.tfjsLoss
      .slice(0, 3)
      .map((x) => x.toFixed(5))
      .join(' ')}`,
    `total ${r.totalSeconds.toFixed(1)} s`,
  );
  return out.join('\n');
}

function checkTable(r: CheckResult): string {
  const rows = r.oursLoss.map(
    (x, i) =>
      `  ${['initial', 'after 1 step', 'after 2 steps'][i]}: ours ${x.toFixed(6)}, tfjs ${r.tfjsLoss[i]?.toFixed(6)}, |diff| ${Math.abs(x - r.tfjsLoss[i]).toExponential(2)}`,
  );
  return [
    `Adapter: ${r.adapter}`,
    `check model ${JSON.stringify(r.config)}, B=${r.B} T=${r.T}`,
    'loss, our engine vs TensorFlow.js (same weights and batch):',
    ...rows,
    r.ortMaxAbsDiff === null
      ? `onnxruntime-web: n/a (${r.ortError})`
      : `onnxruntime-web (${r.ortEp} EP): max |logit diff| ${r.ortMaxAbsDiff.toExponential(2)} (max |logit| ${r.ortMaxAbsLogit?.toFixed(3)})`,
  ].join('\n');
}

async function runPeers(page: import('@playwright/test').Page, base: string): Promise<number> {
  await page.goto(`${base}/bench/peers.html`);
  await page.waitForFunction(() => Boolean(window.__peers), null, { timeout: 120_000 });
  if (args.has('--saved-attention')) {
    const o = {
      preset: flagValue('--preset') as PeersOptions['preset'] | undefined,
      B: num('--batch'),
      T: num('--tokens'),
      steps: num('--train-steps'),
    };
    const r = await page.evaluate((x) => window.__peers.savedAttention(x), o);
    process.stdout.write(JSON_OUT ? `${JSON.stringify(r)}\n` : savedAttentionText(r, `${r.adapter} (Chromium)`));
    return 0;
  }
  const profileMode = flagValue('--profile');
  if (profileMode) {
    if (profileMode !== 'train' && profileMode !== 'decode') throw new Error('--profile takes train or decode');
    const w = flagValue('--weights');
    if (w !== undefined && w !== 'f32' && w !== 'f16') throw new Error('--weights takes f32 or f16');
    const math = flagValue('--math');
    if (math !== undefined && math !== 'f32' && math !== 'f16')
      throw new Error('--math takes f32 or f16 (f16 needs --weights f16 and an adapter with shader-f16)');
    const o = {
      mode: profileMode as 'train' | 'decode',
      preset: flagValue('--preset') as PeersOptions['preset'] | undefined,
      B: num('--batch'),
      T: num('--tokens'),
      weights: w as 'f32' | 'f16' | undefined,
      math: math as 'f32' | 'f16' | undefined,
    };
    const r = await page.evaluate((x) => window.__peers.profile(x), o);
    if (JSON_OUT) process.stdout.write(`${JSON.stringify(r)}\n`);
    else {
      process.stdout.write(profileText(r, r.adapter));
    }
    return 0;
  }
  if (CHECK) {
    const r = await page.evaluate(() => window.__peers.check());
    process.stdout.write(`${JSON_OUT ? JSON.stringify(r) : checkTable(r)}\n`);
    return 0;
  }
  const opts: Partial<PeersOptions> = {};
  const preset = flagValue('--preset');
  if (preset) opts.preset = preset as PeersOptions['preset'];
  if (QUICK) Object.assign(opts, { trainSteps: 3, fwdReps: 3, decodeSteps: 4, warmup: 1, rlReps: 1 });
  const r = await page.evaluate((o) => window.__peers.run(o), opts);
  if (JSON_OUT) {
    progress(peersTable(r));
    process.stdout.write(`${JSON.stringify(r)}\n`);
  } else {
    process.stdout.write(`${peersTable(r)}\n`);
  }
  return r.training.tfjs && r.forward?.ort ? 0 : 1;
}

/** --cpu: the CPU rows in the page; the CPU's name comes from Node (a page cannot read it). */
async function runCpu(page: import('@playwright/test').Page, base: string): Promise<number> {
  const { cpuTable, CPU_QUICK, CPU_SMALL } = await import('./cpu-rows');
  await page.goto(`${base}/bench/cpu.html`);
  await page.waitForFunction(() => Boolean(window.__cpu), null, { timeout: 120_000 });
  const presets = flagValue('--preset')?.split(',');
  for (const p of presets ?? [])
    if (p !== 'ci' && p !== 'micro') throw new Error(`--preset takes ci or micro, got ${p}`);
  const o: Partial<CpuBenchOptions> & { cpu: string } = {
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    ...(QUICK ? CPU_QUICK : {}),
    ...(args.has('--small') ? CPU_SMALL : {}),
    ...(presets ? { presets: presets as CpuBenchOptions['presets'] } : {}),
    ...(args.has('--no-tfjs') ? { noTfjs: true } : {}),
  };
  const r = await page.evaluate((x) => window.__cpu.run(x), o);
  if (JSON_OUT) {
    progress(cpuTable(r));
    process.stdout.write(`${JSON.stringify(r)}\n`);
  } else process.stdout.write(`${cpuTable(r)}\n`);
  return r.rows.some((x) => x.backend !== 'tfjs-wasm' && x.ms === null) ? 1 : 0;
}

async function main(): Promise<number> {
  let server: ViteDevServer | null = null;
  let browser: Browser | null = null;
  try {
    server = await createServer({
      root: ROOT,
      logLevel: 'error',
      server: { port: 0, host: '127.0.0.1', strictPort: false, hmr: false },
      // The peers page pulls big dependencies: pre-bundle them up front, in a cache of its own (so a
      // dev server of someone else's cannot make them "outdated" mid-load, a 504 and a dead page).
      ...(PEERS
        ? {
            cacheDir: 'node_modules/.vite-bench-peers',
            optimizeDeps: {
              entries: ['bench/peers.html'],
              include: [
                'onnxruntime-web',
                '@tensorflow/tfjs-core',
                '@tensorflow/tfjs-core/dist/register_all_gradients',
                '@tensorflow/tfjs-backend-webgpu',
              ],
            },
          }
        : {}),
      // --cpu: cross-origin isolation, so the page has SharedArrayBuffer and the wasm backends threads.
      ...(CPU
        ? {
            cacheDir: 'node_modules/.vite-bench-cpu',
            server: {
              port: 0,
              host: '127.0.0.1',
              strictPort: false,
              hmr: false,
              headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
            },
            optimizeDeps: {
              entries: ['bench/cpu.html'],
              include: [
                '@tensorflow/tfjs-core',
                '@tensorflow/tfjs-core/dist/register_all_gradients',
                '@tensorflow/tfjs-backend-webgpu',
                '@tensorflow/tfjs-backend-wasm',
              ],
            },
          }
        : {}),
    });
    await server.listen();
    const port = (server.httpServer?.address() as AddressInfo | null)?.port;
    if (!port) throw new Error('the Vite dev server did not report a port');
    const url = `http://127.0.0.1:${port}/bench/${PEERS ? 'peers' : CPU ? 'cpu' : 'kernels'}.html`;
    progress(`bench: ${url}`);
    // WebGPU developer features: unrounded timestamps for the profiles (Chrome rounds them to 100 µs otherwise).
    browser = await chromium.launch({
      executablePath: findChromium(),
      args: [...CHROMIUM_ARGS, '--enable-webgpu-developer-features'],
      headless: true,
    });
    const page = await browser.newPage();
    page.on('console', (m) => progress(m.text()));
    page.on('pageerror', (e) => progress(`[page error] ${e.message}`));
    if (PEERS) return await runPeers(page, `http://127.0.0.1:${port}`);
    if (CPU) return await runCpu(page, `http://127.0.0.1:${port}`);
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

(args.has('--users-server')
  ? import('./users-server').then((m) => m.runUsersServerBench(argv))
  : args.has('--users-engine')
    ? import('./users-engine').then((m) => m.runUsersEngineBench(argv))
    : main()
).then((code) => process.exit(code));
