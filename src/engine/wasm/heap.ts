/**
 * The wasm backend's memory manager: blocks of the module's linear memory, in size classes of
 * `ladderSize` elements (multiples of 256 bytes), each class with its own free list, above a bump
 * pointer that grows the memory when it runs out. A request takes a released block of its class,
 * else the smallest released block of up to twice its size (RL steps ask for sizes that change
 * with the rollouts' lengths), else new memory; nothing is coalesced. Addresses below HEAP_START
 * hold the kernels' static data and the thread pool's control block.
 */
import { ladderSize } from '../backend';

/** Where tensors start: 1 MiB (the module's data sits at 64 KiB, the pool's control block at 0). */
const HEAP_START = 1 << 20;
const PAGE = 65536;

export class Heap {
  private top = HEAP_START;
  private readonly free = new Map<number, number[]>();
  /** Bytes in blocks handed out and not yet released. */
  inUse = 0;
  private view: ArrayBuffer | SharedArrayBuffer;

  constructor(readonly memory: WebAssembly.Memory) {
    this.view = memory.buffer;
  }

  /** The memory's current buffer (a new object after every growth). */
  get buffer(): ArrayBuffer | SharedArrayBuffer {
    if (this.view.byteLength !== this.memory.buffer.byteLength) this.view = this.memory.buffer;
    return this.view;
  }

  /** The block size a request of `elements` 4-byte elements gets. */
  static blockBytes(elements: number): number {
    return ladderSize(Math.max(1, elements)) * 4;
  }

  /**
   * A block for `bytes` (a value of blockBytes): its address and its size (`bytes`, or that of the
   * larger released block it reuses); the memory grows when needed. When it cannot grow, the
   * released blocks are merged where they touch (a run that ends at the bump pointer lowers it)
   * and the smallest one that holds the request is split, before the request is refused: RL steps
   * of many shapes leave released blocks of many classes that no later request of a class fits.
   */
  alloc(bytes: number): { ptr: number; block: number } {
    let size = bytes;
    let reused = this.free.get(bytes)?.pop();
    if (reused === undefined) {
      let best = Infinity;
      for (const [s, list] of this.free) if (s > bytes && s <= 2 * bytes && s < best && list.length) best = s;
      if (best !== Infinity) {
        size = best;
        reused = this.free.get(best)!.pop();
      }
    }
    this.inUse += size;
    if (reused !== undefined) return { ptr: reused, block: size };
    const ptr = this.top;
    const end = ptr + bytes;
    const have = this.memory.buffer.byteLength;
    if (end > have) {
      const pages = Math.ceil((end - have) / PAGE);
      try {
        this.memory.grow(Math.max(pages, Math.min(256, have / PAGE / 8) | 0));
      } catch {
        try {
          this.memory.grow(pages);
        } catch {
          this.inUse -= bytes;
          const fit = this.compactAndTake(bytes);
          if (fit) return fit;
          throw new Error(
            `wasm backend: out of memory (${(end / 2 ** 20).toFixed(0)} MiB asked of a memory that cannot grow past ${(have / 2 ** 20).toFixed(0)} MiB)`,
          );
        }
      }
    }
    this.top = end;
    return { ptr, block: bytes };
  }

  /**
   * Merge adjacent released blocks, give back a run at the top, then take the smallest released
   * block of at least `bytes` (its remainder released), or new memory below the lowered top.
   */
  private compactAndTake(bytes: number): { ptr: number; block: number } | null {
    const blocks: [number, number][] = [];
    for (const [size, list] of this.free) for (const ptr of list) blocks.push([ptr, size]);
    blocks.sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const [ptr, size] of blocks) {
      const last = merged[merged.length - 1];
      if (last && last[0] + last[1] === ptr) last[1] += size;
      else merged.push([ptr, size]);
    }
    const tail = merged[merged.length - 1];
    if (tail && tail[0] + tail[1] === this.top) {
      this.top = tail[0];
      merged.pop();
    }
    this.free.clear();
    let best = -1;
    merged.forEach(([, size], i) => {
      if (size >= bytes && (best < 0 || size < merged[best][1])) best = i;
    });
    const taken = best >= 0 ? merged.splice(best, 1)[0] : null;
    for (const [ptr, size] of merged) this.file(ptr, size);
    if (taken) {
      if (taken[1] > bytes) this.file(taken[0] + bytes, taken[1] - bytes);
      this.inUse += bytes;
      return { ptr: taken[0], block: bytes };
    }
    if (this.top + bytes <= this.memory.buffer.byteLength) {
      const ptr = this.top;
      this.top += bytes;
      this.inUse += bytes;
      return { ptr, block: bytes };
    }
    return null;
  }

  release(ptr: number, bytes: number): void {
    this.inUse -= bytes;
    this.file(ptr, bytes);
  }

  /** Put a block on its size's free list. */
  private file(ptr: number, bytes: number): void {
    let list = this.free.get(bytes);
    if (!list) this.free.set(bytes, (list = []));
    list.push(ptr);
  }

  /** Bytes of memory the heap has taken from the module (its high-water mark above HEAP_START). */
  get reserved(): number {
    return this.top - HEAP_START;
  }
}
