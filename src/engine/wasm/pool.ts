/**
 * The wasm backend's threads: N − 1 workers (Node `worker_threads`, or Web Workers in a
 * cross-origin-isolated page) that instantiate the same module on the same shared memory, and a
 * control block at address 0 of that memory through which the calling thread hands them a kernel
 * call. `run(kernel, args, parts)` stores the call, wakes the workers, runs part 0 itself and waits
 * until parts 1 … parts − 1 are done: a call is synchronous, like every op of the backend, so
 * results are in memory when it returns.
 *
 * The kernel decides what part p of P computes from the shape alone (asm/split.ts), never from
 * timing, and each output is computed by one thread with the same loop whatever P is: the same
 * inputs give the same bits on 1 or N threads.
 *
 * A worker runs plain JavaScript from a string (WORKER_SOURCE), so it needs no bundler, loader or
 * file path: `new Worker(source, { eval: true })` in Node, a Blob URL in the browser.
 */

/** Int32 slots of the control block (bytes 0–255 of the memory). */
const GEN = 0; // call generation: a worker runs a call when it sees this change
const DONE = 1; // parts finished (parts 1 … P − 1)
const KERNEL = 2; // index into the module's function exports
const PARTS = 3;
const NARGS = 4;
const STOP = 5; // set to end the workers
const FAILED = 6; // set by a worker whose kernel threw
/** Arguments are f64 from byte 64 (every i32, address and f32 argument is exact in an f64). */
const ARGS_F64 = 8;
const MAX_ARGS = 24;
/** Atomics.load polls before a thread sleeps in Atomics.wait: calls come in quick runs. */
const SPINS = 50000;

const WORKER_SOURCE = `
'use strict';
const GEN = ${GEN}, DONE = ${DONE}, KERNEL = ${KERNEL}, PARTS = ${PARTS}, NARGS = ${NARGS}, STOP = ${STOP}, FAILED = ${FAILED}, ARGS_F64 = ${ARGS_F64}, SPINS = ${SPINS};
function serve(module, memory, index, ready) {
  const instance = new WebAssembly.Instance(module, { env: { memory, abort() { throw new Error('wasm abort'); } } });
  const names = WebAssembly.Module.exports(module).filter((e) => e.kind === 'function').map((e) => e.name);
  const fns = names.map((n) => instance.exports[n]);
  const ctrl = new Int32Array(memory.buffer, 0, 64);
  const f64 = new Float64Array(memory.buffer, 0, 32);
  ready();
  let seen = Atomics.load(ctrl, GEN);
  for (;;) {
    let spins = 0;
    let g;
    while ((g = Atomics.load(ctrl, GEN)) === seen) {
      if (++spins > SPINS) { Atomics.wait(ctrl, GEN, seen); spins = 0; }
    }
    seen = g;
    if (Atomics.load(ctrl, STOP)) return;
    const parts = ctrl[PARTS];
    if (index >= parts) continue;
    try {
      const n = ctrl[NARGS];
      const args = new Array(n + 2);
      for (let i = 0; i < n; i++) args[i] = f64[ARGS_F64 + i];
      args[n] = index;
      args[n + 1] = parts;
      fns[ctrl[KERNEL]].apply(null, args);
    } catch (e) {
      Atomics.store(ctrl, FAILED, 1);
    }
    if (Atomics.add(ctrl, DONE, 1) + 1 === parts - 1) Atomics.notify(ctrl, DONE);
  }
}
if (typeof self === 'undefined') {
  const { parentPort, workerData } = require('node:worker_threads');
  serve(workerData.module, workerData.memory, workerData.index, () => parentPort.postMessage('ready'));
} else {
  self.onmessage = (e) => serve(e.data.module, e.data.memory, e.data.index, () => self.postMessage('ready'));
}
`;

interface AnyWorker {
  terminate(): unknown;
}

/** The part of Node's worker_threads used here (the engine is typed without Node's types). */
interface NodeWorker extends AnyWorker {
  unref(): void;
  once(event: 'message' | 'error', listener: (x: unknown) => void): void;
}
type NodeWorkerClass = new (source: string, options: { eval: true; workerData: unknown }) => NodeWorker;

const isNode = () => {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return !!p?.versions?.node && typeof (globalThis as { window?: unknown }).window === 'undefined';
};

export class ThreadPool {
  private readonly ctrl: Int32Array;
  private readonly f64: Float64Array;
  /** Whether this thread may block in Atomics.wait (not a browser page's main thread). */
  private readonly canBlock: boolean;

  private constructor(
    memory: WebAssembly.Memory,
    /** Threads in all, the caller's included. */
    readonly threads: number,
    private readonly workers: AnyWorker[],
  ) {
    this.ctrl = new Int32Array(memory.buffer, 0, 64);
    this.f64 = new Float64Array(memory.buffer, 0, 32);
    let canBlock = true;
    try {
      Atomics.wait(this.ctrl, 63, 1, 0);
    } catch {
      canBlock = false;
    }
    this.canBlock = canBlock;
  }

  /** Starts `threads − 1` workers on `memory` (shared) and resolves once each has instantiated the module. */
  static async start(module: WebAssembly.Module, memory: WebAssembly.Memory, threads: number): Promise<ThreadPool> {
    const workers: AnyWorker[] = [];
    const ready: Promise<void>[] = [];
    const node = isNode();
    for (let index = 1; index < threads; index++) {
      if (node) {
        const spec = 'node:worker_threads';
        const { Worker } = (await import(/* @vite-ignore */ spec)) as { Worker: NodeWorkerClass };
        const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, memory, index } });
        w.unref();
        workers.push(w);
        ready.push(
          new Promise((resolve, reject) => {
            w.once('message', () => resolve());
            w.once('error', (e) => reject(e instanceof Error ? e : new Error(String(e))));
          }),
        );
      } else {
        const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
        const w = new Worker(url);
        URL.revokeObjectURL(url);
        workers.push(w);
        ready.push(
          new Promise((resolve, reject) => {
            w.onmessage = () => resolve();
            w.onerror = (e) => reject(new Error(`wasm worker failed to start: ${e.message}`));
          }),
        );
        w.postMessage({ module, memory, index });
      }
    }
    await Promise.all(ready);
    return new ThreadPool(memory, threads, workers);
  }

  /**
   * Runs `fn(...args, part, parts)` for part 0 here and parts 1 … parts − 1 on the workers;
   * returns when all are done. `kernel` is fn's index among the module's function exports.
   */
  run(kernel: number, fn: (...a: number[]) => unknown, args: readonly number[], parts: number): void {
    if (parts > this.threads) throw new Error(`run: ${parts} parts on ${this.threads} threads`);
    if (parts <= 1) {
      fn(...args, 0, 1);
      return;
    }
    if (args.length > MAX_ARGS) throw new Error(`run: ${args.length} arguments, at most ${MAX_ARGS}`);
    const { ctrl, f64 } = this;
    for (let i = 0; i < args.length; i++) f64[ARGS_F64 + i] = args[i];
    ctrl[KERNEL] = kernel;
    ctrl[PARTS] = parts;
    ctrl[NARGS] = args.length;
    Atomics.store(ctrl, DONE, 0);
    Atomics.add(ctrl, GEN, 1);
    Atomics.notify(ctrl, GEN);
    let error: unknown = null;
    try {
      fn(...args, 0, parts);
    } catch (e) {
      error = e;
    }
    let spins = 0;
    let d: number;
    while ((d = Atomics.load(ctrl, DONE)) < parts - 1) {
      if (this.canBlock && ++spins > SPINS) {
        Atomics.wait(ctrl, DONE, d);
        spins = 0;
      }
    }
    if (error) throw error;
    if (Atomics.exchange(ctrl, FAILED, 0)) throw new Error('a wasm kernel failed on a worker thread');
  }

  /** Ends the workers. */
  close(): void {
    Atomics.store(this.ctrl, STOP, 1);
    Atomics.add(this.ctrl, GEN, 1);
    Atomics.notify(this.ctrl, GEN);
    for (const w of this.workers) void w.terminate();
  }
}
