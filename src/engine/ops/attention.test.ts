/** Attention CPU reference: causal softmax rows, T = 1, gradient checks (f64) for H = 1 and H = C, accumulation, shapes. */
import { describe, expect, it } from 'vitest';
import { attentionSize, type AttentionShape } from '../backend';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { compare } from '../testing/compare';
import { gradCheck, randn64, weightedSum } from '../testing/gradcheck';
import { attentionBackwardRef, attentionRef, attRowStart } from './attention';
import { packHalfRef, roundHalf } from './half';

const SHAPES: AttentionShape[] = [
  { B: 1, T: 1, C: 4, H: 2 }, // T = 1: out = v
  { B: 2, T: 3, C: 4, H: 1 }, // H = 1
  { B: 1, T: 4, C: 3, H: 3 }, // H = C: head size 1
  { B: 2, T: 5, C: 6, H: 2 },
];

const tag = ({ B, T, C, H }: AttentionShape): string => `B=${B} T=${T} C=${C} H=${H}`;

describe('attention reference', () => {
  it('att holds the causal triangles: row (b, h, t) is t + 1 probabilities summing to 1, rows back to back; T = 1 copies v', () => {
    const s = { B: 2, T: 5, C: 6, H: 2 };
    expect(attentionSize(s)).toBe(2 * 2 * 15);
    const rng = new Rng('attn rows');
    const qkv = randn64(rng, s.B * s.T * 3 * s.C);
    const out = new Float64Array(s.B * s.T * s.C);
    const att = new Float64Array(attentionSize(s)).fill(7);
    attentionRef(out, att, qkv, s);
    let next = 0;
    for (let b = 0; b < s.B; b++) {
      for (let h = 0; h < s.H; h++) {
        for (let t = 0; t < s.T; t++) {
          const a = attRowStart(b, h, t, s.H, s.T);
          expect(a).toBe(next); // no gaps, no overlap
          next += t + 1;
          const row = att.subarray(a, a + t + 1);
          expect(row.reduce((x, v) => x + v, 0)).toBeCloseTo(1, 12);
          for (const p of row) expect(p).toBeGreaterThan(0);
          // The same probabilities as a softmax of this row's scaled scores, computed here.
          const hs = s.C / s.H;
          const score = (t2: number) => {
            let d = 0;
            for (let i = 0; i < hs; i++)
              d += qkv[(b * s.T + t) * 3 * s.C + h * hs + i] * qkv[(b * s.T + t2) * 3 * s.C + s.C + h * hs + i];
            return d / Math.sqrt(hs);
          };
          const e = Array.from({ length: t + 1 }, (_, t2) => Math.exp(score(t2)));
          const z = e.reduce((x, v) => x + v, 0);
          e.forEach((v, t2) => expect(row[t2]).toBeCloseTo(v / z, 12));
        }
      }
    }
    expect(next).toBe(att.length);
    const one = { B: 1, T: 1, C: 4, H: 2 };
    const q1 = randn64(rng, 12);
    const o1 = new Float64Array(4);
    attentionRef(o1, new Float64Array(2), q1, one);
    expect(Array.from(o1)).toEqual(Array.from(q1.subarray(8, 12)));
  });

  for (const s of SHAPES) {
    it(`gradient matches central differences, ${tag(s)}`, () => {
      const { B, T, C } = s;
      const rng = new Rng(`attn ${tag(s)}`);
      const qkv = randn64(rng, B * T * 3 * C);
      const w = randn64(rng, B * T * C); // = dOut
      const out = new Float64Array(B * T * C);
      const att = new Float64Array(attentionSize(s));
      const loss = (): number => {
        attentionRef(out, att, qkv, s);
        return weightedSum(out, w);
      };
      loss();
      const dqkv = new Float64Array(qkv.length);
      attentionBackwardRef(dqkv, w, qkv, att.slice(), s);
      const r = gradCheck('dqkv', loss, qkv, dqkv);
      expect(r.ok, r.summary).toBe(true);
    });
  }
});

describe('attention on the cpu backend', () => {
  const be = new CpuBackend();
  const s = { B: 1, T: 3, C: 4, H: 2 };
  const rng = new Rng('attn backend');
  const qkv = be.fromArray(Float32Array.from(randn64(rng, 36)), [1, 3, 12]);
  const dOut = be.fromArray(Float32Array.from(randn64(rng, 12)), [1, 3, 4]);

  it('backward accumulates: two calls give twice one call', async () => {
    const out = be.zeros([1, 3, 4]);
    const att = be.zeros([attentionSize(s)]);
    be.attention(out, att, qkv, s);
    const once = be.zeros([1, 3, 12]);
    const twice = be.zeros([1, 3, 12]);
    be.attentionBackward(once, dOut, qkv, att, s);
    be.attentionBackward(twice, dOut, qkv, att, s);
    be.attentionBackward(twice, dOut, qkv, att, s);
    const a = await be.read(once);
    const b = await be.read(twice);
    for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(2 * a[i], 5);
  });

  it('names the bad shape', () => {
    const out = be.zeros([1, 3, 4]);
    const att = be.zeros([attentionSize(s)]); // 1·2·(3·4/2) = 12
    expect(() => be.attention(out, att, qkv, { ...s, H: 3 })).toThrow(/C \(4\) must be a multiple of H \(3\)/);
    expect(() => be.attention(out, att, qkv, { ...s, T: 0 })).toThrow(/T must be a positive integer/);
    expect(() => be.attention(out, be.zeros([1, 2, 3, 3]), qkv, s)).toThrow(
      /attention att \(the causal triangles: B·H·T\(T\+1\)\/2 values, B=1, H=2, T=3\)/,
    );
    expect(() => be.attentionBackward(be.zeros([1, 3, 4]), dOut, qkv, att, s)).toThrow(/dqkv/);
    // packed halves: ⌈12 / 2⌉ = 6 words, not the 12 values of att
    expect(() => be.attentionBackward(be.zeros([1, 3, 12]), dOut, qkv, att, s, { attHalf: true })).toThrow(
      /att as packed halves \(⌈B·H·T\(T\+1\)\/2 \/ 2⌉ words, B=1, H=2, T=3\)/,
    );
  });

  it('backward from packed-half probabilities (attHalf) = the f32 backward on the probabilities rounded to halves; odd sizes', async () => {
    for (const shape of [
      { B: 1, T: 5, C: 3, H: 3 },
      { B: 2, T: 6, C: 8, H: 2 },
    ]) {
      // 45 values (odd), 84
      const { B, T, C } = shape;
      const r = new Rng(`attn half ${B} ${T}`);
      const q = Float32Array.from(randn64(r, B * T * 3 * C), (x) => 2 * x); // sharper rows: probabilities far from uniform
      const d = Float32Array.from(randn64(r, B * T * C));
      const out = new Float32Array(B * T * C);
      const probs = new Float32Array(attentionSize(shape));
      attentionRef(out, probs, q, shape);
      const words = new Float32Array(Math.ceil(probs.length / 2));
      packHalfRef(words, probs);
      const got = be.zeros([B, T, 3 * C]);
      be.attentionBackward(
        got,
        be.fromArray(d, [B, T, C]),
        be.fromArray(q, [B, T, 3 * C]),
        be.fromArray(words, [words.length]),
        shape,
        { attHalf: true },
      );
      const want = new Float32Array(B * T * 3 * C);
      attentionBackwardRef(want, d, q, Float32Array.from(probs, roundHalf), shape);
      expect(Array.from(await be.read(got))).toEqual(Array.from(want));
      // Close to the f32 backward, and not equal to it (the rounding is real).
      const exact = new Float32Array(B * T * 3 * C);
      attentionBackwardRef(exact, d, q, probs, shape);
      const rep = compare('half vs f32 probabilities', want, exact, { abs: 1e-3, rel: 1e-2 });
      expect(rep.ok, rep.summary).toBe(true);
      expect(want.some((x, i) => x !== exact[i])).toBe(true);
    }
  });
});
