/**
 * The policy update on a backend, in two runs that update.test.ts plays on the CPU (and wasm) and
 * this file on WebGPU against the CPU:
 *   - the step guard: five one-sample minibatches, the fourth-drawn carrying a NaN advantage. A
 *     step is queued with no readback before AdamW, so the device must skip that step; the host
 *     then throws NonFiniteError and queues no more. The weights and AdamW's moments must equal
 *     those of a model that only ever took the good steps before it, bit for bit, and the step
 *     counter must count only those.
 *   - a grammar's masks: samples with banned logits on their rows and forced rows (mask 0), scored
 *     and updated at a temperature; the update must be on-policy (ratio 1 on every trained row) and
 *     move the weights, and the same update that ignores the banned logits must not be.
 */
import type { Backend } from '../engine/backend';
import type { ModelConfig } from '../engine/model/config';
import { Transformer } from '../engine/model/transformer';
import { Rng } from '../engine/rng';
import { compare } from '../engine/testing/compare';
import type { GpuTest } from '../engine/testing/gpu-test';
import { responseSample, type TrainSample } from './samples';
import { NonFiniteError, policyUpdate, scoreSamples, UPDATE_DEFAULTS, type UpdateMetrics } from './update';

const CONFIG: ModelConfig = { vocabSize: 12, contextLength: 16, channels: 16, layers: 1, heads: 2 };
const BAD = 0;
/** The update's first draw is its minibatch order: this seed puts the bad sample fourth of five. */
const ORDER_SEED = 'guard-order-0';

export interface GuardRun {
  error: string;
  badPos: number;
  order: number[];
  steps: { guarded: number; prefix: number };
  guarded: { params: Float32Array; m: Float32Array; v: Float32Array };
  prefix: { params: Float32Array; m: Float32Array; v: Float32Array };
  initial: Float32Array;
}

function guardSamples(): TrainSample[] {
  const rng = new Rng('guard-samples');
  return Array.from({ length: 5 }, (_, i) => {
    const ids = Array.from({ length: 6 + i }, () => rng.int(0, CONFIG.vocabSize - 1));
    const s = responseSample(ids, 2, 0);
    const advantages = s.rows.map(() => rng.normal());
    if (i === BAD) advantages[1] = NaN;
    return { ...s, advantages, oldLogprobs: s.rows.map(() => -2 - rng.next()) };
  });
}

export async function guardRun(be: Backend): Promise<GuardRun> {
  const samples = guardSamples();
  const order = new Rng(ORDER_SEED).shuffle(samples.map((_, i) => i));
  const badPos = order.indexOf(BAD);
  const opts = { ...UPDATE_DEFAULTS, lr: 1e-2, minibatchSize: 1 };
  const read = async (m: Transformer) => ({
    params: await be.read(m.params),
    m: await be.read(m.adamM),
    v: await be.read(m.adamV),
  });

  const a = Transformer.create(be, CONFIG, 3);
  const initial = await be.read(a.params);
  const stepA = { value: 10 };
  let error = '';
  try {
    await policyUpdate(a, samples, opts, new Rng(ORDER_SEED), stepA);
  } catch (e) {
    if (!(e instanceof NonFiniteError)) throw e;
    error = e.message;
  }
  // The same good steps one at a time (a one-sample update has only one order).
  const b = Transformer.create(be, CONFIG, 3);
  const stepB = { value: 10 };
  for (const i of order.slice(0, badPos)) await policyUpdate(b, [samples[i]], opts, new Rng('unused'), stepB);
  return {
    error,
    badPos,
    order,
    steps: { guarded: stepA.value, prefix: stepB.value },
    guarded: await read(a),
    prefix: await read(b),
    initial,
  };
}

/** A grammar's marks on random samples: every row bans two tokens other than its action, except every fourth, forced. */
export function grammarSamples(): TrainSample[] {
  const rng = new Rng('grammar-samples');
  const V = CONFIG.vocabSize;
  return Array.from({ length: 4 }, (_, i) => {
    const ids = Array.from({ length: 8 + 2 * i }, () => rng.int(0, V - 1));
    const s = responseSample(ids, 3, 0);
    const mask = s.rows.map((_, j) => (j % 4 === 0 ? 0 : 1));
    const banned = s.rows.flatMap((row, j) => {
      if (mask[j] === 0) return [];
      const allowed = Array.from({ length: V }, (_, t) => t).filter((t) => t !== ids[row + 1]);
      return rng
        .shuffle(allowed)
        .slice(0, 2)
        .map((t) => j * V + t);
    });
    return {
      ...s,
      advantages: s.rows.map(() => rng.normal()),
      oldLogprobs: [],
      returns: s.rows.map(() => rng.normal() * 0.3),
      oldValues: s.rows.map(() => rng.normal() * 0.3),
      mask,
      banned,
    };
  });
}

/** The update options of the grammar runs: every loss on, at a temperature, all samples in one minibatch. */
export const GRAMMAR_UPDATE = {
  ...UPDATE_DEFAULTS,
  lr: 1e-2,
  temperature: 0.7,
  minibatchSize: 16,
  entropyCoef: 0.01,
  klCoef: 0.1,
  valueCoef: 0.5,
} as const;

export interface GrammarRun {
  /** Old log-probs and entropies of every row, flat (scored under the masks). */
  oldLogprobs: Float32Array;
  entropy: Float32Array;
  /** The update that applies the masks: its metrics, and the weights before and after. */
  metrics: UpdateMetrics;
  before: Float32Array;
  after: Float32Array;
  /** The same update with the banned logits left out of the new log-probs (off-policy). */
  unmasked: UpdateMetrics;
}

export async function grammarRun(be: Backend): Promise<GrammarRun> {
  const base = grammarSamples();
  const flat = (xs: Float32Array[]) => Float32Array.from(xs.flatMap((x) => Array.from(x)));
  const model = Transformer.create(be, CONFIG, 4);
  const before = await be.read(model.params);
  const old = await scoreSamples(model, base, 3, GRAMMAR_UPDATE.temperature);
  // The reference is the starting policy itself, scored the same way (the KL term is on, at 0).
  const samples = base.map((s, i) => ({ ...s, oldLogprobs: old.logprobs[i], refLogprobs: old.logprobs[i] }));
  const metrics = await policyUpdate(model, samples, GRAMMAR_UPDATE, new Rng('grammar-update'), { value: 0 });
  const after = await be.read(model.params);
  model.release();
  const fresh = Transformer.create(be, CONFIG, 4);
  const unmasked = await policyUpdate(
    fresh,
    samples.map((s) => ({ ...s, banned: [] })),
    GRAMMAR_UPDATE,
    new Rng('grammar-update'),
    { value: 0 },
  );
  fresh.release();
  return { oldLogprobs: flat(old.logprobs), entropy: flat(old.entropy), metrics, before, after, unmasked };
}

export const updateGpuTests: GpuTest[] = [
  {
    name: 'policy update: a non-finite minibatch is skipped on the device, weights and moments stay those of the good steps',
    async run(env) {
      const got = await guardRun(env.gpu);
      const want = await guardRun(env.cpu);
      if (!got.error.includes('non-finite')) throw new Error(`no NonFiniteError on WebGPU (got "${got.error}")`);
      if (got.badPos !== 3)
        throw new Error(`the bad sample is drawn at position ${got.badPos}, want 3 (order ${got.order})`);
      if (got.steps.guarded !== 13 || got.steps.prefix !== 13)
        throw new Error(`step counter ${got.steps.guarded} / ${got.steps.prefix}, want 13 / 13`);
      const exact = { abs: 0, rel: 0 };
      const moved = got.guarded.params.some((x, i) => x !== got.initial[i]);
      if (!moved) throw new Error('the good steps did not move the weights');
      return [
        compare('guarded vs good steps only: params', got.guarded.params, got.prefix.params, exact),
        compare('guarded vs good steps only: adam m', got.guarded.m, got.prefix.m, exact),
        compare('guarded vs good steps only: adam v', got.guarded.v, got.prefix.v, exact),
        compare('params vs the CPU', got.guarded.params, want.guarded.params, { abs: 1e-5, rel: 1e-3 }),
      ];
    },
  },
  {
    name: "policy update under a grammar's masks: banned logits scored and trained as on the CPU, on-policy",
    async run(env) {
      const got = await grammarRun(env.gpu);
      const want = await grammarRun(env.cpu);
      const kl = got.metrics['losses/approx_kl'];
      if (!(Math.abs(kl) < 1e-6)) throw new Error(`approx_kl ${kl} under the masks on WebGPU, want ~0 (ratio 1)`);
      if (!(got.unmasked['losses/approx_kl'] > 1e-4))
        throw new Error(`approx_kl ${got.unmasked['losses/approx_kl']} without the masks, want > 1e-4 (off-policy)`);
      if (got.metrics['train/tokens'] !== want.metrics['train/tokens'])
        throw new Error(`${got.metrics['train/tokens']} trained rows, the CPU ${want.metrics['train/tokens']}`);
      if (!got.after.some((x, i) => x !== got.before[i])) throw new Error('the update did not move the weights');
      return [
        compare('old log-probs under the masks vs the CPU', got.oldLogprobs, want.oldLogprobs),
        compare('entropies under the masks vs the CPU', got.entropy, want.entropy),
        compare('params after the update vs the CPU', got.after, want.after, { abs: 1e-5, rel: 1e-3 }),
      ];
    },
  },
];
