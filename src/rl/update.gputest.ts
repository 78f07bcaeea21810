/**
 * The policy update's step guard on a backend: five one-sample minibatches, the fourth-drawn
 * carrying a NaN advantage. A step is queued with no readback before AdamW, so the device must skip
 * that step; the host then throws NonFiniteError and queues no more. The weights and AdamW's
 * moments must equal those of a model that only ever took the good steps before it, bit for bit,
 * and the step counter must count only those. Run on the CPU by update.test.ts and on WebGPU here.
 */
import type { Backend } from '../engine/backend';
import type { ModelConfig } from '../engine/model/config';
import { Transformer } from '../engine/model/transformer';
import { Rng } from '../engine/rng';
import { compare } from '../engine/testing/compare';
import type { GpuTest } from '../engine/testing/gpu-test';
import { responseSample, type TrainSample } from './samples';
import { NonFiniteError, policyUpdate, UPDATE_DEFAULTS } from './update';

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
];
