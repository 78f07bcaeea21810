/**
 * Browser side of `npm run bench -- --cpu` (bench/run.ts drives it in headless Chromium): the CPU
 * benchmark's rows (bench/cpu-rows.ts) in a page, on the JS backend, the wasm backend on 1 thread
 * and on navigator.hardwareConcurrency threads (threads need the page cross-origin isolated:
 * bench/run.ts serves it with COOP/COEP headers), and TensorFlow.js's wasm backend (its threaded
 * SIMD build where the page is isolated) for the training step. `window.__cpu.run(opts)` returns
 * the result; progress goes to console.log with a "[cpu]" prefix.
 */
import { CPU_DEFAULTS, runCpuRows, type CpuBenchOptions, type CpuResult } from './cpu-rows';
import { tfjsWasmTrainSteps } from './cpu-tfjs';

/** The package's .wasm files, served by the dev server (root: the repo) from node_modules. */
const TFJS_WASM_DIR = `${location.origin}/node_modules/@tensorflow/tfjs-backend-wasm/dist/`;

const log = (msg: string): void => console.log(`[cpu] ${msg}`);

async function run(o: Partial<CpuBenchOptions> & { cpu?: string } = {}): Promise<CpuResult> {
  const { cpu, ...rest } = o;
  const opts: CpuBenchOptions = { ...CPU_DEFAULTS, threads: navigator.hardwareConcurrency || 1, ...rest };
  return runCpuRows(opts, {
    environment: navigator.userAgent,
    cpu: cpu ?? 'unknown (a page cannot read it)',
    tfjs: (config, weights, B, T, ids, targets, steps) =>
      tfjsWasmTrainSteps(TFJS_WASM_DIR, opts.threads, config, weights, B, T, ids, targets, steps),
    log,
  });
}

declare global {
  interface Window {
    __cpu: { run: typeof run };
  }
}

window.__cpu = { run };
log('ready');
