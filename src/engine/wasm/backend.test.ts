/**
 * The wasm backend's own machinery: memory (allocation, reuse, growth, views), the op table, the
 * thread pool (a threaded kernel, errors, the same bits on 1 and 4 threads), and the ops that still
 * run the CPU reference in place.
 */
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { WasmBackend } from './backend';
import { sameBits, wasmBackends } from './testing/same';

describe('wasm backend', () => {
  it('describes itself with its thread count', async () => {
    const { one, many } = await wasmBackends();
    expect(one.description).toBe('CPU (WebAssembly SIMD, 1 thread)');
    expect(many.description).toBe('CPU (WebAssembly SIMD, 4 threads)');
    expect(many.threads).toBe(4);
  });

  it('rejects a bad thread count with a clear message', async () => {
    await expect(WasmBackend.create({ threads: 0 })).rejects.toThrow(/threads must be an integer from 1 to 256, got 0/);
    await expect(WasmBackend.create({ threads: 1.5 })).rejects.toThrow(/got 1\.5/);
  });

  it('round-trips f32 and i32 data, and zeros reused memory', async () => {
    const { one } = await wasmBackends();
    const f = one.fromArray(new Float32Array([1.5, -2, 3e-8]), [3]);
    const i = one.fromArray(new Int32Array([7, -1, 2 ** 31 - 1]), [3]);
    expect(Array.from(await one.read(f))).toEqual([1.5, -2, Math.fround(3e-8)]);
    expect(Array.from(await one.readInt(i))).toEqual([7, -1, 2 ** 31 - 1]);
    one.release(f);
    const z = one.zeros([3]);
    expect(one.ptr(z)).toBe(one.ptr(f)); // the released block, reused
    expect(Array.from(await one.read(z))).toEqual([0, 0, 0]);
    one.release(z);
    one.release(z); // a second release is harmless
    expect(() => one.write(i, new Int32Array(2))).toThrow(/2 values for a tensor of 3/);
    expect(() => one.fromArray(new Float32Array(2), [3])).toThrow(/2 values for shape \[3\]/);
  });

  it('reuses a released block of up to twice the size asked for, and no larger', async () => {
    const be = await WasmBackend.create({ threads: 1 });
    const big = be.zeros([1000]);
    be.release(big);
    const fits = be.zeros([600]); // 640-element class: the 1,024-element block is within 2x
    expect(be.ptr(fits)).toBe(be.ptr(big));
    expect(be.bytesInUse).toBe(1024 * 4);
    be.release(fits);
    const small = be.zeros([100]); // 128-element class: the 1,024-element block is too large
    expect(be.ptr(small)).not.toBe(be.ptr(big));
    be.dispose();
  });

  it('gives views into a tensor, and refuses one outside it', async () => {
    const { one } = await wasmBackends();
    const base = one.fromArray(
      Float32Array.from({ length: 10 }, (_, k) => k),
      [10],
    );
    const v = one.view(base, 4, [2, 3]);
    expect(Array.from(await one.read(v))).toEqual([4, 5, 6, 7, 8, 9]);
    one.fill(v, -1);
    expect(Array.from(await one.read(base))).toEqual([0, 1, 2, 3, -1, -1, -1, -1, -1, -1]);
    expect(() => one.view(base, 5, [6])).toThrow(/view \[5, 11\) outside a tensor of 10/);
    await expect(one.read(new CpuBackend().zeros([1]))).rejects.toThrow(/tensor from another backend/);
  });

  it('grows its memory and keeps what it held', async () => {
    const be = await WasmBackend.create({ threads: 1 });
    const small = be.fromArray(new Float32Array([42]), [1]);
    const before = be.memory.buffer.byteLength;
    const big = be.zeros([40 << 20]); // 160 MiB
    expect(be.memory.buffer.byteLength).toBeGreaterThan(before);
    be.fill(big, 2);
    expect((await be.read(small))[0]).toBe(42);
    expect(be.f32(big)[(40 << 20) - 1]).toBe(2);
    be.dispose();
  });

  it('fills on 4 threads exactly as on 1, at sizes around the split', async () => {
    const { one, many } = await wasmBackends();
    for (const n of [1, 3, 4, 5, 1 << 15, (1 << 17) + 3]) {
      const diff = await sameBits(one, many, (be) => {
        const t = be.zeros([n]);
        be.fill(t, 0.25);
        return [t];
      });
      expect(diff).toBeNull();
      const t = many.zeros([n]);
      many.fill(t, 0.25);
      expect(many.f32(t).every((x) => x === 0.25)).toBe(true);
    }
  });

  it("runs the CPU reference in place on its memory (the host, for matmul's f16 arithmetic)", async () => {
    const { many } = await wasmBackends();
    const a = many.fromArray(new Float32Array([1, 2, 3, 4, 5]), [5]);
    const out = many.zeros([5]);
    many.host.add(out, a, many.fromArray(new Float32Array(5).fill(0.5), [5]));
    expect(Array.from(many.f32(out))).toEqual([1.5, 2.5, 3.5, 4.5, 5.5]);
    many.host.scale(out, 2); // in place, through a typed-array view of the wasm memory
    expect(Array.from(await many.read(out))).toEqual([3, 5, 7, 9, 11]);
  });
});
