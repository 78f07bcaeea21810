/**
 * The wasm backend's elementwise kernels (asm/elementwise.ts) against the CPU reference: copy, add,
 * addInto, scale at awkward sizes, packHalf bit for bit (edge values: the ±65504 clamp, rounding
 * ties, subnormals, NaN, odd sizes), and the same bits on 1 and 4 threads at sizes that split.
 */
import { describe, expect, it } from 'vitest';
import type { Backend, Tensor } from '../backend';
import { halfBits, packHalfRef } from '../ops/half';
import { Rng } from '../rng';
import { BITWISE } from '../testing/twice';
import { sameBits, sameOnWasm, wasmBackends } from './testing/same';

const SIZES = [1, 3, 4, 5, 7, 63, 65, 127, 300, 1031, 4099];
/** Splits into 4 parts on the 4-thread backend (work ≥ 4 · 2^15), at boundaries that are not multiples of 4. */
const SPLIT = (1 << 17) + 5;

function randn(rng: Rng, n: number, scale = 1): Float32Array {
  return Float32Array.from({ length: n }, () => scale * rng.normal());
}

async function expectSame(
  be: Backend,
  labels: string[],
  build: (be: Backend) => Tensor[],
  tol = { abs: 1e-5, rel: 1e-4 },
): Promise<void> {
  const reports = await sameOnWasm(be, labels, build, tol);
  expect(reports.filter((r) => !r.ok).map((r) => r.summary)).toEqual([]);
}

describe('wasm elementwise kernels', () => {
  it('copy, add, addInto and scale match the reference bit for bit', async () => {
    const { many } = await wasmBackends();
    for (const n of SIZES) {
      const rng = new Rng(`ew ${n}`);
      const [a, b, d] = [randn(rng, n), randn(rng, n), randn(rng, n)];
      await expectSame(
        many,
        [`copy ${n}`, `add ${n}`, `addInto ${n}`, `addInto alpha ${n}`, `scale ${n}`],
        (be) => {
          const copy = be.zeros([n]);
          be.copy(copy, be.fromArray(a, [n]));
          const sum = be.zeros([n]);
          be.add(sum, be.fromArray(a, [n]), be.fromArray(b, [n]));
          const acc = be.fromArray(d, [n]);
          be.addInto(acc, be.fromArray(a, [n]));
          const accA = be.fromArray(d, [n]);
          be.addInto(accA, be.fromArray(b, [n]), -0.5);
          const sc = be.fromArray(a, [n]);
          be.scale(sc, 0.375);
          return [copy, sum, acc, accA, sc];
        },
        BITWISE,
      );
    }
  });

  it('fillAt writes the value at the listed positions, skips those outside, bit for bit', async () => {
    const { many } = await wasmBackends();
    for (const n of SIZES) {
      const rng = new Rng(`fillAt ${n}`);
      const x = randn(rng, n);
      const index = Int32Array.from({ length: 2 * n + 3 }, () => Math.floor(rng.next() * (n + 4)) - 2);
      await expectSame(
        many,
        [`fillAt ${n}`, `fillAt empty ${n}`],
        (be) => {
          const t = be.fromArray(x, [n]);
          be.fillAt(t, be.fromArray(index, [index.length]), -1e9);
          const u = be.fromArray(x, [n]);
          be.fillAt(u, be.fromArray(new Int32Array(0), [0]), 5);
          return [t, u];
        },
        BITWISE,
      );
    }
  });

  it('addInto with an alpha that is not a float matches within tolerance', async () => {
    const { many } = await wasmBackends();
    const rng = new Rng('alpha');
    const [a, d] = [randn(rng, 1031), randn(rng, 1031)];
    await expectSame(many, ['addInto 0.1'], (be) => {
      const acc = be.fromArray(d, [1031]);
      be.addInto(acc, be.fromArray(a, [1031]), 0.1);
      return [acc];
    });
  });

  it('copy, add, addInto and scale give the same bits on 1 and 4 threads', async () => {
    const { one, many } = await wasmBackends();
    const rng = new Rng('ew split');
    const [a, b] = [randn(rng, SPLIT), randn(rng, SPLIT)];
    const diff = await sameBits(one, many, (be) => {
      const copy = be.zeros([SPLIT]);
      be.copy(copy, be.fromArray(a, [SPLIT]));
      const sum = be.zeros([SPLIT]);
      be.add(sum, be.fromArray(a, [SPLIT]), be.fromArray(b, [SPLIT]));
      const acc = be.fromArray(b, [SPLIT]);
      be.addInto(acc, be.fromArray(a, [SPLIT]), 0.3);
      be.scale(acc, -1.7);
      return [copy, sum, acc];
    });
    expect(diff).toBeNull();
  });

  it('checks sizes as the reference does', async () => {
    const { many } = await wasmBackends();
    expect(() => many.add(many.zeros([3]), many.zeros([3]), many.zeros([4]))).toThrow(/add b/);
    expect(() => many.copy(many.zeros([3]), many.zeros([2]))).toThrow(/copy src/);
    expect(() => many.packHalf(many.zeros([2]), many.zeros([5]))).toThrow(/packHalf out/);
    expect(() => many.scale(many.zeros([3], 'i32'), 2)).toThrow(/expected an f32 tensor/);
  });
});

describe('wasm packHalf', () => {
  /** The reference's words for x (as u32). */
  function want(x: Float32Array): Uint32Array {
    const out = new Float32Array(Math.ceil(x.length / 2));
    packHalfRef(out, x);
    return new Uint32Array(out.buffer);
  }

  async function got(be: Backend, x: Float32Array): Promise<Uint32Array> {
    const out = be.scratch([Math.ceil(x.length / 2)]);
    out.size && be.fill(out, 123.25); // stale contents must be overwritten, the odd size's high half too
    be.packHalf(out, be.fromArray(x, [x.length]));
    return new Uint32Array((await be.read(out)).buffer);
  }

  function firstDiff(g: Uint32Array, w: Uint32Array, x: Float32Array): string | null {
    if (g.length !== w.length) return `${g.length} words, want ${w.length}`;
    for (let i = 0; i < w.length; i++)
      if (g[i] !== w[i])
        return `word ${i} (x ${x[2 * i]}, ${x[2 * i + 1]}): 0x${g[i].toString(16)}, want 0x${w[i].toString(16)}`;
    return null;
  }

  const tiny = 2 ** -24; // the smallest half subnormal
  const EDGES = [
    0,
    -0,
    1,
    -1,
    65504,
    -65504,
    65505,
    65519,
    65520,
    -65520,
    70000,
    1e10,
    -1e30,
    Infinity,
    -Infinity,
    NaN,
    -NaN,
    65488, // a tie between 65472 and 65504: to the even one (65472)
    65490, // above the tie: 65504
    1 + 2 ** -11, // a tie: down to 1
    1 + 3 * 2 ** -11, // a tie: up
    2 ** -14, // the smallest normal
    2 ** -14 - tiny / 2, // a tie between the largest subnormal and the smallest normal: to the even (normal)
    2 ** -14 - tiny, // the largest subnormal
    -3 * tiny,
    tiny,
    tiny / 2, // a tie with 0: 0
    tiny * 0.5000001,
    1.5 * tiny, // a tie: up to 2 units
    2.5 * tiny, // a tie: down to 2 units
    -tiny / 4,
    1e-40, // an f32 subnormal: 0
    -1e-40,
    2 ** -15 * 1.0009765625, // the subnormal range with rounding bits
    1 / 3,
    -0.1,
    3.14159,
  ];

  it('packs edge values exactly as the reference', async () => {
    const { one } = await wasmBackends();
    const x = Float32Array.from(EDGES);
    expect(firstDiff(await got(one, x), want(x), x)).toBeNull();
    // every edge value at every position of an 8-element block (the SIMD path and the tail)
    for (let shift = 1; shift < 9; shift++) {
      const y = new Float32Array(EDGES.length + shift);
      y.set(x, shift);
      expect(firstDiff(await got(one, y), want(y), y)).toBeNull();
    }
    expect(want(Float32Array.of(NaN))[0]).toBe(halfBits(NaN)); // NaN: 0x7e00, high half 0
  });

  it('packs random values of every magnitude, at odd and even sizes', async () => {
    const { many } = await wasmBackends();
    for (const n of [1, 2, 3, 7, 8, 9, 15, 17, 63, 1031, 4098]) {
      const rng = new Rng(`half ${n}`);
      const x = Float32Array.from({ length: n }, () => rng.normal() * 2 ** rng.int(-30, 20));
      expect(firstDiff(await got(many, x), want(x), x)).toBeNull();
    }
    // every f32 bit pattern's exponent, with random mantissas
    const rng = new Rng('half bits');
    const bits = Uint32Array.from({ length: 1 << 14 }, (_, i) => ((i & 0x1ff) << 23) | (rng.nextU32() & 0x7fffff));
    const x = new Float32Array(bits.buffer);
    expect(firstDiff(await got(many, x), want(x), x)).toBeNull();
  });

  it('gives the same bits on 1 and 4 threads at a size that splits', async () => {
    const { one, many } = await wasmBackends();
    const n = 40011; // 20,006 words: 4 parts, at word 5001, 10003, 15004
    const rng = new Rng('half split');
    const x = Float32Array.from({ length: n }, () => rng.normal() * 2 ** rng.int(-26, 18));
    const [a, b] = [await got(one, x), await got(many, x)];
    expect(firstDiff(b, a, x)).toBeNull();
    expect(firstDiff(a, want(x), x)).toBeNull();
  });
});
