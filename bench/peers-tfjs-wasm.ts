/**
 * TensorFlow.js on its WebAssembly backend (@tensorflow/tfjs-backend-wasm, SIMD), for the CPU
 * benchmark's training-step peer (bench/cpu-rows.ts): the same TfjsTransformer as the WebGPU peer
 * (bench/peers-tfjs.ts), on the wasm backend. Threads: in Node the package never uses them (its
 * WASM_HAS_MULTITHREAD_SUPPORT flag is false under Node, tensorflow/tfjs#3830), so Node gets the
 * single-threaded SIMD build; in a cross-origin-isolated page it loads the threaded SIMD build on
 * `threads` threads (its own default: navigator.hardwareConcurrency).
 *
 * One gap is filled here: the wasm backend has no UnsortedSegmentSum kernel, which the gradient of
 * tf.gather (the embedding lookups) needs. It is registered below as plain JavaScript: N·C adds a
 * step, negligible next to the matmuls. Bench code only.
 */
import * as tf from '@tensorflow/tfjs-core';
import { getThreadsCount, setThreadsCount, setWasmPaths, type BackendWasm } from '@tensorflow/tfjs-backend-wasm';

/** out[s] = Σ over rows i with segmentIds[i] = s of x[i] (rows of x.size / segmentIds.length values). */
function registerSegmentSum(): void {
  if (tf.getKernel('UnsortedSegmentSum', 'wasm')) return;
  tf.registerKernel({
    kernelName: 'UnsortedSegmentSum',
    backendName: 'wasm',
    kernelFunc: ({ inputs, attrs, backend }) => {
      const be = backend as BackendWasm;
      const { x, segmentIds } = inputs as { x: tf.TensorInfo; segmentIds: tf.TensorInfo };
      const numSegments = (attrs as { numSegments: number }).numSegments;
      const ids = be.readSync(segmentIds.dataId) as Int32Array;
      const xs = be.readSync(x.dataId) as Float32Array;
      const row = ids.length === 0 ? 0 : xs.length / ids.length;
      const out = be.makeOutput([numSegments, ...x.shape.slice(segmentIds.shape.length)], x.dtype);
      const o = be.typedArrayFromHeap(out) as Float32Array;
      o.fill(0);
      for (let i = 0; i < ids.length; i++) {
        const s = ids[i];
        if (s < 0 || s >= numSegments) continue;
        for (let j = 0; j < row; j++) o[s * row + j] += xs[i * row + j];
      }
      return out;
    },
  });
}

/**
 * Put TFJS on its wasm backend. `wasmDir`: the folder (a file path in Node, a URL in a page) holding
 * the package's .wasm files, ending in '/'; `threads`: setThreadsCount, before the backend starts.
 * Returns the build it loaded and the threads its XNNPACK pool reports (getThreadsCount(): 1 on a
 * 2-core machine even when asked for 2, in the threaded build too; known, tensorflow/tfjs#6081 and
 * #8513, where users see a cap near half the logical cores).
 */
export async function tfjsWasm(
  wasmDir: string,
  threads?: number,
): Promise<{ build: 'simd' | 'threaded-simd'; threads: number }> {
  setWasmPaths(wasmDir);
  if (threads !== undefined) setThreadsCount(threads);
  registerSegmentSum();
  const ok = await tf.setBackend('wasm');
  await tf.ready();
  if (!ok || tf.getBackend() !== 'wasm')
    throw new Error(`TensorFlow.js did not start its wasm backend (got ${tf.getBackend()})`);
  // The threaded build where the page can share memory (never in Node), else the SIMD one.
  const threaded = (await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT')) === true;
  return { build: threaded ? 'threaded-simd' : 'simd', threads: getThreadsCount() };
}
