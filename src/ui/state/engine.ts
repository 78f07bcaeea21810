/**
 * Store: where the engine runs (WebGPU adapter or CPU fallback), as reported by the worker.
 * Components select narrowly from this store. `isCpu` says whether a backend is a CPU one.
 */
import type { BackendName } from '../../engine/backend';
import { create } from 'zustand';
import type { AdapterSummary, GpuFailure } from '../../engine/gpu/context';
import type { BackendChoice, BackendForce, SelfTest } from '../../worker/protocol';
import { onWorkerError, onWorkerMessage, sendToWorker } from './worker';

type EnginePhase = 'checking' | 'ready' | 'lost' | 'error';

interface EngineState {
  phase: EnginePhase;
  backend: BackendName | null;
  line: string;
  adapter: AdapterSummary | null;
  failure: GpuFailure | null;
  selfTest: SelfTest | null;
  /** Where the only adapter is a software one: how the backend was chosen. */
  choice: BackendChoice | null;
  problem: string | null;
  start(force: BackendForce): void;
}

let started = false;

export const useEngine = create<EngineState>((set) => ({
  phase: 'checking',
  backend: null,
  line: 'Checking GPU…',
  adapter: null,
  failure: null,
  selfTest: null,
  choice: null,
  problem: null,
  start(force) {
    if (started) return;
    started = true;
    onWorkerMessage((m) => {
      if (m.type === 'backend') {
        set({
          phase: 'ready',
          backend: m.backend,
          line: m.line,
          adapter: m.adapter,
          failure: m.failure,
          selfTest: m.selfTest,
          choice: m.choice ?? null,
        });
      } else if (m.type === 'device-lost') {
        set({ phase: 'lost', problem: m.message });
      } else if (m.type === 'error') {
        set({ phase: 'error', problem: m.message });
      }
    });
    onWorkerError((message) => set({ phase: 'error', problem: message }));
    sendToWorker({ type: 'probe', force });
  },
}));

/** Whether the lab runs on the CPU (the wasm backend, or the JavaScript one where wasm cannot start). */
export function isCpu(backend: BackendName | null): boolean {
  return backend === 'wasm' || backend === 'cpu';
}
