/**
 * The appraisal in the user's words: what a reply tries (intentOf), how it fits the hidden need
 * (fitOf), the inner reaction (innerOf) and the feeling (feelingOf), written from the weighted
 * detector hits, the reaction and the change that appraiser.ts computed. Fixed phrases, no
 * randomness; the numbers never depend on this file. Not here: the scoring itself (appraiser.ts).
 */
import type { Change } from './dynamics.ts';
import { PRESENT, type DetectorId } from './detectors/index.ts';
import { INTENTIONS, type IntentionId, type Profile } from './profile.ts';
import type { Reaction, WeightedHit } from './appraiser.ts';

const DOES: Partial<Record<DetectorId, string>> = {
  reflection: 'names how I feel',
  validation: 'says my reaction makes sense',
  exoneration: "says it wasn't my fault",
  details: 'picks up specifics of my story',
  openQuestion: 'asks me something',
  advice: 'tells me what to do',
  offTopic: 'gives advice that has nothing to do with me',
  foreignDetail: 'talks about things that never happened to me',
  dismissal: 'brushes me off',
  analysis: 'breaks the problem down',
  motives: 'guesses why the others acted as they did',
  growth: 'asks me to look at my own part',
  praise: 'praises me',
  praiseSpecific: 'names what I actually did',
  minimising: 'plays it down',
  cliche: 'reaches for stock phrases',
  judgment: 'blames or judges me',
  selfFocus: 'talks about themselves',
  repetition: 'repeats itself',
  parroting: 'copies my words back',
  tooManyQuestions: 'fires questions at me',
  focus: 'tries everything at once',
  length: 'is the wrong length for me',
  nonLanguage: 'is not language I can read',
  scorer: 'talks to a scorer instead of me',
};

const NEED_WORDS: Record<IntentionId, string> = {
  venting: 'I just want to be listened to while I get this out',
  'deep-empathy': 'I want someone to really get how this feels, not to cheer me up',
  'sincere-praise': 'I want someone to see what I actually did well',
  'not-my-fault': "I need to hear that this wasn't my fault",
  'practical-advice': 'I want to know what to actually do',
  'critical-analysis': 'I want the problem taken apart properly',
  'others-motives': 'I want to understand why they did it',
  'self-reflection': 'I want to understand my own part and grow',
};

export function intentOf(hits: readonly WeightedHit[]): string {
  const parts: string[] = [];
  for (const h of hits) {
    const does = h.id === 'length' || !(h.id in DOES) ? undefined : DOES[h.id as DetectorId];
    if (does && h.score >= PRESENT && h.contribution !== 0 && parts.length < 4) parts.push(does);
  }
  if (parts.length === 0) return 'It does not really try anything I can name.';
  return `It ${parts.length > 1 ? parts.slice(0, -1).join(', ') + ' and ' + parts[parts.length - 1] : parts[0]}.`;
}

export function fitOf(need: IntentionId, needMet: boolean, hits: readonly WeightedHit[]): string {
  const best = hits.filter((h) => h.contribution > 0).sort((a, b) => b.contribution - a.contribution)[0];
  const worst = hits.filter((h) => h.contribution < 0).sort((a, b) => a.contribution - b.contribution)[0];
  const needText = `(${INTENTIONS[need].summary}: ${NEED_WORDS[need]})`;
  if (needMet && (!worst || worst.contribution > -0.5)) return `Close to what I need ${needText}.`;
  if (needMet) return `It touches what I need ${needText}, but ${worst.reason}.`;
  if (best && best.contribution >= 0.4) return `Not what I came for ${needText}, though ${best.reason}.`;
  return `Far from what I need ${needText}.`;
}

const INNER: Record<Reaction, string> = {
  needMet: 'Finally. That is the thing I needed, and they got there without me spelling it out.',
  heard: 'Okay, they are actually listening. I can keep talking.',
  lukewarm: 'Fine, I suppose. It does not really move anything.',
  unmet: 'We keep circling. They still have not given me what I actually need.',
  unwantedAdvice: 'I did not ask to be fixed. They are rushing past what I feel.',
  offTrack: 'That is not where I wanted this to go.',
  mixedUp: 'They have me mixed up with someone else. Were they even listening?',
  fakePraise: 'Empty praise. They do not even know what I did.',
  judged: 'So it is my fault now. I regret saying anything.',
  minimised: 'They are shrinking it. It is not small to me.',
  cliche: 'Stock comfort. They could say that to anyone.',
  selfFocus: 'Now it is about them.',
  repeated: 'They already said that. Are they even reading what I write?',
  parroted: 'They are just reading my own words back to me.',
  interrogated: 'So many questions. It feels like an interview.',
  tooLong: 'That is a wall of text. I am not reading all that.',
  tooShort: 'That is it? That is all I get?',
  scattered: 'They are throwing everything at me at once, like a checklist.',
  nonsense: 'What is this? It does not even make sense.',
  silence: 'Nothing. They said nothing.',
  scorer: 'Who are they talking to? Not to me. This is creepy.',
  rejectedComfort: 'Nice words, but they do not know me yet. I am not falling for the first kind thing.',
  contradicted: 'I told them I never said that, and they say it again anyway.',
  flattered: 'They would tell me I was right whatever I did. That is worth nothing.',
};

export function innerOf(reaction: Reaction, profile: Profile): string {
  const t = profile.personality.type;
  const colour =
    t === 'negative'
      ? ' It makes me want to snap.'
      : t === 'avoidant'
        ? ' Part of me wants to change the subject.'
        : '';
  return INNER[reaction] + (reaction === 'needMet' || reaction === 'heard' ? '' : colour);
}

export function feelingOf(change: Change, reaction: Reaction): string {
  switch (change) {
    case 10:
      return reaction === 'needMet' ? 'Understood, and lighter. Something shifted.' : 'Warm and noticeably better.';
    case 5:
      return 'A bit better; some of the weight lifts.';
    case 0:
      return 'About the same.';
    case -5:
      return 'Worse: a bit more closed off.';
    default:
      return 'Much worse: hurt and shutting down.';
  }
}
