/**
 * The `webgpu` backend: tensors are pooled GPUBuffers, ops are compute dispatches recorded into one
 * open compute pass, submitted only when the host needs something (a read, a write, a sync).
 * Pipelines are compiled once per kernel source; bind groups and uniform buffers are cached and
 * reused, so a repeated training step allocates nothing new after the first.
 *
 * Each op's WGSL and its dispatch wrapper live in ../ops/<op>.ts beside its CPU reference; the
 * registry (../ops/registry.ts) routes the Backend's op methods to them; this file owns memory,
 * pipelines and submission.
 * Binding convention for every kernel: @group(0) @binding(0) a uniform `Params` struct of 4-byte
 * scalars (always present, may be unused), then the tensors at bindings 1, 2, … in the order given.
 */
import type { Backend, DType, Tensor } from '../backend';
import { ladderSize, sizeOf, VIEW_ALIGN } from '../backend';
import type { GpuContext } from './context';
import { adapterLine } from './context';
import { MatmulChooser } from '../ops/matmul';
import { routeOps } from '../ops/registry';
import { BufferPool } from './pool';
import type { Kernel, Uniform } from './kernel';

export class GpuTensor implements Tensor {
  constructor(
    readonly shape: readonly number[],
    readonly size: number,
    readonly dtype: DType,
    readonly buffer: GPUBuffer,
    readonly byteSize: number,
    /** Where this tensor starts in `buffer` (views into an arena); 0 for whole buffers. */
    readonly byteOffset = 0,
    /** False for views: releasing them returns nothing to the pool. */
    readonly owner = true,
  ) {}
}

const UNIFORM_BYTES = 256;
/** Timestamp queries gpuPassTime can write: two a compute pass. */
const TIMED_QUERIES = 512;

export class WebGpuBackend extends routeOps('webgpu') implements Backend {
  readonly name = 'webgpu' as const;
  readonly description: string;
  readonly device: GPUDevice;
  readonly features: ReadonlySet<string>;
  /** A software adapter (SwiftShader, WARP, lavapipe): kernels that avoid barriers are chosen. */
  readonly isFallback: boolean;
  readonly defaultKvCache: 'f32' | 'f16';
  readonly defaultDecodeWeights: 'f32' | 'f16';
  readonly hasF16Math: boolean;
  /** Validation and compilation errors seen so far; read(), sync() throw while any are pending. */
  readonly errors: string[] = [];

  private readonly stagingPool = new Map<number, GPUBuffer[]>();
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  private readonly bindGroups = new Map<string, GPUBindGroup>();
  private readonly bufferIds = new WeakMap<GPUBuffer, number>();
  private nextBufferId = 1;
  private freeUniforms: GPUBuffer[] = [];
  private usedUniforms: GPUBuffer[] = [];
  private encoder: GPUCommandEncoder | null = null;
  /** gpuPassTime's query set and buffers (made on first use), and the next free query while it records. */
  private timing: { querySet: GPUQuerySet; resolve: GPUBuffer; readback: GPUBuffer; next: number } | null = null;
  private timingOn = false;
  private pass: GPUComputePassEncoder | null = null;
  /**
   * Counters for tests and benchmarks: allocation must stop growing after the first step.
   * `bytesCreated` and `bytesDestroyed` count storage buffers made and given back to the device
   * over the backend's life; `bytesHeld` is their difference, `peakBytesHeld` its highest value.
   */
  readonly stats = {
    buffersCreated: 0,
    bytesCreated: 0,
    buffersDestroyed: 0,
    bytesDestroyed: 0,
    peakBytesHeld: 0,
    pipelinesCreated: 0,
    dispatches: 0,
    submits: 0,
    reads: 0,
  };
  /** Released storage buffers kept for reuse (./pool.ts). */
  private readonly pool: BufferPool;
  /** Which big-matmul kernel `auto` runs per shape (ops.tuneMatmuls times them). */
  readonly matmulChooser = new MatmulChooser();

  constructor(ctx: GpuContext) {
    super();
    this.device = ctx.device;
    this.pool = new BufferPool(this.device, this.stats);
    this.description = adapterLine(ctx.summary);
    this.features = new Set(ctx.summary.features);
    this.isFallback = ctx.summary.isFallback;
    this.defaultKvCache = !this.isFallback && this.device.features.has('shader-f16') ? 'f16' : 'f32';
    this.defaultDecodeWeights = this.defaultKvCache;
    this.hasF16Math = this.device.features.has('shader-f16');
    this.device.addEventListener('uncapturederror', (ev) => {
      this.errors.push(`WebGPU error: ${(ev as GPUUncapturedErrorEvent).error.message}`);
    });
  }

  // ---- memory ------------------------------------------------------------------------------------

  buf(t: Tensor): GPUBuffer {
    if (!(t instanceof GpuTensor)) throw new Error('webgpu backend was given a tensor from another backend');
    return t.buffer;
  }

  /** `ladder`: a buffer of `ladderSize` elements (scratch, whose size changes from call to call). */
  private acquire(shape: readonly number[], dtype: DType, ladder = false): GpuTensor {
    const size = sizeOf(shape);
    const bytesFor = (n: number) => Math.max(16, Math.ceil((n * 4) / 16) * 16);
    const max = this.device.limits.maxStorageBufferBindingSize;
    const rounded = ladder ? bytesFor(ladderSize(size)) : 0;
    const byteSize = rounded > 0 && rounded <= max ? rounded : bytesFor(size); // the ladder never costs a binding that fits
    if (byteSize > max) {
      throw new Error(
        `tensor [${shape.join(', ')}] needs ${byteSize} bytes; this GPU binds at most ${max} bytes per buffer. Pick a smaller preset.`,
      );
    }
    const { buffer, fresh } = this.pool.take(byteSize);
    if (fresh) this.bufferIds.set(buffer, this.nextBufferId++);
    const t = new GpuTensor(shape, size, dtype, buffer, byteSize);
    (t as { fresh?: boolean }).fresh = fresh;
    return t;
  }

  zeros(shape: readonly number[], dtype: DType = 'f32'): Tensor {
    const t = this.acquire(shape, dtype);
    if (!(t as { fresh?: boolean }).fresh) {
      // Reused memory: clear it in queue order (new buffers are zero-initialised by WebGPU).
      this.endPass();
      this.enc().clearBuffer(t.buffer, 0, t.byteSize);
    }
    return t;
  }

  /**
   * Pooled memory with undefined contents, for outputs that are fully overwritten; its buffer is
   * sized on `ladderSize`'s ladder, so scratch of sizes that change per call (a minibatch's) reuses.
   */
  scratch(shape: readonly number[], dtype: DType = 'f32'): Tensor {
    return this.acquire(shape, dtype, true);
  }

  fromArray(data: Float32Array | Int32Array, shape: readonly number[]): Tensor {
    const t = this.acquire(shape, data instanceof Int32Array ? 'i32' : 'f32');
    this.write(t, data);
    return t;
  }

  write(t: Tensor, data: Float32Array | Int32Array): void {
    if (data.length !== t.size) throw new Error(`write: ${data.length} values for a tensor of ${t.size}`);
    this.flush(); // queue.writeBuffer runs before anything still unsubmitted: submit that first
    this.device.queue.writeBuffer(
      this.buf(t),
      (t as GpuTensor).byteOffset,
      data.buffer,
      data.byteOffset,
      data.byteLength,
    );
  }

  async read(t: Tensor): Promise<Float32Array> {
    const bytes = await this.readBytes(t);
    return new Float32Array(bytes);
  }

  async readInt(t: Tensor): Promise<Int32Array> {
    const bytes = await this.readBytes(t);
    return new Int32Array(bytes);
  }

  private async readBytes(t: Tensor): Promise<ArrayBuffer> {
    const byteLength = t.size * 4;
    // Powers of two: reads of many sizes (RL minibatches) share a few staging buffers.
    const stagingSize = 2 ** Math.ceil(Math.log2(Math.max(256, byteLength)));
    const staging =
      this.stagingPool.get(stagingSize)?.pop() ??
      this.device.createBuffer({ size: stagingSize, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    this.endPass();
    this.stats.reads++;
    const src = t as GpuTensor;
    // Copy only the tensor's own bytes (views share a buffer); sizes must be multiples of 4.
    this.enc().copyBufferToBuffer(this.buf(t), src.byteOffset, staging, 0, Math.max(4, byteLength));
    this.flush();
    await staging.mapAsync(GPUMapMode.READ);
    const out = staging.getMappedRange(0, byteLength).slice(0);
    staging.unmap();
    const list = this.stagingPool.get(stagingSize) ?? [];
    list.push(staging);
    this.stagingPool.set(stagingSize, list);
    this.throwIfErrors();
    return out;
  }

  view(base: Tensor, offset: number, shape: readonly number[]): Tensor {
    const b = base as GpuTensor;
    const size = sizeOf(shape);
    if (offset % VIEW_ALIGN !== 0) throw new Error(`view offset ${offset} is not a multiple of ${VIEW_ALIGN} elements`);
    if (offset < 0 || offset + size > b.size)
      throw new Error(`view [${offset}, ${offset + size}) outside a tensor of ${b.size}`);
    return new GpuTensor(shape, size, b.dtype, b.buffer, Math.max(4, size * 4), b.byteOffset + offset * 4, false);
  }

  release(t: Tensor): void {
    const g = t as GpuTensor;
    if (!g.owner) return;
    this.pool.give(g.buffer, g.byteSize, this.encoder !== null);
  }

  /** Storage memory taken from the device and not given back: live tensors and the pool's free buffers. */
  get bytesHeld(): number {
    return this.pool.bytesHeld;
  }

  /** Released memory the pool keeps for reuse. */
  get pooledBytes(): number {
    return this.pool.pooledBytes;
  }

  /** The pool's limit on released memory kept for reuse, from the live bytes (BufferPool.maxFreeBytes). */
  get maxFreeBytes(): (liveBytes: number) => number {
    return this.pool.maxFreeBytes;
  }
  set maxFreeBytes(limit: (liveBytes: number) => number) {
    this.pool.maxFreeBytes = limit;
  }

  async sync(): Promise<void> {
    this.flush();
    await this.device.queue.onSubmittedWorkDone();
    this.throwIfErrors();
  }

  private throwIfErrors(): void {
    if (this.errors.length > 0) {
      const msg = this.errors.splice(0).join('\n');
      throw new Error(msg);
    }
  }

  // ---- recording and submission ---------------------------------------------------------------

  private enc(): GPUCommandEncoder {
    if (!this.encoder) this.encoder = this.device.createCommandEncoder();
    return this.encoder;
  }

  private endPass(): void {
    if (this.pass) {
      this.pass.end();
      this.pass = null;
    }
  }

  /** A compute pass descriptor that writes timestamps at the pass's start and end (gpuPassTime). */
  private timedPass(): GPUComputePassDescriptor {
    const t = this.timing!;
    if (t.next + 2 > TIMED_QUERIES) throw new Error(`gpuPassTime: more than ${TIMED_QUERIES / 2} compute passes`);
    const d = {
      timestampWrites: { querySet: t.querySet, beginningOfPassWriteIndex: t.next, endOfPassWriteIndex: t.next + 1 },
    };
    t.next += 2;
    return d;
  }

  /**
   * For profiling, where the device has `timestamp-query`: the GPU's time in ms for the compute
   * passes holding the work `record` queues (a timestamp at each pass's start and end, summed;
   * buffer clears and copies between passes are not counted), without submission or readback.
   * Null without the feature. Browsers may round timestamps (Chrome: to 100 µs unless WebGPU
   * developer features are on), so time many calls at once. Nothing in the engine's path uses it.
   */
  async gpuPassTime(record: () => void): Promise<number | null> {
    if (!this.device.features.has('timestamp-query')) return null;
    this.flush();
    const bytes = TIMED_QUERIES * 8;
    this.timing ??= {
      querySet: this.device.createQuerySet({ type: 'timestamp', count: TIMED_QUERIES }),
      resolve: this.device.createBuffer({ size: bytes, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC }),
      readback: this.device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
      next: 0,
    };
    const t = this.timing;
    t.next = 0;
    this.timingOn = true; // the flush above ended any open pass: the recorded work starts a timed one
    try {
      record();
    } finally {
      this.endPass();
      this.timingOn = false;
    }
    const n = t.next;
    if (n === 0) return 0;
    const enc = this.enc();
    enc.resolveQuerySet(t.querySet, 0, n, t.resolve, 0);
    enc.copyBufferToBuffer(t.resolve, 0, t.readback, 0, n * 8);
    this.flush();
    await t.readback.mapAsync(GPUMapMode.READ, 0, n * 8);
    const stamps = new BigUint64Array(t.readback.getMappedRange(0, n * 8).slice(0));
    t.readback.unmap();
    this.throwIfErrors();
    let ns = 0;
    for (let i = 0; i < n; i += 2) ns += Number(stamps[i + 1] - stamps[i]);
    return ns / 1e6;
  }

  /** Submit everything recorded so far. */
  flush(): void {
    this.endPass();
    if (!this.encoder) return;
    this.device.queue.submit([this.encoder.finish()]);
    this.stats.submits++;
    this.encoder = null;
    this.pool.destroyEvicted();
    // Uniform buffers of the submitted work can be rewritten now: later writeBuffer calls are
    // ordered after this submit on the queue.
    this.freeUniforms.push(...this.usedUniforms);
    this.usedUniforms = [];
  }

  pipeline(k: Kernel): GPUComputePipeline {
    let p = this.pipelines.get(k.name);
    if (!p) {
      const module = this.device.createShaderModule({ code: k.code, label: k.name });
      void module.getCompilationInfo().then((info) => {
        const errs = info.messages.filter((m) => m.type === 'error');
        if (errs.length > 0)
          this.errors.push(
            `WGSL errors in kernel ${k.name}:\n${errs.map((m) => `  line ${m.lineNum}:${m.linePos} ${m.message}`).join('\n')}`,
          );
      });
      p = this.device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' }, label: k.name });
      this.pipelines.set(k.name, p);
      this.stats.pipelinesCreated++;
    }
    return p;
  }

  /**
   * Record one dispatch. `tensors` bind at 1, 2, … in order; `uniforms` fill the Params struct at
   * binding 0 in declaration order (4 bytes each).
   */
  dispatch(k: Kernel, tensors: readonly Tensor[], uniforms: readonly Uniform[], workgroups: readonly number[]): void {
    if (uniforms.length * 4 > UNIFORM_BYTES) throw new Error(`kernel ${k.name}: too many uniforms`);
    const pipe = this.pipeline(k);
    const ubuf =
      this.freeUniforms.pop() ??
      this.device.createBuffer({ size: UNIFORM_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    if (!this.bufferIds.has(ubuf)) this.bufferIds.set(ubuf, this.nextBufferId++);
    this.usedUniforms.push(ubuf);
    const data = new ArrayBuffer(Math.max(16, Math.ceil((uniforms.length * 4) / 16) * 16));
    const dv = new DataView(data);
    uniforms.forEach((u, i) => {
      if ('u32' in u) dv.setUint32(i * 4, u.u32, true);
      else if ('i32' in u) dv.setInt32(i * 4, u.i32, true);
      else dv.setFloat32(i * 4, u.f32, true);
    });
    this.device.queue.writeBuffer(ubuf, 0, data);
    const entries: GPUBufferBinding[] = [{ buffer: ubuf }];
    for (const t of tensors) {
      const gt = t as GpuTensor;
      entries.push(
        gt.owner ? { buffer: this.buf(t) } : { buffer: this.buf(t), offset: gt.byteOffset, size: gt.byteSize },
      );
    }
    // Views of one buffer at one offset differ in size (a model's activations for each shape).
    const key = `${k.name}|${entries.map((e) => `${this.bufferIds.get(e.buffer)}@${e.offset ?? 0}+${e.size ?? ''}`).join(',')}`;
    let bg = this.bindGroups.get(key);
    if (!bg) {
      if (this.bindGroups.size > 8192) this.bindGroups.clear();
      bg = this.device.createBindGroup({
        layout: pipe.getBindGroupLayout(0),
        entries: entries.map((resource, binding) => ({ binding, resource })),
      });
      this.bindGroups.set(key, bg);
    }
    if (!this.pass) this.pass = this.enc().beginComputePass(this.timingOn ? this.timedPass() : undefined);
    this.pass.setPipeline(pipe);
    this.pass.setBindGroup(0, bg);
    const [x, y = 1, z = 1] = workgroups;
    if (x > 0 && y > 0 && z > 0) this.pass.dispatchWorkgroups(x, y, z);
    this.stats.dispatches++;
  }
}
