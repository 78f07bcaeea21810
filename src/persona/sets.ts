/**
 * The fixed profile sets: 500 training users, 100 held-out benchmark users ("Sentient-lite") and
 * 60 challenge users who push back (./challengeSet.ts), generated from fixed seeds and memoised.
 * The benchmark and challenge sets are built only from benchmark templates, so they measure
 * generalisation to unseen situations. `--profiles` in the CLI takes these names (PROFILE_SETS).
 *
 * This file is the API the turn engine, calibration and the UI use; the committed copies in
 * public/personas/*.json are written by ./build-sets.ts and a test keeps them equal to this.
 * It is not the generator (./generator.ts). Pure: no browser or Node APIs.
 */
import type { Profile } from './profile.ts';
import { generateProfileSet } from './generator.ts';
import { generateChallengeSet } from './challengeSet.ts';

export const TRAIN_SEED = 'empathy-lab/personas/train/v1';
export const BENCHMARK_SEED = 'empathy-lab/personas/benchmark/v1';
const TRAIN_COUNT = 500;
export const BENCHMARK_COUNT = 100;
const CHALLENGE_SEED = 'empathy-lab/personas/challenge/v1';
const CHALLENGE_COUNT = 60;

let train: Profile[] | undefined;
let bench: Profile[] | undefined;
let challenge: Profile[] | undefined;

/** 500 training profiles, ids train-0001..train-0500. The same array on every call: do not mutate. */
export function trainingProfiles(): Profile[] {
  train ??= generateProfileSet({ seed: TRAIN_SEED, count: TRAIN_COUNT, split: 'train' });
  return train;
}

/** 100 benchmark profiles, ids bench-001..bench-100, each with an openingLine. Do not mutate. */
export function benchmarkProfiles(): Profile[] {
  bench ??= generateProfileSet({ seed: BENCHMARK_SEED, count: BENCHMARK_COUNT, split: 'benchmark' });
  return bench;
}

/** 60 challenge profiles, ids chal-01..chal-60, each with an openingLine and a challenge. Do not mutate. */
export function challengeProfiles(): Profile[] {
  challenge ??= generateChallengeSet(CHALLENGE_SEED, CHALLENGE_COUNT);
  return challenge;
}

/** The sets by name, as `--profiles NAME` and public/personas/NAME.json know them. */
export const PROFILE_SETS = {
  train: trainingProfiles,
  benchmark: benchmarkProfiles,
  challenge: challengeProfiles,
} as const satisfies Record<string, () => Profile[]>;
export type ProfileSetName = keyof typeof PROFILE_SETS;
export const isProfileSetName = (s: string): s is ProfileSetName => Object.hasOwn(PROFILE_SETS, s);

/**
 * The exact text of a committed set file: a JSON array, one profile per line, so diffs stay
 * readable and the files stay small.
 */
export function serializeProfiles(profiles: readonly Profile[]): string {
  return `[\n${profiles.map((p) => JSON.stringify(p)).join(',\n')}\n]\n`;
}

/** Counts per intention, personality type and domain, for docs and sanity checks. */
export function setStats(
  profiles: readonly Profile[],
): Record<'intention' | 'type' | 'domain' | 'template' | 'challenge', Record<string, number>> {
  const count = (key: (p: Profile) => string) =>
    profiles.reduce<Record<string, number>>((acc, p) => ((acc[key(p)] = (acc[key(p)] ?? 0) + 1), acc), {});
  return {
    intention: count((p) => p.intention),
    type: count((p) => p.personality.type),
    domain: count((p) => p.scenario.domain),
    template: count((p) => p.scenario.templateId),
    challenge: profiles.reduce<Record<string, number>>((acc, p) => {
      for (const b of p.challenge?.behaviours ?? []) acc[b] = (acc[b] ?? 0) + 1;
      return acc;
    }, {}),
  };
}

export function formatSetStats(name: string, profiles: readonly Profile[]): string {
  const s = setStats(profiles);
  const line = (label: string, rec: Record<string, number>) =>
    `  ${label}: ${Object.entries(rec)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`;
  return [
    `${name}: ${profiles.length} profiles, ${Object.keys(s.template).length} templates`,
    line('intention', s.intention),
    line('type', s.type),
    line('domain', s.domain),
    ...(Object.keys(s.challenge).length > 0 ? [line('challenge', s.challenge)] : []),
  ].join('\n');
}
