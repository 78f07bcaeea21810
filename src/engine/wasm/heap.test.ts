import { describe, expect, it } from 'vitest';
import { Heap } from './heap';

const PAGE = 65536;
const KiB = 1024;

describe('the wasm heap', () => {
  it('reuses a released block of its class, or one of up to twice its size', () => {
    const heap = new Heap(new WebAssembly.Memory({ initial: 17, maximum: 64 }));
    const a = heap.alloc(64 * KiB);
    heap.release(a.ptr, a.block);
    expect(heap.alloc(64 * KiB).ptr).toBe(a.ptr);
    const b = heap.alloc(128 * KiB);
    heap.release(b.ptr, b.block);
    expect(heap.alloc(96 * KiB)).toEqual({ ptr: b.ptr, block: 128 * KiB });
    expect(heap.inUse).toBe(64 * KiB + 128 * KiB);
  });

  it('at its maximum, merges released blocks that touch and splits one before refusing a request', () => {
    // 1 MiB of static data, then room for 3 MiB of blocks.
    const heap = new Heap(new WebAssembly.Memory({ initial: 16, maximum: 64 }));
    const blocks = [256, 512, 256, 768, 256].map((k) => heap.alloc(k * KiB));
    const keep = heap.alloc(1024 * KiB);
    expect(heap.reserved).toBe(3 * 1024 * KiB);
    // Release all of the first five: 2 MiB free in five blocks, none of which holds 1.5 MiB.
    for (const b of blocks) heap.release(b.ptr, b.block);
    const big = heap.alloc(1536 * KiB);
    expect(big).toEqual({ ptr: blocks[0].ptr, block: 1536 * KiB });
    // The rest of the merged run (0.5 MiB) is released, and a request of that size takes it.
    expect(heap.alloc(512 * KiB).ptr).toBe(blocks[0].ptr + 1536 * KiB);
    expect(heap.inUse).toBe(3 * 1024 * KiB);
    expect(() => heap.alloc(256 * KiB)).toThrow('out of memory (4 MiB asked of a memory that cannot grow past 4 MiB)');
    heap.release(keep.ptr, keep.block);
    // A released run at the top lowers the bump pointer: new memory is taken from there.
    const again = heap.alloc(1024 * KiB);
    expect(again.ptr).toBe(keep.ptr);
    expect(heap.reserved).toBe(3 * 1024 * KiB);
  });

  it('refuses clearly what no merge can hold', () => {
    const heap = new Heap(new WebAssembly.Memory({ initial: 16, maximum: 20 }));
    const a = heap.alloc(128 * KiB);
    heap.alloc(64 * KiB);
    heap.release(a.ptr, a.block);
    expect(() => heap.alloc(4 * PAGE * 2)).toThrow(
      /wasm backend: out of memory \(\d+ MiB asked of a memory that cannot grow past 1 MiB\)|out of memory/,
    );
  });
});
