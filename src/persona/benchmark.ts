/**
 * Sentient-lite: play a policy against a set of profiles and score it as SAGE does. Score = mean
 * final emotion; success = share of dialogues ending at 100; failure = share ending below 10;
 * plus the mean number of scored agent replies. Pure and seeded: the same profiles, policy, seed
 * and difficulty always give the same numbers.
 */
import type { Difficulty, Mode } from './dynamics.ts';
import { makePolicy, type Policy, type PolicyName } from './policies.ts';
import type { Profile } from './profile.ts';
import { createSimulatedUser, type TranscriptEntry, type TurnResult } from './user.ts';

export interface DialogueRecord {
  profileId: string;
  finalEmotion: number;
  turns: number;
  endReason: string | null;
  transcript: TranscriptEntry[];
  results: TurnResult[];
}

export interface BenchmarkSummary {
  policy: string;
  difficulty: Difficulty;
  /** Mean final emotion, 0..100. */
  score: number;
  /** Share ending at 100 (0..1). */
  success: number;
  /** Share ending below 10 (0..1). */
  failure: number;
  dialogues: number;
  meanTurns: number;
}

export interface RunOptions {
  seed?: number;
  difficulty?: Difficulty;
  mode?: Mode;
  /** The user's cap on scored replies (default: the mode's, user.ts). */
  turnCap?: number;
}

/** One dialogue: the policy sees only the visible transcript. */
export function playDialogue(profile: Profile, policy: Policy, options: RunOptions = {}): DialogueRecord {
  const mode = options.mode ?? 'benchmark';
  const user = createSimulatedUser(profile, {
    seed: options.seed ?? 0,
    difficulty: options.difficulty ?? 'moderate',
    mode,
    turnCap: options.turnCap,
  });
  const transcript: TranscriptEntry[] = [{ role: 'user', text: user.opening }];
  const results: TurnResult[] = [];
  for (;;) {
    const reply = policy(transcript);
    const r = user.respond(reply);
    transcript.push({ role: 'agent', text: reply }, { role: 'user', text: r.line });
    results.push(r);
    if (r.over) break;
  }
  const last = results[results.length - 1];
  return {
    profileId: profile.id,
    finalEmotion: last.emotion,
    turns: results.length,
    endReason: last.endReason,
    transcript,
    results,
  };
}

const round1 = (x: number): number => Math.round(x * 10) / 10;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

export function summarise(
  policy: string,
  difficulty: Difficulty,
  records: readonly DialogueRecord[],
): BenchmarkSummary {
  const n = records.length;
  if (n === 0) return { policy, difficulty, score: 0, success: 0, failure: 0, dialogues: 0, meanTurns: 0 };
  const sum = (f: (r: DialogueRecord) => number): number => records.reduce((s, r) => s + f(r), 0);
  return {
    policy,
    difficulty,
    score: round1(sum((r) => r.finalEmotion) / n),
    success: round3(sum((r) => (r.finalEmotion >= 100 ? 1 : 0)) / n),
    failure: round3(sum((r) => (r.finalEmotion < 10 ? 1 : 0)) / n),
    dialogues: n,
    meanTurns: round1(sum((r) => r.turns) / n),
  };
}

/** Run a named reference policy over profiles (benchmark mode: preset openings, start 40, cap 10). */
export function runBenchmark(
  profiles: readonly Profile[],
  policyName: PolicyName,
  options: RunOptions = {},
): { summary: BenchmarkSummary; records: DialogueRecord[] } {
  const difficulty = options.difficulty ?? 'moderate';
  const seed = options.seed ?? 0;
  const records = profiles.map((p) =>
    playDialogue(p, makePolicy(policyName, { seed, intention: p.intention }), { ...options, seed, difficulty }),
  );
  return { summary: summarise(policyName, difficulty, records), records };
}
