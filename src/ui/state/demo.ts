/**
 * Store: a dialogue played by a checkpoint (the shipped warm start, or the one just trained)
 * against one benchmark user, with every appraisal, from the engine worker.
 */
import { create } from 'zustand';
import type { DemoReport, DemoRequest } from '../../worker/protocol';
import { onWorkerMessage, sendToWorker } from './worker';

interface DemoState {
  status: 'idle' | 'running' | 'done' | 'failed';
  report: DemoReport | null;
  error: string | null;
  play(request: DemoRequest): void;
}

let subscribed = false;

export const useDemo = create<DemoState>((set, get) => ({
  status: 'idle',
  report: null,
  error: null,
  play(request) {
    if (get().status === 'running') return;
    if (!subscribed) {
      subscribed = true;
      onWorkerMessage((m) => {
        if (m.type === 'demo-done') set({ status: 'done', report: m.report });
        else if (m.type === 'demo-failed') set({ status: 'failed', error: m.message });
      });
    }
    set({ status: 'running', error: null });
    sendToWorker({ type: 'demo-dialogue', request });
  },
}));

/** The warm start that ships with the lab (public/), produced by `npm run pretrain`. */
export const SHIPPED_CHECKPOINT = 'warmstart-micro.bin';
