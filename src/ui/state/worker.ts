/**
 * The one engine worker of the page and a typed way to talk to it: stores send requests and
 * subscribe to the messages they care about. Created on first use.
 */
import type { FromWorker, ToWorker } from '../../worker/protocol';

let worker: Worker | null = null;
const listeners = new Set<(m: FromWorker) => void>();
const errorListeners = new Set<(message: string) => void>();

function get(): Worker {
  if (!worker) {
    worker = new Worker(new URL('../../worker/engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' });
    worker.onmessage = (ev: MessageEvent<FromWorker>) => listeners.forEach((l) => l(ev.data));
    worker.onerror = (e) =>
      errorListeners.forEach((l) => l(`The engine worker failed: ${e.message || 'unknown error'}`));
  }
  return worker;
}

export function sendToWorker(msg: ToWorker): void {
  get().postMessage(msg);
}

export function onWorkerMessage(fn: (m: FromWorker) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function onWorkerError(fn: (message: string) => void): () => void {
  errorListeners.add(fn);
  return () => errorListeners.delete(fn);
}
