/**
 * Guidance detectors, the "rational" strategies: advice (what to do), analysis (taking the problem
 * apart), motives (why the others acted as they did) and growth (questions that invite the user to
 * look at their own part). Each is a short list of readable patterns.
 *
 * Not here: timing. Whether advice comes too early is the appraiser's decision (stage weights).
 */
import { sentenceSlips } from './nonLanguage.ts';
import { countMatches, escapeRegExp, presence, quote } from './text.ts';
import type { DetectorContext, DetectorHit, ProfileLexicon } from './types.ts';

const ADVICE: readonly RegExp[] = [
  // A modal that tells the user what to do. Not one that ends its clause ("you did everything you
  // could.") or compares ("more pressure than you could see"): those say what was possible.
  /(?<!\bthan )\byou (?:should|could(?!\s*(?:[.,;:!?)]|$))|might want to|need to|ought to|have to)\b(?! have| be proud| feel| know| relax| calm| cheer| not worry| stop worrying| just relax| get over)/,
  /\b(?:try|trying) (?!to (?:look on|stay|think positive|be positive|focus on the good))(?:to |talking|asking|writing|saying|putting|setting|telling|booking|calling)\b/,
  /\bwhy don'?t you\b|\bhave you (?:tried|thought about|considered)\b/,
  /\bi'?d (?:suggest|recommend|start|go)\b|\bi (?:suggest|recommend)\b|\bmy advice\b/,
  /\b(?:the )?(?:first|next|one) (?:step|thing to do|option)\b|\bstep one\b|\bstart (?:by|with)\b/,
  /\bmake sure\b|\bconsider (?:asking|talking|writing|telling|putting)\b/,
  /\b(?:a|the) (?:plan|script|checklist)\b|\bwrite (?:it |this |that )?down\b|\bset (?:a|up a) (?:meeting|time|boundary|reminder|limit)\b/,
  /\b(?:talk|speak) to (?:him|her|them|someone|your)\b|\bask (?:him|her|them|for)\b/,
  /\bit (?:might|may|could|would) help to\b|\bhere'?s what i'?d do\b|\bif i were you\b/,
];

export function detectAdvice(ctx: DetectorContext): DetectorHit {
  const m = countMatches(ctx.reply.lower, ADVICE);
  if (m.count === 0) return { id: 'advice', score: 0, reason: 'no advice' };
  return { id: 'advice', score: presence(m.count), reason: `tells me what to do (${quote(m.found)})` };
}

/** Details score at which advice is about the story: a detail, a name, or two story words (one may be chance). */
const GROUNDED = 0.2;

/**
 * Advice that does not take up the user's problem: it names no detail, person or word of their
 * story ("You should move to the moon."). It can fit anyone, so it meets nobody's need and tells
 * the user nobody listened. `details` is the details detector's score for the same reply.
 */
export function detectOffTopic(adviceScore: number, details: number): DetectorHit {
  if (adviceScore < 0.5) return { id: 'offTopic', score: 0, reason: 'no advice to judge' };
  if (details >= GROUNDED) return { id: 'offTopic', score: 0, reason: 'the advice is about my situation' };
  return { id: 'offTopic', score: 1, reason: 'advice that has nothing to do with my story' };
}

const ANALYSIS: readonly RegExp[] = [
  /\blet'?s (?:break|look at|think|separate|untangle|unpack|pull apart|sort)\b/,
  /\bon (?:the )?one hand\b|\bon the other hand\b/,
  /\b(?:two|three|a few) (?:separate |different )?(?:things|questions|issues|parts)\b/,
  /\bthe (?:real|core|actual|underlying|key) (?:issue|question|problem|point)\b/,
  /\b(?:in|out of) your control\b|\bwhat you can control\b/,
  /\b(?:evidence|assumption|trade-?off|pros and cons|factors?|criteria)\b/,
  // A pattern one sees, is or is part of; not "take a pattern in how", which RL stitched from two
  // corpus frames and means nothing.
  /\b(?:part of|or|notice|see|spot|recogni[sz]e|is (?:this|that|it|there)|there'?s|there is|fits?|forms?|breaks?) (?:a |any |the |that |this )?patterns?\b/,
  /\bit depends (?:on|whether)\b|\bif (?:that'?s|it'?s|it was|he|she|they) .{0,40}\bthen\b/,
  /\bstep back\b|\bobjectively\b|\bseparate (?:the|what)\b|\bdistinguish\b/,
  /\bwhat (?:do we|we) (?:actually )?know\b|\bthe facts\b|\bdoesn'?t add up\b/,
];

export function detectAnalysis(ctx: DetectorContext): DetectorHit {
  const m = countMatches(ctx.reply.lower, ANALYSIS);
  if (m.count === 0) return { id: 'analysis', score: 0, reason: 'no analysis of the problem' };
  return { id: 'analysis', score: presence(m.count), reason: `takes the problem apart (${quote(m.found)})` };
}

/** The motive patterns name this user's people, so they are built once per profile's lexicon. */
const motivePatterns = new WeakMap<ProfileLexicon, readonly RegExp[]>();

function motivesOf(lexicon: ProfileLexicon): readonly RegExp[] {
  const cached = motivePatterns.get(lexicon);
  if (cached) return cached;
  const who = ['he', 'she', 'they', ...lexicon.names.filter((n) => !n.includes(' ')).map(escapeRegExp)].join('|');
  const patterns: RegExp[] = [
    new RegExp(`\\b(?:maybe|perhaps|probably) (?:${who})\\b`),
    new RegExp(`\\b(?:${who}) (?:might|may|could|must|probably) (?:have|be|feel|think|not|been|worry)`),
    /\bfrom (?:her|his|their) (?:side|point of view|perspective|end)\b|\bin (?:her|his|their) shoes\b/,
    /\b(?:her|his|their) (?:reasons?|motives?|fears?|pressures?|side of it)\b/,
    /\bwhat (?:she|he|they) (?:was|were|is|are|might be) (?:going through|dealing with|afraid of|thinking)\b/,
    new RegExp(
      `\\b(?:${who}) (?:was|were|is|are|felt|feels) (?:probably |maybe |likely )?(?:scared|stressed|jealous|under pressure|embarrassed|afraid|overwhelmed|insecure|threatened|ashamed)\\b`,
    ),
    /\b(?:not|isn'?t|wasn'?t) (?:really )?about you\b|\bsays more about (?:her|him|them)\b/,
  ];
  motivePatterns.set(lexicon, patterns);
  return patterns;
}

export function detectMotives(ctx: DetectorContext): DetectorHit {
  const patterns = motivesOf(ctx.lexicon);
  const m = countMatches(ctx.reply.lower, patterns);
  if (m.count === 0) return { id: 'motives', score: 0, reason: "no attempt to explain the others' side" };
  return {
    id: 'motives',
    score: presence(m.count),
    reason: `offers a reason the others acted that way (${quote(m.found)})`,
  };
}

const GROWTH: readonly RegExp[] = [
  /\bwhat do you think (?:you|made you|your)\b/,
  /\blooking back\b|\bin hindsight\b/,
  /\bwhat would you (?:do|want to do|try) differently\b|\bdo (?:it )?differently\b/,
  /\bwhat (?:does|did) (?:this|that|it) (?:tell|teach|show) you\b/,
  /\bwhat matters (?:most )?to you\b|\bwhat do you (?:really )?want (?:from|for)\b/,
  // A pattern the user is asked to see, not the words "a pattern in" anywhere: "What a pattern in how
  // these things go for you?" and "…you want to take a pattern in how…" ask nothing.
  /\b(?:notice|see|spot|recogni[sz]e) (?:a|any) pattern\b|\bis (?:this|that|it|there) (?:a|any) pattern\b|\bkeeps? happening\b/,
  /\bwhat part (?:did|do) you\b|\byour (?:own )?part in\b/,
  // What it would look like if somebody did something, or to do it: "What would it look like if
  // anything?", two frames run together, asks nothing.
  /\bwhat (?:would|might) it (?:look|feel) like (?:if(?= (?:you|we|i|they|it|things|this|that|the|your)\b)|to(?= (?!(?:any|some|no)thing\b)[a-z]))\b|\bwho do you want to be\b/,
  // One thing to take from it, learn or do: the frame's own ending, not whatever follows "one thing you".
  /\bwhat(?:'s| is) one thing you (?:(?:want to|would|'d|could|might|can|will) )?(?:take (?:from|away)|learn|do|change|try|keep|remember)\b/,
  /\bwhat (?:might|could) you learn\b/,
];

/**
 * Growth is a question: its words count only in a sentence that asks one, and that parses.
 * "Looking back, what would you do differently?" invites me to look at my part; "Looking back,
 * anyone would feel stuck." says nothing of the kind, though it holds the same words, and neither
 * does "Looking back, what would you're not that?", a question that starts and is lost (RL found
 * both: a growth opener with anything after it, docs/RESULTS.md "What RL found in the simulated
 * users", hole 9).
 */
export function detectGrowth(ctx: DetectorContext): DetectorHit {
  const asked = ctx.reply.questions.filter((q) => sentenceSlips(q).length === 0);
  const m = countMatches(asked.join('\n').toLowerCase(), GROWTH);
  if (m.count === 0) return { id: 'growth', score: 0, reason: 'no invitation to reflect on myself' };
  return { id: 'growth', score: presence(m.count), reason: `invites me to look at my own part (${quote(m.found)})` };
}
