/**
 * Specific details echoed back: does the reply name the things, people and events of this user's
 * story (profile.scenario.details, people, event and problem words)? Echoing specifics is the
 * cheapest proof of listening; it is also easy to fake by listing nouns, which the non-language and
 * parroting detectors catch.
 */
import { tasteMax } from './length.ts';
import { clamp01 } from './text.ts';
import type { DetectorContext, DetectorHit } from './types.ts';

/** A detail counts as echoed when at least this share of its content words is in the reply. */
const DETAIL_MATCH_SHARE = 0.5;
/** Story words (event and problem) are weaker evidence than named details: each counts this much. */
const STORY_WORD_CREDIT = 0.1;
const STORY_WORD_CAP = 0.3;
/**
 * Past this many times the user's taste in length, matches prove nothing: a long enough paste
 * names anything by accident, and nobody reads it closely enough to feel recognised.
 */
const DETAILS_LENGTH_LIMIT = 2;

export function detectDetails(ctx: DetectorContext): DetectorHit {
  const { reply, lexicon } = ctx;
  const limit = DETAILS_LENGTH_LIMIT * tasteMax(ctx.profile);
  if (reply.wordCountFull > limit)
    return {
      id: 'details',
      score: 0,
      reason: `whatever of my story is in there is lost in ${reply.wordCountFull} words`,
    };
  const echoed: string[] = [];
  for (const d of lexicon.details) {
    if (d.words.length === 0) continue;
    let hit = 0;
    for (const w of d.words) if (reply.wordSet.has(w)) hit++;
    if (hit / d.words.length >= DETAIL_MATCH_SHARE) echoed.push(d.phrase);
  }
  const names = lexicon.names.filter((n) => !n.includes(' ') && reply.wordSet.has(n));
  let story = 0;
  for (const w of reply.wordSet) if (lexicon.storyWords.has(w)) story++;
  const score = clamp01(
    0.5 * echoed.length + 0.3 * Math.min(names.length, 2) + Math.min(STORY_WORD_CAP, STORY_WORD_CREDIT * story),
  );
  if (score === 0) return { id: 'details', score, reason: 'nothing specific to my story' };
  const bits: string[] = [];
  if (echoed.length)
    bits.push(
      `mentions ${echoed
        .slice(0, 2)
        .map((e) => `"${e}"`)
        .join(', ')}`,
    );
  if (names.length)
    bits.push(
      `names ${names
        .slice(0, 2)
        .map((n) => n[0].toUpperCase() + n.slice(1))
        .join(', ')}`,
    );
  if (!bits.length) bits.push(`uses ${story} word${story === 1 ? '' : 's'} from my story`);
  return { id: 'details', score, reason: bits.join(' and ') };
}
