import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { Rng } from '../engine/rng';
import { trainingProfiles } from '../persona/sets';
import { grpoStep, type GrpoOptions } from './grpo';
import { UPDATE_DEFAULTS } from './update';

const profiles = trainingProfiles().slice(0, 2);
const tok = Tokenizer.train(profiles.flatMap((p) => [p.scenario.event, p.scenario.problem]), 320);
const config = { vocabSize: tok.vocabSize, contextLength: 256, channels: 16, layers: 1, heads: 2 };
const OPTS: GrpoOptions = {
  groupSize: 3, estimator: 'grpo', zeroRewardOnBrokenThink: true,
  rollout: { mode: 'train', difficulty: 'moderate', userSeed: 7, think: false, sampling: { temperature: 1, topK: 0, topP: 1 }, maxTurnTokens: 5, maxAgentTurns: 3 },
  update: { ...UPDATE_DEFAULTS, minibatchSize: 8 },
};

describe('GRPO step on dialogues', () => {
  it('groups share their opening line, and the metrics are finite and consistent', async () => {
    const model = Transformer.create(new CpuBackend(), config, 3);
    const { dialogues, metrics } = await grpoStep(model, tok, profiles, OPTS, new Rng(1), { value: 0 });
    expect(dialogues).toHaveLength(6);
    for (let g = 0; g < 2; g++) {
      const openings = new Set(dialogues.slice(g * 3, g * 3 + 3).map((d) => d.opening));
      expect(openings.size).toBe(1);
    }
    for (const [k, v] of Object.entries(metrics)) expect(Number.isFinite(v), k).toBe(true);
    expect(metrics['reward/mean']).toBeCloseTo(dialogues.reduce((s, d) => s + d.reward, 0) / 6, 6);
    expect(metrics['train/tokens']).toBeGreaterThan(0);
  });

  it('is deterministic: same config and seed, same metrics', async () => {
    const run = async () => (await grpoStep(Transformer.create(new CpuBackend(), config, 3), tok, profiles, OPTS, new Rng(5), { value: 0 })).metrics;
    const a = await run();
    const b = await run();
    for (const k of Object.keys(a)) if (!k.startsWith('speed/')) expect(b[k], k).toBe(a[k]);
  });
});
