import { describe, expect, it } from 'vitest';
import { attentionSize } from '../backend';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { compare } from '../testing/compare';
import { randn } from '../testing/gpu-test';
import { halfBits, halfValue } from './half';

describe('attentionCached (CPU reference)', () => {
  const B = 2,
    T = 7,
    C = 6,
    H = 3;
  const rng = new Rng('kv-ref');
  const qkv = randn(rng, B * T * 3 * C);

  it('decoding one token at a time equals a prefill and equals full causal attention', async () => {
    const be = new CpuBackend();
    const prefill = be.zeros([B, T, C]);
    be.attentionCached(
      prefill,
      be.zeros([B, T, C]),
      be.zeros([B, T, C]),
      be.fromArray(qkv, [B, T, 3 * C]),
      be.fromArray(new Int32Array(B), [B]),
      be.fromArray(new Int32Array(B).fill(T), [B]),
      { B, S: T, maxT: T, C, H },
    );
    const kc = be.zeros([B, T, C]);
    const vc = be.zeros([B, T, C]);
    const stepwise = new Float32Array(B * T * C);
    for (let t = 0; t < T; t++) {
      const step = new Float32Array(B * 3 * C);
      for (let b = 0; b < B; b++) step.set(qkv.subarray((b * T + t) * 3 * C, (b * T + t + 1) * 3 * C), b * 3 * C);
      const out = be.zeros([B, 1, C]);
      be.attentionCached(
        out,
        kc,
        vc,
        be.fromArray(step, [B, 3 * C]),
        be.fromArray(new Int32Array(B).fill(t), [B]),
        be.fromArray(new Int32Array(B).fill(1), [B]),
        { B, S: 1, maxT: T, C, H },
      );
      const o = await be.read(out);
      for (let b = 0; b < B; b++) stepwise.set(o.subarray(b * C, (b + 1) * C), (b * T + t) * C);
    }
    const full = be.zeros([B, T, C]);
    be.attention(full, be.zeros([attentionSize({ B, H, T })]), be.fromArray(qkv, [B, T, 3 * C]), { B, T, C, H });
    const r1 = compare('stepwise vs prefill', stepwise, await be.read(prefill));
    const r2 = compare('prefill vs full attention', await be.read(prefill), await be.read(full));
    expect(r1.ok, r1.summary).toBe(true);
    expect(r2.ok, r2.summary).toBe(true);
  });

  it('zeroes padding rows and leaves the cache untouched past len', async () => {
    const be = new CpuBackend();
    const out = be.fromArray(new Float32Array(B * T * C).fill(9), [B, T, C]);
    const kc = be.zeros([B, T, C]);
    be.attentionCached(
      out,
      kc,
      be.zeros([B, T, C]),
      be.fromArray(qkv, [B, T, 3 * C]),
      be.fromArray(new Int32Array(B), [B]),
      be.fromArray(Int32Array.of(2, 0), [B]),
      { B, S: T, maxT: T, C, H },
    );
    const o = await be.read(out);
    const k = await be.read(kc);
    expect(Array.from(o.subarray(2 * C, T * C)).every((x) => x === 0)).toBe(true); // b = 0, rows 2..
    expect(Array.from(o.subarray(T * C)).every((x) => x === 0)).toBe(true); // b = 1, all padding
    expect(Array.from(k.subarray(2 * C, T * C)).every((x) => x === 0)).toBe(true);
    expect(k[0]).toBe(qkv[C]);
  });

  it('names the bad tensor on a shape mismatch', () => {
    const be = new CpuBackend();
    expect(() =>
      be.attentionCached(
        be.zeros([1]),
        be.zeros([B, T, C]),
        be.zeros([B, T, C]),
        be.zeros([B, T, 3 * C]),
        be.zeros([B], 'i32'),
        be.zeros([B], 'i32'),
        { B, S: T, maxT: T, C, H },
      ),
    ).toThrow(/out \(B, S, C\) needs/);
  });

  it('an f16 cache: the same as the f32 op on k and v rounded to half, the halves packed two to a word', async () => {
    const be = new CpuBackend();
    const big = Float32Array.from(qkv, (x, i) => (i % 17 === 0 ? x * 1e5 : x)); // some beyond ±65504: clamped
    const rounded = Float32Array.from(big, (x, i) => (i % (3 * C) >= C ? halfValue(halfBits(x)) : x)); // q kept
    const run = (input: Float32Array, cache: 'f32' | 'f16') => {
      const words = cache === 'f16' ? (B * T * C) / 2 : B * T * C;
      const kc = be.zeros([words]);
      const vc = be.zeros([words]);
      const out = be.zeros([B, T, C]);
      be.attentionCached(
        out,
        kc,
        vc,
        be.fromArray(input, [B, T, 3 * C]),
        be.fromArray(new Int32Array(B), [B]),
        be.fromArray(Int32Array.of(T, 4), [B]),
        { B, S: T, maxT: T, C, H, cache },
      );
      return { out: Array.from(be.f32Of(out)), k: be.f32Of(kc), v: be.f32Of(vc) };
    };
    const f16 = run(big, 'f16');
    const ref = run(rounded, 'f32');
    expect(f16.out).toEqual(ref.out);
    const words = new Uint32Array(f16.k.buffer, f16.k.byteOffset, f16.k.length);
    for (let i = 0; i < B * T * C; i++) {
      const h = i & 1 ? words[i >> 1] >>> 16 : words[i >> 1] & 0xffff;
      expect(halfValue(h), `k element ${i}`).toBe(ref.k[i]);
    }
    expect(Math.max(...Array.from(ref.k, Math.abs))).toBe(65504);
    // Stepwise decoding into an f16 cache equals the f16 prefill.
    const kc = be.zeros([(B * T * C) / 2]);
    const vc = be.zeros([(B * T * C) / 2]);
    for (let t = 0; t < 4; t++) {
      const step = new Float32Array(B * 3 * C);
      for (let b = 0; b < B; b++) step.set(big.subarray((b * T + t) * 3 * C, (b * T + t + 1) * 3 * C), b * 3 * C);
      const out = be.zeros([B, 1, C]);
      be.attentionCached(
        out,
        kc,
        vc,
        be.fromArray(step, [B, 3 * C]),
        be.fromArray(new Int32Array(B).fill(t), [B]),
        be.fromArray(new Int32Array(B).fill(1), [B]),
        { B, S: 1, maxT: T, C, H, cache: 'f16' },
      );
      for (let b = 0; b < B; b++)
        expect(Array.from(be.f32Of(out).subarray(b * C, (b + 1) * C))).toEqual(
          f16.out.slice((b * T + t) * C, (b * T + t + 1) * C),
        );
    }
  });

  it('an f16 cache rejects an odd head size and a cache of f32 size', () => {
    const be = new CpuBackend();
    const z = (n: number) => be.zeros([n]);
    const i32 = () => be.zeros([1], 'i32');
    expect(() =>
      be.attentionCached(z(3), z(3), z(3), z(9), i32(), i32(), { B: 1, S: 1, maxT: 1, C: 3, H: 1, cache: 'f16' }),
    ).toThrow(/even head size, got 3/);
    expect(() =>
      be.attentionCached(z(C), z(C), z(C), z(3 * C), i32(), i32(), { B: 1, S: 1, maxT: 1, C, H, cache: 'f16' }),
    ).toThrow(/kCache \(B, maxT, C \/ 2\) words needs 3 elements, got 6/);
  });
});
