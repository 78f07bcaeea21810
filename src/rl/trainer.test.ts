import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { loadCheckpoint, type OptimizerState } from '../engine/model/checkpoint';
import { Tokenizer } from '../engine/model/tokenizer';
import { initParams } from '../engine/model/transformer';
import { digest } from '../engine/rng';
import { benchmarkProfiles, trainingProfiles } from '../persona/sets';
import { TrackingBackend } from '../engine/testing/tracking';
import { BENCHMARK_REDRAWS, defaultRunConfig, type RunConfig } from './config';
import { buildCorpus } from '../corpus/build';
import { FORCED } from './think-grammar';
import { repeatedTurns } from './hacking';
import { corpusDemonstrations, topRewardedReplies } from './imitation';
import { REPLAY_CORPUS, Trainer, TrainingStopped } from './trainer';
import type { DialogueRollout } from './rollout';

const profiles = trainingProfiles().slice(0, 4);
const tok = Tokenizer.train(
  profiles.flatMap((p) => [p.scenario.event, p.scenario.problem]),
  320,
);
const modelConfig = { vocabSize: tok.vocabSize, contextLength: 256, channels: 16, layers: 1, heads: 2 };
const start = {
  config: modelConfig,
  tokenizer: tok.toJSON(),
  weights: initParams(modelConfig, 3),
  meta: { kind: 'test' },
};
const CONFIG: RunConfig = {
  ...defaultRunConfig('ci'),
  reward: 'final',
  temperature: 1,
  klCoef: 0,
  ptxCoef: 0,
  epochs: 1,
  seed: 5,
  profilesPerStep: 2,
  groupSize: 3,
  maxTurnTokens: 5,
  maxAgentTurns: 3,
  minibatchSize: 4,
  lr: 3e-3,
  lrWarmupSteps: 0,
};
const trainer = (o: Partial<RunConfig> = {}) =>
  new Trainer(new CpuBackend(), { config: { ...CONFIG, ...o }, start, trainProfiles: profiles });
const stable = (m: Record<string, number>) =>
  Object.fromEntries(Object.entries(m).filter(([k]) => !k.startsWith('speed/')));
/** A trainer resumed after step 1 from a checkpoint's weights and the given run state. */
const resumedAfterStep1 = (
  ck: { weights: Float32Array },
  optimizer: OptimizerState | undefined,
  o: Partial<RunConfig> = {},
) => {
  const t = new Trainer(new CpuBackend(), {
    config: { ...CONFIG, ...o },
    start: { ...start, weights: ck.weights },
    trainProfiles: profiles,
    ...(optimizer ? { optimizer } : {}),
  });
  t.stepsDone = 1;
  return t;
};
/** Training replies a user rewarded with +10, as a rollout records them: `reply` to each prompt. */
const topRewarded = (prompts: string[], reply: string) =>
  [
    {
      turns: prompts.map((p) => ({
        prompt: tok.encode(p),
        response: [...tok.encode(reply), tok.special('<|end|>')],
        truncated: false,
        result: { change: 10 },
      })),
    },
  ] as unknown as DialogueRollout[];

describe('the RL trainer', () => {
  it('plays groups that share their opening line, and reports finite, consistent metrics', async () => {
    const t = trainer();
    const r = await t.step();
    expect(r.step).toBe(1);
    expect(r.dialogues).toHaveLength(6);
    for (let g = 0; g < 2; g++) {
      const group = r.dialogues.slice(g * 3, g * 3 + 3);
      expect(new Set(group.map((d) => d.opening)).size).toBe(1);
      expect(new Set(group.map((d) => d.profileId)).size).toBe(1);
    }
    for (const [k, v] of Object.entries(r.metrics)) expect(Number.isFinite(v), k).toBe(true);
    expect(r.metrics['reward/mean']).toBeCloseTo(r.dialogues.reduce((s, d) => s + d.reward, 0) / 6, 6);
    // Every sampled token trains; the <|end|> forced on a reply cut at the cap does not (truncation mask-end).
    const turns = r.dialogues.flatMap((d) => d.turns);
    const cut = turns.filter((x) => x.truncated).length;
    expect(cut).toBeGreaterThan(0);
    expect(r.metrics['train/tokens']).toBe(turns.reduce((s, x) => s + x.response.length, 0) - cut);
    expect(r.metrics['dialogue/truncated']).toBeCloseTo(cut / turns.length, 6);
    // The share of replies that repeat an earlier reply of their dialogue (what the repeat penalty charges).
    const repeats = r.dialogues.flatMap((d) => repeatedTurns(d.turns.map((x) => x.reply)).filter((j) => j >= 0));
    expect(r.metrics['dialogue/repeats']).toBeCloseTo(repeats.length / turns.length, 6);
    const all = await trainer({ truncation: 'train' }).step();
    expect(all.metrics['train/tokens']).toBe(
      all.dialogues.flatMap((d) => d.turns).reduce((s, x) => s + x.response.length, 0),
    );
    const whole = await trainer({ truncation: 'mask-turn' }).step();
    const wholeTurns = whole.dialogues.flatMap((d) => d.turns);
    expect(whole.metrics['train/tokens']).toBe(
      wholeTurns.filter((x) => !x.truncated).reduce((s, x) => s + x.response.length, 0),
    );
    for (const key of [
      'reward/std',
      'emotion/success',
      'emotion/failure',
      'dialogue/turns',
      'dialogue/reply_tokens',
      'losses/policy_loss',
      'losses/value_loss',
      'losses/entropy',
      'losses/approx_kl',
      'losses/kl_ref',
      'losses/clipfrac',
      'value/explained_variance',
      'advantages/rms',
      'train/lr',
      'train/grad_norm',
      'speed/rollout_tokens_per_s',
      'speed/train_tokens_per_s',
    ])
      expect(r.metrics, key).toHaveProperty(key);
    // The next step plays the next profiles of the seeded order.
    expect(t.profilesOf(1).map((p) => p.id)).not.toEqual(t.profilesOf(0).map((p) => p.id));
  });

  it('is deterministic, and its first steps are pinned (CPU backend)', async () => {
    const run = async () => {
      const t = trainer();
      const out = [];
      for (let k = 0; k < 2; k++) out.push(stable((await t.step()).metrics));
      return { out, weights: digest(Array.from(await t.model.readParams()).join(',')) };
    };
    const a = await run();
    const b = await run();
    expect(b).toEqual(a);
    // Pinned: any change to rollouts, credit or the update shows up here. Update on purpose only.
    expect(
      a.out.map((m) => [
        m['reward/mean'].toFixed(6),
        m['losses/policy_loss'].toFixed(6),
        m['train/grad_norm'].toFixed(6),
      ]),
    ).toMatchInlineSnapshot(`
      [
        [
          "0.008333",
          "-0.287728",
          "1.269620",
        ],
        [
          "0.050000",
          "-0.025487",
          "1.095504",
        ],
      ]
    `);
    expect(a.weights).toMatchInlineSnapshot(`"d12222590ccfbd73"`);
  });

  it('groupAt turn: one dialogue per profile with groupSize replies a turn, deterministic, and it trains', async () => {
    const o: Partial<RunConfig> = { groupAt: 'turn', reward: 'turn' };
    const t = trainer(o);
    const r = await t.step();
    expect(r.dialogues).toHaveLength(6);
    for (let g = 0; g < 2; g++) {
      const rows = r.dialogues.slice(g * 3, g * 3 + 3);
      expect(new Set(rows.map((d) => d.profileId)).size).toBe(1);
      // One dialogue: the rows share every turn's prompt and the transcript.
      for (const d of rows) {
        expect(d.turns.map((x) => x.prompt)).toEqual(rows[0].turns.map((x) => x.prompt));
        expect(d.transcript).toBe(rows[0].transcript);
      }
    }
    for (const [k, v] of Object.entries(r.metrics)) expect(Number.isFinite(v), k).toBe(true);
    expect(r.metrics['advantages/rms']).toBeGreaterThan(0);
    expect(r.metrics['train/grad_norm']).toBeGreaterThan(0);
    const again = await trainer(o).step();
    expect(stable(again.metrics)).toEqual(stable(r.metrics));
  });

  it('maxAgentTurns above 8 trains as many replies as the benchmark scores: the users talk on to it', async () => {
    const ck = loadCheckpoint(readFileSync(new URL('../../public/warmstart-ci.bin', import.meta.url)));
    const warm = { config: ck.config, tokenizer: ck.tokenizer, weights: ck.weights, meta: ck.meta };
    const play = async (maxAgentTurns: number) => {
      const t = new Trainer(new CpuBackend(), {
        config: { ...CONFIG, maxAgentTurns, maxTurnTokens: 24, temperature: 0.7, profilesPerStep: 3, groupSize: 2 },
        start: warm,
        trainProfiles: trainingProfiles().slice(0, 3),
      });
      const r = await t.step();
      const turns = r.dialogues.map((d) => d.turns.length);
      expect(r.metrics['dialogue/turns']).toBeCloseTo(turns.reduce((a, b) => a + b, 0) / turns.length, 6);
      return Math.max(...turns);
    };
    expect(await play(8)).toBe(8);
    expect(await play(10)).toBe(10);
  });

  it('PPO trains the value head; GRPO leaves it alone', async () => {
    const valueHead = async (t: Trainer) => {
      const w = await t.model.readParams();
      const e = t.model.layout.entries.filter((x) => x.name.startsWith('value.'));
      return e.map((x) => Array.from(w.subarray(x.offset, x.offset + x.size)).join()).join('|');
    };
    for (const algo of ['ppo', 'grpo'] as const) {
      const t = trainer({ algo, reward: 'both' });
      const before = await valueHead(t);
      const r = await t.step();
      const after = await valueHead(t);
      if (algo === 'ppo') {
        expect(after).not.toBe(before);
        expect(r.metrics['losses/value_loss']).toBeGreaterThan(0);
      } else expect(after).toBe(before);
    }
  });

  it('PPO from a warm start: the value head starts at the mean return, and the critic warm-up moves nothing else', async () => {
    const t = trainer({ algo: 'ppo', reward: 'both', criticWarmupSteps: 1, steps: 3 });
    const split = async () => {
      const w = await t.model.readParams();
      const head = t.model.layout.entries.filter((x) => x.name.startsWith('value.'));
      const inHead = (i: number) => head.some((x) => i >= x.offset && i < x.offset + x.size);
      return {
        head: head.map((x) => Array.from(w.subarray(x.offset, x.offset + x.size))),
        rest: w.filter((_, i) => !inHead(i)),
      };
    };
    const before = await split();
    const first = await t.step();
    // Constant values at the mean return explain none of the variance: exactly 0, not the noise head's
    // large negative figure.
    expect(first.metrics['value/explained_variance']).toBeCloseTo(0, 5);
    expect(first.metrics['train/critic_only']).toBe(1);
    const after = await split();
    expect(Array.from(after.rest)).toEqual(Array.from(before.rest)); // the policy did not move
    expect(after.head).not.toEqual(before.head);
    expect(first.metrics['losses/value_loss']).toBeGreaterThan(0);
    const second = await t.step();
    expect(second.metrics['train/critic_only']).toBe(0);
    expect(Array.from((await split()).rest)).not.toEqual(Array.from(after.rest));
    // A PPO run's own checkpoint has a trained critic: a run resumed from it keeps its head.
    const again = new Trainer(new CpuBackend(), {
      config: { ...CONFIG, algo: 'ppo', reward: 'both' },
      start: { ...start, weights: await t.model.readParams(), meta: { kind: 'rl', runConfig: { algo: 'ppo' } } },
      trainProfiles: profiles,
    });
    const resumed = await again.step();
    expect(resumed.metrics['value/explained_variance']).not.toBeCloseTo(0, 5);
  });

  it('with redraws, its rollouts draw a repeated reply again and it reports how often; its benchmark has its own', async () => {
    const ck = loadCheckpoint(readFileSync(new URL('../../public/warmstart-ci.bin', import.meta.url)));
    const warm = (o: Partial<RunConfig>) =>
      new Trainer(new CpuBackend(), {
        config: { ...CONFIG, temperature: 0.7, maxTurnTokens: 24, maxAgentTurns: 8, profilesPerStep: 3, ...o },
        start: ck,
        trainProfiles: trainingProfiles().slice(0, 6),
      });
    const plain = await warm({}).step();
    expect(plain.metrics).not.toHaveProperty('rollout/redrawn');
    const t = warm({ redraws: 2 });
    const r = await t.step();
    const turns = r.dialogues.flatMap((d) => d.turns);
    const redrawn = turns.filter((x) => (x.redrawn ?? 0) > 0).length;
    expect(redrawn).toBeGreaterThan(0);
    expect(r.metrics['rollout/redrawn']).toBeCloseTo(redrawn / turns.length, 6);
    // The update scores what the redraw kept: its recorded log-probs are the policy's own.
    expect(r.metrics['rollout/logprob_diff']).toBeLessThan(1e-4);
    // The benchmark plays every policy with its own redraws, whatever the training rollouts used.
    for (const tr of [t, warm({})]) {
      const ev = await tr.evaluate(benchmarkProfiles().slice(0, 3));
      const evTurns = ev.rollouts.flatMap((d) => d.turns);
      expect(evTurns.every((x) => x.redrawn !== undefined && x.redrawn >= 0 && x.redrawn <= BENCHMARK_REDRAWS)).toBe(
        true,
      );
    }
  });

  it('warms the learning rate up and decays it as configured', async () => {
    const t = trainer({ lrWarmupSteps: 2, lrDecay: 'linear', steps: 4, lr: 3e-3 });
    const lrs = [];
    for (let k = 0; k < 4; k++) lrs.push((await t.step()).metrics['train/lr']);
    expect(lrs.map((x) => +x.toExponential(6))).toEqual([1.5e-3, 3e-3, 3e-3, 1.5e-3]);
  });

  it('think mode samples under the grammar and scores it on-policy; forced tokens do not train', async () => {
    // One minibatch, so the step's approx_kl is the first minibatch's: exactly on-policy, ratio 1.
    const r = await trainer({ think: true, minibatchSize: 64, klCoef: 0.1 }).step();
    const turns = r.dialogues.flatMap((d) => d.turns);
    expect(turns.every((t) => t.wellFormed && t.grammar !== undefined)).toBe(true);
    expect(r.metrics['dialogue/broken_think']).toBe(0);
    expect(r.metrics['rollout/logprob_diff']).toBeLessThan(1e-5);
    expect(Math.abs(r.metrics['losses/approx_kl'])).toBeLessThan(1e-9);
    expect(r.metrics['losses/kl_ref']).toBeCloseTo(0, 6);
    const tokens = turns.reduce((s, t) => s + t.response.length, 0);
    const forced = turns.reduce((s, t) => s + t.grammar!.steps.filter((x) => x === FORCED).length, 0);
    const cut = turns.filter((t) => t.truncated).length;
    expect(forced).toBeGreaterThanOrEqual(turns.length); // <think> at least, in every turn
    expect(r.metrics['dialogue/forced_tokens']).toBeCloseTo(forced / tokens, 6);
    expect(r.metrics['train/tokens']).toBe(tokens - forced - cut);
    // thinkGrammar off: free samples (some broken), nothing forced, still scored on-policy.
    const free = await trainer({ think: true, thinkGrammar: false, minibatchSize: 64 }).step();
    const freeTurns = free.dialogues.flatMap((d) => d.turns);
    expect(freeTurns.some((t) => !t.wellFormed)).toBe(true);
    expect(freeTurns.every((t) => t.grammar === undefined)).toBe(true);
    expect(free.metrics['dialogue/forced_tokens']).toBe(0);
    expect(free.metrics['rollout/logprob_diff']).toBeLessThan(1e-5);
  });

  it('with a KL penalty, measures the KL to the frozen warm start (0 at the first step)', async () => {
    const t = trainer({ klCoef: 0.1, klEstimator: 'k1' });
    const first = await t.step();
    expect(first.metrics['losses/kl_ref']).toBeCloseTo(0, 6);
    const second = await t.step();
    expect(Math.abs(second.metrics['losses/kl_ref'])).toBeGreaterThan(0);
  });

  it('a non-finite loss stops the run with a message and keeps the last good weights and AdamW state', async () => {
    const t = trainer({ minibatchSize: 1 });
    await t.step();
    const good = await t.model.readParams();
    const goodState = loadCheckpoint(await t.checkpoint({}, { optimizer: true })).optimizer!;
    expect(goodState.step).toBeGreaterThan(0);
    // Make the next update diverge (outside the schema's range on purpose): after its first
    // minibatch the weights are ~1e30 and the next forward overflows.
    (t.init.config as RunConfig).lr = 1e30;
    const stop = await t.step().then(
      () => null,
      (e: unknown) => e,
    );
    expect(stop).toBeInstanceOf(TrainingStopped);
    expect((stop as Error).message).toMatch(/step 2: the loss became non-finite.*last good state/);
    expect(t.stepsDone).toBe(1);
    expect(Array.from(await t.model.readParams())).toEqual(Array.from(good));
    const ck = loadCheckpoint(await t.checkpoint());
    expect(Array.from(ck.weights)).toEqual(Array.from(good));
    expect(ck.meta.kind).toBe('rl');
    expect(ck.optimizer).toBeUndefined();
    // The failing update's good minibatches moved the moments and counted AdamW steps: undone.
    const state = loadCheckpoint(await t.checkpoint({}, { optimizer: true })).optimizer!;
    expect(state.step).toBe(goodState.step);
    expect(Array.from(state.m)).toEqual(Array.from(goodState.m));
    expect(Array.from(state.v)).toEqual(Array.from(goodState.v));
  });

  it("goes on from a checkpoint's AdamW state exactly as the run that never stopped; refuses a state of the wrong size", async () => {
    const t = trainer();
    await t.step();
    const ck = loadCheckpoint(await t.checkpoint({}, { optimizer: true }));
    const a = stable((await t.step()).metrics);
    const resumed = resumedAfterStep1(ck, ck.optimizer);
    expect(stable((await resumed.step()).metrics)).toEqual(a);
    expect(Array.from(await resumed.model.readParams())).toEqual(Array.from(await t.model.readParams()));
    const bad = { step: 1, m: new Float32Array(3), v: new Float32Array(3) };
    expect(
      () => new Trainer(new CpuBackend(), { config: CONFIG, start, trainProfiles: profiles, optimizer: bad }),
    ).toThrow(/optimizer state has 3 and 3 values; this model needs/);
  });

  it("with self-imitation, goes on from a checkpoint's memory exactly as the run that never stopped", async () => {
    const o = { imitateCoef: 1, imitateBatch: 2, imitateKeep: 3 };
    const t = trainer(o);
    t.imitation.add(
      topRewarded(
        [1, 2, 3, 4].map((i) => `It was me ${i}.`),
        'That is not on you.',
      ),
    );
    await t.step();
    const ck = loadCheckpoint(await t.checkpoint({}, { optimizer: true }));
    expect(ck.optimizer?.imitation).toHaveLength(3);
    expect(ck.optimizer?.imitation).toEqual(t.imitation.records());
    const a = stable((await t.step()).metrics);
    const resumed = resumedAfterStep1(ck, ck.optimizer, o);
    expect(stable((await resumed.step()).metrics)).toEqual(a);
    expect(Array.from(await resumed.model.readParams())).toEqual(Array.from(await t.model.readParams()));
    // Without the memory the same resume trains differently: it is part of the run's state.
    const forgetful = resumedAfterStep1(ck, { ...ck.optimizer!, imitation: [] }, o);
    await forgetful.step();
    expect(Array.from(await forgetful.model.readParams())).not.toEqual(Array.from(await t.model.readParams()));
  });

  it('with imitateDemos, a new run starts its self-imitation memory with the corpus demonstrations; a resumed one keeps its own', async () => {
    const o = { imitateCoef: 0.5, imitateBatch: 2, imitateDemos: 3, maxTurnTokens: 40 };
    const t = trainer(o);
    const demos = corpusDemonstrations(tok, 3, modelConfig.contextLength, 40);
    expect(demos).toHaveLength(3);
    expect(t.imitation.examples).toEqual(demos);
    expect(trainer({ ...o, imitateCoef: 0 }).imitation.examples).toEqual([]);
    const a = stable((await t.step()).metrics);
    expect(a['losses/imitate_loss']).toBeGreaterThan(0);
    expect(stable((await trainer(o).step()).metrics)).toEqual(a);
    const none = stable((await trainer({ ...o, imitateDemos: 0 }).step()).metrics);
    expect(none['losses/imitate_loss']).toBe(0);
    const ck = loadCheckpoint(await t.checkpoint({}, { optimizer: true }));
    const resumed = resumedAfterStep1(ck, { ...ck.optimizer!, imitation: [] }, o);
    expect(resumed.imitation.examples).toEqual([]);
  });

  it('with replay (ptxCoef), reports the replay loss, stays deterministic, and moves the weights differently', async () => {
    const replay = Array.from({ length: 4 }, (_, i) => ({
      ids: tok.encode(`I hear you ${i}, that sounds hard.`),
      agentMask: [] as number[],
    })).map((e) => ({ ...e, agentMask: e.ids.map(() => 1) }));
    const run = async (ptxCoef: number) => {
      const t = new Trainer(new CpuBackend(), {
        config: { ...CONFIG, ptxCoef, ptxBatch: 2 },
        start,
        trainProfiles: profiles,
        ptxData: replay,
      });
      const m = stable((await t.step()).metrics);
      return { m, weights: digest(Array.from(await t.model.readParams()).join(',')) };
    };
    const a = await run(1);
    expect(await run(1)).toEqual(a);
    expect(a.m['losses/ptx_loss']).toBeGreaterThan(0);
    const off = await run(0);
    expect(off.m['losses/ptx_loss']).toBe(0);
    expect(off.weights).not.toBe(a.weights);
    expect(off.m['reward/mean']).toBe(a.m['reward/mean']); // the rollout is the same; only the update differs
  });

  it('with self-imitation (imitateCoef), keeps every top-rewarded reply of each step, trains on its memory, and stays deterministic', async () => {
    // Replies a user rewarded with +10, as a rollout records them (a random model rarely writes one).
    const top = topRewarded(['I keep going over it 1.', 'I keep going over it 2.'], 'That sounds hard.');
    const run = async (imitateCoef: number) => {
      const t = trainer({ imitateCoef, imitateBatch: 2 });
      t.imitation.add(top);
      const steps = [];
      for (let k = 0; k < 2; k++) steps.push(await t.step());
      return { steps, weights: digest(Array.from(await t.model.readParams()).join(',')) };
    };
    const a = await run(1);
    let kept = 2;
    for (const r of a.steps) {
      // Kept before the update, so a step's own top replies already count.
      kept += topRewardedReplies(r.dialogues).length;
      expect(r.metrics['imitate/kept']).toBe(kept);
      expect(r.metrics['losses/imitate_loss']).toBeGreaterThan(0);
    }
    const again = await run(1);
    expect(again.weights).toBe(a.weights);
    expect(again.steps.map((r) => stable(r.metrics))).toEqual(a.steps.map((r) => stable(r.metrics)));
    const off = await run(0);
    expect('imitate/kept' in off.steps[0].metrics).toBe(false);
    expect('losses/imitate_loss' in off.steps[0].metrics).toBe(false);
    // The first rollout is the same; the memory changes the update.
    expect(off.steps[0].metrics['reward/mean']).toBe(a.steps[0].metrics['reward/mean']);
    expect(off.weights).not.toBe(a.weights);
  });

  it('savedAttention f16: the same rollouts as f32, losses within rounding (each minibatch after the first sees weights its update moved), deterministic', async () => {
    const run = async (savedAttention: 'f32' | 'f16') => {
      const t = trainer({ savedAttention });
      const m = stable((await t.step()).metrics);
      return { m, params: await t.model.readParams() };
    };
    const f32 = await run('f32');
    const f16 = await run('f16');
    expect((await run('f16')).params).toEqual(f16.params);
    expect(f16.m['reward/mean']).toBe(f32.m['reward/mean']);
    for (const k of ['losses/policy_loss', 'losses/entropy', 'train/grad_norm'])
      expect(f16.m[k], k).toBeCloseTo(f32.m[k], 4);
    expect(f16.params).not.toEqual(f32.params);
    // The update's direction: AdamW divides by √v, so an element whose gradient is near 0 can move
    // either way; measured over the whole update, f16's is f32's within 2%.
    let diff = 0;
    let step = 0;
    for (let i = 0; i < start.weights.length; i++) {
      diff += (f16.params[i] - f32.params[i]) ** 2;
      step += (f32.params[i] - start.weights[i]) ** 2;
    }
    expect(Math.sqrt(diff / step)).toBeLessThan(0.02); // 0.3% here
  });

  it('gives back every tensor it took: steps with a KL reference and replay, an evaluation and a failed step, then release', async () => {
    const be = new TrackingBackend();
    const t = new Trainer(be, {
      config: { ...CONFIG, klCoef: 0.1, ptxCoef: 0.3, ptxBatch: 2, minibatchSize: 1 },
      start,
      trainProfiles: profiles,
    });
    await t.step();
    await t.evaluate(benchmarkProfiles().slice(0, 1));
    (t.init.config as RunConfig).lr = 1e30; // the next update diverges (see the test above)
    await expect(t.step()).rejects.toBeInstanceOf(TrainingStopped);
    await t.checkpoint({}, { optimizer: true });
    // Held while the run lives: the policy's weights and its three arenas, the reference's weights
    // only (frozen: no gradient or AdamW arenas), the three snapshot arenas, the step guard.
    const total = t.model.layout.total;
    const arenas = [...be.live.keys()].filter((x) => x.size === total).length;
    expect(arenas).toBe(4 + 1 + 3);
    t.release();
    t.release(); // idempotent
    expect(be.live.size, `still held after release:\n${be.report()}`).toBe(0);
    expect(be.doubleReleases).toBe(0);
    expect(() => t.model.readParams()).toThrow(/released/);
  });

  it("AdamW's betas, epsilon and weight decay come from the run config", async () => {
    const weightsAfter = async (o: Partial<RunConfig>) => {
      const t = trainer(o);
      await t.step();
      return digest(Array.from(await t.model.readParams()).join(','));
    };
    const base = await weightsAfter({});
    expect(await weightsAfter({ adamBeta1: 0.9, adamBeta2: 0.999, adamEps: 1e-8, weightDecay: 0 })).toBe(base);
    for (const o of [{ adamBeta1: 0.5 }, { adamBeta2: 0.9 }, { adamEps: 1e-3 }, { weightDecay: 0.5 }])
      expect(await weightsAfter(o), JSON.stringify(o)).not.toBe(base);
  });

  it('a refused trainer holds no tensor: a wrong optimizer state, no training profiles, a reference of another size', () => {
    const be = new TrackingBackend();
    const config = { ...CONFIG, klCoef: 0.1 };
    const bad = { step: 1, m: new Float32Array(3), v: new Float32Array(3) };
    expect(() => new Trainer(be, { config, start, trainProfiles: profiles, optimizer: bad })).toThrow(
      /optimizer state/,
    );
    expect(be.live.size, `held after a refused optimizer state:\n${be.report()}`).toBe(0);
    const total = initParams(modelConfig, 3).length;
    const badStep = { step: 0.5, m: new Float32Array(total), v: new Float32Array(total) };
    expect(() => new Trainer(be, { config, start, trainProfiles: profiles, optimizer: badStep })).toThrow(/step count/);
    expect(be.live.size, `held after a refused step count:\n${be.report()}`).toBe(0);
    expect(() => new Trainer(be, { config, start, trainProfiles: [] })).toThrow(/no training profiles/);
    expect(be.live.size, `held after no profiles:\n${be.report()}`).toBe(0);
    const reference = { weights: new Float32Array(7) };
    expect(() => new Trainer(be, { config, start, trainProfiles: profiles, reference })).toThrow();
    expect(be.live.size, `held after a bad reference:\n${be.report()}`).toBe(0);
    expect(be.doubleReleases).toBe(0);
  });

  it('the replay corpus is the training split: none of its dialogues comes from a held-out profile', () => {
    const corpus = buildCorpus(REPLAY_CORPUS);
    const held = new Set(corpus.heldOut.map((d) => d.profileId));
    expect(held.size).toBeGreaterThan(0);
    expect(corpus.train.length).toBeGreaterThan(500);
    for (const d of corpus.train) expect(held.has(d.profileId), d.profileId).toBe(false);
  });
});
