/**
 * Repetition: the same (or nearly the same) reply as an earlier agent turn, with a streak count so
 * that saying the same thing three times in a row hurts more each time; and parroting, copying the
 * user's own words back at length instead of reflecting them. Word bigram overlap: cheap, linear,
 * and blind to reordering tricks only at the margin.
 */
import { clamp01, SHINGLE } from './text.ts';
import type { DetectorContext, DetectorHit } from './types.ts';
import type { ReplyText } from './text.ts';

/** Overlap at or above this share of the reply's bigrams counts as a repeat. */
const REPEAT_THRESHOLD = 0.6;
/** Overlap at or above this share counts toward a streak of near-identical replies. */
const STREAK_THRESHOLD = 0.8;
/** Longest streak that still adds penalty (the score is capped at this). */
const MAX_STREAK = 3;
/** Parroting: the copied share of SHINGLE-word runs that starts to count, and that counts fully. */
const PARROT_START = 0.3;
const PARROT_FULL = 0.7;

/** Share of `a`'s bigrams that also occur in `b` (1 for identical texts, including one-word ones). */
export function overlap(a: ReplyText, b: ReplyText): number {
  if (a.words.length < 2 || b.words.length < 2) return a.lower === b.lower && a.lower.length > 0 ? 1 : 0;
  const A = a.bigrams;
  const B = b.bigrams;
  let hit = 0;
  for (const x of A) if (B.has(x)) hit++;
  return hit / A.size;
}

/** Index of the first of `earlier` that `reply` repeats (overlap at or above REPEAT_THRESHOLD), or -1. */
export function firstRepeat(reply: ReplyText, earlier: readonly ReplyText[]): number {
  return earlier.findIndex((p) => overlap(reply, p) >= REPEAT_THRESHOLD);
}

export function detectRepetition(ctx: DetectorContext): DetectorHit {
  const prev = ctx.previousReplies;
  if (prev.length === 0 || ctx.reply.words.length === 0)
    return { id: 'repetition', score: 0, reason: 'nothing said before to repeat' };
  const overlaps = prev.map((p) => overlap(ctx.reply, p));
  let max = 0;
  for (const o of overlaps) max = Math.max(max, o);
  if (max < REPEAT_THRESHOLD)
    return { id: 'repetition', score: 0, reason: `new wording (${Math.round(max * 100)}% overlap at most)` };
  let streak = 0;
  for (let i = overlaps.length - 1; i >= 0 && overlaps[i] >= STREAK_THRESHOLD; i--) streak++;
  const score = Math.min(MAX_STREAK, max * Math.max(1, streak));
  const reason =
    streak >= 2
      ? `the same reply again, ${streak + 1} times in a row`
      : `repeats an earlier reply (${Math.round(max * 100)}% the same)`;
  return { id: 'repetition', score, reason };
}

export function detectParroting(ctx: DetectorContext): DetectorHit {
  const w = ctx.reply.words;
  if (w.length < SHINGLE + 1 || ctx.userLines.length === 0)
    return { id: 'parroting', score: 0, reason: 'does not copy my words' };
  const lines = ctx.userLines;
  let total = 0;
  let copied = 0;
  for (let i = 0; i + SHINGLE <= w.length; i++) {
    total++;
    const shingle = w.slice(i, i + SHINGLE).join(' ');
    if (lines.some((l) => l.shingles.has(shingle))) copied++;
  }
  const share = copied / total;
  if (share < PARROT_START) return { id: 'parroting', score: 0, reason: 'does not copy my words' };
  return {
    id: 'parroting',
    score: clamp01((share - PARROT_START) / (PARROT_FULL - PARROT_START)),
    reason: `copies my own words back (${Math.round(share * 100)}% of it)`,
  };
}
