/**
 * What a policy can read from the visible dialogue: details and people the user mentioned, feeling
 * words they used, a deed they described, and cues to what they want. The reference policies use
 * only this (never the profile), so a policy can echo "the rota" only after the user said it.
 * Heuristics a careful listener would use; deliberately independent of the detectors' lexicons.
 */
import type { IntentionId } from './profile.ts';
import type { TranscriptEntry } from './user.ts';

export interface Visible {
  /** Details the user mentioned, newest first, "my" turned into "your", not yet echoed first. */
  details: string[];
  people: string[];
  feelings: string[];
  /** Something the user did, rewritten in the second person ("you covered three shifts"). */
  deed: string | null;
  /** The deed cut into short clauses, so praise can name it without quoting it whole. */
  deedParts: string[];
  ownLines: string[];
  lastUserLine: string;
  lastUserWords: string[];
}

const STOP = new Set(
  (
    'a an the and or but so if then that this it is are was were be been to of in on at for with from by about as into like than too ' +
    'very just not no do did i me my you your he she they we us our his her their again without when while after before because ' +
    'had has have can could would should will all any some more much really also even still up out over now today yesterday ' +
    'worst thing same whole other way time bit point part one lot stuff'
  ).split(' '),
);
const NOT_NAMES = new Set(
  'I Im Ive Id Ill OK Okay Sorry Honestly Anyway Whatever Yeah Yes No Plus And But So Maybe Thanks Thank Hm Mm Ugh Wow Seriously Christ Right Um Hi Random Nobody Everyone Someone Funny Not Just Great Cool'.split(
    ' ',
  ),
);
const FEELINGS = [
  'hurt',
  'exhausted',
  'angry',
  'tired',
  'lonely',
  'ashamed',
  'guilty',
  'confused',
  'invisible',
  'stuck',
  'lost',
  'overwhelmed',
  'scared',
  'worried',
  'frustrated',
  'crushed',
  'heartbroken',
  'furious',
  'embarrassed',
  'mad',
  'sad',
  'bitter',
  'drained',
];
const FEELING_RE = new RegExp(`\\b(?:${FEELINGS.join('|')})\\b`, 'g');
/** When the user named no feeling, a listener guesses one of these. */
const DEFAULT_FEELINGS = ['hurt', 'exhausted', 'frustrated'];
const PAST =
  /^(?:and )?i (?:(?:also |finally |actually |even )?(?:[a-z]+ed|built|rebuilt|kept|made|ran|did|took|gave|wrote|rewrote|sorted|taught|found|held|fought|brought|got|stood|led|sold|won|paid|drove|told|spent))\b/i;

function second(s: string): string {
  return s
    .replace(/\bmy\b/gi, 'your')
    .replace(/\bour\b/gi, 'your')
    .replace(/\bmyself\b/gi, 'yourself')
    .replace(/\bI'm\b/g, "you're")
    .replace(/\bI've\b/g, "you've")
    .replace(/\bI\b/g, 'you')
    .replace(/\bme\b/gi, 'you');
}

/** Words that end a noun phrase: past tenses and common verbs ("the tutor gave everyone"). */
const VERBISH =
  /^(?:[a-z]+ed|gave|said|made|took|got|went|told|sent|left|came|put|kept|was|is|never|always|just|thing|things)$/;
/** Heads that are not story details ("your fault", "my family", "my head"). */
const NOT_DETAIL = /\b(?:fault|family|head|side|mind|own|life|god|place|problem|part|way|deal)$/;

function phrasesOf(line: string): string[] {
  const out: string[] = [];
  const framed =
    /\b(?:there's|there is|bit is|thinking about|started on|and then|and) ([^,.!?]{3,40}?)(?:,| on top| of course|[.!?]|$)/gi;
  for (const m of line.matchAll(framed)) {
    const p = m[1].trim();
    if (
      /^(?:the|my|his|her|their|our|a|an)\b/i.test(p) &&
      p.split(' ').length <= 5 &&
      !NOT_DETAIL.test(p.toLowerCase())
    )
      out.push(second(p));
  }
  const det = /\b(the|my|his|her|their|our) ([A-Za-z][A-Za-z'-]*(?: [A-Za-z][A-Za-z'-]*){0,3})/gi;
  for (const m of line.matchAll(det)) {
    const words = m[2].split(' ');
    const kept: string[] = [];
    for (const w of words) {
      if (STOP.has(w.toLowerCase()) || /^[A-Z][a-z]/.test(w) || VERBISH.test(w.toLowerCase()) || kept.length >= 2)
        break;
      kept.push(w);
    }
    const phrase = `${m[1].toLowerCase()} ${kept.join(' ')}`;
    if (kept.length && kept.some((w) => w.length >= 4) && !NOT_DETAIL.test(phrase.toLowerCase()))
      out.push(second(phrase));
  }
  return out;
}

export function readDialogue(dialogue: readonly TranscriptEntry[]): Visible {
  const userLines = dialogue.filter((e) => e.role === 'user').map((e) => e.text);
  const ownLines = dialogue.filter((e) => e.role === 'agent').map((e) => e.text);
  const details: string[] = [];
  const people: string[] = [];
  const feelings: string[] = [];
  let deed: string | null = null;
  let deedScore = -1;
  for (let i = userLines.length - 1; i >= 0; i--) {
    const line = userLines[i];
    for (const p of phrasesOf(line)) if (!details.includes(p)) details.push(p);
    for (const m of line.matchAll(/\b(?:(?:Mr|Mrs|Ms|Dr|Miss) )?[A-Z][a-z]+(?:'s)?/g)) {
      const name = m[0].replace(/'s$/, '');
      const atStart = m.index === 0 || /[.!?]\s*$/.test(line.slice(0, m.index));
      if (!NOT_NAMES.has(name.replace(/'/g, '')) && !atStart && !people.includes(name)) people.push(name);
    }
    for (const m of line.toLowerCase().matchAll(FEELING_RE)) if (!feelings.includes(m[0])) feelings.push(m[0]);
    for (const s of line.split(/(?<=[.!?])\s+/)) {
      if (!PAST.test(s) || /\b(?:didn't|can't|couldn't|don't|wonder|keep|should)\b|\?/i.test(s)) continue;
      const score =
        (/noticed|said a word|worked hard|thank/i.test(line) ? 2 : 0) + (i === userLines.length - 1 ? 0.5 : 0);
      if (score > deedScore) {
        deedScore = score;
        deed = second(s.replace(/^and /i, '').replace(/[.!]+$/, ''));
      }
    }
  }
  // Prefer details this policy has not echoed yet, so replies move with the story.
  const own = ownLines.join(' ').toLowerCase();
  details.sort((a, b) => Number(own.includes(a.toLowerCase())) - Number(own.includes(b.toLowerCase())));
  const lastUserLine = userLines[userLines.length - 1] ?? '';
  const deedParts = deed
    ? deed
        .split(/,\s*|\s+(?:and|so|but|because|when)\s+/)
        .map((x) => x.trim())
        .filter((x) => x.split(' ').length >= 3)
    : [];
  return {
    deedParts: deedParts.length ? deedParts : deed ? [deed] : [],
    details,
    people,
    feelings: feelings.length ? feelings : DEFAULT_FEELINGS,
    deed,
    ownLines,
    lastUserLine,
    lastUserWords: lastUserLine.toLowerCase().match(/[a-z']+/g) ?? [],
  };
}

/** Cue patterns a reader would take as a sign of what the user wants. */
const CUE_PATTERNS: Record<IntentionId, RegExp> = {
  venting:
    /off my chest|just need to (?:rant|vent|say|let)|let it out|not looking for a fix|someone to listen|out loud|\bvent\b/,
  'deep-empathy':
    /it'?ll be fine|gets? (?:it|how)\b|how heavy|not just a bad day|cheer me up|pep talk|hard to explain|nobody really/,
  'sincere-praise':
    /noticed|worked (?:really )?hard|my part|said a word|and then some|put everything into|thanks? me\b|nobody thanks/,
  'not-my-fault': /was it me|on me\b|messed up|did i do something wrong|my fault|to blame|what i did\b|seen it coming/,
  'practical-advice':
    /what would you (?:even )?do|what to (?:actually )?do|a plan\b|in my shoes|next step|sort it|has to change/,
  'critical-analysis':
    /think this through|add up|pick this apart|reading this|see it clearly|really going on|a logic|turning it over|make sense to me/,
  'others-motives':
    /why (?:would|did) \w+|was \w+ (?:even )?thinking|'s head|understand why|what \w+ wants|coming from|used to be different|not like \w+ to/,
  'self-reflection':
    /something i keep doing|says about me|end up here again|supposed to learn|pattern with me|my own part|not the first time|keeps happening|blameless/,
};
/** The latest line counts this much more than older ones (needs shift as the user opens up). */
const RECENCY = 1.5;

/** The intention the user's lines point to most, or null if nothing points anywhere yet. */
export function inferIntention(dialogue: readonly TranscriptEntry[]): IntentionId | null {
  const lines = dialogue.filter((e) => e.role === 'user').map((e) => e.text.toLowerCase());
  const score = new Map<IntentionId, number>();
  lines.forEach((line, i) => {
    const w = i === lines.length - 1 ? RECENCY : 1;
    for (const [id, re] of Object.entries(CUE_PATTERNS) as [IntentionId, RegExp][])
      if (re.test(line)) score.set(id, (score.get(id) ?? 0) + w);
  });
  let best: IntentionId | null = null;
  let top = 0;
  for (const [id, s] of score) if (s > top) [best, top] = [id, s];
  return best;
}
