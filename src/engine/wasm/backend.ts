/**
 * The `wasm` backend: the op contract on WebAssembly SIMD kernels (./asm, AssemblyScript compiled by
 * ./build.ts), on a pool of threads where SharedArrayBuffer exists (Node; a cross-origin-isolated
 * page), on one thread elsewhere. Tensors live in the module's linear memory (./heap.ts), so a step
 * moves no data between JavaScript and wasm: kernels read and write tensors in place, and `read` is
 * the only copy out. Ops route through the registry like the other backends' (ops/index.ts holds the
 * wasm entries; matmul's emulated f16 arithmetic alone runs the CPU reference on the same memory,
 * ./host.ts).
 * Work runs eagerly and synchronously; `read` resolves at once.
 *
 * Numbers: a kernel sums in SIMD lanes, so results differ from the CPU reference's by rounding (held
 * to it by tolerance in the tests), and are identical from run to run and across thread counts.
 */
import type { Backend, DType, Tensor } from '../backend';
import { sizeOf } from '../backend';
import { routeOps } from '../ops/registry';
import { SHARED_WASM, SINGLE_WASM } from './gen/kernels';
import { Heap } from './heap';
import { HostBackend } from './host';
import { ThreadPool } from './pool';
import { WasmTensor } from './tensor';

export interface WasmBackendOptions {
  /** Threads in all (the caller's included); default: the machine's logical cores, at most 16. */
  threads?: number;
}

/** Work (≈ multiply-adds) below which a kernel is not split: waking a thread costs ~10–50 µs. */
const GRAIN = 1 << 15;
const MAX_THREADS = 16;

function decode(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

async function hardwareThreads(): Promise<number> {
  if (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) return navigator.hardwareConcurrency;
  try {
    const spec = 'node:os';
    const os = (await import(/* @vite-ignore */ spec)) as { availableParallelism(): number };
    return os.availableParallelism();
  } catch {
    return 1;
  }
}

/** Whether this context can share a wasm memory with workers. */
function canShare(): boolean {
  if (typeof SharedArrayBuffer === 'undefined') return false;
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  return isolated !== false;
}

function newMemory(shared: boolean): WebAssembly.Memory {
  if (!shared) return new WebAssembly.Memory({ initial: 32 });
  let error: unknown;
  // A shared memory reserves its maximum up front: ask for less where 2 GiB is refused.
  for (const maximum of [32768, 16384, 4096]) {
    try {
      return new WebAssembly.Memory({ initial: 32, maximum, shared: true });
    } catch (e) {
      error = e;
    }
  }
  throw error;
}

type KernelFn = (...args: number[]) => unknown;

export class WasmBackend extends routeOps('wasm') implements Backend {
  readonly name = 'wasm' as const;
  readonly description: string;
  readonly defaultKvCache = 'f32' as const;
  readonly defaultDecodeWeights = 'f32' as const;
  /** f16 matmul math runs on the CPU reference (emulated halves), as on the cpu backend. */
  readonly hasF16Math = true;
  /** The CPU reference on this memory (matmul's f16 arithmetic runs there). */
  readonly host: HostBackend;
  private readonly heap: Heap;
  private readonly kernels = new Map<string, { index: number; fn: KernelFn }>();
  private readonly finalizer = new FinalizationRegistry<{ ptr: number; block: number }>((b) =>
    this.heap.release(b.ptr, b.block),
  );

  private constructor(
    readonly memory: WebAssembly.Memory,
    instance: WebAssembly.Instance,
    names: string[],
    private readonly pool: ThreadPool | null,
    /** Why there is one thread when more were possible, if so. */
    single: string | null,
  ) {
    super();
    this.heap = new Heap(memory);
    this.host = new HostBackend(this);
    names.forEach((name, index) => this.kernels.set(name, { index, fn: instance.exports[name] as KernelFn }));
    const n = this.threads;
    this.description = `CPU (WebAssembly SIMD, ${n} thread${n === 1 ? '' : 's'}${single ? `: ${single}` : ''})`;
  }

  /** Compiles the module, and starts the threads where memory can be shared. */
  static async create(o: WasmBackendOptions = {}): Promise<WasmBackend> {
    const shared = canShare();
    const want = o.threads ?? Math.min(MAX_THREADS, await hardwareThreads());
    if (!(Number.isInteger(want) && want >= 1 && want <= 256))
      throw new Error(`wasm backend: threads must be an integer from 1 to 256, got ${want}`);
    const module = await WebAssembly.compile(decode(shared ? SHARED_WASM : SINGLE_WASM) as BufferSource);
    const memory = newMemory(shared);
    const instance = await WebAssembly.instantiate(module, {
      env: {
        memory,
        abort: () => {
          throw new Error('wasm kernel aborted');
        },
      },
    });
    const names = WebAssembly.Module.exports(module)
      .filter((e) => e.kind === 'function')
      .map((e) => e.name);
    const threads = shared ? want : 1;
    const pool = threads > 1 ? await ThreadPool.start(module, memory, threads) : null;
    const single = !shared && want > 1 ? 'no SharedArrayBuffer (the page is not cross-origin isolated)' : null;
    return new WasmBackend(memory, instance, names, pool, single);
  }

  /** Threads in all, the caller's included. */
  get threads(): number {
    return this.pool?.threads ?? 1;
  }

  /** Bytes of tensors allocated and not released (released or collected ones are reused). */
  get bytesInUse(): number {
    return this.heap.inUse;
  }

  /** Ends the worker threads (the backend must not be used after). */
  dispose(): void {
    this.pool?.close();
  }

  // ---- kernels --------------------------------------------------------------------------------

  private kernel(name: string): { index: number; fn: KernelFn } {
    const k = this.kernels.get(name);
    if (!k) throw new Error(`wasm backend: no kernel named ${name}`);
    return k;
  }

  /** Calls the unthreaded kernel `name`. */
  call(name: string, ...args: number[]): number {
    return this.kernel(name).fn(...args) as number;
  }

  /**
   * Calls the threaded kernel `name(...args, part, parts)` on as many threads as `work` (about the
   * multiply-adds of the call) pays for: a function of the shape alone.
   */
  par(name: string, work: number, ...args: number[]): void {
    const k = this.kernel(name);
    const parts = this.pool ? Math.min(this.pool.threads, Math.max(1, Math.floor(work / GRAIN))) : 1;
    if (parts <= 1 || !this.pool) k.fn(...args, 0, 1);
    else this.pool.run(k.index, k.fn, args, parts);
  }

  // ---- tensors ------------------------------------------------------------------------------

  /** Byte address of a wasm tensor's first element. */
  ptr(t: Tensor): number {
    return this.own(t).ptr;
  }

  private own(t: Tensor): WasmTensor {
    if (!(t instanceof WasmTensor)) throw new Error('wasm backend was given a tensor from another backend');
    return t;
  }

  /** A Float32Array view of an f32 tensor's memory (valid until the memory next grows). */
  f32(t: Tensor): Float32Array {
    const w = this.own(t);
    if (w.dtype !== 'f32') throw new Error(`expected an f32 tensor, got ${w.dtype} [${w.shape.join(', ')}]`);
    return new Float32Array(this.heap.buffer, w.ptr, w.size);
  }

  /** An Int32Array view of an i32 tensor's memory (valid until the memory next grows). */
  i32(t: Tensor): Int32Array {
    const w = this.own(t);
    if (w.dtype !== 'i32') throw new Error(`expected an i32 tensor, got ${w.dtype} [${w.shape.join(', ')}]`);
    return new Int32Array(this.heap.buffer, w.ptr, w.size);
  }

  private words(t: WasmTensor): Float32Array | Int32Array {
    return t.dtype === 'i32'
      ? new Int32Array(this.heap.buffer, t.ptr, t.size)
      : new Float32Array(this.heap.buffer, t.ptr, t.size);
  }

  scratch(shape: readonly number[], dtype: DType = 'f32'): Tensor {
    const n = sizeOf(shape);
    const { ptr, block } = this.heap.alloc(Heap.blockBytes(n));
    const t = new WasmTensor(shape, dtype, n, ptr, block, null);
    this.finalizer.register(t, { ptr, block }, t);
    return t;
  }

  zeros(shape: readonly number[], dtype: DType = 'f32'): Tensor {
    const t = this.scratch(shape, dtype) as WasmTensor;
    new Int32Array(this.heap.buffer, t.ptr, t.size).fill(0);
    return t;
  }

  fromArray(data: Float32Array | Int32Array, shape: readonly number[]): Tensor {
    if (sizeOf(shape) !== data.length)
      throw new Error(`fromArray: ${data.length} values for shape [${shape.join(', ')}]`);
    const t = this.scratch(shape, data instanceof Int32Array ? 'i32' : 'f32') as WasmTensor;
    this.words(t).set(data);
    return t;
  }

  write(t: Tensor, data: Float32Array | Int32Array): void {
    const w = this.own(t);
    if (data.length !== w.size) throw new Error(`write: ${data.length} values for a tensor of ${w.size}`);
    this.words(w).set(data);
  }

  async read(t: Tensor): Promise<Float32Array> {
    return Float32Array.from(this.words(this.own(t)));
  }

  async readInt(t: Tensor): Promise<Int32Array> {
    return Int32Array.from(this.words(this.own(t)));
  }

  release(t: Tensor): void {
    const w = this.own(t);
    if (!w.block || !this.finalizer.unregister(w)) return; // a view, or released already
    this.heap.release(w.ptr, w.block);
  }

  view(base: Tensor, offset: number, shape: readonly number[]): Tensor {
    const b = this.own(base);
    const n = sizeOf(shape);
    if (!Number.isInteger(offset) || offset < 0 || offset + n > b.size)
      throw new Error(`view [${offset}, ${offset + n}) outside a tensor of ${b.size}`);
    return new WasmTensor(shape, b.dtype, n, b.ptr + offset * 4, 0, b.base ?? b);
  }

  async sync(): Promise<void> {}
}
