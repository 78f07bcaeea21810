/**
 * The numbers that make RL meaningful, on the real sets: the reference policies on the 100
 * benchmark profiles at moderate and strict (a fixed strategy must not win; reading the user
 * must), fixed scripts that ignore the dialogue stay at or below 50, and the calibration rates on
 * the training profiles land within 8 points of RLVER's (52/79 moderate, 33/64 strict).
 */
import { describe, expect, it } from 'vitest';
import { runBenchmark } from './benchmark.ts';
import { calibrate } from './calibrate.ts';
import { benchmarkProfiles, trainingProfiles } from './sets.ts';
import type { BenchmarkSummary } from './benchmark.ts';
import type { Difficulty } from './dynamics.ts';
import type { PolicyName } from './policies.ts';

const cache = new Map<string, BenchmarkSummary>();
function bench(policy: PolicyName, difficulty: Difficulty = 'moderate'): BenchmarkSummary {
  const key = `${policy}/${difficulty}`;
  let s = cache.get(key);
  if (!s) {
    s = runBenchmark(benchmarkProfiles(), policy, { difficulty, seed: 0 }).summary;
    cache.set(key, s);
  }
  return s;
}

describe('Sentient-lite benchmark (100 benchmark profiles)', () => {
  it('uses the held-out set with preset openings', () => {
    expect(benchmarkProfiles()).toHaveLength(100);
    expect(benchmarkProfiles().every((p) => p.openingLine)).toBe(true);
  });
  it('oracle >= 85 and adaptive >= 70 at moderate', () => {
    expect(bench('oracle').score).toBeGreaterThanOrEqual(85);
    expect(bench('adaptive').score).toBeGreaterThanOrEqual(70);
  });
  it('reflective lands between 35 and 65', () => {
    const s = bench('reflective').score;
    expect(s).toBeGreaterThanOrEqual(35);
    expect(s).toBeLessThanOrEqual(65);
  });
  it('advisor and generic <= 35; random <= 10 with failure >= 80%', () => {
    expect(bench('advisor').score).toBeLessThanOrEqual(35);
    expect(bench('generic').score).toBeLessThanOrEqual(35);
    expect(bench('random').score).toBeLessThanOrEqual(10);
    expect(bench('random').failure).toBeGreaterThanOrEqual(0.8);
  });
  it('adaptive loses at least 10 points on strict', () => {
    expect(bench('adaptive').score - bench('adaptive', 'strict').score).toBeGreaterThanOrEqual(10);
  });
  it('no policy that ignores the dialogue scores above 50', () => {
    for (const p of ['script-empathic', 'script-cycle', 'generic'] as const)
      expect(bench(p).score, p).toBeLessThanOrEqual(50);
  });
  it('is deterministic', () => {
    expect(runBenchmark(benchmarkProfiles().slice(0, 10), 'adaptive', { seed: 0 }).summary).toEqual(
      runBenchmark(benchmarkProfiles().slice(0, 10), 'adaptive', { seed: 0 }).summary,
    );
  });
});

describe('calibration (training profiles, every other one of the 500 for speed)', () => {
  const TOLERANCE = 0.08;
  /** A fixed half of the training set: the rates on all 500 differ by under a point (docs/PERSONAS.md). */
  const half = () => trainingProfiles().filter((_, i) => i % 2 === 0);
  it('moderate: acceptance ~52%, need expression ~79%', () => {
    const c = calibrate(half(), { difficulty: 'moderate' });
    expect(Math.abs(c.acceptance - 0.524)).toBeLessThanOrEqual(TOLERANCE);
    expect(Math.abs(c.needExpression - 0.786)).toBeLessThanOrEqual(TOLERANCE);
  });
  it('strict: acceptance ~33%, need expression ~64%', () => {
    const c = calibrate(half(), { difficulty: 'strict' });
    expect(Math.abs(c.acceptance - 0.331)).toBeLessThanOrEqual(TOLERANCE);
    expect(Math.abs(c.needExpression - 0.636)).toBeLessThanOrEqual(TOLERANCE);
  });
});
