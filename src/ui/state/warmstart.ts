/**
 * Store: the supervised warm start run in the engine worker: its phase, progress, losses, result
 * and the checkpoint file it produced (kept in memory for download; persistence comes with runs).
 */
import { create } from 'zustand';
import type { PresetName } from '../../engine/model/config';
import type { WarmStartReport, WarmStartRequest } from '../../worker/protocol';
import { onWorkerMessage, sendToWorker } from './worker';

type WarmStartStatus = 'idle' | 'running' | 'cancelling' | 'cancelled' | 'done' | 'failed';

interface WarmStartState {
  status: WarmStartStatus;
  phase: string;
  step: number;
  steps: number;
  losses: number[];
  report: Omit<WarmStartReport, 'checkpoint'> | null;
  checkpoint: Blob | null;
  error: string | null;
  start(request: WarmStartRequest): void;
  /** Stop it between steps: nothing is kept. */
  cancel(): void;
}

const PHASE_TEXT: Record<string, string> = {
  corpus: 'Generating the corpus',
  tokenizer: 'Training the tokenizer',
  init: 'Initialising the model',
  'perplexity-before': 'Measuring held-out perplexity',
  training: 'Training',
  'perplexity-after': 'Measuring held-out perplexity',
  saving: 'Saving the checkpoint',
};

let subscribed = false;

export const useWarmStart = create<WarmStartState>((set, get) => ({
  status: 'idle',
  phase: '',
  step: 0,
  steps: 0,
  losses: [],
  report: null,
  checkpoint: null,
  error: null,
  start(request) {
    if (get().status === 'running' || get().status === 'cancelling') return;
    if (!subscribed) {
      subscribed = true;
      onWorkerMessage((m) => {
        if (m.type === 'warm-start-progress') {
          set((s) => ({
            phase: PHASE_TEXT[m.phase] ?? m.phase,
            step: m.step,
            steps: m.steps,
            losses: m.loss !== null && m.step > s.losses.length ? [...s.losses, m.loss] : s.losses,
          }));
        } else if (m.type === 'warm-start-done') {
          const { checkpoint, ...report } = m.report;
          set({
            status: 'done',
            phase: 'Done',
            report,
            losses: report.losses,
            checkpoint: new Blob([checkpoint], { type: 'application/octet-stream' }),
          });
        } else if (m.type === 'warm-start-failed') {
          set({ status: 'failed', error: m.message });
        } else if (m.type === 'warm-start-cancelled') {
          set({ status: 'cancelled', phase: 'Cancelled: nothing was kept' });
        }
      });
    }
    set({
      status: 'running',
      phase: 'Starting',
      step: 0,
      steps: request.steps,
      losses: [],
      report: null,
      checkpoint: null,
      error: null,
    });
    sendToWorker({ type: 'warm-start', request });
  },
  cancel() {
    if (get().status !== 'running') return;
    set({ status: 'cancelling', phase: 'Cancelling after this step' });
    sendToWorker({ type: 'warm-start-cancel' });
  },
}));

export const PRESET_CHOICES: { preset: PresetName; label: string }[] = [
  { preset: 'ci', label: 'ci (~0.2M parameters; CPU-friendly)' },
  { preset: 'micro', label: 'micro (~1.4M; a laptop GPU)' },
];
