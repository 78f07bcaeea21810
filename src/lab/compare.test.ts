import { describe, expect, it } from 'vitest';
import { compareSeries, figurePoints, type ComparedRun } from './compare';

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
});
