import { describe, expect, it } from 'vitest';
import { runBenchmark } from '../persona/benchmark';
import { REFERENCE_POLICIES, type PolicyName } from '../persona/policies';
import { benchmarkProfiles } from '../persona/sets';
import { readFileSync } from 'node:fs';
import { fluencyByPrefix, playedFromRecord } from '../rl/fluency';
import { ReferenceLm } from '../rl/reference-lm';
import { referenceRows } from './reference';
import { REFERENCE_FINALS } from './referenceFinals';
import { REFERENCE_FLUENCY, REFERENCE_SURPRISAL_CORPUS } from './referenceFluency';

describe("the reference policies' committed benchmark finals", () => {
  it('hold every reference policy, one final per benchmark user, and replay the same (first 4 users each)', () => {
    const profiles = benchmarkProfiles();
    expect(Object.keys(REFERENCE_FINALS)).toEqual([...REFERENCE_POLICIES]);
    for (const p of REFERENCE_POLICIES) {
      expect(REFERENCE_FINALS[p]).toHaveLength(profiles.length);
      const replay = runBenchmark(profiles.slice(0, 4), p as PolicyName, {
        difficulty: 'moderate',
        seed: 0,
      }).records.map((r) => r.finalEmotion);
      expect(REFERENCE_FINALS[p].slice(0, 4), `${p} is stale: run npx tsx src/lab/build-reference.ts`).toEqual(replay);
    }
  });

  it('hold the fluency on the first n users for every n, and replay the same (n = 1..4)', () => {
    const profiles = benchmarkProfiles();
    const lm = ReferenceLm.parse(readFileSync(new URL('../../public/reference-lm.json', import.meta.url), 'utf8'));
    expect(REFERENCE_SURPRISAL_CORPUS).toBe(lm.heldOut.surprisal);
    expect(Object.keys(REFERENCE_FLUENCY)).toEqual([...REFERENCE_POLICIES]);
    for (const p of REFERENCE_POLICIES) {
      for (const xs of Object.values(REFERENCE_FLUENCY[p])) expect(xs).toHaveLength(profiles.length);
      const { records } = runBenchmark(profiles.slice(0, 4), p as PolicyName, { difficulty: 'moderate', seed: 0 });
      const replay = fluencyByPrefix(records.map(playedFromRecord), profiles, lm);
      const committed = Object.fromEntries(Object.entries(REFERENCE_FLUENCY[p]).map(([k, xs]) => [k, xs.slice(0, 4)]));
      expect(committed, `${p} is stale: run npx tsx src/lab/build-reference.ts`).toEqual(replay);
    }
  });

  it('give the rows the persona benchmark gives (oracle above random), on the first n users', () => {
    const all = referenceRows(0);
    expect(all.map((r) => r.policy)).toEqual([...REFERENCE_POLICIES]);
    const oracle = all.find((r) => r.policy === 'oracle')!.breakdown;
    const random = all.find((r) => r.policy === 'random')!.breakdown;
    expect(oracle.overall.n).toBe(100);
    expect(oracle.overall.score).toBeGreaterThan(random.overall.score + 50);
    expect(oracle.unmatched).toBe(0);
    expect(Object.values(oracle.byIntention).reduce((s, f) => s + f.n, 0)).toBe(100);
    expect(referenceRows(2)[0].breakdown.overall.n).toBe(2);
    expect(referenceRows(2)[3].fluency.surprisal).toBe(REFERENCE_FLUENCY.reflective.surprisal[1]);
    const fluent = all.find((r) => r.policy === 'reflective')!.fluency;
    expect(fluent.realWords).toBeGreaterThan(0.95);
    expect(fluent.surprisal).toBeLessThan(all.find((r) => r.policy === 'random')!.fluency.surprisal);
    expect(referenceRows(2)).toBe(referenceRows(2));
  });
});
