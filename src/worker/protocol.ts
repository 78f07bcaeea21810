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

export interface DemoRequest {
  /** Absolute URL of a checkpoint on the lab's own origin, or 'last' for the warm start just trained. */
  checkpoint: string;
  profileId: string;
  /** Agent turns to play (1..10). */
  turns: number;
  seed: number;
}

export type ToWorker =
  | { type: 'probe'; forceCpu: boolean }
  | { type: 'warm-start'; request: WarmStartRequest }
  | { type: 'demo-dialogue'; request: DemoRequest };

/** One line of a played dialogue, with the user's appraisal of each agent reply. */
export interface DemoLine {
  role: 'user' | 'agent';
  text: string;
  think?: string;
  change?: number;
  emotion?: number;
  /** The appraisal's five parts, for the agent's turns. */
  appraisal?: { intent: string; fit: string; inner: string; feeling: string };
}

export interface DemoReport {
  checkpointMeta: Record<string, unknown>;
  profileId: string;
  startEmotion: number;
  finalEmotion: number;
  lines: DemoLine[];
  seconds: number;
}

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
  | { type: 'demo-done'; report: DemoReport }
  | { type: 'demo-failed'; message: string }
  | { type: 'device-lost'; message: string }
  | { type: 'error'; message: string };
