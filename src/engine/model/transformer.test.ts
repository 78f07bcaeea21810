import { describe, expect, it } from 'vitest';
import type { Tensor } from '../backend';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { compare } from '../testing/compare';
import { hasPresetShape, paramLayout, PRESETS, type ModelConfig } from './config';
import { initParams, Transformer } from './transformer';

const TINY: ModelConfig = { vocabSize: 13, contextLength: 8, channels: 8, layers: 2, heads: 2 };

/** Loss = mean CE over the targets + Σ w ⊙ values: exercises both heads. */
async function lossAndGrads(
  model: Transformer,
  ids: Int32Array,
  targets: Int32Array,
  w: Float32Array,
  B: number,
  T: number,
) {
  const be = model.be as CpuBackend;
  const N = B * T;
  const tIds = be.fromArray(ids, [N]);
  const tTargets = be.fromArray(targets, [N]);
  const { logits, values } = model.forward(tIds, B, T);
  const losses = be.zeros([N]);
  be.crossEntropy(losses, logits, tTargets);
  const l = await be.read(losses);
  const v = await be.read(values);
  let loss = 0;
  for (let n = 0; n < N; n++) loss += l[n] / N + w[n] * v[n];
  model.zeroGrads();
  const dLogits = be.zeros([N, TINY.vocabSize]);
  be.crossEntropyBackward(dLogits, logits, tTargets, be.fromArray(new Float32Array(N).fill(1 / N), [N]));
  model.backward(tIds, dLogits, be.fromArray(w, [N, 1]));
  return { loss, grads: await be.read(model.grads) };
}

describe('transformer', () => {
  it('presets have the documented sizes', () => {
    const count = (c: ModelConfig) => paramLayout(c).count;
    expect(count(PRESETS.ci)).toBeGreaterThan(80_000);
    expect(count(PRESETS.ci)).toBeLessThan(150_000);
    expect(count(PRESETS.micro)).toBeGreaterThan(0.8e6);
    expect(count(PRESETS.micro)).toBeLessThan(1.3e6);
    expect(count(PRESETS.mini)).toBeGreaterThan(4e6);
    expect(count(PRESETS.mini)).toBeLessThan(6e6);
    expect(count(PRESETS.small)).toBeGreaterThan(20e6);
    expect(count(PRESETS.small)).toBeLessThan(30e6);
  });

  it("a preset's shape ignores the vocabulary and the previous-token option, not the rest", () => {
    expect(hasPresetShape({ ...PRESETS.ci, vocabSize: 2048, previousToken: true }, 'ci')).toBe(true);
    expect(hasPresetShape(PRESETS.ci, 'micro')).toBe(false);
    expect(hasPresetShape({ ...PRESETS.micro, heads: 8 }, 'micro')).toBe(false);
  });

  it('rejects a bad config with the field named', () => {
    expect(() => paramLayout({ ...TINY, heads: 3 })).toThrow(/heads: channels \(8\) must be divisible by heads \(3\)/);
    expect(() => paramLayout({ ...TINY, layers: 0 })).toThrow(/layers: must be a positive integer/);
    expect(() => paramLayout({ ...TINY, previousToken: 'yes' as unknown as boolean })).toThrow(
      /previousToken: must be true or false \(got yes\)/,
    );
  });

  it('previousToken adds one C × C map (wprev) that changes what a position reads from its second token on', async () => {
    const prev = { ...TINY, previousToken: true };
    const layout = paramLayout(prev);
    expect(layout.count - paramLayout(TINY).count).toBe(TINY.channels * TINY.channels);
    expect(layout.byName.wprev.shape).toEqual([TINY.channels, TINY.channels]);
    const weights = initParams(prev, 'prev');
    const e = layout.byName.wprev;
    for (let i = 0; i < e.size; i++) weights[e.offset + i] = Math.sin(i) * 0.5; // a visible map
    const zeroed = weights.slice();
    zeroed.fill(0, e.offset, e.offset + e.size);
    // The plain model with the same weights: the arena without wprev's slot.
    const plainWeights = new Float32Array(paramLayout(TINY).total);
    for (const p of paramLayout(TINY).entries) {
      const q = layout.byName[p.name];
      plainWeights.set(weights.subarray(q.offset, q.offset + q.size), p.offset);
    }
    const logits = async (config: ModelConfig, w: Float32Array) => {
      const be = new CpuBackend();
      const seq = Int32Array.of(3, 5, 7);
      const out = new Transformer(be, config, w, { frozen: true }).forward(be.fromArray(seq, [3]), 1, 3);
      const all = Array.from(await be.read(out.logits));
      return [0, 1, 2].map((t) => all.slice(t * TINY.vocabSize, (t + 1) * TINY.vocabSize));
    };
    const withMap = await logits(prev, weights);
    const withZero = await logits(prev, zeroed);
    const plain = await logits(TINY, plainWeights);
    expect(withZero).toEqual(plain); // a zero map is the plain model, bit for bit
    expect(withMap[0]).toEqual(plain[0]); // the first token has no previous one
    expect(withMap[1]).not.toEqual(plain[1]);
    expect(withMap[2]).not.toEqual(plain[2]);
  });

  it('initialises deterministically from the seed', () => {
    expect(initParams(TINY, 7)).toEqual(initParams(TINY, 7));
    expect(initParams(TINY, 7)).not.toEqual(initParams(TINY, 8));
  });

  it.each([
    ['token and position', TINY],
    ['and the previous token', { ...TINY, previousToken: true }],
  ] as const)(
    'backward matches finite differences of the whole model (f32, sampled parameters; embeddings: %s)',
    async (_, config) => {
      const B = 2;
      const T = 5;
      const rng = new Rng('model-fd');
      const ids = Int32Array.from({ length: B * T }, () => rng.int(0, TINY.vocabSize - 1));
      const targets = Int32Array.from({ length: B * T }, () => rng.int(0, TINY.vocabSize - 1));
      const w = Float32Array.from({ length: B * T }, () => rng.normal());
      const weights = initParams(config, 'fd');
      // Larger weights than GPT-2 init so every path carries a visible gradient.
      for (let i = 0; i < weights.length; i++) weights[i] += rng.normal() * 0.2;
      const model = new Transformer(new CpuBackend(), config, weights);
      const { grads } = await lossAndGrads(model, ids, targets, w, B, T);
      const layout = model.layout;
      const h = 1e-2;
      const analytic: number[] = [];
      const numeric: number[] = [];
      for (const e of layout.entries) {
        // Three elements of every parameter tensor.
        for (let k = 0; k < 3; k++) {
          const i = e.offset + rng.int(0, e.size - 1);
          const perturbed = (delta: number) => {
            const wts = weights.slice();
            wts[i] += delta;
            return lossAndGrads(new Transformer(new CpuBackend(), config, wts), ids, targets, w, B, T);
          };
          const up = (await perturbed(h)).loss;
          const down = (await perturbed(-h)).loss;
          numeric.push((up - down) / (2 * h));
          analytic.push(grads[i]);
        }
      }
      const report = compare('model gradient vs finite differences', analytic, numeric, { abs: 2e-3, rel: 2e-2 });
      expect(report.ok, report.summary).toBe(true);
      // Not vacuous: most sampled gradients are clearly non-zero.
      expect(numeric.filter((x) => Math.abs(x) > 1e-2).length).toBeGreaterThan(numeric.length / 2);
    },
  );

  it('forwardRows/backwardRows equal the full head at the chosen rows (gather, then scatter back)', async () => {
    const be = new CpuBackend();
    const [B, T] = [2, 6];
    const N = B * T;
    const rng = new Rng('rows');
    const ids = Int32Array.from({ length: N }, () => rng.int(0, TINY.vocabSize - 1));
    const rows = Int32Array.from([1, 2, 4, 7, 8, 11]);
    const R = rows.length;
    const dL = Float32Array.from({ length: R * TINY.vocabSize }, () => rng.normal());
    const dV = Float32Array.from({ length: R }, () => rng.normal());
    const full = Transformer.create(be, TINY, 4);
    const part = Transformer.create(be, TINY, 4);
    const tIds = be.fromArray(ids, [N]);
    const f = full.forward(tIds, B, T);
    const fl = await be.read(f.logits);
    const fv = await be.read(f.values);
    const r = part.forwardRows(tIds, B, T, be.fromArray(rows, [R]));
    const rl = await be.read(r.logits);
    const rv = await be.read(r.values);
    const V = TINY.vocabSize;
    rows.forEach((row, i) => {
      expect(Array.from(rl.subarray(i * V, (i + 1) * V))).toEqual(Array.from(fl.subarray(row * V, (row + 1) * V)));
      expect(rv[i]).toBe(fv[row]);
    });
    // The full backward with the same gradients placed at the rows (zero elsewhere).
    const dLfull = new Float32Array(N * V);
    const dVfull = new Float32Array(N);
    rows.forEach((row, i) => {
      dLfull.set(dL.subarray(i * V, (i + 1) * V), row * V);
      dVfull[row] = dV[i];
    });
    full.zeroGrads();
    full.backward(tIds, be.fromArray(dLfull, [N, V]), be.fromArray(dVfull, [N, 1]));
    part.zeroGrads();
    part.backwardRows(tIds, be.fromArray(dL, [R, V]), be.fromArray(dV, [R, 1]));
    const rep = compare('grads', await be.read(part.grads), await be.read(full.grads));
    expect(rep.ok, rep.summary).toBe(true);
  });

  it("savedAttention f16: the forward's bits unchanged, the gradient from half probabilities within 0.2% of f32's (norm)", async () => {
    const [B, T] = [2, 7]; // 2·2·7·7 = 196 probabilities a layer
    const rng = new Rng('half-att');
    const ids = Int32Array.from({ length: B * T }, () => rng.int(0, TINY.vocabSize - 1));
    const targets = Int32Array.from({ length: B * T }, () => rng.int(0, TINY.vocabSize - 1));
    const w = Float32Array.from({ length: B * T }, () => rng.normal());
    const weights = initParams(TINY, 'half-att');
    for (let i = 0; i < weights.length; i++) weights[i] += rng.normal() * 0.3; // sharp attention rows
    const f32 = await lossAndGrads(new Transformer(new CpuBackend(), TINY, weights), ids, targets, w, B, T);
    const f16 = await lossAndGrads(
      new Transformer(new CpuBackend(), TINY, weights, { savedAttention: 'f16' }),
      ids,
      targets,
      w,
      B,
      T,
    );
    expect(f16.loss).toBe(f32.loss);
    // The rounding error (≤ 2^-11 relative per probability) against the gradient's size: its norm,
    // and elementwise with an absolute floor for the tiny entries, where softmax's backward cancels.
    const norm = (g: Float32Array) => Math.sqrt(g.reduce((a, x) => a + x * x, 0));
    const rel = norm(f16.grads.map((g, i) => g - f32.grads[i])) / norm(f32.grads);
    expect(rel).toBeLessThan(2e-3);
    const rep = compare('f16-saved vs f32-saved gradient', f16.grads, f32.grads, { abs: 1e-3, rel: 1e-2 });
    expect(rep.ok, rep.summary).toBe(true);
    expect(f16.grads.some((g, i) => g !== f32.grads[i])).toBe(true); // the rounding reaches the gradient
    // Twice: the same bits (one scratch shared by the layers, reused across steps).
    const again = new Transformer(new CpuBackend(), TINY, weights, { savedAttention: 'f16' });
    await lossAndGrads(again, ids, targets, w, B, T);
    expect(Array.from((await lossAndGrads(again, ids, targets, w, B, T)).grads)).toEqual(Array.from(f16.grads));
    expect(() => new Transformer(new CpuBackend(), TINY, weights, { savedAttention: 'bf16' as 'f16' })).toThrow(
      /savedAttention must be 'f32' or 'f16', got bf16/,
    );
  });

  it('frozen (inference only): the same outputs, no gradient or optimizer state, clear refusals; release is final and idempotent', async () => {
    const [B, T] = [2, 6];
    const rng = new Rng('frozen');
    const ids = Int32Array.from({ length: B * T }, () => rng.int(0, TINY.vocabSize - 1));
    const weights = initParams(TINY, 'frozen');
    for (let i = 0; i < weights.length; i++) weights[i] += rng.normal() * 0.1;
    const be = new CpuBackend();
    const tIds = be.fromArray(ids, [B * T]);
    const rows = be.fromArray(Int32Array.of(0, 5, 6, 11), [4]);
    const trainable = new Transformer(be, TINY, weights);
    const frozen = new Transformer(be, TINY, weights, { frozen: true });
    const read = async (o: { logits: Tensor; values: Tensor }) => [
      ...(await be.read(o.logits)),
      ...(await be.read(o.values)),
    ];
    // Twice, so that the layers' one shared set of activations is reused across passes too.
    for (let k = 0; k < 2; k++) {
      expect(await read(frozen.forward(tIds, B, T))).toEqual(await read(trainable.forward(tIds, B, T)));
      expect(await read(frozen.forwardRows(tIds, B, T, rows))).toEqual(
        await read(trainable.forwardRows(tIds, B, T, rows)),
      );
    }
    expect(Object.keys(frozen.g)).toHaveLength(0);
    const refused = /frozen \(inference only\): it has no gradients or optimizer state/;
    expect(() => frozen.grads).toThrow(refused);
    expect(() => frozen.adamM).toThrow(refused);
    expect(() => frozen.zeroGrads()).toThrow(refused);
    expect(() =>
      frozen.optimizerStep({ lr: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0, step: 1 }, []),
    ).toThrow(refused);
    frozen.forward(tIds, B, T);
    expect(() => frozen.backward(tIds, be.zeros([B * T, TINY.vocabSize]), null)).toThrow(/nothing was saved/);
    expect(() => new Transformer(be, TINY, weights, { frozen: true, savedAttention: 'f16' })).toThrow(
      /savedAttention does not apply/,
    );
    frozen.release();
    frozen.release(); // idempotent: nothing is given back twice
    expect(() => frozen.forward(tIds, B, T)).toThrow(/released/);
    expect(() => frozen.readParams()).toThrow(/released/);
    trainable.release();
    expect(() => trainable.zeroGrads()).toThrow(/released/);
  });

  it('a forward with { grad: false } gives the same outputs, packs nothing in f16, and refuses a backward', async () => {
    const [B, T] = [2, 6];
    const rng = new Rng('no-grad');
    const ids = Int32Array.from({ length: B * T }, () => rng.int(0, TINY.vocabSize - 1));
    const weights = initParams(TINY, 'no-grad');
    for (const savedAttention of ['f32', 'f16'] as const) {
      const be = new CpuBackend();
      let packs = 0;
      const pack = be.packHalf.bind(be);
      be.packHalf = (out, x) => {
        packs++;
        pack(out, x);
      };
      const model = new Transformer(be, TINY, weights, { savedAttention });
      const tIds = be.fromArray(ids, [B * T]);
      const rows = be.fromArray(Int32Array.of(1, 4, 7, 11), [4]);
      const read = async (o: { logits: Tensor; values: Tensor }) => [
        ...(await be.read(o.logits)),
        ...(await be.read(o.values)),
      ];
      const withGrad = await read(model.forward(tIds, B, T));
      expect(packs).toBe(savedAttention === 'f16' ? TINY.layers : 0);
      packs = 0;
      expect(await read(model.forward(tIds, B, T, { grad: false }))).toEqual(withGrad);
      expect(packs).toBe(0);
      const dLogits = be.zeros([B * T, TINY.vocabSize]);
      expect(() => model.backward(tIds, dLogits, null)).toThrow(/backward after a forward with \{ grad: false \}/);
      const rowsWithGrad = await read(model.forwardRows(tIds, B, T, rows));
      expect(await read(model.forwardRows(tIds, B, T, rows, { grad: false }))).toEqual(rowsWithGrad);
      expect(() => model.backwardRows(tIds, be.zeros([4, TINY.vocabSize]), null)).toThrow(/grad: false/);
      // A forward with grad makes the backward available again.
      model.forward(tIds, B, T);
      expect(() => model.backward(tIds, dLogits, null)).not.toThrow();
    }
  });

  it('optimizerStep gives the value head and the trunk their own rates; a rate of 0 leaves that part untouched', async () => {
    const be = new CpuBackend();
    const weights = initParams(TINY, 4);
    const layout = paramLayout(TINY);
    const at = layout.byName['value.w'].offset;
    const ids = Int32Array.from({ length: 8 }, (_, i) => (i * 5) % TINY.vocabSize);
    const targets = Int32Array.from({ length: 8 }, (_, i) => (i * 3 + 1) % TINY.vocabSize);
    const w = Float32Array.from({ length: 8 }, (_, i) => 0.1 * (i - 3));
    const stepWith = async (rates: { trunk?: number; head?: number }) => {
      const model = new Transformer(be, TINY, weights);
      await lossAndGrads(model, ids, targets, w, 1, 8);
      model.optimizerStep({ lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0, step: 1 }, [], rates);
      return { p: await be.read(model.params), m: await be.read(model.adamM) };
    };
    const one = await stepWith({});
    const split = await stepWith({ trunk: 1e-2, head: 1e-2 });
    expect(split.p).toEqual(one.p); // equal rates: the one call over the arena
    const headOnly = await stepWith({ trunk: 0, head: 1e-2 });
    expect(Array.from(headOnly.p.subarray(0, at))).toEqual(Array.from(weights.subarray(0, at)));
    expect(Array.from(headOnly.m.subarray(0, at)).every((x) => x === 0)).toBe(true);
    expect(Array.from(headOnly.p.subarray(at))).toEqual(Array.from(one.p.subarray(at)));
    const fastHead = await stepWith({ trunk: 1e-2, head: 1e-1 });
    expect(Array.from(fastHead.p.subarray(0, at))).toEqual(Array.from(one.p.subarray(0, at)));
    // AdamW's first step moves each weight by about its rate: the head ten times as far.
    const moved = (p: Float32Array) => Math.abs(p[at] - weights[at]);
    expect(moved(fastHead.p) / moved(one.p)).toBeCloseTo(10, 3);
  });
});
