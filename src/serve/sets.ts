/**
 * The profile sets a users server offers: the shipped three (`train` 500, `benchmark` 100,
 * `fixtures`), plus a validated file as `loaded`. Its own module so a shard thread (./shard.ts)
 * loads the same sets without importing the command line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { benchmarkProfiles, trainingProfiles } from '../persona/sets.ts';
import { FIXTURE_BENCHMARK_PROFILES } from '../persona/fixtures.ts';
import { parseProfilesJson } from '../persona/validate.ts';
import type { ProfileSet } from './api.ts';

export function loadSets(file?: string): ProfileSet[] {
  const sets: ProfileSet[] = [
    { name: 'train', profiles: trainingProfiles() },
    { name: 'benchmark', profiles: benchmarkProfiles() },
    { name: 'fixtures', profiles: FIXTURE_BENCHMARK_PROFILES },
  ];
  if (file !== undefined) sets.push(loadedSet(file));
  return sets;
}

/** A profiles file as the set `loaded`, validated: a bad file throws, naming its fields. */
export function loadedSet(file: string): ProfileSet {
  if (!existsSync(file)) throw new Error(`no such file: ${file}`);
  const r = parseProfilesJson(readFileSync(file, 'utf8'));
  if (!r.ok) throw new Error(`${file} has invalid profiles:\n  ${r.errors.join('\n  ')}`);
  return { name: 'loaded', profiles: r.profiles };
}
