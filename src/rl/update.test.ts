import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { groupAdvantagesRef, fixedGroups } from '../engine/ops/advantage';
import { generate } from '../engine/model/sampler';
import { perplexity } from '../engine/model/sft';
import { Transformer } from '../engine/model/transformer';
import { Rng } from '../engine/rng';
import { wasmBackends } from '../engine/wasm/testing/same';
import type { Backend } from '../engine/backend';
import { compare } from '../engine/testing/compare';
import { grammarRun, grammarSamples, GRAMMAR_UPDATE, guardRun } from './update.gputest';
import { packSamples, responseSample, type TrainSample } from './samples';
import type { Encoded } from '../engine/model/format';
import { policyUpdate, scoreSamples, UPDATE_DEFAULTS, type UpdateMetrics, type UpdateOptions } from './update';

const CONFIG = { vocabSize: 12, contextLength: 16, channels: 16, layers: 1, heads: 2 };
const TARGET = 5;
const PROMPT = [1, 2];
const G = 8;

/** A toy reward: the share of sampled tokens equal to TARGET. */
const reward = (tokens: number[]) => tokens.filter((t) => t === TARGET).length / tokens.length;

async function sampleGroup(
  model: Transformer,
  rng: Rng,
  groups: number,
): Promise<{ seqs: number[][]; rewards: Float32Array }> {
  const prompts = Array.from({ length: groups * G }, () => PROMPT);
  const seqs = await generate(model, prompts, {
    maxNewTokens: 6,
    stop: [],
    sampling: { temperature: 1, topK: 0, topP: 1 },
    rng,
  });
  return { seqs, rewards: Float32Array.from(seqs, reward) };
}

async function withOld(
  model: Transformer,
  samples: Pick<TrainSample, 'ids' | 'rows' | 'advantages'>[],
): Promise<TrainSample[]> {
  const old = await scoreSamples(model, samples, 8);
  return samples.map((s, i) => ({ ...s, oldLogprobs: old.logprobs[i] }));
}

function grpoSamples(
  seqs: number[][],
  rewards: Float32Array,
  groups: number,
): Pick<TrainSample, 'ids' | 'rows' | 'advantages'>[] {
  const adv = new Float32Array(rewards.length);
  groupAdvantagesRef(adv, rewards, fixedGroups(groups * G, G), { estimator: 'grpo' }, groups * G);
  return seqs.map((s, i) => responseSample([...PROMPT, ...s], PROMPT.length, adv[i]));
}

/**
 * Eight updates whose policy loss has no gradient (equal rewards, so zero advantages, and no
 * entropy bonus): only the replay and self-imitation terms move the weights. `measure` before and
 * after, and the last update's metrics.
 */
async function extraTermsOnly<T>(
  o: Partial<UpdateOptions>,
  data: { ptx?: readonly Encoded[]; imitate?: readonly Encoded[] },
  measure: (m: Transformer) => Promise<T>,
  seed: string,
): Promise<{ before: T; after: T; last: UpdateMetrics }> {
  const model = Transformer.create(new CpuBackend(), CONFIG, 7);
  const rng = new Rng(seed);
  const { seqs, rewards } = await sampleGroup(model, rng, 1);
  const samples = await withOld(model, grpoSamples(seqs, rewards.fill(0.5), 1));
  const before = await measure(model);
  let last: UpdateMetrics | undefined;
  for (let k = 0; k < 8; k++)
    last = await policyUpdate(
      model,
      samples,
      { ...UPDATE_DEFAULTS, lr: 1e-2, entropyCoef: 0, ...o },
      rng,
      { value: k },
      data.ptx,
      data.imitate,
    );
  return { before, after: await measure(model), last: last! };
}

describe('policy-gradient update', () => {
  it('packs samples: the mask covers exactly the rows that predict response tokens', () => {
    const p = packSamples([responseSample([1, 2, 3, 4], 2, 0.5), responseSample([7, 8, 9], 1, -1)], 16);
    expect(p.T).toBe(4);
    expect(Array.from(p.ids)).toEqual([1, 2, 3, 4, 7, 8, 9, 0]);
    // Row t predicts ids[t + 1]: the policy rows are 1, 2 of the first sample and 0, 1 of the second.
    expect(Array.from(p.rowIndex)).toEqual([1, 2, 4, 5]);
    expect(Array.from(p.actions)).toEqual([3, 4, 8, 9]);
    expect(Array.from(p.advantages)).toEqual([0.5, 0.5, -1, -1]);
    expect(p.tokens).toBe(4);
  });

  it('one update changes every trainable parameter', async () => {
    const model = Transformer.create(new CpuBackend(), CONFIG, 1);
    const before = await model.readParams();
    const rng = new Rng('every-param');
    const { seqs, rewards } = await sampleGroup(model, rng, 2);
    // Make sure the token embedding rows of every id get a gradient: include a sample with all ids.
    const samples = grpoSamples(seqs, rewards, 2);
    samples.push(
      responseSample(
        Array.from({ length: CONFIG.vocabSize }, (_, i) => i),
        1,
        1,
      ),
    );
    await policyUpdate(model, await withOld(model, samples), { ...UPDATE_DEFAULTS, lr: 1e-2, entropyCoef: 0.01 }, rng, {
      value: 0,
    });
    const after = await model.readParams();
    for (const e of model.layout.entries) {
      let changed = 0;
      for (let i = e.offset; i < e.offset + e.size; i++) if (after[i] !== before[i]) changed++;
      if (e.name.startsWith('value.'))
        expect(changed, e.name).toBe(0); // no critic in a GRPO update
      else expect(changed, `${e.name}: ${changed} of ${e.size} changed`).toBeGreaterThan(0);
    }
  });

  it('a toy reward rises within a few GRPO steps', async () => {
    const model = Transformer.create(new CpuBackend(), CONFIG, 2);
    const rng = new Rng('toy');
    const step = { value: 0 };
    const means: number[] = [];
    for (let it = 0; it < 12; it++) {
      const { seqs, rewards } = await sampleGroup(model, rng, 4);
      means.push(rewards.reduce((a, b) => a + b, 0) / rewards.length);
      await policyUpdate(
        model,
        await withOld(model, grpoSamples(seqs, rewards, 4)),
        { ...UPDATE_DEFAULTS, lr: 1e-2, minibatchSize: 32 },
        rng,
        step,
      );
    }
    const first = (means[0] + means[1]) / 2;
    const last = (means[10] + means[11]) / 2;
    expect(last, `reward per step: ${means.map((m) => m.toFixed(2)).join(' ')}`).toBeGreaterThan(first + 0.3);
  });

  it('scores the tempered policy: at any temperature the first minibatch is exactly on-policy (ratio 1)', async () => {
    for (const temperature of [1, 0.5]) {
      const model = Transformer.create(new CpuBackend(), CONFIG, 6);
      const rng = new Rng('tempered');
      const { seqs, rewards } = await sampleGroup(model, rng, 2);
      const samples = grpoSamples(seqs, rewards, 2);
      const old = await scoreSamples(model, samples, 64, temperature);
      const m = await policyUpdate(
        model,
        samples.map((x, i) => ({ ...x, oldLogprobs: old.logprobs[i] })),
        { ...UPDATE_DEFAULTS, minibatchSize: 64, temperature },
        rng,
        { value: 0 },
      );
      expect(Math.abs(m['losses/approx_kl'])).toBeLessThan(1e-9);
      expect(m['losses/clipfrac']).toBe(0);
      // Scoring at another temperature than the loss's is off-policy: the ratio moves off 1.
      const model2 = Transformer.create(new CpuBackend(), CONFIG, 6);
      const stale = await scoreSamples(model2, samples, 64, temperature === 1 ? 0.5 : 1);
      const m2 = await policyUpdate(
        model2,
        samples.map((x, i) => ({ ...x, oldLogprobs: stale.logprobs[i] })),
        { ...UPDATE_DEFAULTS, minibatchSize: 64, temperature },
        rng,
        { value: 0 },
      );
      expect(Math.abs(m2['losses/approx_kl'])).toBeGreaterThan(1e-4);
    }
  });

  it('replay (PPO-ptx) pulls the policy toward its training text; without it the same update leaves that text alone', async () => {
    // Replay text: the agent (mask 1) always answers 3 4 5 after a user's 1 2.
    const replay = Array.from({ length: 6 }, () => ({
      ids: [1, 2, 3, 4, 5, 1, 2, 3, 4, 5],
      agentMask: [0, 0, 1, 1, 1, 0, 0, 1, 1, 1],
    }));
    const ppl = (m: Transformer) => perplexity(m, replay, { batchSize: 2, seqLen: 10, lossOn: 'agent' });
    const run = async (ptxCoef: number) => {
      const r = await extraTermsOnly({ ptxCoef, ptxBatch: 2, ptxSeqLen: 10 }, { ptx: replay }, ppl, 'ptx');
      return { ...r, last: r.last['losses/ptx_loss'] };
    };
    const on = await run(1);
    const off = await run(0);
    expect(on.after, `replay perplexity ${on.before.toFixed(2)} -> ${on.after.toFixed(2)}`).toBeLessThan(
      on.before * 0.7,
    );
    expect(Math.log(on.after)).toBeCloseTo(on.last, 0); // the reported loss is the replay cross-entropy
    expect(off.after).toBe(off.before);
    expect(off.last).toBe(0);
  });

  it('self-imitation raises the kept replies under their prompts, whole, and reports their cross-entropy', async () => {
    // Two kept replies: after the prompt 1 2 6 7 6 7 6 7 6 7 (a long one, beyond a replay window of
    // 8), the reply 3 4 5 <end=11>; the prompt itself is never scored (scoredFrom).
    const prompt = [1, 2, 6, 7, 6, 7, 6, 7, 6, 7];
    const kept = Array.from({ length: 2 }, () => ({
      ids: [...prompt, 3, 4, 5, 11],
      agentMask: [...prompt.map(() => 0), 1, 1, 1, 1],
      scoredFrom: prompt.length,
    }));
    const promptOnly = [{ ids: prompt, agentMask: prompt.map(() => 1) }];
    const nll = (m: Transformer, ex: typeof kept | typeof promptOnly) =>
      perplexity(m, ex, { batchSize: 1, seqLen: 15, lossOn: 'agent' });
    const measure = async (m: Transformer) => ({ reply: await nll(m, kept), prompt: await nll(m, promptOnly) });
    const run = async (imitateCoef: number, data: typeof kept) => {
      // ptxSeqLen 8: replay's window, which self-imitation does not use (its examples are whole).
      const o = { imitateCoef, imitateBatch: 2, ptxSeqLen: 8 };
      const r = await extraTermsOnly(o, { imitate: data }, measure, 'imitate');
      return { ...r, last: r.last['losses/imitate_loss'] };
    };
    const on = await run(1, kept);
    expect(on.after.reply, `kept replies' perplexity ${on.before.reply} -> ${on.after.reply}`).toBeLessThan(
      on.before.reply * 0.5,
    );
    expect(Math.log(on.after.reply)).toBeCloseTo(on.last!, 0); // the reported loss is the replies' cross-entropy
    // The prompt is context: the model is not taught to write it (its perplexity moves far less).
    expect(Math.abs(Math.log(on.after.prompt / on.before.prompt))).toBeLessThan(
      Math.abs(Math.log(on.after.reply / on.before.reply)) / 2,
    );
    for (const off of [await run(0, kept), await run(1, [])]) {
      expect(off.after).toEqual(off.before);
      expect(off.last).toBeUndefined();
    }
  });

  it("under a grammar's masks, the update is on-policy and moves the weights, on the CPU and on wasm", async () => {
    const cpu = await grammarRun(new CpuBackend());
    const wasm = await grammarRun((await wasmBackends()).one);
    for (const [name, r] of [
      ['cpu', cpu],
      ['wasm', wasm],
    ] as const) {
      // Ratio 1 on every trained row: the new log-probs see the banned logits the old ones did.
      expect(Math.abs(r.metrics['losses/approx_kl']), name).toBeLessThan(1e-9);
      expect(r.metrics['losses/clipfrac'], name).toBe(0);
      // Leaving them out of the new log-probs only is off-policy: the test can fail.
      expect(r.unmasked['losses/approx_kl'], name).toBeGreaterThan(1e-4);
      expect(r.after.every(Number.isFinite), name).toBe(true);
      expect(r.after.filter((x, i) => x !== r.before[i]).length, name).toBeGreaterThan(r.after.length / 2);
    }
    // 3 of every 4 rows train (every fourth is forced).
    const rows = grammarSamples().reduce((n, s) => n + s.rows.length, 0);
    expect(cpu.metrics['train/tokens']).toBe(
      rows - grammarSamples().reduce((n, s) => n + Math.ceil(s.rows.length / 4), 0),
    );
    for (const r of [
      compare('wasm vs cpu: old log-probs', wasm.oldLogprobs, cpu.oldLogprobs),
      compare('wasm vs cpu: params after', wasm.after, cpu.after, { abs: 1e-5, rel: 1e-3 }),
    ])
      expect(r.ok, r.summary).toBe(true);
  });

  it('forced rows (mask 0) weigh nothing in any loss: whatever they carry, the same step; trained, another', async () => {
    const run = async (be: Backend, edit: (s: TrainSample) => TrainSample) => {
      const model = Transformer.create(be, CONFIG, 4);
      const base = grammarSamples();
      const old = await scoreSamples(model, base, 4, GRAMMAR_UPDATE.temperature);
      const samples = base.map((s, i) => edit({ ...s, oldLogprobs: old.logprobs[i], refLogprobs: old.logprobs[i] }));
      const m = await policyUpdate(model, samples, GRAMMAR_UPDATE, new Rng('forced'), { value: 0 });
      return { m, params: await model.readParams() };
    };
    const onForced = (s: TrainSample, f: (j: number) => number, x: ArrayLike<number> | undefined) =>
      Array.from(x ?? [], (v, j) => (s.mask![j] === 0 ? f(j) : v));
    // The forced rows' figures at extremes: advantage, old, reference log-prob, return and old value.
    const wild = (s: TrainSample): TrainSample => ({
      ...s,
      advantages: onForced(s, () => 1e3, s.advantages),
      oldLogprobs: onForced(s, () => -30, s.oldLogprobs),
      refLogprobs: onForced(s, () => -30, s.refLogprobs),
      returns: onForced(s, () => 50, s.returns),
      oldValues: onForced(s, () => -50, s.oldValues),
    });
    for (const be of [new CpuBackend(), (await wasmBackends()).one]) {
      const a = await run(be, (s) => s);
      const b = await run(be, wild);
      expect(b.params, be.name).toEqual(a.params);
      expect(b.m, be.name).toEqual(a.m);
      // The same rows trained (mask 1): a different step, so the mask is what kept them out.
      const c = await run(be, (s) => ({ ...wild(s), mask: s.rows.map(() => 1) }));
      expect(
        c.params.some((x, i) => x !== a.params[i]),
        be.name,
      ).toBe(true);
      expect(c.m['train/tokens']).toBeGreaterThan(a.m['train/tokens']);
    }
  });

  it('a non-finite minibatch is never applied: the device skips its step, the update stops there, the error names it', async () => {
    const r = await guardRun(new CpuBackend());
    expect(r.badPos).toBe(3); // three good steps before it, one after
    expect(r.error).toMatch(/the loss became non-finite \(policy loss NaN.*\) in epoch 1/);
    expect(r.steps).toEqual({ guarded: 13, prefix: 13 });
    expect(r.guarded.params.some((x, i) => x !== r.initial[i])).toBe(true);
    expect(r.guarded.params).toEqual(r.prefix.params);
    expect(r.guarded.m).toEqual(r.prefix.m);
    expect(r.guarded.v).toEqual(r.prefix.v);
    expect(r.guarded.params.every(Number.isFinite)).toBe(true);
  });
});
