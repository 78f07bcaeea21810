/**
 * Store: where the engine runs (WebGPU adapter or CPU fallback), as reported by the worker.
 * Components select narrowly from this store.
 */
import type { BackendName } from '../../engine/backend';
import { create } from 'zustand';
import type { AdapterSummary, GpuFailure } from '../../engine/gpu/context';
import type { SelfTest } from '../../worker/protocol';
import { onWorkerError, onWorkerMessage, sendToWorker } from './worker';

type EnginePhase = 'checking' | 'ready' | 'lost' | 'error';

interface EngineState {
  phase: EnginePhase;
  backend: BackendName | null;
  line: string;
  adapter: AdapterSummary | null;
  failure: GpuFailure | null;
  selfTest: SelfTest | null;
  problem: string | null;
  start(forceCpu: boolean): void;
}

let started = false;

export const useEngine = create<EngineState>((set) => ({
  phase: 'checking',
  backend: null,
  line: 'Checking GPU…',
  adapter: null,
  failure: null,
  selfTest: null,
  problem: null,
  start(forceCpu) {
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
        });
      } else if (m.type === 'device-lost') {
        set({ phase: 'lost', problem: m.message });
      } else if (m.type === 'error') {
        set({ phase: 'error', problem: m.message });
      }
    });
    onWorkerError((message) => set({ phase: 'error', problem: message }));
    sendToWorker({ type: 'probe', forceCpu });
  },
}));
