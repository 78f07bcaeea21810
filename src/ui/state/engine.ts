/**
 * Store: where the engine runs (WebGPU adapter or CPU fallback), as reported by the worker.
 * Owns the worker; components select narrowly from this store.
 */
import { create } from 'zustand';
import type { AdapterSummary, GpuFailure } from '../../engine/gpu/context';
import type { FromWorker, SelfTest, ToWorker } from '../../worker/protocol';

export type EnginePhase = 'checking' | 'ready' | 'lost' | 'error';

interface EngineState {
  phase: EnginePhase;
  backend: 'webgpu' | 'cpu' | null;
  line: string;
  adapter: AdapterSummary | null;
  failure: GpuFailure | null;
  selfTest: SelfTest | null;
  problem: string | null;
  start(forceCpu: boolean): void;
}

let worker: Worker | null = null;

export const useEngine = create<EngineState>((set) => ({
  phase: 'checking',
  backend: null,
  line: 'Checking GPU…',
  adapter: null,
  failure: null,
  selfTest: null,
  problem: null,
  start(forceCpu) {
    if (worker) return;
    worker = new Worker(new URL('../../worker/engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' });
    worker.onmessage = (ev: MessageEvent<FromWorker>) => {
      const m = ev.data;
      if (m.type === 'backend') {
        set({ phase: 'ready', backend: m.backend, line: m.line, adapter: m.adapter, failure: m.failure, selfTest: m.selfTest });
      } else if (m.type === 'device-lost') {
        set({ phase: 'lost', problem: m.message });
      } else {
        set({ phase: 'error', problem: m.message });
      }
    };
    worker.onerror = (e) => set({ phase: 'error', problem: `The engine worker failed to start: ${e.message || 'unknown error'}` });
    const msg: ToWorker = { type: 'probe', forceCpu };
    worker.postMessage(msg);
  },
}));
