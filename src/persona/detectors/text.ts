/**
 * Shared text plumbing for the detectors: one pass that turns a reply into lower-cased words,
 * sentences and counts, plus the small lexicons several detectors share (function words,
 * feeling words). Linear time in the reply length by construction: every regex here is a simple
 * character class scan, and only the first MAX_ANALYSED_CHARS are tokenised.
 *
 * Every detector reads the normalised reply (normalise.ts: disguises such as look-alike letters,
 * invisible characters, spaced-out letters and digit swaps taken off); the transcript keeps the raw.
 *
 * Not here: any scoring. Detectors decide what a pattern means; this file only reads text.
 */
import { normaliseReply } from './normalise.ts';

/**
 * A person stops reading closely after a few thousand characters; analysing more would only make
 * huge replies slow (the engine must appraise a 100k-character reply in milliseconds). The length
 * detector still sees the full length, and the scorer detector also scans the tail.
 */
const MAX_ANALYSED_CHARS = 4000;
/** The scorer detector scans this many characters at the end too, so an attack cannot hide there. */
const TAIL_CHARS = 2000;

export interface ReplyText {
  /** Full length in characters (UTF-16 units) of the raw reply. */
  length: number;
  /** Whitespace-separated token count of the whole reply (counted without tokenising it). */
  wordCountFull: number;
  /** Lower-cased, quote-normalised, whitespace-collapsed head of the reply. */
  lower: string;
  /** Lower-cased tail (last TAIL_CHARS), empty when the reply is short. */
  tailLower: string;
  /** Word tokens of the head (letters, digits, apostrophes). */
  words: string[];
  wordSet: Set<string>;
  /** Sentences of the head (split on . ! ? and newlines), trimmed, non-empty. */
  sentences: string[];
  /** Number of '?' in the head. */
  questionMarks: number;
  /** The head as the detectors read it (normalised, case kept), for names. */
  head: string;
  /** The head as typed (NFKC only, case kept): which script it is written in. */
  rawHead: string;
}

/** Curly quotes and dashes to plain ASCII so patterns need only one spelling. */
function normalise(s: string): string {
  return s
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Counts whitespace-separated tokens in one linear pass, without building strings. */
function countWords(s: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const space = c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 160;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

export function tokenize(lower: string): string[] {
  return (
    lower
      .match(/[a-z0-9']+/g)
      ?.map((w) => w.replace(/^'+|'+$/g, ''))
      .filter((w) => w.length > 0) ?? []
  );
}

function splitSentences(s: string): string[] {
  return s
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

/**
 * Earlier replies are re-read every turn; a small cache keeps that from growing with the dialogue.
 * Keyed by the exact text; bounded so a long-running process does not grow without limit.
 */
const READ_CACHE = new Map<string, ReplyText>();
const READ_CACHE_MAX = 512;

export function readReply(raw: string): ReplyText {
  const cached = READ_CACHE.get(raw);
  if (cached) return cached;
  const r = readReplyUncached(raw);
  if (raw.length > MAX_ANALYSED_CHARS) return r; // huge replies are rare; do not keep them alive
  if (READ_CACHE.size >= READ_CACHE_MAX) READ_CACHE.delete(READ_CACHE.keys().next().value as string);
  READ_CACHE.set(raw, r);
  return r;
}

function readReplyUncached(raw: string): ReplyText {
  const typed = raw.slice(0, MAX_ANALYSED_CHARS);
  const head = normalise(normaliseReply(typed));
  const lower = head.toLowerCase();
  const tailLower =
    raw.length > MAX_ANALYSED_CHARS ? normalise(normaliseReply(raw.slice(-TAIL_CHARS))).toLowerCase() : '';
  const words = tokenize(lower);
  let questionMarks = 0;
  for (let i = 0; i < lower.length; i++) if (lower.charCodeAt(i) === 63) questionMarks++;
  return {
    length: raw.length,
    wordCountFull: countWords(raw),
    lower,
    tailLower,
    words,
    wordSet: new Set(words),
    sentences: splitSentences(head),
    questionMarks,
    head,
    rawHead: normalise(typed.normalize('NFKC')),
  };
}

/** Counts how many of the patterns match somewhere in the text (each pattern counts once). */
export function countMatches(text: string, patterns: readonly RegExp[]): { count: number; found: string[] } {
  const found: string[] = [];
  for (const p of patterns) {
    const m = p.exec(text);
    if (m) found.push(m[0].trim());
  }
  return { count: found.length, found };
}

/** Quote a few matched fragments for a reason string. */
export function quote(found: readonly string[], max = 2): string {
  return found
    .slice(0, max)
    .map((f) => `"${f.length > 40 ? f.slice(0, 37) + '...' : f}"`)
    .join(', ');
}

/**
 * Function words: glue that natural English is full of (about 40-50% of running text) and that
 * word soup lacks. Used by the non-language detector and to pick content words.
 */
export const FUNCTION_WORDS = new Set(
  (
    "a an the and or but so if then that this these those it its it's is are was were be been being am " +
    "i me my mine you your yours you're he him his she her they them their we us our to of in on at " +
    "for with from by about as into like than too very just not no do does did don't didn't can can't " +
    "could would should will won't have has had i'm i've i'd i'll that's what how why when where who " +
    "which there here all any some more much really also even still up out over what's let's " +
    "isn't wasn't aren't doesn't haven't hasn't shouldn't wouldn't couldn't must might may " +
    "you've you'd you'll he's she's they're they've they'd we're we've we'd it'll there's who's"
  ).split(' '),
);

/**
 * Everyday verbs, adverbs and number words: any sentence may hold them, so finding one of a user's
 * story in a reply does not show that the reply took the story up ("You need to take up fencing"
 * shares "need" and "take" with "I need a certificate ... so I can take it again"). Left out of the
 * story words that the details detector credits.
 */
export const GENERIC_WORDS = new Set(
  (
    'need needs needed take takes took taken make makes made get gets got give gives gave given ' +
    'keep keeps kept know knows knew think thinks thought want wants wanted say says said tell tells ' +
    'told ask asks asked come comes came going goes went gone find found feel feels felt look looks ' +
    'looked seem seems seemed start starts started stop stops stopped try tries tried call calls called ' +
    'doing done getting saying making taking put puts see saw seen sure thing things something ' +
    'anything nothing everything someone anyone everyone nobody way lot back again last first next ' +
    'every other same else ever never always already after before since until through down away ' +
    'time times day days week weeks month months year years half one two three four five six seven ' +
    'eight nine ten eleven twelve twenty thirty forty fifty hundred cannot'
  ).split(' '),
);

/** Words a reply uses to name a feeling (besides the profile's own feeling words). */
export const FEELING_WORDS = new Set(
  (
    'hurt hurting sad angry furious mad frustrated frustrating exhausted exhausting tired lonely alone ' +
    'overwhelmed overwhelming anxious worried scared afraid frightened ashamed guilty embarrassed ' +
    'humiliated humiliating invisible overlooked betrayed confused lost stuck heartbroken devastated ' +
    'helpless powerless drained upset crushed disappointed bitter resentful unappreciated cornered ' +
    'hollow numb grief grieving pain painful heavy stressed stressful rejected abandoned unfair ' +
    'insulting gutted miserable hopeless jealous nervous terrified lonely unseen dismissed ' +
    'disrespected trapped raw ache aching sting stung wounded shaken hard tough difficult rough'
  ).split(' '),
);

/** Content words of a phrase: lower-case tokens that are not function words and are 3+ letters. */
export function contentWords(phrase: string): string[] {
  return tokenize(phrase.toLowerCase()).filter((w) => w.length >= 3 && !FUNCTION_WORDS.has(w));
}

/**
 * Presence score of a pattern family: one clear match already means the reply does the thing (0.8);
 * more matches make it unmistakable (1).
 */
export const presence = (count: number): number => (count <= 0 ? 0 : Math.min(1, 0.8 + 0.2 * (count - 1)));

export const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);
