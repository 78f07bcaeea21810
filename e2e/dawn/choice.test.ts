/**
 * The lab's engine on a software WebGPU adapter (Dawn over lavapipe): it times one short step on
 * the adapter and on the CPU (wasm) and trains on the faster, saying which and why; asked for
 * WebGPU in the URL (?backend=webgpu), it takes the adapter without timing.
 */
import { describe, expect, it } from 'vitest';
import { acquireGpu } from '../../src/engine/gpu/context';
import type { FromWorker } from '../../src/worker/protocol';
import { createEngine } from '../../src/worker/engine';
import { dawnEnv, dawnInstance } from './dawn';

async function probe(force: 'webgpu' | null): Promise<Extract<FromWorker, { type: 'backend' }>> {
  await dawnEnv();
  const got: FromWorker[] = [];
  const engine = createEngine({ post: (m) => got.push(m), acquire: () => acquireGpu(dawnInstance()!) });
  engine.handle({ type: 'probe', force });
  await engine.backendReady;
  const m = got.find((x) => x.type === 'backend');
  if (m?.type !== 'backend') throw new Error('no backend message');
  return m;
}

describe('the engine on a software adapter', () => {
  it('times both and trains on the faster, saying why', async () => {
    const m = await probe(null);
    expect(m.adapter?.isFallback).toBe(true);
    const c = m.choice!;
    expect(c.gpuMs).toBeGreaterThan(0);
    expect(c.cpuMs).toBeGreaterThan(0);
    expect(c.chose).toBe(c.cpuMs < c.gpuMs ? 'wasm' : 'webgpu');
    expect(m.backend).toBe(c.chose);
    expect(m.line).toMatch(
      c.chose === 'wasm'
        ? /^CPU \(WebAssembly SIMD, \d+ threads?\), faster here than the software WebGPU adapter$/
        : /^WebGPU adapter: .*; faster here than the CPU$/,
    );
    console.log(`software adapter ${c.gpuMs.toFixed(1)} ms, CPU ${c.cpuMs.toFixed(1)} ms: ${m.line}`);
  });

  it('takes the software adapter without timing when the URL asks for WebGPU', async () => {
    const m = await probe('webgpu');
    expect(m.backend).toBe('webgpu');
    expect(m.choice).toBeUndefined();
  });
});
