/**
 * Praise and its specificity: generic praise ("great job!") against praise that names what this
 * user actually did (content words of profile.scenario.accomplishment). Sincere-praise users want
 * the second; suspicious or modest ones distrust the first.
 */
import { clamp01, countMatches, presence, quote } from './text.ts';
import type { DetectorContext, DetectorHit } from './types.ts';

const PRAISE: readonly RegExp[] = [
  /\bwell done\b|\b(?:great|good|amazing|brilliant|incredible) (?:job|work)\b|\bnicely done\b/,
  /\bproud of you\b|\bimpressive\b|\bimpressed\b|\bremarkable\b|\bkudos\b/,
  /\byou (?:did|handled|managed) (?:that |it |this )?(?:so )?(?:great|well|brilliantly|amazingly|beautifully)\b/,
  /\bthat took (?:real )?(?:guts|courage|skill|work|effort|dedication|strength)\b/,
  /\b(?:deserve|deserves|give yourself) (?:the )?credit\b|\bcredit for\b/,
  /\bnot everyone (?:could|would)\b|\bthat'?s no small thing\b|\byou pulled (?:it|that) off\b/,
  /\byou should be proud\b|\bseriously good\b|\bthat'?s (?:real )?(?:skill|leadership|dedication)\b/,
];
/** Accomplishment words matched needed for "specific": this many, or this share of them. */
const SPECIFIC_MIN_WORDS = 2;
const SPECIFIC_SHARE = 0.34;

export function detectPraise(ctx: DetectorContext): DetectorHit {
  const m = countMatches(ctx.reply.lower, PRAISE);
  if (m.count === 0) return { id: 'praise', score: 0, reason: 'no praise' };
  return { id: 'praise', score: presence(m.count), reason: `praises me (${quote(m.found)})` };
}

export function detectPraiseSpecific(ctx: DetectorContext, praise: number): DetectorHit {
  const words = ctx.lexicon.accomplishmentWords;
  const hits = words.filter((w) => ctx.reply.wordSet.has(w));
  const need = Math.max(1, Math.min(SPECIFIC_MIN_WORDS, Math.ceil(words.length * SPECIFIC_SHARE)));
  if (praise === 0 || hits.length === 0) {
    return {
      id: 'praiseSpecific',
      score: 0,
      reason: praise === 0 ? 'nothing I did is named' : 'the praise does not name what I actually did',
    };
  }
  const score = clamp01(hits.length / need);
  return { id: 'praiseSpecific', score, reason: `names what I did (${hits.slice(0, 3).join(', ')})` };
}
