/**
 * The benchmark's figures broken down by the users' hidden intention and personality type: the
 * same numbers as the trainer's summary (score = mean final emotion, success = share ending at 100,
 * failure = share ending below 10), overall and per group, each with its count. Pure: the worker
 * computes it from its rollouts, the page from the reference policies' precomputed finals.
 */
import { bandOf } from '../persona/dynamics';
import type { Profile } from '../persona/profile';

export interface Figures {
  /** Mean final emotion, 0..100. */
  score: number;
  /** Share ending at 100 (0..1). */
  success: number;
  /** Share ending below 10 (0..1). */
  failure: number;
  /** Dialogues counted. */
  n: number;
}

export interface Breakdown {
  overall: Figures;
  /** Keyed by intention id, sorted by key. */
  byIntention: Record<string, Figures>;
  /** Keyed by personality type, sorted by key. */
  byType: Record<string, Figures>;
  /** Dialogues whose profile was not among the profiles given: counted overall, in no group. */
  unmatched: number;
}

/** What a dialogue needs to be counted (a DialogueRollout has both). */
export interface Finished {
  profileId: string;
  finalEmotion: number;
}

export type ProfileKeys = Pick<Profile, 'id' | 'intention'> & { personality: Pick<Profile['personality'], 'type'> };

export function figuresOf(finals: readonly number[]): Figures {
  const n = finals.length;
  if (n === 0) return { score: 0, success: 0, failure: 0, n: 0 };
  return {
    score: finals.reduce((s, x) => s + x, 0) / n,
    success: finals.filter((x) => bandOf(x) === 'S').length / n,
    failure: finals.filter((x) => bandOf(x) === 'F').length / n,
    n,
  };
}

function grouped(pairs: readonly [key: string, final: number][]): Record<string, Figures> {
  const by = new Map<string, number[]>();
  for (const [k, x] of pairs) {
    const list = by.get(k);
    if (list) list.push(x);
    else by.set(k, [x]);
  }
  return Object.fromEntries([...by.keys()].sort().map((k) => [k, figuresOf(by.get(k)!)]));
}

export function benchmarkBreakdown(rollouts: readonly Finished[], profiles: readonly ProfileKeys[]): Breakdown {
  const byId = new Map(profiles.map((p) => [p.id, p]));
  const matched = rollouts.flatMap((r) => {
    const p = byId.get(r.profileId);
    return p ? [{ p, x: r.finalEmotion }] : [];
  });
  return {
    overall: figuresOf(rollouts.map((r) => r.finalEmotion)),
    byIntention: grouped(matched.map(({ p, x }) => [p.intention, x])),
    byType: grouped(matched.map(({ p, x }) => [p.personality.type, x])),
    unmatched: rollouts.length - matched.length,
  };
}
