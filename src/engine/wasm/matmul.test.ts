/**
 * The wasm matmul (asm/matmul.ts) against the CPU reference: every (transA, transB) on awkward
 * shapes (1, primes, sizes around the 4-row and 8-column blocks, k blocks and chunks of rows), 2-D,
 * batched and broadcast b, overwrite and accumulate onto a non-zero out, every epilogue (bias, GELU,
 * GELU's backward, residual from another tensor and in place), packed-half b, decoding shapes
 * (few rows: b read in place) on 1 and 4 threads; and the same bits on 1 and 4 threads where the
 * product is split (over rows, and over columns for few rows).
 */
import { describe, expect, it } from 'vitest';
import { type Backend, type MatmulOptions, type Tensor } from '../backend';
import { packHalfRef } from '../ops/half';
import { Rng } from '../rng';
import { type Tolerance } from '../testing/compare';
import { sameBits, sameOnWasm, wasmBackends } from './testing/same';

/**
 * The wasm kernel sums up to 127 f32 products in f32, the reference in float64: the error grows
 * with K and with the size of the partial sums, so allow a little more than F32_TOL's absolute part
 * (the matmul GPU tests use the same).
 */
const MM_TOL: Tolerance = { abs: 1e-4, rel: 1e-4 };

interface Case {
  Z: number | null;
  M: number;
  K: number;
  N: number;
  /** b carries the batch dims (else 2-D, broadcast). */
  bBatched?: boolean;
  transA?: boolean;
  transB?: boolean;
  accumulate?: boolean;
  bias?: boolean;
  gelu?: boolean;
  geluGrad?: boolean;
  resid?: 'other' | 'out';
  bHalf?: boolean;
}

function name(c: Case): string {
  const flags = Object.entries(c)
    .filter(([k, v]) => !['Z', 'M', 'K', 'N'].includes(k) && v)
    .map(([k, v]) => (v === true ? k : `${k}=${String(v)}`));
  return `${c.Z ?? '-'}x${c.M}x${c.K}x${c.N} ${flags.join(' ')}`;
}

const randn = (rng: Rng, n: number): Float32Array => Float32Array.from({ length: n }, () => rng.normal());

/** The computation of case c on a backend: its inputs from a seeded generator, returning its outputs. */
function build(c: Case, seed = 1): (be: Backend) => Tensor[] {
  const rng = new Rng(seed);
  const batch = c.Z === null ? [] : [c.Z];
  const aShape = [...batch, ...(c.transA ? [c.K, c.M] : [c.M, c.K])];
  const bLogical = [...(c.bBatched ? batch : []), ...(c.transB ? [c.N, c.K] : [c.K, c.N])];
  const outShape = [...batch, c.M, c.N];
  const size = (s: number[]) => s.reduce((p, d) => p * d, 1);
  const a = randn(rng, size(aShape));
  let b = randn(rng, size(bLogical));
  let bShape = bLogical;
  if (c.bHalf) {
    const packed = new Float32Array(b.length / 2);
    packHalfRef(packed, b);
    b = packed;
    bShape = [...bLogical.slice(0, -1), bLogical[bLogical.length - 1] / 2];
  }
  const out0 = randn(rng, size(outShape));
  const bias = randn(rng, c.N);
  const pre = randn(rng, size(outShape));
  const resid = randn(rng, size(outShape));
  return (be) => {
    const out = be.fromArray(out0, outShape);
    const opts: MatmulOptions = {
      transA: c.transA,
      transB: c.transB,
      accumulate: c.accumulate,
      bHalf: c.bHalf,
    };
    if (c.bias) opts.bias = be.fromArray(bias, [c.N]);
    const geluOut = c.gelu ? be.zeros(outShape) : null;
    if (geluOut) opts.geluOut = geluOut;
    if (c.geluGrad) opts.geluGradOf = be.fromArray(pre, outShape);
    if (c.resid) opts.residual = c.resid === 'out' ? out : be.fromArray(resid, outShape);
    be.matmul(out, be.fromArray(a, aShape), be.fromArray(b, bShape), opts);
    return geluOut ? [out, geluOut] : [out];
  };
}

async function check(cases: Case[]): Promise<void> {
  const { one, many } = await wasmBackends();
  const bad: string[] = [];
  for (const c of cases) {
    const labels = c.gelu ? ['out', 'geluOut'] : ['out'];
    for (const be of [one, many]) {
      const reports = await sameOnWasm(be, labels, build(c), MM_TOL);
      for (const r of reports) if (!r.ok) bad.push(`${name(c)} (${be.threads}t): ${r.summary}`);
    }
  }
  expect(bad).toEqual([]);
}

const TRANS: [boolean, boolean][] = [
  [false, false],
  [false, true],
  [true, false],
  [true, true],
];

/** Mixes of 1, 3, 4, 5, 7, 13, 17, 33, 64, 65, 127 for M, K and N. */
const SHAPES: [number, number, number][] = [
  [1, 1, 1],
  [3, 5, 7],
  [4, 4, 4],
  [5, 13, 17],
  [7, 3, 1],
  [13, 17, 5],
  [17, 1, 33],
  [33, 7, 13],
  [64, 65, 3],
  [65, 33, 64],
  [127, 17, 65],
  [4, 127, 8],
  [1, 64, 127],
  [33, 127, 127],
];

describe('wasm matmul', () => {
  it('matches the reference for every transpose on awkward 2-D shapes, overwriting and accumulating', async () => {
    const cases: Case[] = [];
    for (const [M, K, N] of SHAPES)
      for (const [transA, transB] of TRANS)
        for (const accumulate of [false, true]) cases.push({ Z: null, M, K, N, transA, transB, accumulate });
    await check(cases);
  });

  it('matches the reference on batched and broadcast b', async () => {
    const cases: Case[] = [];
    for (const [M, K, N] of [
      [13, 17, 5],
      [5, 33, 65],
      [1, 7, 13],
      [64, 13, 17],
    ])
      for (const [transA, transB] of TRANS) {
        cases.push({ Z: 3, M, K, N, bBatched: true, transA, transB });
        cases.push({ Z: 2, M, K, N, bBatched: true, transA, transB, accumulate: true });
        if (!transA) cases.push({ Z: 3, M, K, N, bBatched: false, transB, bias: true });
      }
    await check(cases);
  });

  it('matches the reference for every epilogue', async () => {
    const cases: Case[] = [];
    for (const [M, K, N] of [
      [1, 5, 7],
      [7, 13, 17],
      [33, 17, 13],
      [65, 64, 33],
      [4, 3, 64],
    ])
      for (const [transA, transB] of TRANS) {
        const base = { Z: null, M, K, N, transA, transB };
        cases.push({ ...base, bias: true });
        cases.push({ ...base, gelu: true });
        cases.push({ ...base, bias: true, gelu: true });
        cases.push({ ...base, geluGrad: true });
        cases.push({ ...base, geluGrad: true, accumulate: true });
        cases.push({ ...base, geluGrad: true, accumulate: true, bias: true });
        cases.push({ ...base, resid: 'other' });
        cases.push({ ...base, resid: 'other', bias: true });
        cases.push({ ...base, resid: 'out' });
        cases.push({ ...base, resid: 'out', bias: true });
        cases.push({ ...base, accumulate: true, bias: true });
      }
    await check(cases);
  });

  it('matches the reference when k runs in blocks (K beyond 512) and rows in several chunks', async () => {
    const cases: Case[] = [];
    // K = 600: chunks of 24 blocks of 4 rows, so 103 rows are 5 chunks, the last block short.
    for (const [M, K, N] of [
      [4, 513, 9],
      [13, 600, 17],
      [7, 1100, 8],
      [103, 600, 33],
    ])
      for (const [transA, transB] of TRANS) {
        const base = { Z: null, M, K, N, transA, transB };
        cases.push(base);
        cases.push({ ...base, accumulate: true, bias: true, gelu: true });
        cases.push({ ...base, geluGrad: true, accumulate: true });
        cases.push({ ...base, resid: 'out', bias: true });
      }
    cases.push({ Z: 2, M: 13, K: 600, N: 18, bBatched: true, transA: true, bHalf: true });
    cases.push({ Z: 3, M: 5, K: 600, N: 18, bHalf: true, accumulate: true });
    await check(cases);
  });

  it('matches the reference with b in packed halves', async () => {
    const cases: Case[] = [];
    // The packed (last, contiguous) dim is N, or K with transB: even.
    for (const [M, K, N] of [
      [1, 7, 2],
      [5, 13, 18],
      [33, 17, 64],
      [64, 65, 34],
      [1, 128, 128],
    ])
      for (const [transA, transB] of TRANS) {
        const k = transB ? K + (K % 2) : K;
        cases.push({ Z: null, M, K: k, N, transA, transB, bHalf: true });
        cases.push({ Z: null, M, K: k, N, transA, transB, bHalf: true, bias: true, gelu: true });
        cases.push({ Z: 2, M, K: k, N, bBatched: true, transA, transB, bHalf: true, accumulate: true });
      }
    await check(cases);
  });

  it('reads every finite half exactly: subnormals, signed zeros, the largest', async () => {
    const { one } = await wasmBackends();
    for (const [K, N, transB] of [
      [6, 16, false],
      [7, 18, false],
      [8, 16, true],
      [10, 9, true],
    ] as const) {
      const rng = new Rng(K * N);
      // Random bit patterns with a finite exponent, and a few chosen ones.
      const bits = Array.from({ length: K * N }, () => {
        const h = rng.nextU32() & 0xffff;
        return (h & 0x7c00) === 0x7c00 ? h & 0x83ff : h;
      });
      [0x0000, 0x8000, 0x0001, 0x83ff, 0x7bff, 0xfbff, 0x0400].forEach((h, i) => (bits[i] = h));
      const words = new Uint32Array((K * N) / 2);
      for (let i = 0; i < words.length; i++) words[i] = bits[2 * i] | (bits[2 * i + 1] << 16);
      const packed = new Float32Array(words.buffer);
      // a = I: out = op(b) exactly, in both sums.
      const a = Float32Array.from({ length: K * K }, (_, i) => (i % (K + 1) === 0 ? 1 : 0));
      const bShape = transB ? [N, K / 2] : [K, N / 2];
      const run = (be: Backend) => {
        const out = be.zeros([K, N]);
        be.matmul(out, be.fromArray(a, [K, K]), be.fromArray(packed, bShape), { transB, bHalf: true });
        return [out];
      };
      const reports = await sameOnWasm(one, ['out'], run, { abs: 0, rel: 0 });
      expect(reports.filter((r) => !r.ok).map((r) => r.summary)).toEqual([]);
    }
  });

  it('matches the reference on decoding shapes (few rows, K = N = 128)', async () => {
    const cases: Case[] = [];
    for (const M of [1, 8, 16, 64])
      for (const transB of [false, true]) {
        cases.push({ Z: null, M, K: 128, N: 128, transB });
        cases.push({ Z: null, M, K: 128, N: 128, transB, bias: true, resid: 'out' });
        cases.push({ Z: null, M, K: 128, N: 128, transB, bHalf: true });
      }
    cases.push({ Z: null, M: 1, K: 128, N: 131, bias: true, gelu: true });
    await check(cases);
  });

  it('gives the same bits on 1 and 4 threads where the product is split', async () => {
    const { one, many } = await wasmBackends();
    const cases: Case[] = [];
    for (const [transA, transB] of TRANS) {
      cases.push({ Z: null, M: 200, K: 96, N: 130, transA, transB });
      cases.push({ Z: null, M: 200, K: 96, N: 130, transA, transB, accumulate: true, bias: true, gelu: true });
    }
    cases.push({ Z: null, M: 200, K: 96, N: 130, geluGrad: true, accumulate: true });
    cases.push({ Z: null, M: 200, K: 96, N: 130, resid: 'out', bias: true });
    cases.push({ Z: null, M: 200, K: 96, N: 130, bHalf: true, transB: true });
    cases.push({ Z: 3, M: 67, K: 96, N: 130, bBatched: true, transA: true });
    cases.push({ Z: null, M: 100, K: 600, N: 70, accumulate: true, bias: true });
    cases.push({ Z: null, M: 100, K: 600, N: 70, transA: true, transB: true, resid: 'out' });
    cases.push({ Z: null, M: 203, K: 600, N: 70, bias: true });
    cases.push({ Z: null, M: 203, K: 600, N: 70, transA: true, accumulate: true });
    cases.push({ Z: 2, M: 203, K: 40, N: 24, bBatched: true });
    for (const M of [1, 8, 16, 64]) {
      cases.push({ Z: null, M, K: 128, N: 128 });
      cases.push({ Z: null, M, K: 128, N: 128, transB: true, bias: true });
    }
    for (const c of cases) expect([name(c), await sameBits(one, many, build(c))]).toEqual([name(c), null]);
  });

  it('keeps math f16 on the reference and validates shapes as the reference does', async () => {
    const { one } = await wasmBackends();
    const cases: Case[] = [{ Z: null, M: 5, K: 8, N: 6, bHalf: true, transB: true }];
    const c = cases[0];
    const run = (be: Backend): Tensor[] => {
      const rng = new Rng(3);
      const a = be.fromArray(randn(rng, c.M * c.K), [c.M, c.K]);
      const bv = randn(rng, c.N * c.K);
      const packed = new Float32Array(bv.length / 2);
      packHalfRef(packed, bv);
      const out = be.zeros([c.M, c.N]);
      be.matmul(out, a, be.fromArray(packed, [c.N, c.K / 2]), { transB: true, bHalf: true, math: 'f16' });
      return [out];
    };
    const reports = await sameOnWasm(one, ['out'], run, { abs: 0, rel: 0 });
    expect(reports.filter((r) => !r.ok).map((r) => r.summary)).toEqual([]);
    const out = one.zeros([3, 4]);
    expect(() => one.matmul(out, one.zeros([3, 5]), one.zeros([6, 4]))).toThrow(/inner dims differ/);
  });

  it('fuses its GELU epilogues to the bits of the wasm gelu ops after the product', async () => {
    const { many } = await wasmBackends();
    const rng = new Rng('mm fused gelu');
    const rand = (n: number) => Float32Array.from({ length: n }, () => rng.normal());
    for (const [M, K, N] of [
      [16, 128, 512],
      [7, 33, 13],
      [130, 48, 67],
    ]) {
      const [a, b, pre, dOut] = [rand(M * K), rand(K * N), rand(M * N), rand(M * N)];
      const ta = many.fromArray(a, [M, K]);
      const tb = many.fromArray(b, [K, N]);
      // forward: matmul with geluOut against matmul then gelu
      const out1 = many.zeros([M, N]);
      const g1 = many.zeros([M, N]);
      many.matmul(out1, ta, tb, { geluOut: g1 });
      const out2 = many.zeros([M, N]);
      const g2 = many.zeros([M, N]);
      many.matmul(out2, ta, tb);
      many.gelu(g2, out2);
      expect(Array.from(many.f32(g1)), `geluOut ${M}x${K}x${N}`).toEqual(Array.from(many.f32(g2)));
      // backward: geluGradOf (accumulating) against the product into a scratch then geluBackward
      const tpre = many.fromArray(pre, [M, N]);
      const d1 = many.fromArray(dOut, [M, N]);
      many.matmul(d1, ta, tb, { geluGradOf: tpre, accumulate: true });
      const d2 = many.fromArray(dOut, [M, N]);
      const prod = many.zeros([M, N]);
      many.matmul(prod, ta, tb);
      many.geluBackward(d2, tpre, prod);
      expect(Array.from(many.f32(d1)), `geluGradOf ${M}x${K}x${N}`).toEqual(Array.from(many.f32(d2)));
    }
  });
});
