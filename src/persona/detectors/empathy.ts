/**
 * Empathy detectors: does the reply reflect the user's feelings back, validate them, or tell the
 * user it was not their fault? Pattern-based on purpose (readable, fast, deterministic); each
 * returns what it matched so the reason can quote it.
 *
 * Not here: whether the user wants this (the appraiser weighs it by intention, traits and stage).
 */
import { clamp01, countMatches, presence, FEELING_WORDS, quote } from './text.ts';
import type { DetectorContext, DetectorHit } from './types.ts';

/** Framings that turn a feeling word into a reflection of the *user's* feeling. */
const REFLECT_FRAMES: readonly RegExp[] = [
  /\byou(?:'re| are)? (?:feel|feeling|felt)\b/,
  /\byou (?:must|might|may) (?:be|have been|feel)\b/,
  /\b(?:it |that |this )?sounds?\b/,
  /\b(?:must|must've|would) (?:feel|be|have been|have felt|hurt|sting)\b/,
  /\byou seem\b|\byou sound\b|\bseems like you\b/,
  /\bi (?:can )?hear (?:you|how|that)\b/,
  /\bthat (?:must|would) (?:be|have been|feel|hurt|sting)\b/,
  /\bno wonder you\b/,
  /\byou(?:'ve| have) been carrying\b|\bcarrying (?:all )?(?:this|that)\b/,
  /\bwhat (?:a|an) (?:awful|horrible|lonely|painful|exhausting|hard)\b/,
  /\bleft you\b|\bmade you feel\b|\bhit you\b/,
];

export function detectReflection(ctx: DetectorContext): DetectorHit {
  const { reply, lexicon } = ctx;
  const frames = countMatches(reply.lower, REFLECT_FRAMES);
  const feelings: string[] = [];
  for (const w of reply.words) {
    if ((FEELING_WORDS.has(w) || lexicon.feelings.includes(w)) && !feelings.includes(w)) feelings.push(w);
    if (feelings.length >= 3) break;
  }
  // A framing alone ("sounds like...") is half a reflection; a feeling word alone is a label, not a
  // reflection; both together ("it sounds like you're exhausted") is the real thing.
  const score = clamp01((frames.count > 0 ? 0.5 : 0) + (feelings.length > 0 ? (frames.count > 0 ? 0.5 : 0.3) : 0));
  if (score === 0) return { id: 'reflection', score, reason: 'no feeling of mine is named or reflected' };
  const bits = [
    frames.count > 0 ? `frames it as my experience (${quote(frames.found, 1)})` : '',
    feelings.length > 0 ? `names ${feelings.slice(0, 2).join(', ')}` : '',
  ];
  return { id: 'reflection', score, reason: bits.filter(Boolean).join(' and ') };
}

const VALIDATE: readonly RegExp[] = [
  /\bmakes? (?:complete |total |so much |perfect )?sense\b/,
  /\b(?:completely |totally |very )?understandable\b/,
  /\b(?:anyone|anybody|most people) would\b/,
  /\bof course you(?:'d|'re| would| are| feel)\b/,
  /\byou have every right\b|\byou(?:'re| are) allowed to\b/,
  /\b(?:it'?s|it is) (?:okay|ok|normal|natural|human) to\b/,
  /\b(?:that'?s|that is|your feelings are|it's) (?:valid|fair|legitimate)\b/,
  /\bthat'?s a lot\b|\bthat is a lot\b/,
  /\bi'?d (?:feel|be) (?:the same|exactly|upset|angry|hurt)\b/,
  /\bwho wouldn'?t\b/,
  /\bnot (?:overreacting|crazy|being dramatic)\b/,
  /\breasonable (?:to|reaction)\b/,
];

export function detectValidation(ctx: DetectorContext): DetectorHit {
  const m = countMatches(ctx.reply.lower, VALIDATE);
  if (m.count === 0) return { id: 'validation', score: 0, reason: 'nothing says my reaction is fair' };
  return { id: 'validation', score: presence(m.count), reason: `says my reaction is fair (${quote(m.found)})` };
}

const EXONERATE: readonly RegExp[] = [
  /\b(?:not|n't|never) (?:been )?your fault\b|\b(?:sound|seem|look)s? like (?:it was )?your fault\b/,
  /\byou did(?:n't| not) (?:do )?(?:anything|nothing) wrong\b|\byou did nothing wrong\b/,
  /\b(?:not|isn't|wasn't) on you\b/,
  /\byou(?:'re| are) not (?:the one )?to blame\b|\bnot to blame\b/,
  /\b(?:that'?s|that is|it'?s|it is|that was) on (?:them|him|her)\b/,
  /\byou did (?:everything|what|all) you could\b/,
  /\byou couldn'?t have (?:known|done|stopped|fixed)\b/,
  /\b(?:they|he|she) let you down\b/,
  /\bno one could have\b|\bnobody could have\b/,
  /\bdon'?t (?:blame|beat up) yourself\b/,
  /\b(?:you|it) (?:weren't|wasn't|isn't) (?:the problem|you)\b/,
];

export function detectExoneration(ctx: DetectorContext): DetectorHit {
  const m = countMatches(ctx.reply.lower, EXONERATE);
  if (m.count === 0) return { id: 'exoneration', score: 0, reason: 'nothing takes the blame off me' };
  return { id: 'exoneration', score: presence(m.count), reason: `takes the blame off me (${quote(m.found)})` };
}
