/**
 * `npm run bench:cpu [-- --json] [--quick] [--small] [--preset ci|micro] [--threads N] [--no-tfjs]`:
 * the CPU benchmark in Node, side by side in one run (the rows are bench/cpu-rows.ts's): for the ci
 * and micro presets, a supervised training step (B=8, T=256), an RL policy update over one packed
 * minibatch of the ci recipe's size, and decoding steps with the KV cache at batch 1, 16 and 64, on
 * the JavaScript backend (CpuBackend), the wasm backend on 1 thread and on all threads
 * (os.availableParallelism()), and for the training step TensorFlow.js's wasm backend
 * (@tensorflow/tfjs-backend-wasm, SIMD; one thread: the package does not use threads under Node).
 * Then, where bench/wasm-matmul.ts exists, its matmul GFLOP/s at 128–1024 and the measured
 * single-core SIMD peak.
 *
 * Prints the CPU model and thread count, then a table; with --json the last line of stdout is one
 * JSON object: { cpu, threads, rows: [{ preset, case, backend, threads, ms, tokensPerSecond, … }],
 * speedups: { microTrain, microDecode16, microTrainVsTfjsWasm }, matmul? } (progress and the
 * table go to stderr then). --quick: one timed repetition; --small: tiny shapes too (a check that
 * everything runs, not a figure). Node only; nothing here is a test.
 */
import { availableParallelism, cpus } from 'node:os';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { PresetName } from '../src/engine/model/config';
import {
  CPU_DEFAULTS,
  CPU_QUICK,
  CPU_SMALL,
  cpuTable,
  runCpuRows,
  type CpuBenchOptions,
  type TfjsRunner,
} from './cpu-rows';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const argv = process.argv.slice(2);
const json = argv.includes('--json');
const out = (s: string): void => void (json ? process.stderr : process.stdout).write(`${s}\n`);
const flagValues = (name: string): string[] => argv.flatMap((a, i) => (a === name && argv[i + 1] ? [argv[i + 1]] : []));
const positive = (name: string): number | undefined => {
  const v = flagValues(name)[0];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a positive integer`);
  return n;
};

/**
 * TensorFlow.js in Node: bench/cpu-tfjs.ts bundled by esbuild (TFJS's dist is not loadable by
 * Node's ESM loader; its CommonJS build lacks the gradients), the .wasm files read from the
 * package's dist folder by file path.
 */
async function tfjsRunner(): Promise<TfjsRunner> {
  const outfile = resolve(ROOT, 'node_modules/.cache/bench-cpu-tfjs.mjs');
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [resolve(HERE, 'cpu-tfjs.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['webgpu'],
    outfile,
    logLevel: 'warning',
    // CommonJS inside the bundle (TFJS's, Emscripten's) calls require() and reads __dirname.
    banner: {
      js: [
        "import { createRequire as __createRequire } from 'node:module';",
        "import { fileURLToPath as __fileURLToPath } from 'node:url';",
        'const require = __createRequire(import.meta.url);',
        'const __filename = __fileURLToPath(import.meta.url);',
        "const __dirname = __filename.slice(0, __filename.lastIndexOf('/'));",
      ].join(' '),
    },
  });
  const mod = (await import(pathToFileURL(outfile).href)) as typeof import('./cpu-tfjs');
  const pkg = createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm/package.json');
  const wasmDir = `${dirname(pkg)}/dist/`;
  return (config, weights, B, T, ids, targets, o) =>
    mod.tfjsWasmTrainSteps(wasmDir, undefined, config, weights, B, T, ids, targets, o);
}

/** What bench/wasm-matmul.ts's matmulFigures returns (GFLOP/s of n×n×n f32 matmuls, the SIMD peak). */
interface MatmulFigures {
  threads: number;
  peakGflops: number;
  peakProbes?: { sums: number; chains: number };
  rows: { n: number; gflops1: number; gflopsAll: number }[];
  ratio512?: { one: number; all: number };
}

/**
 * Hook: the matmul figures of bench/wasm-matmul.ts (written separately), imported only where the
 * file exists: `export async function matmulFigures(sizes)`, the square matmuls on 1 and on all
 * threads and the measured single-core SIMD peak. They go into the JSON as `matmul` and into the
 * table. Absent (or failing): those rows are skipped, and the run says so.
 */
async function matmulFigures(): Promise<MatmulFigures | null> {
  const file = resolve(HERE, 'wasm-matmul.ts');
  if (!existsSync(file)) {
    out('matmul figures: skipped (bench/wasm-matmul.ts is not in this tree)');
    return null;
  }
  const mod = (await import(pathToFileURL(file).href)) as {
    matmulFigures?: (sizes?: readonly number[]) => Promise<MatmulFigures>;
  };
  if (typeof mod.matmulFigures !== 'function') {
    out('matmul figures: skipped (bench/wasm-matmul.ts exports no matmulFigures)');
    return null;
  }
  out('matmul figures (bench/wasm-matmul.ts)');
  try {
    return await mod.matmulFigures([128, 256, 512, 1024]);
  } catch (e) {
    out(`matmul figures failed: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}

function matmulText(m: MatmulFigures): string {
  const g = (x: number) => x.toFixed(1).padStart(9);
  return [
    `wasm matmul, f32, n×n×n (GFLOP/s); single-core f32x4 peak (measured): ${m.peakGflops.toFixed(1)} GFLOP/s` +
      (m.peakProbes ? ` (probes: sums ${m.peakProbes.sums.toFixed(1)}, chains ${m.peakProbes.chains.toFixed(1)})` : ''),
    `     n  1 thread  ${m.threads} threads`,
    ...m.rows.map((r) => `${String(r.n).padStart(6)} ${g(r.gflops1)} ${g(r.gflopsAll)}`),
    ...(m.ratio512
      ? [
          `at 512: ${(100 * m.ratio512.one).toFixed(0)}% of the peak on 1 thread, ${(100 * m.ratio512.all).toFixed(0)}% per thread on ${m.threads}`,
        ]
      : []),
  ].join('\n');
}

async function main(): Promise<void> {
  const threads = positive('--threads') ?? availableParallelism();
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const presets = flagValues('--preset').flatMap((p) => p.split(','));
  for (const p of presets) if (p !== 'ci' && p !== 'micro') throw new Error(`--preset takes ci or micro, got ${p}`);
  const quick = argv.includes('--quick') || argv.includes('--small');
  const o: CpuBenchOptions = {
    ...CPU_DEFAULTS,
    ...(quick ? CPU_QUICK : {}),
    ...(argv.includes('--small') ? CPU_SMALL : {}),
    threads,
    noTfjs: argv.includes('--no-tfjs'),
    ...(presets.length ? { presets: presets as PresetName[] } : {}),
    ...(positive('--reps') ? { reps: positive('--reps') } : {}),
  };
  out(
    `CPU: ${cpu}; ${threads} thread(s) (os.availableParallelism() ${availableParallelism()}); Node ${process.version}`,
  );
  const tfjs = o.noTfjs ? undefined : await tfjsRunner();
  const r = await runCpuRows(o, {
    environment: `Node ${process.version}`,
    cpu,
    tfjs,
    log: (msg) => void process.stderr.write(`${msg}\n`),
  });
  const matmul = await matmulFigures();
  out('');
  out(cpuTable(r));
  if (matmul !== null) out(matmulText(matmul));
  if (json) process.stdout.write(`${JSON.stringify({ ...r, ...(matmul !== null ? { matmul } : {}) })}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench:cpu failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
