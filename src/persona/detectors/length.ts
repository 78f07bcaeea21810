/**
 * Length against this user's taste (profile.lengthTaste), and focus: a reply that tries four
 * strategies at once reads like a checklist, not like a person. Length uses the full reply (a
 * 100k-character wall of text is counted, not skimmed).
 */
import { clamp01 } from './text.ts';
import type { DetectorContext, DetectorHit, DetectorId } from './types.ts';

/** Comfortable word ranges per taste: below min feels curt, above max feels like a lecture. */
const LENGTH_RANGE = {
  short: { min: 3, max: 45 },
  medium: { min: 5, max: 90 },
  long: { min: 10, max: 160 },
} as const;

/**
 * Backchannel words: "Okay.", "Hm.", "Yeah, I guess." and nothing else is not a reply to someone
 * telling you something hard; it brushes them off (a full curt score). Without it a user met a
 * reply that tries nothing with no change at all, and RL policies learned to say only "Okay."
 * (docs/RESULTS.md). No reply of the warm-start corpus consists of these words alone.
 */
const BACKCHANNEL = new Set(
  'okay ok oh yeah yes yep no nope hm hmm mm mhm right sure maybe i guess wow ah aw cool fine alright well um uh huh k see so really true and but'.split(
    ' ',
  ),
);
const BACKCHANNEL_MAX_WORDS = 4;

/** The most words this user finds comfortable (the top of their taste's range). */
export const tasteMax = (profile: DetectorContext['profile']): number => LENGTH_RANGE[profile.lengthTaste].max;
/**
 * Past the taste, the score grows with the excess (1 at twice the taste, 2 at three times) up to
 * this; a reply of PAGE times the taste or more is a wall of text, which the appraiser lets earn
 * nothing (at least -5), whatever else it says.
 */
const LENGTH_SCORE_MAX = 4;
export const PAGE = 3;

export function detectLength(ctx: DetectorContext): DetectorHit {
  const taste = ctx.profile.lengthTaste;
  const { min, max } = LENGTH_RANGE[taste];
  const n = ctx.reply.wordCountFull;
  const w = ctx.reply.words;
  if (
    w.length > 0 &&
    w.length <= BACKCHANNEL_MAX_WORDS &&
    n <= BACKCHANNEL_MAX_WORDS &&
    w.every((x) => BACKCHANNEL.has(x))
  ) {
    return {
      id: 'length',
      score: 1,
      reason: `"${ctx.reply.head.slice(0, 40)}" and nothing more: curt, it brushes me off`,
    };
  }
  if (n > max)
    return {
      id: 'length',
      score: Math.min(LENGTH_SCORE_MAX, (n - max) / max),
      reason:
        n >= PAGE * max
          ? `${n} words is a wall of text to someone who likes ${taste} replies (over ${max})`
          : `${n} words is too long for someone who likes ${taste} replies (over ${max})`,
    };
  if (n > 0 && n < min)
    return {
      id: 'length',
      score: 0.5,
      reason: `${n} word${n === 1 ? '' : 's'} feels curt to someone who likes ${taste} replies`,
    };
  return { id: 'length', score: 0, reason: `${n} words suits someone who likes ${taste} replies` };
}

/** Strategies that each pull the conversation in their own direction. */
const DIRECTIVE_STRATEGIES: readonly DetectorId[] = [
  'advice',
  'analysis',
  'motives',
  'growth',
  'praise',
  'exoneration',
];
/** This many directive strategies at once is fine; each one more costs focus. */
const FOCUS_FREE = 2;

export function detectFocus(present: readonly DetectorId[]): DetectorHit {
  const used = DIRECTIVE_STRATEGIES.filter((d) => present.includes(d));
  if (used.length <= FOCUS_FREE) return { id: 'focus', score: 0, reason: 'keeps to one or two things' };
  return {
    id: 'focus',
    score: clamp01((used.length - FOCUS_FREE) / 2),
    reason: `tries ${used.length} things at once (${used.join(', ')}), like a checklist`,
  };
}
