/**
 * Browser side of the kernel tests: acquires WebGPU, builds both backends, and exposes
 * `window.__gpuHarness` for e2e/kernels.spec.ts to run each GPU test by name. Never reports a
 * pass without an adapter: `ready` carries the failure and every run rejects.
 */
import { acquireGpu, adapterLine } from '../../src/engine/gpu/context';
import { WebGpuBackend } from '../../src/engine/gpu/backend';
import { CpuBackend } from '../../src/engine/cpu/backend';
import { GPU_TESTS } from './gpu-tests';
import type { CompareReport } from '../../src/engine/testing/compare';

interface Ready {
  ok: boolean;
  adapter?: string;
  isFallback?: boolean;
  failure?: string;
}

const log = document.getElementById('log')!;

const ready: Promise<Ready> = (async () => {
  const acq = await acquireGpu();
  if (!acq.ok) return { ok: false, failure: `${acq.failure.kind}: ${acq.failure.message} ${acq.failure.detail ?? ''}` };
  return { ok: true, adapter: adapterLine(acq.ctx.summary), isFallback: acq.ctx.summary.isFallback };
})();

let backends: { cpu: CpuBackend; gpu: WebGpuBackend } | null = null;

async function env() {
  if (backends) return backends;
  const acq = await acquireGpu();
  if (!acq.ok) throw new Error(`no WebGPU adapter: ${acq.failure.message}`);
  backends = { cpu: new CpuBackend(), gpu: new WebGpuBackend(acq.ctx) };
  return backends;
}

async function run(name: string): Promise<{ reports: CompareReport[]; error?: string }> {
  const test = GPU_TESTS.find((t) => t.name === name);
  if (!test) return { reports: [], error: `no GPU test named "${name}"` };
  try {
    const reports = await test.run(await env());
    log.textContent = reports.map((r) => r.summary).join('\n');
    return { reports };
  } catch (e) {
    return { reports: [], error: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) };
  }
}

declare global {
  interface Window {
    __gpuHarness: { ready: Promise<Ready>; names: string[]; run: typeof run };
  }
}

window.__gpuHarness = { ready, names: GPU_TESTS.map((t) => t.name), run };
void ready.then((r) => (log.textContent = r.ok ? r.adapter! : `NO ADAPTER: ${r.failure}`));
