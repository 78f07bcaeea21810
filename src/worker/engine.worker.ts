/**
 * The engine worker: the engine (engine.ts) wired to the worker's messages. The page only exchanges
 * messages with it (protocol.ts).
 */
/// <reference lib="webworker" />
import type { FromWorker, ToWorker } from './protocol';
import { createEngine } from './engine';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const engine = createEngine({
  post: (m: FromWorker, transfer: Transferable[] = []) => scope.postMessage(m, transfer),
  origin: scope.location.origin,
});

scope.onmessage = (ev: MessageEvent<ToWorker>) => engine.handle(ev.data);
