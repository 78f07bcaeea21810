/**
 * The WebGPU backend's pool of storage buffers: released buffers kept by exact byte size for reuse,
 * and the oldest of them given back to the device once the pool keeps more than `maxFreeBytes`
 * allows. It counts what it creates and destroys into the backend's stats. It is not the backend:
 * tensors, views, staging for reads and uniforms stay in ./backend.ts.
 */

/** The pool keeps at least this much released memory for reuse, whatever the live footprint. */
const MIN_FREE_BYTES = 64 * 2 ** 20;

/** The counters the pool keeps (a part of WebGpuBackend.stats). */
export interface PoolStats {
  buffersCreated: number;
  bytesCreated: number;
  buffersDestroyed: number;
  bytesDestroyed: number;
  peakBytesHeld: number;
}

export class BufferPool {
  /** Released buffers by byte size, for reuse. */
  private readonly free = new Map<number, GPUBuffer[]>();
  /** The same buffers, oldest release first (the order they are given back to the device in). */
  private readonly freeOrder = new Map<GPUBuffer, number>();
  private freeBytes = 0;
  /** Evicted from the pool while recorded work may still use them: destroyed after the next submit. */
  private toDestroy: GPUBuffer[] = [];
  /**
   * How much released memory the pool may keep for reuse: by default the larger of 64 MiB and half
   * the memory in use (so the device holds at most about 1.5 times what is live); beyond it the oldest
   * released buffers go back to the device. Work of one fixed shape, a training step repeated,
   * reuses its own buffers and never reaches it; work whose shapes change (RL minibatches of
   * dialogues of varying length) would otherwise keep a set of buffers for every shape it met.
   */
  maxFreeBytes: (liveBytes: number) => number = (live) => Math.max(MIN_FREE_BYTES, live / 2);

  constructor(
    private readonly device: GPUDevice,
    private readonly stats: PoolStats,
  ) {}

  /** A buffer of `byteSize` bytes: a released one where there is one (`fresh` false), else a new one. */
  take(byteSize: number): { buffer: GPUBuffer; fresh: boolean } {
    const buffer = this.free.get(byteSize)?.pop();
    if (buffer) {
      this.freeOrder.delete(buffer);
      this.freeBytes -= byteSize;
      return { buffer, fresh: false };
    }
    const created = this.device.createBuffer({
      size: byteSize,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    this.stats.buffersCreated++;
    this.stats.bytesCreated += byteSize;
    this.stats.peakBytesHeld = Math.max(this.stats.peakBytesHeld, this.bytesHeld);
    return { buffer: created, fresh: true };
  }

  /**
   * Keep a released buffer for reuse, then trim the pool. `recording`: work recorded but not yet
   * submitted may still use the buffers trimmed, so they are destroyed at the next `destroyEvicted`.
   */
  give(buffer: GPUBuffer, byteSize: number, recording: boolean): void {
    const list = this.free.get(byteSize) ?? [];
    list.push(buffer);
    this.free.set(byteSize, list);
    this.freeOrder.set(buffer, byteSize);
    this.freeBytes += byteSize;
    this.trim();
    if (!recording) this.destroyEvicted();
  }

  /** Storage memory taken from the device and not given back: live tensors and the free buffers. */
  get bytesHeld(): number {
    return this.stats.bytesCreated - this.stats.bytesDestroyed;
  }

  /** Released memory the pool keeps for reuse. */
  get pooledBytes(): number {
    return this.freeBytes;
  }

  /**
   * Give the oldest released buffers back to the device while the pool keeps more than
   * `maxFreeBytes` allows. WebGPU lets submitted work finish with a buffer destroyed after it, so
   * they are destroyed once what was recorded is submitted.
   */
  private trim(): void {
    const limit = this.maxFreeBytes(this.bytesHeld - this.freeBytes);
    for (const [buffer, size] of this.freeOrder) {
      if (this.freeBytes <= limit) break;
      this.freeOrder.delete(buffer);
      const list = this.free.get(size)!;
      list.splice(list.indexOf(buffer), 1);
      this.freeBytes -= size;
      this.stats.buffersDestroyed++;
      this.stats.bytesDestroyed += size;
      this.toDestroy.push(buffer);
    }
  }

  /** Destroy the buffers trimmed while work was being recorded (call after a submit). */
  destroyEvicted(): void {
    for (const b of this.toDestroy) b.destroy();
    this.toDestroy = [];
  }
}
