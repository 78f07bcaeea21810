import { describe, expect, it } from 'vitest';
import { benchmarkBreakdown, figuresOf, type ProfileKeys } from './breakdown';

const P = (id: string, intention: string, type: string): ProfileKeys =>
  ({ id, intention, personality: { type } }) as unknown as ProfileKeys;
const profiles = [
  P('a', 'venting', 'negative'),
  P('b', 'venting', 'passive'),
  P('c', 'advice', 'negative'),
  P('d', 'validation', 'avoidant'),
];

describe('benchmarkBreakdown', () => {
  it('gives the overall figures and one row per intention and per personality type, with counts', () => {
    const b = benchmarkBreakdown(
      [
        { profileId: 'a', finalEmotion: 100 },
        { profileId: 'b', finalEmotion: 40 },
        { profileId: 'c', finalEmotion: 5 },
        { profileId: 'd', finalEmotion: 60 },
      ],
      profiles,
    );
    expect(b.overall).toEqual({ score: 51.25, success: 0.25, failure: 0.25, n: 4 });
    expect(b.byIntention).toEqual({
      advice: { score: 5, success: 0, failure: 1, n: 1 },
      validation: { score: 60, success: 0, failure: 0, n: 1 },
      venting: { score: 70, success: 0.5, failure: 0, n: 2 },
    });
    expect(Object.keys(b.byIntention)).toEqual(['advice', 'validation', 'venting']);
    expect(b.byType).toEqual({
      avoidant: { score: 60, success: 0, failure: 0, n: 1 },
      negative: { score: 52.5, success: 0.5, failure: 0.5, n: 2 },
      passive: { score: 40, success: 0, failure: 0, n: 1 },
    });
    expect(b.unmatched).toBe(0);
  });

  it('counts a dialogue of an unknown profile overall, in no group, and reports it', () => {
    const b = benchmarkBreakdown(
      [
        { profileId: 'a', finalEmotion: 20 },
        { profileId: 'zz', finalEmotion: 0 },
      ],
      profiles,
    );
    expect(b.overall).toEqual({ score: 10, success: 0, failure: 0.5, n: 2 });
    expect(b.byIntention).toEqual({ venting: { score: 20, success: 0, failure: 0, n: 1 } });
    expect(b.byType).toEqual({ negative: { score: 20, success: 0, failure: 0, n: 1 } });
    expect(b.unmatched).toBe(1);
  });

  it('is all zeros with nothing played; 9.9 fails and 10 does not', () => {
    expect(benchmarkBreakdown([], profiles)).toEqual({
      overall: { score: 0, success: 0, failure: 0, n: 0 },
      byIntention: {},
      byType: {},
      unmatched: 0,
    });
    expect(figuresOf([9.9, 10, 99.9, 100])).toEqual({ score: 54.95, success: 0.25, failure: 0.25, n: 4 });
  });
});
