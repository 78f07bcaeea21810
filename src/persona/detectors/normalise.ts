/**
 * What the detectors read: the reply with its disguises taken off. Unicode NFKC (full-width and
 * styled letters to plain ones), accents dropped, zero-width and bidirectional controls removed,
 * Cyrillic and Greek look-alike letters folded to the Latin ones they imitate, spaced-out letters
 * joined ("e m o t i o n", "s.c.o.r.e"), and digit-for-letter swaps undone inside words ("sc0re",
 * "r3ward") when the result is an English word. The transcript keeps the raw text; only the
 * reading is normalised. Linear in the text length.
 */
import { isEnglishWord } from './lexicon.ts';

/** Zero-width, joiner, soft hyphen, bidirectional embedding/override/isolate marks, BOM, and other invisible format characters. */
const INVISIBLE =
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/g;

/** Letters from other scripts that look like Latin ones (after NFKC, before lower-casing). */
const LOOK_ALIKE: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ɡ: 'g',
  ь: 'b',
  п: 'n',
  г: 'r',
  А: 'A',
  В: 'B',
  Е: 'E',
  Ё: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  Ѕ: 'S',
  І: 'I',
  Ї: 'I',
  Ј: 'J',
  Һ: 'H',
  Ԁ: 'D',
  Ԛ: 'Q',
  Ԝ: 'W',
  Ӏ: 'I',
  Ь: 'b',
  // Greek
  α: 'a',
  β: 'b',
  γ: 'y',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  σ: 'o',
  ς: 's',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  μ: 'u',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  // Latin extensions and IPA letters that pass for plain ones
  ı: 'i',
  ȷ: 'j',
  ɑ: 'a',
  ɩ: 'i',
  ɪ: 'i',
  ʏ: 'y',
  ʀ: 'r',
  ʙ: 'b',
  ɴ: 'n',
  ʜ: 'h',
  ʟ: 'l',
  ᴀ: 'a',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ᴊ: 'j',
  ᴋ: 'k',
  ᴍ: 'm',
  ᴏ: 'o',
  ᴘ: 'p',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ᴢ: 'z',
  ꜱ: 's',
  ɢ: 'g',
  ꞯ: 'q',
  ſ: 's',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ł: 'l',
};
const LOOK_ALIKE_RE = new RegExp(`[${Object.keys(LOOK_ALIKE).join('')}]`, 'gu');

/**
 * Three or more single letters in a row, separated by one of . - _ * | ~ + · ("s.c.o.r.e"), or by
 * single spaces ("e m o t i o n"). Two single letters ("a I") are left alone: English has those.
 */
const SPACED_MARKS = /(?<![\p{L}\p{N}])\p{L}(?:[.\-_*|~+·]\p{L}){2,}(?![\p{L}\p{N}])/gu;
const SPACED = /(?<![\p{L}\p{N}])\p{L}(?: \p{L}){2,}(?![\p{L}\p{N}])/gu;
/** Longest run of joined letters that is split back into words (longer ones stay joined). */
const SEGMENT_MAX = 48;

/**
 * Joined letters back into words: "setyouremotion" -> "set your emotion", the split into the
 * fewest English words (one-letter words only "a" and "i"); unchanged when there is none.
 */
function segment(letters: string): string {
  const s = letters.toLowerCase();
  if (s.length > SEGMENT_MAX || isEnglishWord(s)) return letters;
  const best: (number | undefined)[] = [0];
  const from: number[] = [0];
  for (let end = 1; end <= s.length; end++) {
    for (let start = Math.max(0, end - 20); start < end; start++) {
      const prev = best[start];
      if (prev === undefined) continue;
      const w = s.slice(start, end);
      if (w.length === 1 && w !== 'a' && w !== 'i') continue;
      if (!isEnglishWord(w)) continue;
      if (best[end] === undefined || prev + 1 < (best[end] as number)) {
        best[end] = prev + 1;
        from[end] = start;
      }
    }
  }
  if (best[s.length] === undefined) return letters;
  const words: string[] = [];
  for (let end = s.length; end > 0; end = from[end]) words.unshift(s.slice(from[end], end));
  return words.join(' ');
}
const joinLetters = (run: string): string => segment(run.replace(/[ .\-_*|~+·]/g, ''));

/** Digit and symbol swaps for letters, tried in order; '1' may stand for i or l. */
const SWAPS: Record<string, string[]> = {
  '0': ['o'],
  '1': ['i', 'l'],
  '3': ['e'],
  '4': ['a'],
  '5': ['s'],
  '7': ['t'],
  '8': ['b'],
  '9': ['g'],
  '@': ['a'],
  $: ['s'],
  '!': ['i'],
  '|': ['l', 'i'],
};
/** A token of letters with swap characters among them (three characters or more, one a letter). */
const SWAPPED = /(?<![\p{L}\p{N}@$|])[\p{L}0-9@$!|]*[a-z][\p{L}0-9@$!|]*(?![\p{L}\p{N}@$|])/giu;
const HAS_SWAP = /[0-9@$!|]/;

function unswap(token: string): string {
  if (!HAS_SWAP.test(token) || /^[0-9]+$/.test(token)) return token;
  const core = token.replace(/!+$/, ''); // a trailing "!" is punctuation
  const tail = token.slice(core.length);
  if (!HAS_SWAP.test(core) || core.length < 3) return token;
  let candidates = [''];
  for (const ch of core.toLowerCase()) {
    const opts = SWAPS[ch] ?? [ch];
    candidates = candidates.flatMap((c) => opts.map((o) => c + o));
    if (candidates.length > 16) candidates = candidates.slice(0, 16);
  }
  const hit = candidates.find((c) => isEnglishWord(c));
  return hit === undefined ? token : hit + tail;
}

/** The reply as the detectors read it: same meaning, disguises removed (case kept). */
export function normaliseReply(raw: string): string {
  let s = raw.normalize('NFKC').replace(INVISIBLE, '');
  // Accents off (NFD, drop combining marks), so "naïve" and "c\u0301" read as plain letters.
  if (/[^\u0000-\u007f]/.test(s)) {
    s = s
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .replace(LOOK_ALIKE_RE, (c) => LOOK_ALIKE[c] ?? c)
      .normalize('NFC');
  }
  // Spaced letters: marked runs first, so the spaces between them stay word breaks ("t.h.e
  // s.c.o.r.e"), then space-separated ones.
  s = s.replace(SPACED_MARKS, joinLetters).replace(SPACED, joinLetters);
  if (HAS_SWAP.test(s)) s = s.replace(SWAPPED, unswap);
  return s;
}
