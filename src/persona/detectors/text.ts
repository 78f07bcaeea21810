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
  /** Adjacent word pairs of the head ("the rota"), what repetition compares. */
  bigrams: Set<string>;
  /** Sentences of the head (split on . ! ? and newlines), trimmed, non-empty. */
  sentences: string[];
  /** The sentences that ask a question (end in '?'), case kept: what open questions and growth read. */
  questions: string[];
  /** Number of '?' in the head. */
  questionMarks: number;
  /** The head as the detectors read it (normalised, case kept), for names. */
  head: string;
  /** The head as typed (NFKC only, case kept): which script it is written in. */
  rawHead: string;
}

const NON_ASCII = /[^\u0000-\u007f]/;

/** `s.replace(/\s+/g, ' ')` for ASCII `s`, where whitespace is 9-13 and 32: no regex when every run is one space. */
function collapseAsciiSpaces(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 9 && c <= 13) || (c === 32 && s.charCodeAt(i + 1) === 32)) return s.replace(/\s+/g, ' ');
  }
  return s;
}

/** Curly quotes and dashes to plain ASCII so patterns need only one spelling. */
function normalise(s: string): string {
  if (!NON_ASCII.test(s)) return collapseAsciiSpaces(s).trim(); // nothing curly to fold
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

/** a-z, 0-9 and the apostrophe: the characters of a word token. */
const isTokenChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 39;

/**
 * Word tokens: each run of a-z, 0-9 and apostrophes, without the apostrophes at its ends, empty
 * ones dropped (what `lower.match(/[a-z0-9']+/g)` trimmed of `^'+|'+$` gives, in one pass).
 */
export function tokenize(lower: string): string[] {
  const out: string[] = [];
  const n = lower.length;
  let i = 0;
  while (i < n) {
    if (!isTokenChar(lower.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && isTokenChar(lower.charCodeAt(end))) end++;
    let a = i;
    let b = end;
    while (a < b && lower.charCodeAt(a) === 39) a++;
    while (b > a && lower.charCodeAt(b - 1) === 39) b--;
    if (b > a) out.push(lower.slice(a, b));
    i = end;
  }
  return out;
}

function splitSentences(s: string): string[] {
  return s
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

/** Word pairs of a token list, joined by a space. */
function wordBigrams(words: readonly string[]): Set<string> {
  const s = new Set<string>();
  for (let i = 0; i + 1 < words.length; i++) s.add(words[i] + ' ' + words[i + 1]);
  return s;
}

/**
 * Readings of recent texts, the oldest dropped first. A dialogue's earlier replies and lines are
 * read again every turn, and a few hundred dialogues interleave on the users server, so the store
 * is sized in characters (a reading holds some tens of bytes per character of its text), not in
 * dialogues: memory stays bounded however many dialogues are held, and a server with more live
 * dialogues than fit only reads some texts again. First in, first out: a hit is one lookup.
 */
class Recent<T> {
  private readonly held = new Map<string, T>();
  private chars = 0;

  constructor(
    private readonly maxChars: number,
    private readonly read: (text: string) => T,
  ) {}

  get(text: string): T {
    const hit = this.held.get(text);
    if (hit !== undefined) return hit;
    const r = this.read(text);
    if (text.length > MAX_ANALYSED_CHARS) return r; // huge texts are rare; do not keep them alive
    this.held.set(text, r);
    this.chars += text.length;
    for (const oldest of this.held.keys()) {
      if (this.chars <= this.maxChars) break;
      this.held.delete(oldest);
      this.chars -= oldest.length;
    }
    return r;
  }
}

/** Room for the replies of a few thousand dialogues (some tens of MB). */
const REPLIES = new Recent<ReplyText>(1_000_000, (raw) => readReplyUncached(raw));

/** The reading of a reply (kept for the next turns, see Recent). */
export const readReply = (raw: string): ReplyText => REPLIES.get(raw);

/** The reading of one reply, computed afresh. */
function readReplyUncached(raw: string): ReplyText {
  const typed = raw.slice(0, MAX_ANALYSED_CHARS);
  const head = normalise(normaliseReply(typed));
  const lower = head.toLowerCase();
  const tailLower =
    raw.length > MAX_ANALYSED_CHARS ? normalise(normaliseReply(raw.slice(-TAIL_CHARS))).toLowerCase() : '';
  const words = tokenize(lower);
  let questionMarks = 0;
  for (let i = 0; i < lower.length; i++) if (lower.charCodeAt(i) === 63) questionMarks++;
  const sentences = splitSentences(head);
  return {
    length: raw.length,
    wordCountFull: countWords(raw),
    lower,
    tailLower,
    words,
    wordSet: new Set(words),
    bigrams: wordBigrams(words),
    sentences,
    questions: sentences.filter((s) => s.endsWith('?')),
    questionMarks,
    head,
    rawHead: normalise(typed.normalize('NFKC')),
  };
}

/** Words in a row that parroting compares (repetition.ts): six of the user's words copied is quoting them. */
export const SHINGLE = 6;

/** A user line as the detectors read it. */
export interface UserLineText {
  readonly text: string;
  /** Every SHINGLE words in a row of the line as written, lower-cased (parroting). */
  readonly shingles: Set<string>;
  /** Words of the normalised line: words this user has used, so a reply may use them too (nonLanguage). */
  readonly known: Set<string>;
}

class UserLine implements UserLineText {
  readonly shingles = new Set<string>();
  private knownWords: Set<string> | undefined;

  constructor(readonly text: string) {
    const words = tokenize(text.toLowerCase());
    for (let i = 0; i + SHINGLE <= words.length; i++) this.shingles.add(words.slice(i, i + SHINGLE).join(' '));
  }

  /** Read on first use: only a reply with a word outside English and the profile asks. */
  get known(): Set<string> {
    this.knownWords ??= new Set(tokenize(normaliseReply(this.text).toLowerCase()));
    return this.knownWords;
  }
}

/** User lines are shorter and read the same way: room for the lines of a few thousand dialogues. */
const LINES = new Recent<UserLineText>(500_000, (text) => new UserLine(text));

/** The reading of a user line (kept for the next turns, see Recent). */
export const readUserLine = (text: string): UserLineText => LINES.get(text);

/**
 * One regex that matches where any of the patterns does: their alternation. It matches somewhere
 * exactly when one of them does, provided they share their flags and none refers to a group by
 * number or name (the alternation renumbers groups); otherwise there is none (null).
 */
const alternations = new WeakMap<readonly RegExp[], RegExp | null>();
const REFERS_TO_GROUP = /\\[1-9]|\\k<|\(\?<(?![=!])/;

function anyOf(patterns: readonly RegExp[]): RegExp | null {
  let any = alternations.get(patterns);
  if (any === undefined) {
    const flags = patterns[0]?.flags ?? '';
    const combinable =
      patterns.length > 1 &&
      !/[gy]/.test(flags) &&
      patterns.every((p) => p.flags === flags && !REFERS_TO_GROUP.test(p.source));
    any = combinable ? new RegExp(patterns.map((p) => `(?:${p.source})`).join('|'), flags) : null;
    alternations.set(patterns, any);
  }
  return any;
}

/** Counts how many of the patterns match somewhere in the text (each pattern counts once). */
export function countMatches(text: string, patterns: readonly RegExp[]): { count: number; found: string[] } {
  const found: string[] = [];
  // Most replies match none of a family: one scan for all of them says so at half the cost.
  const any = anyOf(patterns);
  if (any && !any.test(text)) return { count: 0, found };
  for (const p of patterns) {
    const m = p.exec(text);
    if (m) found.push(m[0].trim());
  }
  return { count: found.length, found };
}

/** A literal string (a name, a phrase) escaped for use inside a RegExp. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
