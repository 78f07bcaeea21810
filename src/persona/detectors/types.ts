/**
 * The detector contract: each detector reads one reply (with the profile and the history) and
 * returns a raw score in [0, 1] (how strongly the thing it looks for is present; repetition may go
 * up to 3 for a streak) and a reason a person can read. Detectors never weigh their findings:
 * whether reflecting feelings is good for this user at this point is the appraiser's call.
 */
import type { Profile } from '../profile.ts';
import type { ReplyText, UserLineText } from './text.ts';

const DETECTOR_IDS = [
  'reflection',
  'validation',
  'exoneration',
  'details',
  'openQuestion',
  'tooManyQuestions',
  'advice',
  'offTopic',
  'foreignDetail',
  'analysis',
  'motives',
  'growth',
  'praise',
  'praiseSpecific',
  'minimising',
  'dismissal',
  'cliche',
  'judgment',
  'selfFocus',
  'repetition',
  'parroting',
  'length',
  'focus',
  'nonLanguage',
  'scorer',
] as const;
export type DetectorId = (typeof DETECTOR_IDS)[number];

export interface DetectorHit {
  id: DetectorId;
  /** 0 = absent; 1 = clearly present (repetition: up to 3 for a streak of repeats). */
  score: number;
  /** Why, in words, quoting what was found. Never empty. */
  reason: string;
}

/** Words derived once per profile (cached), so every detector need not re-tokenise the story. */
export interface ProfileLexicon {
  /** Each detail phrase with its content words. */
  details: { phrase: string; words: string[] }[];
  /** People's names, lower-cased (first token of each name, and the full name). */
  names: string[];
  /** Content words of the event and problem, for looser echoes. */
  storyWords: Set<string>;
  /** Content words of the accomplishment (what specific praise names). */
  accomplishmentWords: string[];
  /** The profile's feeling words, lower-cased. */
  feelings: string[];
  /** Every word of the profile's text (story, people, facts, voice, opening): words this user knows even if English does not. */
  known: Set<string>;
}

export interface DetectorContext {
  profile: Profile;
  lexicon: ProfileLexicon;
  reply: ReplyText;
  /** Earlier agent replies, oldest first, already read. */
  previousReplies: readonly ReplyText[];
  /** Everything the user has said so far, oldest first, already read. */
  userLines: readonly UserLineText[];
}
