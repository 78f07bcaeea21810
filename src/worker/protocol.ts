/**
 * The typed message protocol between the page and the engine worker. The page never touches GPU
 * buffers; it sends requests and receives plain, structured-cloneable results.
 */
import type { AdapterSummary, GpuFailure } from '../engine/gpu/context';

export type ToWorker = { type: 'probe'; forceCpu: boolean };

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
  | { type: 'device-lost'; message: string }
  | { type: 'error'; message: string };
