/**
 * Emotion dynamics [RLVER, SAGE]: an integer 0..100, moved each scored turn by one of five
 * quantised changes, read as a band letter; S and F end the dialogue, and a turn cap ends it
 * otherwise. Also the reward. Pure numbers; no text, no profile.
 *
 * Turn cap, precisely: the cap is the number of agent replies that are scored. In training the
 * 8th scored reply ends the dialogue (if S or F did not end it before); in the benchmark the 10th
 * (a user given its own `turnCap`, user.ts, ends at that instead).
 * Every agent reply is scored (unlike SAGE's quirk where the 10th is never scored), and the user
 * still answers the last one, so a transcript always ends on a user line.
 */

export type Mode = 'train' | 'benchmark';
export type Difficulty = 'moderate' | 'strict';
export const DIFFICULTIES: readonly Difficulty[] = ['moderate', 'strict'];

const EMOTION_MIN = 0;
const EMOTION_MAX = 100;
/** Starting emotion: RLVER training starts at 30 (band C), the SAGE benchmark at 40 (band B). */
export const START_EMOTION: Record<Mode, number> = { train: 30, benchmark: 40 };
/** Scored agent replies before the dialogue ends: RLVER max_turns = 8, SAGE 10. */
export const TURN_CAP: Record<Mode, number> = { train: 8, benchmark: 10 };

/** The only changes a turn can make (SAGE's analyser is effectively quantised to these). */
export const CHANGES = [-10, -5, 0, 5, 10] as const;
export type Change = (typeof CHANGES)[number];

export type Band = 'S' | 'A' | 'B' | 'C' | 'F';
/** Band floors: S >= 100, A >= 70, B >= 40, C >= 10, F below 10. */
export function bandOf(emotion: number): Band {
  if (emotion >= 100) return 'S';
  if (emotion >= 70) return 'A';
  if (emotion >= 40) return 'B';
  if (emotion >= 10) return 'C';
  return 'F';
}

/** The voice register a band speaks in (profile.voice has high, medium, low). */
export function voiceRegister(band: Band): 'high' | 'medium' | 'low' {
  return band === 'S' || band === 'A' ? 'high' : band === 'B' ? 'medium' : 'low';
}

export function applyChange(emotion: number, change: Change): number {
  return Math.max(EMOTION_MIN, Math.min(EMOTION_MAX, emotion + change));
}

/**
 * Thresholds on the appraiser's weighted total. Strict needs more for the same change (it accepts
 * fewer strategies) and punishes misses a little sooner. Totals are sums of weights of order 1.
 */
const THRESHOLDS: Record<Difficulty, { plus10: number; plus5: number; minus5: number; minus10: number }> = {
  moderate: { plus10: 1.3, plus5: 0.4, minus5: -0.35, minus10: -1.0 },
  strict: { plus10: 1.5, plus5: 0.55, minus5: -0.3, minus10: -0.9 },
};

/** Deterministic map from a weighted total to a quantised change. */
export function quantise(total: number, difficulty: Difficulty): Change {
  const t = THRESHOLDS[difficulty];
  if (!Number.isFinite(total)) return -10;
  if (total >= t.plus10) return 10;
  if (total >= t.plus5) return 5;
  if (total > t.minus5) return 0;
  if (total > t.minus10) return -5;
  return -10;
}

export type EndReason = 'success' | 'failure' | 'cap';

/** Why the dialogue ends after this turn, or null if it goes on (cap: the mode's, unless given). */
export function endReasonAfter(
  emotion: number,
  scoredTurns: number,
  mode: Mode,
  cap: number = TURN_CAP[mode],
): EndReason | null {
  const band = bandOf(emotion);
  if (band === 'S') return 'success';
  if (band === 'F') return 'failure';
  if (scoredTurns >= cap) return 'cap';
  return null;
}

/** RLVER's reward: final emotion / 100, floored at 0 (and at most 1). */
export function rewardOf(finalEmotion: number): number {
  return Math.max(0, Math.min(1, finalEmotion / 100));
}
