/**
 * Questions: an open question invites the user to say more; a string of questions turns support
 * into an interview. Closed yes/no questions count for less than open ones.
 */
import { clamp01 } from './text.ts';
import type { DetectorContext, DetectorHit } from './types.ts';

/** More than this many question marks in one reply reads as an interrogation. */
const MAX_COMFORTABLE_QUESTIONS = 2;

// "What a …" opens an exclamation ("What a pattern in how these things go for you?"), not a question.
const OPEN_START =
  /^(?:\W*)(?:and |so |but )?(?:what(?! an? )|how|tell me|can you tell me|would you (?:like to |want to )?(?:say|tell)|which part|what's|how's|where do you|in what way)\b/;
const OPEN_ANYWHERE =
  /\b(?:tell me more|what (?:was|is|has been) (?:that|it) like|how (?:are|have) you (?:been|holding|doing)|what (?:part|bit)|what happened)\b/;

export function detectOpenQuestion(ctx: DetectorContext): DetectorHit {
  const qs = ctx.reply.questions.map((q) => q.toLowerCase());
  const open =
    qs.find((q) => OPEN_START.test(q) || OPEN_ANYWHERE.test(q)) ??
    (OPEN_ANYWHERE.test(ctx.reply.lower) ? 'tell me more' : undefined);
  if (open) return { id: 'openQuestion', score: 1, reason: `asks an open question ("${open.slice(0, 50)}")` };
  if (qs.length > 0)
    return { id: 'openQuestion', score: 0.4, reason: `asks only a closed question ("${qs[0].slice(0, 50)}")` };
  return { id: 'openQuestion', score: 0, reason: 'asks me nothing' };
}

export function detectTooManyQuestions(ctx: DetectorContext): DetectorHit {
  const n = ctx.reply.questionMarks;
  if (n <= MAX_COMFORTABLE_QUESTIONS)
    return { id: 'tooManyQuestions', score: 0, reason: `${n} question${n === 1 ? '' : 's'}, fine` };
  return {
    id: 'tooManyQuestions',
    score: clamp01((n - MAX_COMFORTABLE_QUESTIONS) / 3),
    reason: `${n} questions in one reply feels like an interrogation`,
  };
}
