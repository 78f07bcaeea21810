/**
 * All detectors, run in a fixed order over one reply. The order matters only for readability of
 * the breakdown (empathy first, then guidance, then the ways a reply goes wrong); every detector
 * is independent except praise specificity (needs praise), off-topic advice (needs advice and
 * details) and focus (needs the strategy list).
 */
import type { Profile } from '../profile.ts';
import { detectDetails } from './details.ts';
import { detectForeignDetail } from './foreign.ts';
import { detectCliche, detectDismissal, detectJudgment, detectMinimising, detectSelfFocus } from './dismissive.ts';
import { detectExoneration, detectReflection, detectValidation } from './empathy.ts';
import { detectAdvice, detectAnalysis, detectGrowth, detectMotives, detectOffTopic } from './guidance.ts';
import { detectFocus, detectLength } from './length.ts';
import { detectNonLanguage } from './nonLanguage.ts';
import { detectPraise, detectPraiseSpecific } from './praise.ts';
import { detectOpenQuestion, detectTooManyQuestions } from './questions.ts';
import { detectParroting, detectRepetition } from './repetition.ts';
import { detectScorer } from './scorer.ts';
import { normaliseReply } from './normalise.ts';
import { contentWords, GENERIC_WORDS, tokenize } from './text.ts';
import type { DetectorContext, DetectorHit, DetectorId, ProfileLexicon } from './types.ts';

export * from './types.ts';
export { readReply, readUserLine, type ReplyText, type UserLineText } from './text.ts';

/** A strategy counts as "present" for focus and staleness at this raw score. */
export const PRESENT = 0.5;

const lexicons = new WeakMap<Profile, ProfileLexicon>();

/** The profile's words, tokenised once per profile object. */
export function lexiconOf(profile: Profile): ProfileLexicon {
  const cached = lexicons.get(profile);
  if (cached) return cached;
  const s = profile.scenario;
  const names = new Set<string>();
  for (const p of s.people) {
    const lower = p.name.toLowerCase();
    names.add(lower);
    // "Mr Patel" is called "Patel"; "Dr Hughes" "Hughes": keep every capitalised token except titles.
    for (const part of lower.split(/\s+/))
      if (part.length >= 2 && !['mr', 'mrs', 'ms', 'dr', 'miss', 'the'].includes(part)) names.add(part);
  }
  const nameSet = new Set(names);
  const lex: ProfileLexicon = {
    details: s.details.map((phrase) => ({ phrase, words: contentWords(phrase).filter((w) => !nameSet.has(w)) })),
    names: [...names],
    storyWords: new Set(
      [...contentWords(s.event), ...contentWords(s.problem)].filter(
        (w) => w.length >= 4 && !nameSet.has(w) && !GENERIC_WORDS.has(w),
      ),
    ),
    accomplishmentWords: [...new Set(contentWords(s.accomplishment).filter((w) => w.length >= 4))],
    feelings: s.feelings.map((f) => f.toLowerCase()),
    known: new Set(tokenize(normaliseReply(profileText(profile)).toLowerCase())),
  };
  lexicons.set(profile, lex);
  return lex;
}

/** All the text a profile holds, for the words this user knows. */
function profileText(p: Profile): string {
  const s = p.scenario;
  const voice = Object.values(p.voice).flatMap((b) => [b.description, ...b.phrases]);
  return [
    p.name,
    p.occupation,
    ...p.facts,
    s.event,
    s.problem,
    s.accomplishment,
    ...s.tried,
    ...s.details,
    ...s.feelings,
    ...s.people.flatMap((x) => [x.name, x.relation]),
    ...voice,
    p.openingLine ?? '',
  ].join(' \n ');
}

export function runDetectors(ctx: DetectorContext): DetectorHit[] {
  const praise = detectPraise(ctx);
  const details = detectDetails(ctx);
  const advice = detectAdvice(ctx);
  const hits: DetectorHit[] = [
    detectReflection(ctx),
    detectValidation(ctx),
    detectExoneration(ctx),
    details,
    detectOpenQuestion(ctx),
    detectTooManyQuestions(ctx),
    advice,
    detectOffTopic(advice.score, details.score),
    detectForeignDetail(ctx),
    detectAnalysis(ctx),
    detectMotives(ctx),
    detectGrowth(ctx),
    praise,
    detectPraiseSpecific(ctx, praise.score),
    detectMinimising(ctx),
    detectDismissal(ctx),
    detectCliche(ctx),
    detectJudgment(ctx),
    detectSelfFocus(ctx),
    detectRepetition(ctx),
    detectParroting(ctx),
    detectLength(ctx),
  ];
  const present = hits.filter((h) => h.score >= PRESENT).map((h) => h.id);
  hits.push(detectFocus(present), detectNonLanguage(ctx), detectScorer(ctx));
  return hits;
}

export function hitOf(hits: readonly DetectorHit[], id: DetectorId): DetectorHit {
  const h = hits.find((x) => x.id === id);
  if (!h) throw new Error(`detector ${id} missing`);
  return h;
}
