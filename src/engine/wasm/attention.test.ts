/**
 * The wasm attention kernels (asm/attention.ts) against the CPU references: the training forward
 * and backward (f32 and packed-half probabilities) on awkward shapes, and the cached step with f32
 * and f16 caches (the cache bits exactly as the reference writes them), large scores, and the same
 * bits on 1 and 4 threads.
 */
import { describe, expect, it } from 'vitest';
import { attentionSize, type Backend, type CachedAttentionShape, type Tensor } from '../backend';
import { CpuBackend } from '../cpu/backend';
import { halfBits } from '../ops/half';
import { Rng } from '../rng';
import { randn } from '../testing/gpu-test';
import { sameBits, sameOnWasm, wasmBackends } from './testing/same';

interface Shape {
  B: number;
  T: number;
  H: number;
  hs: number;
}

/** Shapes: B 1..3, T 1, 2, 7, 33, 65, 200, head sizes 1, 3, 12, 16, 17, 64, H 1..4. */
const SHAPES: Shape[] = [
  { B: 1, T: 1, H: 1, hs: 1 },
  { B: 2, T: 2, H: 3, hs: 3 },
  { B: 1, T: 7, H: 2, hs: 12 },
  { B: 3, T: 7, H: 1, hs: 17 },
  { B: 2, T: 33, H: 4, hs: 3 },
  { B: 1, T: 33, H: 2, hs: 16 },
  { B: 2, T: 65, H: 3, hs: 17 },
  { B: 1, T: 65, H: 4, hs: 12 },
  { B: 3, T: 2, H: 4, hs: 1 },
  { B: 1, T: 200, H: 2, hs: 64 }, // the model's largest head size, a long context
];

const label = ({ B, T, H, hs }: Shape) => `B=${B} T=${T} H=${H} hs=${hs}`;

function failures(reports: { ok: boolean; summary: string }[]): string[] {
  return reports.filter((r) => !r.ok).map((r) => r.summary);
}

/** The forward: out and att. */
function forward(be: Backend, { B, T, H, hs }: Shape, qkv: Float32Array): Tensor[] {
  const C = H * hs;
  const out = be.fromArray(new Float32Array(B * T * C).fill(7), [B, T, C]);
  const att = be.fromArray(new Float32Array(attentionSize({ B, H, T })).fill(7), [attentionSize({ B, H, T })]);
  be.attention(out, att, be.fromArray(qkv, [B, T, 3 * C]), { B, T, C, H });
  return [out, att];
}

/** The backward onto a non-zero dqkv, from the forward's att (or its packed halves). */
function backward(
  be: Backend,
  s: Shape,
  qkv: Float32Array,
  dOut: Float32Array,
  d0: Float32Array,
  half: boolean,
): Tensor[] {
  const { B, T, H, hs } = s;
  const C = H * hs;
  // att from the CPU reference for both backends: a wasm forward's att differs by rounding, which
  // packing to halves can turn into a half's ulp (~1e-3 relative), hiding the backward's own error
  const cpu = new CpuBackend();
  const probs = cpu.f32Of(forward(cpu, s, qkv)[1]);
  const att = be.fromArray(probs, [probs.length]);
  let saved = att;
  if (half) {
    saved = be.zeros([Math.ceil(att.size / 2)]);
    be.packHalf(saved, att);
  }
  const dqkv = be.fromArray(d0, [B, T, 3 * C]);
  be.attentionBackward(
    dqkv,
    be.fromArray(dOut, [B, T, C]),
    be.fromArray(qkv, [B, T, 3 * C]),
    saved,
    { B, T, C, H },
    {
      attHalf: half,
    },
  );
  return [dqkv];
}

function inputs(s: Shape, seed: string, scale = 1) {
  const rng = new Rng(seed);
  const C = s.H * s.hs;
  const qkv = randn(rng, s.B * s.T * 3 * C).map((x) => x * scale);
  const dOut = randn(rng, s.B * s.T * C);
  const d0 = randn(rng, s.B * s.T * 3 * C);
  return { qkv, dOut, d0 };
}

describe('wasm attention (training)', () => {
  it('forward matches the CPU reference on awkward shapes', async () => {
    const { one, many } = await wasmBackends();
    for (const s of SHAPES) {
      const { qkv } = inputs(s, `fwd ${label(s)}`);
      for (const be of [one, many]) {
        const r = await sameOnWasm(be, [`out ${label(s)}`, `att ${label(s)}`], (b) => forward(b, s, qkv));
        expect(failures(r)).toEqual([]);
      }
    }
  });

  it('backward accumulates onto a non-zero dqkv as the reference, f32 and half probabilities', async () => {
    const { many } = await wasmBackends();
    for (const s of SHAPES) {
      const { qkv, dOut, d0 } = inputs(s, `bwd ${label(s)}`);
      for (const half of [false, true]) {
        const r = await sameOnWasm(many, [`dqkv ${label(s)} half=${half}`], (b) => backward(b, s, qkv, dOut, d0, half));
        expect(failures(r)).toEqual([]);
      }
    }
  });

  it('stays finite and close with large scores (inputs ×10)', async () => {
    const { many } = await wasmBackends();
    for (const s of [SHAPES[5], SHAPES[6]]) {
      const { qkv, dOut, d0 } = inputs(s, `big ${label(s)}`, 10);
      // Looser than F32_TOL: scores reach ~400, and an f32 score is off by a few of its ulps
      // (~1e-4 absolute, the reference's f32 att too), which the exp turns into that relative error
      // in the probabilities; out sums v of ~±10 with cancellation on top.
      const tol = { abs: 1e-4, rel: 1e-3 };
      const f = await sameOnWasm(many, ['out ×10', 'att ×10'], (b) => forward(b, s, qkv), tol);
      expect(failures(f)).toEqual([]);
      const g = await sameOnWasm(many, ['dqkv ×10'], (b) => backward(b, s, qkv, dOut, d0, false), tol);
      expect(failures(g)).toEqual([]);
    }
  });

  it('gives the same bits on 1 and 4 threads', async () => {
    const { one, many } = await wasmBackends();
    const s: Shape = { B: 2, T: 64, H: 4, hs: 16 };
    const { qkv, dOut, d0 } = inputs(s, 'bits');
    expect(await sameBits(one, many, (b) => forward(b, s, qkv))).toBeNull();
    for (const half of [false, true])
      expect(await sameBits(one, many, (b) => backward(b, s, qkv, dOut, d0, half))).toBeNull();
  });
});

// ---- cached -------------------------------------------------------------------------------------------

/** Random finite halves packed two to a word, as f32 bits (an f16 cache's earlier contents). */
function randomHalfWords(rng: Rng, n: number): Float32Array {
  const w = new Uint32Array(n);
  for (let i = 0; i < n; i++) w[i] = (halfBits(rng.normal()) | (halfBits(rng.normal()) << 16)) >>> 0;
  return new Float32Array(w.buffer);
}

interface CachedCase {
  s: CachedAttentionShape;
  qkv: Float32Array;
  k0: Float32Array;
  v0: Float32Array;
  start: Int32Array;
  len: Int32Array;
}

function cachedCase(s: CachedAttentionShape, start: number[], len: number[], seed: string, scale = 1): CachedCase {
  const rng = new Rng(seed);
  const { B, S, maxT, C } = s;
  const f16 = s.cache === 'f16';
  const n = B * maxT * C;
  const qkv = randn(rng, B * S * 3 * C).map((x) => x * scale);
  // v values past ±65504 too, for the clamp (k ones would make the scores meaningless; see 'rounds')
  if (f16 && scale === 1) for (let i = 2 * C; i < qkv.length; i += 7) if (i % (3 * C) >= 2 * C) qkv[i] *= 1e5;
  const k0 = f16 ? randomHalfWords(rng, n / 2) : randn(rng, n);
  const v0 = f16 ? randomHalfWords(rng, n / 2) : randn(rng, n);
  return { s, qkv, k0, v0, start: Int32Array.from(start), len: Int32Array.from(len) };
}

function runCached(be: Backend, c: CachedCase): Tensor[] {
  const { B, S, C } = c.s;
  const out = be.fromArray(new Float32Array(B * S * C).fill(9), [B, S, C]);
  const kc = be.fromArray(c.k0, [c.k0.length]);
  const vc = be.fromArray(c.v0, [c.v0.length]);
  be.attentionCached(
    out,
    kc,
    vc,
    be.fromArray(c.qkv, [B, S, 3 * C]),
    be.fromArray(c.start, [B]),
    be.fromArray(c.len, [B]),
    c.s,
  );
  return [out, kc, vc];
}

/** The caches' bits equal the reference's; out within tolerance. */
async function checkCached(be: Backend, c: CachedCase, what: string, tol?: { abs: number; rel: number }) {
  const cpu = new CpuBackend();
  const want = await Promise.all(runCached(cpu, c).map((t) => cpu.read(t)));
  const gotT = runCached(be, c);
  const got = await Promise.all(gotT.map((t) => be.read(t)));
  for (const t of gotT) be.release(t);
  for (const i of [1, 2]) {
    const [g, w] = [new Uint32Array(got[i].buffer), new Uint32Array(want[i].buffer)];
    const bad = g.findIndex((x, j) => x !== w[j]);
    expect(bad, `${what}: ${i === 1 ? 'kCache' : 'vCache'} word ${bad}`).toBe(-1);
  }
  const r = await sameOnWasm(be, [`out ${what}`], (b) => [runCached(b, c)[0]], tol);
  expect(failures(r)).toEqual([]);
}

describe('wasm attention (cached)', () => {
  const cases: [string, CachedAttentionShape, number[], number[]][] = [
    ['one step at 0', { B: 1, S: 1, maxT: 9, C: 6, H: 3 }, [0], [1]],
    ['one step, batch at several positions', { B: 4, S: 1, maxT: 33, C: 12, H: 2 }, [0, 5, 32, 17], [1, 1, 1, 0]],
    ['one step, head size 16', { B: 3, S: 1, maxT: 40, C: 64, H: 4 }, [39, 1, 20], [1, 1, 1]],
    ['prefill', { B: 2, S: 7, maxT: 7, C: 36, H: 2 }, [0, 0], [7, 5]],
    ['a chunk mid-sequence', { B: 3, S: 5, maxT: 20, C: 24, H: 2 }, [3, 15, 0], [5, 5, 2]],
    ['past the cache end, negative start', { B: 2, S: 4, maxT: 10, C: 12, H: 3 }, [8, -2], [4, 4]],
  ];

  for (const cache of ['f32', 'f16'] as const) {
    it(`matches the reference with an ${cache} cache`, async () => {
      const { one, many } = await wasmBackends();
      for (const [what, s, start, len] of cases) {
        const c = cachedCase({ ...s, cache }, start, len, `${cache} ${what}`);
        await checkCached(one, c, `${cache} ${what}`);
        await checkCached(many, c, `${cache} ${what}`);
      }
    });
  }

  it('handles odd head sizes with an f32 cache', async () => {
    const { many } = await wasmBackends();
    for (const [C, H] of [
      [3, 3],
      [17, 1],
      [51, 3],
    ]) {
      const c = cachedCase({ B: 2, S: 3, maxT: 12, C, H }, [0, 6], [3, 2], `odd ${C}/${H}`);
      await checkCached(many, c, `hs=${C / H}`);
    }
  });

  it('rounds new k and v to halves as the reference: ties, subnormals, the clamp', async () => {
    const { one } = await wasmBackends();
    const s: CachedAttentionShape = { B: 2, S: 3, maxT: 5, C: 8, H: 2, cache: 'f16' };
    const c = cachedCase(s, [0, 2], [3, 3], 'rounding');
    const special = [65504, 65519, 65520, 1e6, -1e6, -65505, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 2 ** -24, 2 ** -25];
    special.push(3 * 2 ** -26, 1e-6, -3e-8, 0, -0, 6.1e-5, 2 ** -14 * (1 - 2 ** -11), 0.1, -1 / 3, NaN);
    for (let tok = 0; tok < s.B * s.S; tok++)
      for (let i = 0; i < 3 * s.C; i++) {
        const at = tok * 3 * s.C + i;
        if (i < s.C)
          c.qkv[at] = 0; // q = 0: every score 0, whatever k holds
        else c.qkv[at] = special[(at * 7) % special.length];
      }
    c.qkv[3 * s.C - 1] = 1; // keep NaN out of one head's v: still compared
    // out averages values up to ±65504 (every score 0): f32 sums of those round by ~0.004 a term
    await checkCached(one, c, 'rounding', { abs: 0.05, rel: 1e-4 });
  });

  it('stays close with large scores (inputs ×10)', async () => {
    const { many } = await wasmBackends();
    for (const cache of ['f32', 'f16'] as const) {
      const c = cachedCase({ B: 2, S: 3, maxT: 40, C: 64, H: 4, cache }, [10, 37], [3, 3], `big ${cache}`, 10);
      await checkCached(many, c, `×10 ${cache}`);
    }
  });

  it('gives the same bits on 1 and 4 threads', async () => {
    const { one, many } = await wasmBackends();
    for (const cache of ['f32', 'f16'] as const) {
      const c = cachedCase(
        { B: 8, S: 2, maxT: 128, C: 64, H: 4, cache },
        [0, 30, 60, 90, 126, 5, 100, 64],
        [2, 2, 2, 2, 2, 1, 2, 0],
        `bits ${cache}`,
      );
      expect(await sameBits(one, many, (b) => runCached(b, c))).toBeNull();
    }
  });
});
