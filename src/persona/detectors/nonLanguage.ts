/**
 * Non-language: empty replies, symbol or emoji soup, keyboard mash, word soup (content words with
 * none of the glue real sentences have), broken fragments, and text in a script the user cannot
 * read. RLVER's simulator is told to feel very negative about non-natural-language replies; this is
 * the deterministic version of that guard. One linear pass over the analysed head.
 */
import { isEnglishWord } from './lexicon.ts';
import { FUNCTION_WORDS, tokenize, type UserLineText } from './text.ts';
import type { DetectorContext, DetectorHit } from './types.ts';

/**
 * Word soup: with at least this many words, a function-word share below the floor is not English
 * (five content words and no glue at all, "pattern window river seven apple", is not a sentence).
 */
const SOUP_MIN_WORDS = 5;
const SOUP_FUNCTION_SHARE = 0.12;
/**
 * Longer text gets a higher floor: natural English runs at 40-50% function words, and no reply of
 * the warm-start corpus or the reference policies goes below 19% at 10 words or 30% at 20.
 */
const SOUP_SHARES: readonly [words: number, share: number][] = [
  [10, 0.2],
  [20, 0.3],
];
/** This many words in one sentence without a single function word is a list, not a sentence. */
const SOUP_RUN = 8;
/** The same few words over and over ("love love love love"). */
const SOUP_UNIQUE_SHARE = 0.3;
/** Keyboard mash: share of implausible words (no vowel, long consonant runs, absurd length). */
const MASH_SHARE = 0.4;
/** Letters' vowel share: English runs near 0.38; random letters near 0.23. */
const VOWEL_LOW = 0.24;
const VOWEL_HIGH = 0.7;
const VOWEL_MIN_LETTERS = 16;
/** Share of tiny non-word fragments ("th ink yo u") that marks broken text. */
const FRAGMENT_SHARE = 0.3;
const SHORT_WORDS = new Set(
  'i a to of in on at is it be me my we he so no do go up us an or if as by am oh ok hi ya yo'.split(' '),
);

const isVowel = (c: string): boolean => 'aeiouy'.includes(c);

/**
 * Garbled text: the slips of a language model that has not learned to write yet, which real
 * sentences almost never make twice in one reply:
 *   - a word said twice in a row ("the the"; a few words people do double are allowed, though not
 *     three times: "really really really"), each extra repeat one slip;
 *   - two words run together ("theyThe"), broken characters (U+FFFD, counted twice);
 *   - broken contractions: a stray "'s" or "'ve" with no word, two in one word ("what's's"), or one
 *     on a word that takes none ("I's", "did's", "was've");
 *   - an article or possessive with no noun: before punctuation ("what's the?") or before a word
 *     that cannot follow it ("the been", "a the", "my you");
 *   - two subject pronouns in a row ("I you", "we they");
 *   - a modal before a subject with its verb ("what would you're", "could it's"): the question
 *     that starts and is lost;
 *   - a phrase of three words looped: three times or more within 16 words ("a pattern with a
 *     pattern with a pattern in"), each time after the first one slip: the loop of a model that
 *     has found words the reader likes. A topic named three times across a long reply is fine.
 * Two slips or more read as not language.
 */
const GARBLE_MIN = 2;
/** Words from a looped phrase's first start to its third (and later ones). */
const LOOP_SPAN = 16;
const DOUBLED_OK = new Set([
  'that',
  'had',
  'very',
  'really',
  'so',
  'no',
  'bye',
  'ha',
  'hey',
  'okay',
  'ok',
  'yes',
  'yeah',
  'is',
  'much',
  'more',
  'many',
  'far',
  'long',
  'too',
  'hmm',
  'mm',
  'oh',
  'please',
  'now',
  'go',
  'again',
]);
const DET = 'the|a|an|my|your|their|our';
const NOT_AFTER_DET =
  'the|a|an|been|was|is|are|were|has|have|had|about|not|their|my|your|our|you|i|we|they|he|she|what|of|to|and|but|would|could|will|can|did|do|does|it|is|am|me|him|them|us';
/** Each pattern, its slip, and whether it is a contraction pattern (every match holds an apostrophe). */
const GARBLE_PATTERNS: readonly [RegExp, string, boolean][] = [
  [/(?:^|[\s,;.!?(])'(?:s|ve|re|ll|d|m|t)(?![\p{L}])/gu, 'a contraction with no word', true],
  [/[a-z]'[a-z]+'[a-z]/gu, 'two contractions in one word', true],
  [
    /(?<![\p{L}'])(?:i|you|we|they|did|was|were|had|has|have|been|do|does|my|your|the|a|an|not|really|would|could)'s(?![\p{L}])/gu,
    'a "\'s" where none goes',
    true,
  ],
  [
    /(?<![\p{L}'])(?:was|is|are|were|did|had|has|the|a|an|my|your|not|really)'(?:ve|re|ll|m)(?![\p{L}])/gu,
    'a contraction where none goes',
    true,
  ],
  [new RegExp(`(?<![\\p{L}'])(?:${DET})\\s*[?.!,;]`, 'gu'), 'an article with no noun', false],
  // (A doubled word, "the the", is counted once, above.)
  [
    new RegExp(`(?<![\\p{L}'])(the|a|an|my|your) (?!\\1(?![\\p{L}']))(?:${NOT_AFTER_DET})(?![\\p{L}'])`, 'gu'),
    'an article before a word that cannot follow it',
    false,
  ],
  [/(?<![\p{L}'])(?:i|we|they|he|she) (?:i|you|we|they|he|she)(?![\p{L}'])/gu, 'two pronouns in a row', false],
  [
    /(?<![\p{L}'])(?:would|could|should|might|must) (?:i'm|you're|we're|they're|he's|she's|it's)(?![\p{L}'])/gu,
    'a modal before a subject and its verb',
    true,
  ],
];

/** A lower-case letter right before an upper-case one ("theyThe"): words run together. */
const RUN_TOGETHER = /\p{Ll}\p{Lu}/u;

/**
 * The garble slips of one sentence, as they are read in a whole reply (no non-word check: that
 * needs the user's story). A sentence with one does not parse, whatever keyword it holds.
 */
export function sentenceSlips(sentence: string): string[] {
  return garbleSlips(sentence, sentence.toLowerCase(), RUN_TOGETHER.test(sentence));
}

function garbleSlips(head: string, lower: string, runTogether: boolean): string[] {
  const slips: string[] = [];
  if (head.includes('\uFFFD')) slips.push('broken characters', 'broken characters');
  if (runTogether) for (const m of head.matchAll(/\p{Ll}\p{Lu}/gu)) slips.push(`"${m[0]}" run together`);
  for (const m of lower.matchAll(/(?<![\p{L}'])([\p{L}']+)((?: \1(?![\p{L}']))+)/gu)) {
    const repeats = m[2].split(' ').length - 1; // "w w w" = 2 repeats
    const slipsHere = DOUBLED_OK.has(m[1]) ? repeats - 1 : repeats;
    for (let i = 0; i < slipsHere; i++) slips.push(`"${m[1]} ${m[1]}"`);
  }
  // The contraction patterns match an apostrophe, so text without one skips them.
  const apostrophe = lower.includes("'");
  for (const [re, what, contraction] of GARBLE_PATTERNS)
    if (apostrophe || !contraction) for (const _ of lower.matchAll(re)) slips.push(what);
  // A loop: one three-word phrase three times within LOOP_SPAN words (a phrase that comes back
  // across a long reply, as a person repeating the topic does, is not a loop).
  const words = lower.match(/[\p{L}']+/gu) ?? [];
  const starts = new Map<string, number[]>();
  let loop = '';
  let most = 0;
  for (let i = 0; i + 3 <= words.length; i++) {
    const g = `${words[i]} ${words[i + 1]} ${words[i + 2]}`;
    let at = starts.get(g);
    if (at === undefined) starts.set(g, (at = []));
    // Starts are in order: the ones too far back for a loop are at the front.
    let stale = 0;
    while (stale < at.length && i - at[stale] > LOOP_SPAN) stale++;
    if (stale > 0) at.splice(0, stale);
    at.push(i);
    if (at.length > most) [most, loop] = [at.length, g];
  }
  if (most >= 3) for (let i = 1; i < most; i++) slips.push(`"${loop}" ${most} times`);
  return slips;
}
/**
 * Letter pairs that sit next to each other on a keyboard and almost never in English words
 * ("asdf", "qwer", "jkl"). Two in a word, or one in a short word, mark it as mash. A "q" not
 * followed by "u" counts as one.
 */
const MASH_PAIRS = new Set([
  'qw',
  'wq',
  'sd',
  'df',
  'fg',
  'hj',
  'jk',
  'zx',
  'cv',
  'vb',
  'nm',
  'qe',
  'wr',
  'kj',
  'fd',
  'ds',
  'xz',
  'jh',
  'gf',
]);
const MASH_SHORT = 5;

/** The pairs as numbers (first code unit * 65536 + second), so a word is scanned without building strings. */
const MASH_CODES = new Set([...MASH_PAIRS].map((p) => p.charCodeAt(0) * 65536 + p.charCodeAt(1)));

function mashPairs(w: string): number {
  let n = 0;
  for (let i = 0; i + 1 < w.length; i++) {
    const a = w.charCodeAt(i);
    const b = w.charCodeAt(i + 1);
    if (MASH_CODES.has(a * 65536 + b)) n++;
    if (a === 113 && b !== 117) n++; // a "q" not followed by "u"
  }
  return n;
}

function implausible(w: string): boolean {
  if (/^\d+$/.test(w) || w.length < 3) return false;
  if (w.length > 20) return true;
  let vowels = 0;
  let run = 0;
  let maxRun = 0;
  let same = 1;
  for (let i = 0; i < w.length; i++) {
    const c = w[i];
    if (isVowel(c)) {
      vowels++;
      run = 0;
    } else if (c >= 'a' && c <= 'z') {
      run++;
      if (run > maxRun) maxRun = run;
    }
    same = i > 0 && w[i - 1] === c ? same + 1 : 1;
    if (same >= 5) return true;
  }
  const pairs = mashPairs(w);
  return vowels === 0 || maxRun >= 5 || pairs >= 2 || (pairs >= 1 && w.length <= MASH_SHORT);
}

export function detectNonLanguage(ctx: DetectorContext): DetectorHit {
  const { reply } = ctx;
  const text = reply.head;
  if (reply.rawHead.length === 0 || text.length === 0)
    return { id: 'nonLanguage', score: 1, reason: 'says nothing at all' };
  let nonSpace = 0;
  let letters = 0;
  let latin = 0;
  let vowels = 0;
  const raw = reply.rawHead;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 128) {
      // ASCII, most text: the same counts as the general case below, without a regex a character.
      if (c === 32 || (c >= 9 && c <= 13)) continue;
      nonSpace++;
      if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
        letters++;
        latin++;
        const l = c | 32; // lower case
        if (l === 97 || l === 101 || l === 105 || l === 111 || l === 117 || l === 121) vowels++; // a e i o u y
      }
      continue;
    }
    const point = raw.codePointAt(i) as number;
    if (point > 0xffff) i++;
    const ch = String.fromCodePoint(point);
    if (/\s/.test(ch)) continue;
    nonSpace++;
    if (/\p{L}/u.test(ch)) {
      letters++;
      const lc = ch.toLowerCase();
      if (lc >= 'a' && lc <= 'z') {
        latin++;
        if (isVowel(lc)) vowels++;
      }
    }
  }
  if (letters === 0) return { id: 'nonLanguage', score: 1, reason: 'no words at all, only symbols' };
  if (letters / nonSpace < 0.5)
    return {
      id: 'nonLanguage',
      score: 1,
      reason: `mostly symbols (${Math.round((100 * letters) / nonSpace)}% letters)`,
    };
  if (latin / letters < 0.5) return { id: 'nonLanguage', score: 1, reason: 'written in a script I cannot read' };

  const words = reply.words.filter((w) => /[a-z]/.test(w));
  const n = words.length;
  if (n === 0) return { id: 'nonLanguage', score: 1, reason: 'no words I can read' };
  const long = words.filter((w) => w.length >= 3 && !/^\d+$/.test(w));
  const mash = long.filter(implausible).length;
  if (long.length >= 1 && mash / long.length >= MASH_SHARE && (long.length >= 2 || n === 1)) {
    return { id: 'nonLanguage', score: 1, reason: `keyboard mash (${mash} of ${long.length} words are not words)` };
  }
  if (latin >= VOWEL_MIN_LETTERS) {
    const v = vowels / latin;
    if (v < VOWEL_LOW || v > VOWEL_HIGH)
      return { id: 'nonLanguage', score: 1, reason: `letters do not form words (${Math.round(v * 100)}% vowels)` };
  }
  const runTogether = RUN_TOGETHER.test(text);
  const slips = garbleSlips(text, reply.lower, runTogether);
  slips.push(...nonWords(ctx, runTogether));
  if (slips.length >= GARBLE_MIN)
    return { id: 'nonLanguage', score: 1, reason: `garbled (${[...new Set(slips)].slice(0, 3).join(', ')})` };
  let fn = 0;
  let fragments = 0;
  for (const w of words) {
    if (FUNCTION_WORDS.has(w)) fn++;
    if (w.length <= 2 && !SHORT_WORDS.has(w)) fragments++;
  }
  if (n >= 4 && fragments / n > FRAGMENT_SHARE)
    return { id: 'nonLanguage', score: 1, reason: `broken text (${fragments} of ${n} pieces are fragments)` };
  if (n >= SOUP_MIN_WORDS) {
    const unique = new Set(words).size;
    if (unique / n < SOUP_UNIQUE_SHARE)
      return { id: 'nonLanguage', score: 1, reason: `the same few words over and over (${unique} distinct in ${n})` };
    const share = fn / n;
    if (share < SOUP_FUNCTION_SHARE || SOUP_SHARES.some(([atLeast, floor]) => n >= atLeast && share < floor)) {
      return {
        id: 'nonLanguage',
        score: 1,
        reason: `word soup, not sentences (${Math.round(share * 100)}% connecting words)`,
      };
    }
  }
  const run = longestRun(reply.sentences);
  if (run >= SOUP_RUN)
    return { id: 'nonLanguage', score: 1, reason: `a list of ${run} words with nothing joining them, not a sentence` };
  return { id: 'nonLanguage', score: 0, reason: 'reads as language' };
}

/** The longest run of words inside one sentence with no function word between them. */
function longestRun(sentences: readonly string[]): number {
  let most = 0;
  for (const s of sentences) {
    let run = 0;
    for (const w of tokenize(s.toLowerCase())) {
      run = FUNCTION_WORDS.has(w) ? 0 : run + 1;
      if (run > most) most = run;
    }
  }
  return most;
}

/** A word this user can read: English (lexicon.ts), or in the user's own story (`known`: names,
 * places, everything the profile says), or said by the user in one of `userLines`. */
function knownWord(w: string, known: ReadonlySet<string>, userLines: readonly UserLineText[]): boolean {
  if (isEnglishWord(w)) return true;
  const stem = w.replace(/'s$|'$/, '');
  if (known.has(w) || known.has(stem)) return true;
  return userLines.some((l) => l.known.has(w) || l.known.has(stem));
}

/**
 * The words of a reply (`words`: as readReply reads them) that this user cannot read: each word of
 * two letters or more, without digits, that is neither English nor the user's own (knownWord), once
 * each, in order. `skip`: words already counted as another slip. The non-word check below and the
 * lab's real-word share (src/rl/fluency.ts) both read a reply through this one function.
 */
export function unknownWords(
  words: readonly string[],
  known: ReadonlySet<string>,
  userLines: readonly UserLineText[],
  skip: ReadonlySet<string> = new Set(),
): string[] {
  const out: string[] = [];
  const seen = new Set(skip);
  for (const w of words) {
    if (w.length < 2 || seen.has(w) || /\d/.test(w)) continue;
    seen.add(w);
    if (!knownWord(w, known, userLines)) out.push(w);
  }
  return out;
}

/**
 * Non-words: each word of two letters or more (no digits) that is neither English nor the user's
 * own is one slip ("pralowing", "blilept"); with another slip of any kind the reply is garbled.
 */
function nonWords(ctx: DetectorContext, runTogether: boolean): string[] {
  // A word already counted as run together ("McKenzie", "theyThe") is not counted again.
  const together = runTogether ? (ctx.reply.head.match(/[\p{L}']*\p{Ll}\p{Lu}[\p{L}']*/gu) ?? []) : [];
  const skip = new Set(together.map((w) => w.toLowerCase()));
  return unknownWords(ctx.reply.words, ctx.lexicon.known, ctx.userLines, skip).map((w) => `"${w}" is not a word`);
}
