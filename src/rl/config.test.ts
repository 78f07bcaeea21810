import { describe, expect, it } from 'vitest';
import {
  defaultRunConfig,
  fieldHelp,
  learningRate,
  parseRunConfig,
  parseRunConfigJson,
  policySteps,
  RunConfigSchema,
} from './config';

describe('run config', () => {
  it("every preset's defaults are valid, and every field has a one-line description", () => {
    for (const p of ['ci', 'micro', 'mini', 'small'] as const)
      expect(parseRunConfig(defaultRunConfig(p))).toEqual({ ok: true, config: defaultRunConfig(p) });
    const help = fieldHelp();
    for (const k of Object.keys(RunConfigSchema.shape)) {
      expect(help[k as keyof typeof help].length, k).toBeGreaterThan(10);
      expect(help[k as keyof typeof help]).not.toContain('\n');
    }
  });

  it('fills missing fields from the named preset', () => {
    const r = parseRunConfig({ preset: 'ci', algo: 'ppo' });
    expect(r.ok && r.config).toEqual({ ...defaultRunConfig('ci'), algo: 'ppo' });
  });

  it('names the bad field and why', () => {
    const cases: [unknown, string][] = [
      [{ lr: -1 }, 'lr:'],
      [{ algo: 'dpo' }, 'algo:'],
      [{ savedAttention: 'bf16' }, 'savedAttention: Invalid option: expected one of "f32"|"f16"'],
      [{ groupSize: 2.5 }, 'groupSize:'],
      [{ steps: '10' }, 'steps:'],
      [{ colour: 'red' }, 'colour'],
      [{ version: 2 }, 'version:'],
      [{ algo: 'grpo', groupSize: 1 }, 'groupSize: grpo needs groups of at least 2'],
      [{ preset: 'ci', maxTurnTokens: 200 }, 'maxTurnTokens:'],
      [{ algo: 'ppo', steps: 5, criticWarmupSteps: 5 }, 'criticWarmupSteps: 5 warm-up steps leave no policy update'],
      [{ truncation: 'drop' }, 'truncation:'],
      [{ groupAt: 'step' }, 'groupAt:'],
      [{ groupAt: 'turn', reward: 'turn', algo: 'ppo' }, 'groupAt: turn compares sibling replies'],
      [
        { groupAt: 'turn', reward: 'both' },
        "groupAt: turn scores each reply by its own emotion change (reward 'turn')",
      ],
      [[1, 2], '(config): expected a JSON object'],
      [null, '(config)'],
    ];
    for (const [input, message] of cases) {
      const r = parseRunConfig(input);
      expect(r.ok, JSON.stringify(input)).toBe(false);
      if (!r.ok) expect(r.errors.join('\n'), JSON.stringify(input)).toContain(message);
    }
    const j = parseRunConfigJson('{"lr": 0.1,');
    expect(j.ok).toBe(false);
    if (!j.ok) expect(j.errors[0]).toContain('not valid JSON');
  });

  it("AdamW's settings are fields with the optimizer's usual values; a config written before them gets those", () => {
    for (const p of ['ci', 'micro', 'mini', 'small'] as const)
      expect(defaultRunConfig(p)).toMatchObject({ adamBeta1: 0.9, adamBeta2: 0.999, adamEps: 1e-8, weightDecay: 0 });
    const older: Record<string, unknown> = { ...defaultRunConfig('ci') };
    for (const k of ['adamBeta1', 'adamBeta2', 'adamEps', 'weightDecay']) delete older[k];
    expect(parseRunConfig(older)).toEqual({ ok: true, config: defaultRunConfig('ci') });
    for (const [input, message] of [
      [{ adamBeta1: 1 }, 'adamBeta1:'],
      [{ adamBeta2: -0.1 }, 'adamBeta2:'],
      [{ adamEps: 0 }, 'adamEps:'],
      [{ weightDecay: 2 }, 'weightDecay:'],
    ] as const) {
      const r = parseRunConfig(input);
      expect(r.ok, JSON.stringify(input)).toBe(false);
      if (!r.ok) expect(r.errors.join('\n')).toContain(message);
    }
  });

  it('the learning-rate schedule: linear warm-up, then constant or a linear decay that never reaches 0', () => {
    const c = { ...defaultRunConfig('ci'), lr: 1e-3, steps: 10, lrWarmupSteps: 4 };
    expect([0, 1, 2, 3, 4, 9].map((u) => learningRate(c, u))).toEqual([2.5e-4, 5e-4, 7.5e-4, 1e-3, 1e-3, 1e-3]);
    const lin = { ...c, lrDecay: 'linear' as const };
    expect([3, 4, 5, 9].map((u) => +learningRate(lin, u).toExponential(6))).toEqual([
      1e-3, 1e-3, 8.333333e-4, 1.666667e-4,
    ]);
    expect(learningRate({ ...c, lrWarmupSteps: 0 }, 0)).toBe(1e-3);
    // PPO's critic warm-up steps are not policy updates.
    expect(policySteps({ ...c, algo: 'ppo', criticWarmupSteps: 3 })).toBe(7);
    expect(policySteps({ ...c, algo: 'grpo', criticWarmupSteps: 3 })).toBe(10);
  });
});
