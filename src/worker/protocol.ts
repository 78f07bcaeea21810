/**
 * The typed message protocol between the page and the engine worker. The page never touches GPU
 * buffers; it sends requests and receives plain, structured-cloneable results.
 */
import type { AdapterSummary, GpuFailure } from '../engine/gpu/context';

import type { PresetName } from '../engine/model/config';
import type { WarmStartProgress } from '../experiment/warmstart';

export interface WarmStartRequest {
  preset: PresetName;
  seed: number;
  steps: number;
  dialogues: number;
}

export type ToWorker = { type: 'probe'; forceCpu: boolean } | { type: 'warm-start'; request: WarmStartRequest };

export interface WarmStartReport {
  backend: 'webgpu' | 'cpu';
  seconds: number;
  perplexityBefore: number;
  perplexityAfter: number;
  uniformPerplexity: number;
  losses: number[];
  /** The checkpoint file (transferred, not copied). */
  checkpoint: ArrayBuffer;
}

export interface SelfTest {
  ok: boolean;
  /** Largest |gpu − cpu| over the check. */
  maxAbsErr: number;
  detail: string;
}

export type FromWorker =
  | {
      type: 'backend';
      backend: 'webgpu' | 'cpu';
      /** The one line the lab shows about where it runs. */
      line: string;
      adapter: AdapterSummary | null;
      /** Why the lab is on the CPU, when it is. */
      failure: GpuFailure | null;
      selfTest: SelfTest | null;
    }
  | { type: 'warm-start-progress'; phase: WarmStartProgress['phase']; step: number; steps: number; loss: number | null }
  | { type: 'warm-start-done'; report: WarmStartReport }
  | { type: 'warm-start-failed'; message: string }
  | { type: 'device-lost'; message: string }
  | { type: 'error'; message: string };
