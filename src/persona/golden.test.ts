/**
 * Every word the engine writes, pinned: full transcripts (the user's lines, every change, emotion,
 * band, the five appraisal parts, each detector's score, weight, reason and why, the cues, the end
 * and the final state) of every policy over the benchmark users at both difficulties, the challenge
 * users, training users with their own openings, and dialogues with hostile replies among ordinary
 * ones, each group hashed. A change to how the engine reads or writes text that changes any of it
 * fails here; a change that only makes it faster passes. The same dialogues played 256 at a time,
 * turn by turn in round robin (as the users server interleaves them), must hash the same as
 * dialogues played one after another: nothing one dialogue leaves behind may change another.
 */
import { describe, expect, it } from 'vitest';
import { digest } from '../engine/rng.ts';
import { HAND_WRITTEN, hostileReplies } from './attacks.ts';
import type { Difficulty, Mode } from './dynamics.ts';
import { makePolicy, POLICY_NAMES, type PolicyName } from './policies.ts';
import type { Profile } from './profile.ts';
import { benchmarkProfiles, challengeProfiles, trainingProfiles } from './sets.ts';
import { createSimulatedUser, type SimulatedUser, type TranscriptEntry, type TurnResult } from './user.ts';

/** One dialogue to play: the user, and where its replies come from (a policy, or a fixed list). */
interface Case {
  profile: Profile;
  seed: number;
  difficulty: Difficulty;
  mode: Mode;
  policy: PolicyName;
  /** Replies sent instead of the policy's at these turns (0-based). */
  forced?: ReadonlyMap<number, string>;
}

interface Playing {
  c: Case;
  user: SimulatedUser;
  transcript: TranscriptEntry[];
  results: TurnResult[];
  next: (t: readonly TranscriptEntry[]) => string;
}

function begin(c: Case): Playing {
  const user = createSimulatedUser(c.profile, { seed: c.seed, difficulty: c.difficulty, mode: c.mode });
  const policy = makePolicy(c.policy, { seed: c.seed, intention: c.profile.intention });
  return { c, user, transcript: [{ role: 'user', text: user.opening }], results: [], next: policy };
}

/** One turn; false once the dialogue is over. */
function step(p: Playing): boolean {
  if (p.results.length > 0 && p.results[p.results.length - 1].over) return false;
  const reply = p.c.forced?.get(p.results.length) ?? p.next(p.transcript);
  const r = p.user.respond(reply);
  p.transcript.push({ role: 'agent', text: reply }, { role: 'user', text: r.line });
  p.results.push(r);
  return true;
}

const record = (p: Playing): string => digest(JSON.stringify({ results: p.results, state: p.user.state }));

/** Each case to its end, one after another. */
function sequential(cases: readonly Case[]): string[] {
  return cases.map((c) => {
    const p = begin(c);
    while (step(p));
    return record(p);
  });
}

/** WIDTH cases at a time, one turn of each in turn. */
function interleaved(cases: readonly Case[], width = 256): string[] {
  const out: string[] = [];
  for (let i = 0; i < cases.length; i += width) {
    const group = cases.slice(i, i + width).map(begin);
    let live = true;
    while (live) {
      live = false;
      for (const p of group) live = step(p) || live;
    }
    out.push(...group.map(record));
  }
  return out;
}

const hashOf = (records: readonly string[]): string => digest(records.join('\n'));

function policyCases(profiles: readonly Profile[], difficulties: readonly Difficulty[], mode: Mode): Case[] {
  const cases: Case[] = [];
  for (const difficulty of difficulties)
    for (const policy of POLICY_NAMES)
      profiles.forEach((profile, i) => cases.push({ profile, seed: i, difficulty, mode, policy }));
  return cases;
}

/** Hostile replies at turns 1, 3 and 6 of ordinary dialogues, so the history holds them too. */
function hostileCases(): Case[] {
  const hostile = [...HAND_WRITTEN, ...hostileReplies(3, 12)].map((r) => r.text);
  const profiles = benchmarkProfiles();
  const policies: readonly PolicyName[] = ['adaptive', 'reflective', 'oracle', 'random'];
  return hostile.map((text, i) => ({
    profile: profiles[(i * 13) % profiles.length],
    seed: i,
    difficulty: i % 2 === 0 ? 'moderate' : 'strict',
    mode: 'benchmark',
    policy: policies[i % policies.length],
    forced: new Map([
      [1, text],
      [3, hostile[(i + 7) % hostile.length]],
      [6, text],
    ]),
  }));
}

const GROUPS: { name: string; cases: () => Case[]; hash: string }[] = [
  {
    name: 'every policy, benchmark users, moderate and strict',
    cases: () => policyCases(benchmarkProfiles(), ['moderate', 'strict'], 'benchmark'),
    hash: '3327be0e7d5ec8d8',
  },
  {
    name: 'every policy, challenge users',
    cases: () => policyCases(challengeProfiles(), ['moderate'], 'benchmark'),
    hash: 'd1c50d484a137886',
  },
  {
    name: 'every policy, training users (own openings), every fifth one',
    cases: () =>
      policyCases(
        trainingProfiles().filter((_, i) => i % 5 === 0),
        ['moderate'],
        'train',
      ),
    hash: '89bfa0cbbde50f4b',
  },
  { name: 'hostile replies among ordinary ones', cases: hostileCases, hash: 'e7708155717bad33' },
];

describe('golden transcripts', () => {
  for (const g of GROUPS)
    it(`${g.name}: the hash of every turn is pinned`, () => {
      expect(hashOf(sequential(g.cases()))).toBe(g.hash);
    });

  it('dialogues played 256 at a time, turn by turn, give the same turns as one after another', () => {
    const cases = [...GROUPS[0].cases().filter((c) => c.difficulty === 'moderate'), ...hostileCases()];
    expect(hashOf(interleaved(cases))).toBe(hashOf(sequential(cases)));
  });
});
