/**
 * The backend a Node command runs on: `--backend wasm|cpu|webgpu` (and `--threads N` for wasm), or
 * by default the fastest available: WebGPU through Dawn for Node (the `webgpu` package) when it
 * finds a hardware adapter, else the wasm backend on all cores. A software adapter (lavapipe,
 * SwiftShader) is passed over by default: on a CPU, the wasm backend is faster. The line it returns
 * says which backend runs, and why when it is not the one asked for.
 *
 * Numbers: each backend has its own bits. A checkpoint made on one loads on any other, but a
 * command reproduces its output byte for byte only on the backend (and, for wasm, the machine) it
 * was made on; the shipped warm starts were made on `cpu`.
 */
import type { Backend, BackendName } from '../engine/backend';
import { CpuBackend } from '../engine/cpu/backend';
import { acquireGpu } from '../engine/gpu/context';
import { WebGpuBackend } from '../engine/gpu/backend';
import { WasmBackend } from '../engine/wasm/backend';
import { die } from './args';

export const BACKEND_FLAGS = {
  backend: {
    type: 'string',
    help: 'wasm, cpu or webgpu (default: webgpu through Dawn on a hardware GPU, else wasm)',
  },
  threads: { type: 'number', help: "wasm threads (default: the machine's logical cores, at most 16)" },
} as const;

export interface ChosenBackend {
  be: Backend;
  /** One line for stderr: the backend, and why. */
  line: string;
  /** Ends the wasm backend's threads and drops the Dawn device so the process can exit. */
  close(): void;
}

/** Dawn's instance, held while its device is used (the device dies if it is collected). */
const held: unknown[] = [];

async function dawnBackend(): Promise<{ be: WebGpuBackend } | { why: string }> {
  let mod: { create(flags: string[]): GPU; globals: object };
  try {
    const spec = 'webgpu';
    mod = (await import(/* @vite-ignore */ spec)) as typeof mod;
  } catch (e) {
    return { why: `Dawn for Node did not load (${(e as Error).message.split('\n')[0]})` };
  }
  Object.assign(globalThis, mod.globals);
  const instance = mod.create([]);
  const acq = await acquireGpu(instance);
  if (!acq.ok) return { why: `Dawn found no WebGPU adapter (${acq.failure.kind})` };
  held.push(instance);
  return { be: new WebGpuBackend(acq.ctx) };
}

/**
 * The backend `flags` ask for, or the fastest available. A bad flag ends the command as a usage
 * error (exit 2); a backend asked for that cannot run here, as a failure (exit 1).
 */
export async function chooseBackend(flags: { backend?: string; threads?: number }): Promise<ChosenBackend> {
  const asked = flags.backend;
  if (asked !== undefined && !['wasm', 'cpu', 'webgpu'].includes(asked))
    die(`--backend must be wasm, cpu or webgpu, got "${asked}"`, 2);
  if (flags.threads !== undefined && asked !== undefined && asked !== 'wasm') die('--threads is for --backend wasm', 2);
  if (flags.threads !== undefined && !(Number.isInteger(flags.threads) && flags.threads >= 1 && flags.threads <= 256))
    die(`--threads must be an integer from 1 to 256, got ${flags.threads}`, 2);
  const wasm = async (why: string): Promise<ChosenBackend> => {
    const be = await WasmBackend.create(flags.threads === undefined ? {} : { threads: flags.threads });
    return { be, line: `backend: ${be.description}${why}`, close: () => be.dispose() };
  };
  const name = asked as BackendName | undefined;
  if (name === 'cpu') {
    const be = new CpuBackend();
    return { be, line: `backend: ${be.description}`, close: () => {} };
  }
  if (name === 'wasm') return wasm('');
  const gpu = await dawnBackend();
  const drop = () => {
    held.length = 0;
  };
  if (name === 'webgpu') {
    if ('why' in gpu) die(`--backend webgpu: ${gpu.why}`);
    return { be: gpu.be, line: `backend: ${gpu.be.description}`, close: drop };
  }
  if ('why' in gpu) return wasm(` (${gpu.why})`);
  if (gpu.be.isFallback) {
    drop();
    return wasm(' (the only WebGPU adapter here is a software one, slower than this; --backend webgpu takes it)');
  }
  return { be: gpu.be, line: `backend: ${gpu.be.description}`, close: drop };
}
