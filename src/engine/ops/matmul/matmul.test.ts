/**
 * Node tests for matmul: the CPU reference on known values, finite-difference checks of the
 * backward plan in float64 for every (transA, transB) combination, batched and broadcast, the CPU
 * backend path (with its flattened views) against the float64 plan, determinism and shape errors.
 *
 * Longer than ~400 lines on purpose: every kernel family is held to the same references over the
 * same case tables; split by family, each file would copy the tables.
 */
import { describe, expect, it } from 'vitest';
import type { MatmulOptions } from '../../backend';
import { CpuBackend } from '../../cpu/backend';
import { Rng } from '../../rng';
import { gradCheck, randn64, weightedSum } from '../../testing/gradcheck';
import { compare } from '../../testing/compare';
import { matmulBackward, matmulBackwardRef } from './backward';
import { matmulCpuFast } from './cpu';
import { matmulDims } from './dims';
import { pickMatmulVariant } from './index';
import { matmulF16Ref, matmulRef } from './reference';
import { MatmulChooser } from './tune';
import { halfBits, halfValue, roundHalf, unpackHalves } from '../half';

interface Case {
  label: string;
  a: number[];
  b: number[];
  out: number[];
  opts: MatmulOptions;
}

/** Shapes for op(a) (Z, M, K) · op(b) (Z?, K, N) with the stored layouts each flag implies. */
function makeCase(
  Z: number | null,
  M: number,
  K: number,
  N: number,
  transA: boolean,
  transB: boolean,
  bBatched: boolean,
): Case {
  const lead = Z === null ? [] : [Z];
  const a = [...lead, ...(transA ? [K, M] : [M, K])];
  const b = [...(bBatched ? lead : []), ...(transB ? [N, K] : [K, N])];
  const kind = Z === null ? '2-D' : bBatched ? `batched Z=${Z}` : `broadcast Z=${Z}`;
  return { label: `${kind} transA=${transA} transB=${transB}`, a, b, out: [...lead, M, N], opts: { transA, transB } };
}

const CASES: Case[] = [];
for (const transA of [false, true]) {
  for (const transB of [false, true]) {
    CASES.push(makeCase(null, 3, 4, 5, transA, transB, false));
    CASES.push(makeCase(2, 3, 2, 4, transA, transB, true));
    if (!transA) CASES.push(makeCase(3, 2, 3, 4, transA, transB, false));
  }
}

const size = (s: readonly number[]): number => s.reduce((p, d) => p * d, 1);

describe('matmul CPU reference', () => {
  it('computes a known 2x3 · 3x2 product, and accumulates', () => {
    const a = Float64Array.from([1, 2, 3, 4, 5, 6]); // (2, 3)
    const b = Float64Array.from([7, 8, 9, 10, 11, 12]); // (3, 2)
    const out = new Float64Array(4);
    matmulRef(out, a, b, matmulDims([2, 2], [2, 3], [3, 2]));
    expect(Array.from(out)).toEqual([58, 64, 139, 154]);
    matmulRef(out, a, b, matmulDims([2, 2], [2, 3], [3, 2], { accumulate: true }));
    expect(Array.from(out)).toEqual([116, 128, 278, 308]);
  });

  it('transposed operands give the same product as the stored transposes', () => {
    const a = Float64Array.from([1, 4, 2, 5, 3, 6]); // aᵀ stored (3, 2)
    const b = Float64Array.from([7, 9, 11, 8, 10, 12]); // bᵀ stored (2, 3)
    const out = new Float64Array(4);
    matmulRef(out, a, b, matmulDims([2, 2], [3, 2], [2, 3], { transA: true, transB: true }));
    expect(Array.from(out)).toEqual([58, 64, 139, 154]);
  });
});

describe('matmul backward: finite differences in float64', () => {
  for (const c of CASES) {
    it(c.label, () => {
      const rng = new Rng(`matmul ${c.label}`);
      const a = randn64(rng, size(c.a));
      const b = randn64(rng, size(c.b));
      const w = randn64(rng, size(c.out));
      const d = matmulDims(c.out, c.a, c.b, c.opts);
      const loss = (): number => {
        const out = new Float64Array(size(c.out));
        matmulRef(out, a, b, d);
        return weightedSum(out, w);
      };
      const dA = new Float64Array(a.length);
      const dB = new Float64Array(b.length);
      matmulBackwardRef(dA, dB, w, a, b, c, c.opts);
      for (const r of [gradCheck(`dA ${c.label}`, loss, a, dA), gradCheck(`dB ${c.label}`, loss, b, dB)]) {
        expect(r.ok, r.summary).toBe(true);
      }
    });
  }

  it('backward accumulates into existing gradients and skips a null one', () => {
    const c = makeCase(null, 2, 3, 2, false, false, false);
    const rng = new Rng('acc');
    const [a, b, w] = [randn64(rng, 6), randn64(rng, 6), randn64(rng, 4)];
    const once = new Float64Array(6);
    matmulBackwardRef(once, null, w, a, b, c);
    const twice = new Float64Array(6);
    matmulBackwardRef(twice, null, w, a, b, c);
    matmulBackwardRef(twice, null, w, a, b, c);
    expect(Array.from(twice)).toEqual(Array.from(once, (x) => 2 * x));
  });
});

describe('matmul on the CPU backend', () => {
  for (const c of CASES) {
    it(`forward and backward match the float64 plan: ${c.label}`, () => {
      const be = new CpuBackend();
      const rng = new Rng(`cpu ${c.label}`);
      const a = randn64(rng, size(c.a));
      const b = randn64(rng, size(c.b));
      const w = randn64(rng, size(c.out));
      const ta = be.fromArray(Float32Array.from(a), c.a);
      const tb = be.fromArray(Float32Array.from(b), c.b);
      const tw = be.fromArray(Float32Array.from(w), c.out);
      const out = be.zeros(c.out);
      be.matmul(out, ta, tb, c.opts);
      const dA = be.zeros(c.a);
      const dB = be.zeros(c.b);
      matmulBackward(be, dA, dB, tw, ta, tb, c.opts);
      // The references run on the f32-rounded inputs, in float64.
      const [a32, b32, w32] = [
        Float64Array.from(be.f32Of(ta)),
        Float64Array.from(be.f32Of(tb)),
        Float64Array.from(be.f32Of(tw)),
      ];
      const want = new Float64Array(size(c.out));
      matmulRef(want, a32, b32, matmulDims(c.out, c.a, c.b, c.opts));
      const wantA = new Float64Array(a.length);
      const wantB = new Float64Array(b.length);
      matmulBackwardRef(wantA, wantB, w32, a32, b32, c, c.opts);
      for (const r of [
        compare('out', be.f32Of(out), want),
        compare('dA', be.f32Of(dA), wantA),
        compare('dB', be.f32Of(dB), wantB),
      ]) {
        expect(r.ok, r.summary).toBe(true);
      }
      expect(ta.shape).toEqual(c.a); // the flattened views leave the originals alone
    });
  }

  it('is deterministic: two runs give identical bits', () => {
    const run = (): Float32Array => {
      const be = new CpuBackend();
      const rng = new Rng('det');
      const a = be.fromArray(Float32Array.from(randn64(rng, 4 * 17 * 9)), [4, 17, 9]);
      const b = be.fromArray(Float32Array.from(randn64(rng, 9 * 11)), [9, 11]);
      const out = be.zeros([4, 17, 11]);
      be.matmul(out, a, b);
      return be.f32Of(out);
    };
    expect(Array.from(run())).toEqual(Array.from(run()));
  });
});

describe('matmul epilogue on the CPU backend', () => {
  it('bias and GELU equal matmul, addBias and gelu run one after another, bit for bit (batched, accumulate)', () => {
    const be = new CpuBackend();
    const rng = new Rng('epilogue');
    const a = be.fromArray(Float32Array.from(randn64(rng, 3 * 5 * 7)), [3, 5, 7]);
    const b = be.fromArray(Float32Array.from(randn64(rng, 7 * 6)), [7, 6]);
    const bias = be.fromArray(Float32Array.from(randn64(rng, 6)), [6]);
    const init = Float32Array.from(randn64(rng, 3 * 5 * 6));
    for (const accumulate of [false, true]) {
      const fused = be.fromArray(init, [3, 5, 6]);
      const fusedGelu = be.zeros([3, 5, 6]);
      be.matmul(fused, a, b, { accumulate, bias, geluOut: fusedGelu });
      const apart = be.fromArray(init, [3, 5, 6]);
      const apartGelu = be.zeros([3, 5, 6]);
      be.matmul(apart, a, b, { accumulate });
      be.addBias(apart, apart, bias);
      be.gelu(apartGelu, apart);
      expect(Array.from(be.f32Of(fused))).toEqual(Array.from(be.f32Of(apart)));
      expect(Array.from(be.f32Of(fusedGelu))).toEqual(Array.from(be.f32Of(apartGelu)));
      expect(Array.from(be.f32Of(fused))).not.toEqual(Array.from(be.f32Of(fusedGelu))); // out keeps the pre-activation
    }
  });

  it('geluGradOf equals the product then geluBackward, bit for bit; matmulBackward can overwrite dA', () => {
    const be = new CpuBackend();
    const rng = new Rng('gelu grad epilogue');
    const r = (...shape: number[]) =>
      be.fromArray(
        Float32Array.from(
          randn64(
            rng,
            shape.reduce((p, d) => p * d, 1),
          ),
        ),
        shape,
      );
    const [dOut, w, pre] = [r(5, 6), r(4, 6), r(5, 4)];
    const init = Float32Array.from(randn64(rng, 20));
    for (const accumulate of [false, true]) {
      const fused = be.fromArray(init, [5, 4]);
      be.matmul(fused, dOut, w, { transB: true, accumulate, geluGradOf: pre });
      const apart = be.fromArray(init, [5, 4]);
      const product = be.zeros([5, 4]);
      be.matmul(product, dOut, w, { transB: true });
      if (!accumulate) be.fill(apart, 0);
      be.geluBackward(apart, pre, product);
      expect(Array.from(be.f32Of(fused))).toEqual(Array.from(be.f32Of(apart)));
    }
    // matmulBackward with dA overwritten = zero fill then accumulate; dB still accumulates.
    const [x, dy] = [r(5, 4), r(5, 6)];
    const dB0 = Float32Array.from(randn64(rng, 24));
    const over = [be.fromArray(init, [5, 4]), be.fromArray(dB0, [4, 6])];
    matmulBackward(be, over[0], over[1], dy, x, w, {}, { overwrite: true });
    const fill = [be.fromArray(init, [5, 4]), be.fromArray(dB0, [4, 6])];
    be.fill(fill[0], 0);
    matmulBackward(be, fill[0], fill[1], dy, x, w, {});
    expect(Array.from(be.f32Of(over[0]))).toEqual(Array.from(be.f32Of(fill[0])));
    expect(Array.from(be.f32Of(over[1]))).toEqual(Array.from(be.f32Of(fill[1])));
  });

  it('a residual (in place or another tensor) equals the product and bias into a scratch then addInto, bit for bit', () => {
    const be = new CpuBackend();
    const rng = new Rng('residual epilogue');
    const r = (...shape: number[]) =>
      Float32Array.from(
        randn64(
          rng,
          shape.reduce((p, d) => p * d, 1),
        ),
      );
    const [a, b, bias] = [be.fromArray(r(3, 5, 7), [3, 5, 7]), be.fromArray(r(7, 6), [7, 6]), be.fromArray(r(6), [6])];
    const x0 = r(3, 5, 6);
    for (const withBias of [false, true]) {
      const opts: MatmulOptions = withBias ? { bias } : {};
      const scratch = be.zeros([3, 5, 6]);
      be.matmul(scratch, a, b, opts);
      const apart = be.fromArray(x0, [3, 5, 6]);
      be.addInto(apart, scratch);
      const inPlace = be.fromArray(x0, [3, 5, 6]);
      be.matmul(inPlace, a, b, { ...opts, residual: inPlace });
      const resid = be.fromArray(x0, [3, 5, 6]);
      const other = be.fromArray(r(3, 5, 6), [3, 5, 6]);
      be.matmul(other, a, b, { ...opts, residual: resid });
      expect(Array.from(be.f32Of(inPlace))).toEqual(Array.from(be.f32Of(apart)));
      expect(Array.from(be.f32Of(other))).toEqual(Array.from(be.f32Of(apart)));
      expect(Array.from(be.f32Of(resid))).toEqual(Array.from(x0)); // the residual is only read
      expect(Array.from(be.f32Of(apart))).not.toEqual(Array.from(be.f32Of(scratch))); // the residual was added
    }
  });

  it('rejects a residual of the wrong size or dtype, or combined with accumulate or a GELU epilogue', () => {
    const be = new CpuBackend();
    const t = (...s: number[]) => be.zeros(s);
    const out = t(2, 3);
    expect(() => be.matmul(out, t(2, 4), t(4, 3), { residual: t(3, 3) })).toThrow(
      /residual must hold 6 values like out \[2, 3\], got \[3, 3\]/,
    );
    expect(() => be.matmul(out, t(2, 4), t(4, 3), { residual: be.zeros([2, 3], 'i32') })).toThrow(
      /residual must be f32, got i32/,
    );
    expect(() => be.matmul(out, t(2, 4), t(4, 3), { residual: out, accumulate: true })).toThrow(
      /residual cannot be combined with accumulate/,
    );
    expect(() => be.matmul(out, t(2, 4), t(4, 3), { residual: t(2, 3), geluOut: t(2, 3) })).toThrow(
      /residual cannot be combined with geluOut/,
    );
    expect(() => be.matmul(out, t(2, 4), t(4, 3), { residual: t(2, 3), geluGradOf: t(2, 3) })).toThrow(
      /residual cannot be combined with geluGradOf/,
    );
  });

  it("packed-half b (bHalf) equals the f32 matmul on b's halves, bit for bit (2-D, transB, batched, broadcast, epilogues)", () => {
    const be = new CpuBackend();
    const rng = new Rng('half b');
    const r = (...shape: number[]) =>
      Float32Array.from(
        randn64(
          rng,
          shape.reduce((p, d) => p * d, 1),
        ),
      );
    const cases: { a: number[]; b: number[]; out: number[]; transB: boolean }[] = [
      { a: [5, 7], b: [7, 6], out: [5, 6], transB: false },
      { a: [5, 8], b: [6, 8], out: [5, 6], transB: true },
      { a: [2, 3, 4], b: [2, 4, 10], out: [2, 3, 10], transB: false },
      { a: [3, 2, 4], b: [4, 2], out: [3, 2, 2], transB: false },
    ];
    for (const c of cases) {
      const [a, b] = [be.fromArray(r(...c.a), c.a), be.fromArray(r(...c.b), c.b)];
      const packed = be.zeros([...c.b.slice(0, -1), c.b[c.b.length - 1] / 2]);
      be.packHalf(packed, b);
      const halves = be.fromArray(unpackHalves(be.f32Of(packed)), c.b);
      const bias = be.fromArray(r(c.out[c.out.length - 1]), [c.out[c.out.length - 1]]);
      const resid = be.fromArray(r(...c.out), c.out);
      for (const opts of [{ transB: c.transB }, { transB: c.transB, bias, residual: resid }] as MatmulOptions[]) {
        const got = be.zeros(c.out);
        be.matmul(got, a, packed, { ...opts, bHalf: true });
        const want = be.zeros(c.out);
        be.matmul(want, a, halves, opts);
        expect(Array.from(be.f32Of(got))).toEqual(Array.from(be.f32Of(want)));
      }
      // The halves are b rounded: close to b, and not all equal to it.
      const bv = be.f32Of(b);
      const hv = be.f32Of(halves);
      expect(Array.from(hv).every((h, i) => Math.abs(h - bv[i]) <= Math.abs(bv[i]) * 2 ** -11)).toBe(true);
      expect(Array.from(hv).some((h, i) => h !== bv[i])).toBe(true);
    }
  });

  it('packHalf rounds to nearest even, clamps to ±65504, packs an odd size with a zero last high half; bHalf refuses a non-f32 b', () => {
    const be = new CpuBackend();
    // ties: 1 + 2^-11 → 1 (even), 1 + 3·2^-11 → 1 + 2^-9, 1.5 units of 2^-24 → 2 units
    const x = be.fromArray(
      Float32Array.from([1, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 1e6, -1e6, 2 ** -25 * 3, -0, 0.1]),
      [8],
    );
    const out = be.zeros([4]);
    be.packHalf(out, x);
    expect(Array.from(unpackHalves(be.f32Of(out)))).toEqual([
      1,
      1,
      1 + 2 ** -9,
      65504,
      -65504,
      2 ** -23,
      -0,
      Math.fround(halfValue(halfBits(0.1))),
    ]);
    const odd = be.fromArray(Float32Array.from([7, 1]), [2]); // a stale high half, overwritten with 0
    be.packHalf(odd, be.fromArray(Float32Array.from([0.5, -2, 3]), [3]));
    expect(Array.from(unpackHalves(be.f32Of(odd)))).toEqual([0.5, -2, 3, 0]);
    expect(() => be.packHalf(be.zeros([1]), be.zeros([3]))).toThrow(/packHalf out \(⌈x.size \/ 2⌉ words\)/);
    expect(() => be.packHalf(be.zeros([3]), be.zeros([4]))).toThrow(/packHalf out \(⌈x.size \/ 2⌉ words\)/);
    expect(() => be.matmul(be.zeros([2, 2]), be.zeros([2, 2]), be.zeros([2, 1], 'i32'), { bHalf: true })).toThrow(
      /packed halves \(bHalf\) live in an f32 tensor, got i32/,
    );
  });

  it('math f16: runs of 4 k summed in half, the runs in f32 (2048 + 1 is lost inside a run, kept across runs)', () => {
    const be = new CpuBackend();
    // op(a) (1, 8), b (8, 2) all ones: column 0 gets a run [2048, 1, 0, 0] then [1, 0, 0, 0]
    const a = be.fromArray(Float32Array.from([2048, 1, 0, 0, 1, 0, 0, 0]), [1, 8]);
    const ones = be.fromArray(new Float32Array(16).fill(1), [8, 2]);
    const packed = be.zeros([8, 1]);
    be.packHalf(packed, ones);
    const out = be.zeros([1, 2]);
    be.matmul(out, a, packed, { bHalf: true, math: 'f16' });
    expect(Array.from(be.f32Of(out))).toEqual([2049, 2049]); // 2048 + 1 → 2048 in half (tie to even), + 1 in f32
    be.matmul(out, a, packed, { bHalf: true });
    expect(Array.from(be.f32Of(out))).toEqual([2050, 2050]); // f32 arithmetic keeps every 1
    // products and a's values are rounded to half too: 0.1 · 3 → half(half(0.1) · 3)
    const a2 = be.fromArray(Float32Array.from([0.1, 0, 0, 0]), [1, 4]);
    const threes = be.zeros([4, 1]);
    be.packHalf(threes, be.fromArray(new Float32Array(8).fill(3), [4, 2]));
    const out2 = be.zeros([1, 2]);
    be.matmul(out2, a2, threes, { bHalf: true, math: 'f16' });
    expect(be.f32Of(out2)[0]).toBe(Math.fround(roundHalf(roundHalf(0.1) * 3)));
    expect(be.f32Of(out2)[0]).not.toBe(Math.fround(Math.fround(0.1) * 3));
  });

  it('math f16 agrees with matmulF16Ref, stays within half precision of f32, keeps the epilogue, and refuses what it cannot do', () => {
    const be = new CpuBackend();
    const rng = new Rng('f16 math');
    const r = (...shape: number[]) =>
      Float32Array.from(
        randn64(
          rng,
          shape.reduce((p, d) => p * d, 1),
        ),
      );
    const cases: { a: number[]; b: number[]; out: number[]; transB: boolean }[] = [
      { a: [5, 10], b: [10, 6], out: [5, 6], transB: false },
      { a: [3, 8], b: [6, 8], out: [3, 6], transB: true },
      { a: [2, 3, 6], b: [2, 6, 4], out: [2, 3, 4], transB: false },
    ];
    for (const c of cases) {
      const av = r(...c.a);
      const a = be.fromArray(av, c.a);
      const packed = be.zeros([...c.b.slice(0, -1), c.b[c.b.length - 1] / 2]);
      be.packHalf(packed, be.fromArray(r(...c.b), c.b));
      const halves = unpackHalves(be.f32Of(packed));
      const got = be.zeros(c.out);
      be.matmul(got, a, packed, { transB: c.transB, bHalf: true, math: 'f16' });
      const d = matmulDims(c.out, c.a, c.b, { transB: c.transB });
      const want = new Float32Array(got.size);
      matmulF16Ref(want, av, halves, d);
      expect(Array.from(be.f32Of(got))).toEqual(Array.from(want));
      const f32 = new Float64Array(got.size);
      matmulRef(f32, av, halves, d);
      const g = be.f32Of(got);
      expect(Array.from(g).every((x, i) => Math.abs(x - f32[i]) <= 2 ** -7 * (1 + Math.abs(f32[i])))).toBe(true);
      expect(Array.from(g).some((x, i) => x !== Math.fround(f32[i]))).toBe(true);
      // bias + residual: the same epilogue as f32 math, applied to the f16 product
      const bias = be.fromArray(r(c.out[c.out.length - 1]), [c.out[c.out.length - 1]]);
      const resid = be.fromArray(r(...c.out), c.out);
      const withEpi = be.zeros(c.out);
      be.matmul(withEpi, a, packed, { transB: c.transB, bHalf: true, math: 'f16', bias, residual: resid });
      const sep = be.zeros(c.out);
      be.addBias(sep, got, bias);
      be.add(sep, resid, sep);
      expect(Array.from(be.f32Of(withEpi))).toEqual(Array.from(be.f32Of(sep)));
    }
    const t = (...s: number[]) => be.zeros(s);
    expect(() => be.matmul(t(2, 4), t(2, 3), t(3, 4), { math: 'f16' })).toThrow(
      /math 'f16' reads b as packed halves: pass bHalf/,
    );
    expect(() => be.matmul(t(2, 4), t(3, 2), t(3, 2), { math: 'f16', bHalf: true, transA: true })).toThrow(
      /math 'f16' does not take transA/,
    );
    expect(() => be.matmul(t(2, 4), t(2, 3), t(3, 2), { math: 'bf16' as 'f16', bHalf: true })).toThrow(
      /math must be 'f32' or 'f16', got bf16/,
    );
  });

  it('rejects a bias that does not match the columns, and a GELU output that is out or the wrong size', () => {
    const be = new CpuBackend();
    const t = (...s: number[]) => be.zeros(s);
    const out = t(2, 3);
    expect(() => be.matmul(out, t(2, 4), t(4, 3), { bias: t(2) })).toThrow(
      /bias must be 1-D with 3 values \(out's last dim\), got \[2\]/,
    );
    expect(() => be.matmul(out, t(2, 4), t(4, 3), { bias: t(1, 3) })).toThrow(/bias must be 1-D/);
    expect(() => be.matmul(out, t(2, 4), t(4, 3), { geluOut: t(3, 3) })).toThrow(
      /geluOut must hold 6 values like out \[2, 3\], got \[3, 3\]/,
    );
    expect(() => be.matmul(out, t(2, 4), t(4, 3), { geluOut: out })).toThrow(/geluOut must be another tensor than out/);
    expect(() => be.matmul(out, t(2, 4), t(4, 3), { geluGradOf: t(2, 2) })).toThrow(
      /geluGradOf must hold 6 values like out \[2, 3\]/,
    );
  });
});

describe('matmul shape errors', () => {
  const be = new CpuBackend();
  const t = (...s: number[]) => be.zeros(s);
  it('names the mismatched inner dims', () => {
    expect(() => be.matmul(t(2, 2), t(2, 3), t(4, 2))).toThrow(
      /inner dims differ: op\(a\) is \(2, 3\) but op\(b\) is \(4, 2\)/,
    );
  });
  it('names the expected out shape', () => {
    expect(() => be.matmul(t(2, 3), t(2, 3), t(3, 2))).toThrow(/out must have shape \[2, 2\]/);
  });
  it('rejects 1-D operands, mismatched batches and a broadcast b with transA', () => {
    expect(() => be.matmul(t(2), t(3), t(3, 2))).toThrow(/a must have at least 2 dims/);
    expect(() => be.matmul(t(2, 2, 2), t(2, 2, 3), t(3, 3, 2))).toThrow(
      /batch dims of b \[3\] must equal those of a \[2\]/,
    );
    expect(() => be.matmul(t(2, 2, 2), t(2, 3, 2), t(3, 2), { transA: true })).toThrow(
      /broadcast over the batch only with transA = false/,
    );
  });
  it('auto picks rows for at most 8 rows of op(a), tiled only for big enough problems', () => {
    expect(pickMatmulVariant(matmulDims([8, 8], [8, 8], [8, 8]))).toBe('rows');
    expect(pickMatmulVariant(matmulDims([1, 1024], [1, 128], [1024, 128], { transB: true }))).toBe('rows');
    expect(pickMatmulVariant(matmulDims([9, 16], [9, 8], [8, 16]))).toBe('naive');
    expect(pickMatmulVariant(matmulDims([64, 64], [64, 32], [32, 64]))).toBe('tiled');
    expect(pickMatmulVariant(matmulDims([64, 64], [64, 32], [32, 64]), 'naive')).toBe('naive');
  });
  it('the start-up choice is kept per shape and per kind of b: f32 and packed halves are timed and chosen apart', () => {
    const c = new MatmulChooser();
    const d = matmulDims([64, 64], [64, 32], [32, 64]);
    expect(c.pick(d)).toBe('tiled');
    expect(c.pick(d, true)).toBe('tiled');
    c.pick(d, true);
    const seen = c.untuned();
    expect(seen.map((x) => [x.key, x.half, x.n])).toEqual([
      ['(64×32)·(32×64) half b', true, 2],
      ['(64×32)·(32×64)', false, 1],
    ]);
    c.set(seen[0].key, 'regs8');
    expect(c.pick(d, true)).toBe('regs8');
    expect(c.pick(d)).toBe('tiled');
    expect(c.untuned().map((x) => x.key)).toEqual(['(64×32)·(32×64)']);
  });
});

describe("matmulCpuFast (the CPU backend's loop order)", () => {
  it('is bit-identical to the reference for every trans combination, batch, broadcast and accumulate', () => {
    const rng = new Rng('fast-cpu');
    const cases: [number[], number[], number[], { transA?: boolean; transB?: boolean; accumulate?: boolean }][] = [];
    for (const transA of [false, true])
      for (const transB of [false, true])
        for (const accumulate of [false, true]) {
          const [M, K, N] = [7, 13, 5];
          cases.push([[M, N], transA ? [K, M] : [M, K], transB ? [N, K] : [K, N], { transA, transB, accumulate }]);
          cases.push([
            [3, M, N],
            transA ? [3, K, M] : [3, M, K],
            transB ? [3, N, K] : [3, K, N],
            { transA, transB, accumulate },
          ]);
        }
    cases.push([[2, 4, 6], [2, 4, 3], [3, 6], {}]); // broadcast b
    for (const [o, as, bs, opts] of cases) {
      const d = matmulDims(o, as, bs, opts);
      const size = (s: number[]) => s.reduce((x, y) => x * y, 1);
      const a = Float32Array.from({ length: size(as) }, () => rng.normal());
      const b = Float32Array.from({ length: size(bs) }, () => rng.normal());
      const init = Float32Array.from({ length: size(o) }, () => rng.normal());
      const want = init.slice();
      const got = init.slice();
      matmulRef(want, a, b, d);
      matmulCpuFast(got, a, b, d);
      expect(got).toEqual(want);
    }
  });
});
