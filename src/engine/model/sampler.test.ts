import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { compare } from '../testing/compare';
import type { ModelConfig } from './config';
import {
  candidateOrder,
  candidateOrderRef,
  generate,
  GREEDY,
  KvSession,
  sampleToken,
  type SamplingOptions,
} from './sampler';
import { Transformer } from './transformer';
import { halfBits, halfValue } from '../ops/half';
import { WasmBackend } from '../wasm/backend';

const TINY: ModelConfig = { vocabSize: 29, contextLength: 16, channels: 8, layers: 2, heads: 2 };

/** TINY, and TINY reading the previous token too (ModelConfig.previousToken). */
const EMBEDDINGS = [
  ['token and position', TINY],
  ['and the previous token', { ...TINY, previousToken: true }],
] as const;

function noisyModel(seed: string, config: ModelConfig = TINY): Transformer {
  const m = Transformer.create(new CpuBackend(), config, seed);
  return m;
}

async function fullLogits(model: Transformer, seq: number[]): Promise<Float32Array> {
  const be = model.be;
  const { logits } = model.forward(be.fromArray(Int32Array.from(seq), [seq.length]), 1, seq.length);
  const all = await be.read(logits);
  return all.slice((seq.length - 1) * TINY.vocabSize, seq.length * TINY.vocabSize);
}

describe('sampling with a KV cache', () => {
  it.each(EMBEDDINGS)(
    'logits from cached decoding equal a full recompute, for ragged batches (embeddings: %s)',
    async (_, config) => {
      const model = noisyModel('kv', config);
      const rng = new Rng('kv-seqs');
      const seqs = [11, 5, 1].map((n) => Array.from({ length: n }, () => rng.int(0, TINY.vocabSize - 1)));
      const session = new KvSession(model, seqs.length);
      // Prefill ragged prompts of 4, 2 and 1 tokens, then feed the rest one token at a time.
      const prompt = [4, 2, 1];
      let logits = await session.step(seqs.map((s, b) => s.slice(0, prompt[b])));
      const fed = [...prompt];
      for (let guard = 0; guard < 20; guard++) {
        for (let b = 0; b < seqs.length; b++) {
          if (fed[b] === 0) continue;
          const want = await fullLogits(model, seqs[b].slice(0, fed[b]));
          const r = compare(`seq ${b} after ${fed[b]} tokens`, logits[b], want);
          expect(r.ok, r.summary).toBe(true);
        }
        const next = seqs.map((s, b) => (fed[b] > 0 && fed[b] < s.length ? [s[fed[b]]] : []));
        if (next.every((n) => n.length === 0)) break;
        logits = await session.step(next);
        next.forEach((n, b) => (fed[b] = n.length > 0 ? fed[b] + 1 : 0));
      }
      expect(Array.from(session.lengths)).toEqual([11, 5, 1]);
    },
  );

  it.each(EMBEDDINGS)(
    'rewind cuts one sequence back: what follows is read as if the cut tokens never were (embeddings: %s)',
    async (_, config) => {
      const model = noisyModel('rewind', config);
      const rng = new Rng('rewind-seqs');
      const seq = () => Array.from({ length: 6 }, () => rng.int(0, TINY.vocabSize - 1));
      const [a, b, other] = [seq(), seq(), seq()];
      const session = new KvSession(model, 2);
      await session.step([a.slice(0, 3), other.slice(0, 4)]);
      await session.step([a.slice(3), other.slice(4)]); // sequence 0 now holds all of a
      session.rewind(0, 2);
      expect(Array.from(session.lengths)).toEqual([2, 6]);
      // Sequence 0 goes on as a[0..2] + b; sequence 1 is untouched by the cut.
      const logits = await session.step([b.slice(0, 3), [b[5]]]);
      for (const [got, want, what] of [
        [logits[0], await fullLogits(model, [...a.slice(0, 2), ...b.slice(0, 3)]), 'the rewound sequence'],
        [logits[1], await fullLogits(model, [...other, b[5]]), 'the other sequence'],
      ] as const) {
        const r = compare(what, got, want);
        expect(r.ok, r.summary).toBe(true);
      }
      expect(() => session.rewind(0, 6)).toThrow(/holds 5 tokens; it cannot be cut back to 6/);
      expect(() => session.rewind(1, -1)).toThrow(/cannot be cut back/);
      session.release();
    },
  );

  it('a prefill holds logits for the last position of each sequence only', async () => {
    // 4 prompts of 120 tokens, 2,000 tokens of vocabulary: logits for every position would be
    // 4·120·2000 floats (3.8 MB); the step needs 4·2000 of them.
    const be = await WasmBackend.create({ threads: 1 });
    try {
      const config: ModelConfig = { vocabSize: 2000, contextLength: 128, channels: 8, layers: 1, heads: 2 };
      const model = Transformer.create(be, config, 'prefill-memory');
      const rng = new Rng('prefill-memory');
      const prompts = Array.from({ length: 4 }, () => Array.from({ length: 120 }, () => rng.int(0, 1999)));
      const session = new KvSession(model, prompts.length);
      const before = be.bytesInUse;
      const logits = await session.step(prompts);
      expect(logits.map((l) => l.length)).toEqual([2000, 2000, 2000, 2000]);
      expect(be.bytesInUse - before).toBeLessThan((4 * 120 * 2000 * 4) / 4);
      session.release();
    } finally {
      be.dispose();
    }
  });

  it('greedy generation is deterministic and stops at a stop token', async () => {
    const model = noisyModel('gen');
    const run = () =>
      generate(model, [[1, 2, 3], [4]], { maxNewTokens: 6, stop: [7], sampling: GREEDY, rng: new Rng(1) });
    const a = await run();
    expect(await run()).toEqual(a);
    for (const seq of a) {
      expect(seq.length).toBeGreaterThan(0);
      expect(seq.length).toBeLessThanOrEqual(6);
      const stopAt = seq.indexOf(7);
      if (stopAt >= 0) expect(stopAt).toBe(seq.length - 1);
    }
  });

  it('half copies of the weights: the f32 logits exactly when every weight is a half already, close to them otherwise', async () => {
    const steps = async (model: Transformer, weights: 'f32' | 'f16') => {
      const session = new KvSession(model, 2, { weights });
      expect(session.weights).toBe(weights);
      const a = await session.step([[1, 2, 3], [4]]);
      const b = await session.step([[5], [6]]);
      session.release();
      return [...a, ...b].flatMap((x) => Array.from(x));
    };
    const model = noisyModel('half weights');
    const full = await steps(model, 'f32');
    const half = await steps(model, 'f16');
    expect(half).not.toEqual(full); // the copies are used
    const r = compare('f16 vs f32 weights', half, full, { abs: 2e-2, rel: 2e-2 });
    expect(r.ok, r.summary).toBe(true);
    // Weights rounded to halves beforehand: packing them loses nothing, so the logits are the same bits.
    const rounded = (await model.readParams()).map((x) => halfValue(halfBits(x)));
    const exact = new Transformer(model.be, TINY, Float32Array.from(rounded));
    expect(await steps(exact, 'f16')).toEqual(await steps(exact, 'f32'));
  });

  it('f16 arithmetic (math f16, emulated on the CPU): close to the half-weight f32 logits, not equal; never the CPU default; refused without half weights', async () => {
    const steps = async (model: Transformer, math?: 'f32' | 'f16') => {
      const session = new KvSession(model, 2, { weights: 'f16', math });
      expect(session.math).toBe(math ?? 'f32');
      const a = await session.step([[1, 2, 3], [4]]);
      const b = await session.step([[5], [6]]);
      session.release();
      return [...a, ...b].flatMap((x) => Array.from(x));
    };
    const model = noisyModel('f16 math');
    const f32 = await steps(model);
    const f16 = await steps(model, 'f16');
    expect(f16).not.toEqual(f32);
    const r = compare('f16 vs f32 arithmetic', f16, f32, { abs: 3e-2, rel: 3e-2 });
    expect(r.ok, r.summary).toBe(true);
    expect(await steps(model, 'f16')).toEqual(f16); // deterministic
    expect(() => new KvSession(model, 1, { weights: 'f32', math: 'f16' })).toThrow(
      /f16 arithmetic reads half copies of the weights: ask for weights 'f16' too/,
    );
    const odd = Transformer.create(new CpuBackend(), { ...TINY, channels: 9, heads: 3 }, 'odd');
    expect(() => new KvSession(odd, 1, { math: 'f16' })).toThrow(/channel count 9 is odd/);
  });

  it('refuses f16 weights for an odd channel count, with a clear message', () => {
    const odd = Transformer.create(new CpuBackend(), { ...TINY, channels: 9, heads: 3 }, 'odd');
    expect(() => new KvSession(odd, 1, { weights: 'f16' })).toThrow(
      /f16 decoding weights need an even channel count; this model has 9/,
    );
    expect(new KvSession(odd, 1).weights).toBe('f32');
  });

  it('refuses to run past the context with a clear message', async () => {
    const session = new KvSession(noisyModel('ctx'), 1);
    await expect(session.step([Array.from({ length: 17 }, () => 1)])).rejects.toThrow(/context holds 16/);
  });
});

describe('sampleToken', () => {
  it('the fast candidate order is the comparator order exactly: ties by id, ±0 as one value, ±∞, any size', () => {
    const rng = new Rng('order');
    for (const V of [1, 2, 3, 17, 256, 1024, 5000]) {
      for (let trial = 0; trial < 6; trial++) {
        // Few distinct values, so ties are common; specials sprinkled in.
        const pool = [
          0,
          -0,
          Infinity,
          -Infinity,
          3.4028234663852886e38,
          -1e-45,
          1e-45,
          ...Array.from({ length: 5 }, () => rng.normal() * 10),
        ];
        const logits = Float32Array.from({ length: V }, () =>
          rng.next() < 0.5 ? pool[rng.int(0, pool.length - 1)] : rng.normal(),
        );
        expect(candidateOrder(logits), `V=${V} trial ${trial}`).toEqual(candidateOrderRef(logits));
      }
    }
    expect(candidateOrder(Float32Array.of(1, NaN, 2, -Infinity))).toEqual([2, 0, 3, 1]); // NaN last
    expect(candidateOrder([0.5, 2, 0.5])).toEqual([1, 0, 2]); // not f32: the comparator's path
  });

  it('draws exactly the token of the spec (every candidate sorted by the comparator, weights summed in that order)', () => {
    // The spec, written plainly: what sampleToken must equal draw for draw, with the same generator.
    const spec = (logits: Float32Array, o: SamplingOptions, rng: Rng): number => {
      let idx = candidateOrderRef(logits);
      if (o.topK > 0 && o.topK < logits.length) idx = idx.slice(0, o.topK);
      const max = logits[idx[0]];
      const w = idx.map((i) => Math.exp((logits[i] - max) / o.temperature));
      let total = w.reduce((a, b) => a + b, 0);
      if (o.topP < 1) {
        let acc = 0;
        let keep = 0;
        while (keep < w.length && acc < o.topP * total) acc += w[keep++];
        idx = idx.slice(0, Math.max(1, keep));
        w.length = idx.length;
        total = w.reduce((a, b) => a + b, 0);
      }
      let r = rng.next() * total;
      for (let k = 0; k < idx.length; k++) {
        r -= w[k];
        if (r < 0) return idx[k];
      }
      return idx[idx.length - 1];
    };
    const gen = new Rng('rows');
    let draws = 0;
    for (const V of [1, 7, 300, 4096, 5000]) {
      for (const o of [
        { temperature: 0.7, topK: 0, topP: 1 },
        { temperature: 1, topK: 0, topP: 0.9 },
        { temperature: 1.5, topK: 40, topP: 1 },
        { temperature: 0.3, topK: 5, topP: 0.5 },
      ]) {
        const a = new Rng(`draw|${V}|${o.temperature}`);
        const b = new Rng(`draw|${V}|${o.temperature}`);
        for (let row = 0; row < 12; row++) {
          // Peaked rows like a trained model's, and rows with many ties.
          const logits = Float32Array.from({ length: V }, () =>
            row % 3 === 0 ? Math.round(gen.normal() * 2) : gen.normal() * 4,
          );
          for (let d = 0; d < 4; d++, draws++) expect(sampleToken(logits, o, a)).toBe(spec(logits, o, b));
        }
      }
    }
    expect(draws).toBe(5 * 4 * 12 * 4);
  });

  const logits = Float32Array.of(1, 3, 2, -1, 3);
  it('greedy takes the first maximum', () => {
    expect(sampleToken(logits, GREEDY, new Rng(0))).toBe(1);
  });
  it('top-k 1 is greedy; top-k restricts the support', () => {
    const rng = new Rng(5);
    for (let i = 0; i < 50; i++) expect(sampleToken(logits, { temperature: 1, topK: 1, topP: 1 }, rng)).toBe(1);
    const seen = new Set<number>();
    for (let i = 0; i < 300; i++) seen.add(sampleToken(logits, { temperature: 1, topK: 3, topP: 1 }, rng));
    expect([...seen].sort()).toEqual([1, 2, 4]);
  });
  it('top-p keeps the smallest nucleus', () => {
    const rng = new Rng(6);
    const seen = new Set<number>();
    for (let i = 0; i < 300; i++) seen.add(sampleToken(logits, { temperature: 1, topK: 0, topP: 0.6 }, rng));
    expect([...seen].sort()).toEqual([1, 4]);
  });
  it('temperature 1 follows the softmax (frequencies within 3 sigma)', () => {
    const rng = new Rng(7);
    const counts = new Array(5).fill(0);
    const n = 4000;
    for (let i = 0; i < n; i++) counts[sampleToken(logits, { temperature: 1, topK: 0, topP: 1 }, rng)]++;
    const z = Array.from(logits).map((x) => Math.exp(x));
    const total = z.reduce((a, b) => a + b, 0);
    z.forEach((zi, i) => {
      const p = zi / total;
      expect(Math.abs(counts[i] / n - p)).toBeLessThan(3 * Math.sqrt((p * (1 - p)) / n) + 1e-3);
    });
  });
});
