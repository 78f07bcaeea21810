import { describe, expect, it } from 'vitest';
import { defaultRunConfig } from '../rl/config';
import {
  baselineFirst,
  compareSeries,
  differenceLine,
  differingSettings,
  figurePoints,
  settingsLabel,
  type ComparedRun,
} from './compare';

const a: ComparedRun = {
  name: 'ci GRPO seed 1',
  metrics: [
    { step: 1, 'reward/mean': 0.3 },
    { step: 2, 'reward/mean': NaN, 'eval/score': 31 },
    { step: 3, 'reward/mean': 0.5 },
  ],
  benchmark: { before: { score: 20 }, after: { score: 42 } },
};
const b: ComparedRun = {
  name: 'ci PPO seed 2',
  metrics: [
    { step: 1, 'reward/mean': 0.1 },
    { step: 2, 'reward/mean': 0.2 },
  ],
};

describe('run compare', () => {
  it("gives one labelled series per run, A then B, with each run's own points", () => {
    const s = compareSeries([a, b], 'reward/mean');
    expect(s.map((x) => x.label)).toEqual(['A: ci GRPO seed 1', 'B: ci PPO seed 2']);
    expect(s[0].points).toEqual([
      [1, 0.3],
      [3, 0.5],
    ]);
    expect(s[1].points).toEqual([
      [1, 0.1],
      [2, 0.2],
    ]);
  });

  it('joins the benchmark before (step 0), during and after (last step)', () => {
    expect(figurePoints(a, 'benchmark')).toEqual([
      [0, 20],
      [2, 31],
      [3, 42],
    ]);
    expect(figurePoints(b, 'benchmark')).toEqual([]);
    expect(figurePoints({ ...b, benchmark: { before: { score: 15 } } }, 'benchmark')).toEqual([[0, 15]]);
  });

  it('names the settings that differ, in the words a legend uses', () => {
    const base = defaultRunConfig('ci');
    const runs = [
      { ...base, lr: 1e-3 },
      { ...base, lr: 3e-3 },
      { ...base, lr: 3e-3, algo: 'ppo' as const },
    ];
    expect(differingSettings(runs)).toEqual(['algo', 'lr']);
    expect(differenceLine(runs)).toBe('algo grpo vs grpo vs ppo; lr 1e-3 vs 3e-3 vs 3e-3');
    expect(settingsLabel(runs[2], differingSettings(runs))).toBe('algo ppo, lr 3e-3');
    expect(differenceLine([base, { ...base }])).toBe('the same settings');
    expect(differenceLine([base, { ...base, think: true, seed: 2, steps: 9, klCoef: 0.5, ptxCoef: 1 }], 2)).toBe(
      'seed 1 vs 2; think off vs on; and 3 more',
    );
    expect(settingsLabel({ ...base, lr: 0.0005 }, ['lr'])).toBe('lr 5e-4');
  });

  it('puts the pinned baseline first and keeps the others in order', () => {
    expect(baselineFirst(['a', 'b', 'c', 'd'], 2)).toEqual(['c', 'a', 'b', 'd']);
    expect(baselineFirst(['a', 'b'], 0)).toEqual(['a', 'b']);
    expect(baselineFirst(['a', 'b'], 5)).toEqual(['a', 'b']);
  });

  it('labels up to four runs A to D', () => {
    const s = compareSeries([a, b, a, b], 'reward/mean');
    expect(s.map((x) => x.label[0])).toEqual(['A', 'B', 'C', 'D']);
  });
});
