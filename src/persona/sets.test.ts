/**
 * Tests of the fixed sets: sizes, ids, memoisation, speed, schema validity, and that the
 * committed files in public/personas equal a fresh generation (so they never drift).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOMAINS } from './profile.ts';
import { generateProfileSet } from './generator.ts';
import {
  BENCHMARK_SEED,
  TRAIN_SEED,
  benchmarkProfiles,
  challengeProfiles,
  serializeProfiles,
  setStats,
  trainingProfiles,
} from './sets.ts';
import { parseProfiles, serializeSchema } from './validate.ts';

const committed = (name: string) => readFileSync(join(__dirname, '..', '..', 'public', 'personas', name), 'utf8');

describe('fixed sets', () => {
  it('have the promised sizes and ids, and are memoised', () => {
    const train = trainingProfiles();
    const bench = benchmarkProfiles();
    expect(train).toHaveLength(500);
    expect(bench).toHaveLength(100);
    expect(train[0].id).toBe('train-0001');
    expect(train[499].id).toBe('train-0500');
    expect(bench[0].id).toBe('bench-001');
    expect(bench[99].id).toBe('bench-100');
    expect(trainingProfiles()).toBe(train);
    expect(benchmarkProfiles()).toBe(bench);
  });

  it('every profile passes the schema, ids are unique across both sets', () => {
    const r = parseProfiles([...trainingProfiles(), ...benchmarkProfiles()]);
    expect(r.ok ? [] : r.errors.slice(0, 5)).toEqual([]);
  });

  it('every domain appears in both sets; only benchmark users have an opening line', () => {
    for (const set of [trainingProfiles(), benchmarkProfiles()])
      expect(Object.keys(setStats(set).domain).sort()).toEqual([...DOMAINS].sort());
    expect(benchmarkProfiles().every((p) => p.openingLine !== undefined)).toBe(true);
    expect(trainingProfiles().some((p) => p.openingLine !== undefined)).toBe(false);
  });

  it('generating both sets from scratch takes well under a second', () => {
    const t0 = performance.now();
    generateProfileSet({ seed: TRAIN_SEED, count: 500, split: 'train' });
    generateProfileSet({ seed: BENCHMARK_SEED, count: 100, split: 'benchmark' });
    expect(performance.now() - t0).toBeLessThan(700);
  });

  it('the committed files equal a fresh generation (run `npx tsx src/persona/build-sets.ts` after changing blocks)', () => {
    expect(committed('train.json')).toBe(serializeProfiles(trainingProfiles()));
    expect(committed('benchmark.json')).toBe(serializeProfiles(benchmarkProfiles()));
    expect(committed('challenge.json')).toBe(serializeProfiles(challengeProfiles()));
    expect(committed('profile.schema.json')).toBe(serializeSchema());
    expect(JSON.parse(committed('benchmark.json'))).toEqual(benchmarkProfiles());
  });
});
