/**
 * Details from somebody else's story: the reply names a thing or a person this user never spoke of
 * ("Maybe they felt threatened, and it all came out over the sandwich buffet." to someone whose
 * flatmate lost their camera). A person who hears that knows the reply was not about them. A model
 * trained on many users' dialogues copies their details into everyone's, and the users must not pay
 * the frame around a detail (a guess at motives, advice, praise) when the detail is a stranger's.
 *
 * What counts as a detail: the concrete things of the scenario templates (`details` of every
 * template in ../blocks, without its slots: "the sandwich buffet", "the night shift") and the names
 * of the name pools (../blocks/people.ts) that are not also English words ("Hiroshi", not "Grace").
 * It is foreign when one of its words is a word this user never used: not in their profile (story,
 * people, facts, voice, opening) and not in anything they said in this dialogue. A thing of one word
 * counts only after a determiner ("the cake", "your cake"; not "a piece of cake" said in passing).
 * And the people of a story by relation ("your sister"), when the user spoke of no one so called.
 */
import { TEMPLATES } from '../blocks/index.ts';
import { FEMALE_NAMES, MALE_NAMES, NEUTRAL_NAMES } from '../blocks/people.ts';
import { isEnglishWord } from './lexicon.ts';
import { normaliseReply } from './normalise.ts';
import { contentWords, GENERIC_WORDS, tokenize } from './text.ts';
import type { DetectorContext, DetectorHit } from './types.ts';

interface Known {
  /** Tokens, in order, that the reply must hold in a row. */
  tokens: string[];
  /** The tokens that decide whether the user knows it: a thing's content words past everyday ones, every part of a name. */
  words: string[];
  /** As the user would say it back: the phrase, or the name. */
  label: string;
  /** A one-word thing, which must follow a determiner. */
  needsDeterminer: boolean;
}

const LEADING = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'his', 'her', 'their']);
const LEADING_WORD = new RegExp(`^(?:${[...LEADING].join('|')})\\s+`, 'i');
// Not "this" or "that": "this weekend" is a time, "the weekend" an event.
const DETERMINERS = new Set(['the', 'your']);

let index: Map<string, Known[]> | undefined;

/** Tokens as the detectors read a reply ("café" is "cafe"), so a phrase and its echo compare. */
const read = (text: string): string[] => tokenize(normaliseReply(text).toLowerCase());

/** Every known detail and name, by its first token. Built once. */
function knownDetails(): Map<string, Known[]> {
  if (index) return index;
  const all: Known[] = [];
  const seen = new Set<string>();
  const add = (k: Known): void => {
    const key = k.tokens.join(' ');
    if (k.tokens.length === 0 || k.words.length === 0 || seen.has(key)) return;
    seen.add(key);
    all.push(k);
  };
  for (const t of TEMPLATES)
    for (const d of t.details) {
      if (d.includes('{')) continue; // a slot: what fills it is the user's own
      const tokens = read(d);
      while (tokens.length > 1 && LEADING.has(tokens[0])) tokens.shift();
      // As the user hears it: "my good camera" is "the good camera" in someone else's mouth.
      const bare = d.replace(LEADING_WORD, '');
      const label = bare === d ? d : `the ${bare}`;
      add({
        tokens,
        words: contentWords(tokens.join(' ')).filter((w) => !GENERIC_WORDS.has(w)),
        label,
        needsDeterminer: tokens.length === 1,
      });
    }
  for (const name of [...FEMALE_NAMES, ...MALE_NAMES, ...NEUTRAL_NAMES]) {
    const tokens = read(name);
    if (tokens.length === 0 || tokens.every((w) => isEnglishWord(w))) continue;
    add({ tokens, words: tokens, label: name, needsDeterminer: false });
  }
  index = new Map();
  for (const k of all) {
    const list = index.get(k.tokens[0]);
    if (list) list.push(k);
    else index.set(k.tokens[0], [k]);
  }
  for (const list of index.values()) list.sort((a, b) => b.tokens.length - a.tokens.length); // the longest match first
  return index;
}

/** A word the user has used: in their profile or in one of their lines so far. */
function userKnows(ctx: DetectorContext, w: string): boolean {
  if (ctx.lexicon.known.has(w)) return true;
  for (const line of ctx.userLines) if (line.known.has(w)) return true;
  return false;
}

/**
 * The people a story can have, as "your ..." names them: each group one relation by its words
 * ("your mum" is the mother the user spoke of as "my mother"). Not the ones anybody has or is
 * told to see ("your friends", "your doctor", "your family").
 */
const RELATION_GROUPS: readonly (readonly string[])[] = [
  ['mother', 'mum', 'mom', 'mam', 'mummy'],
  ['father', 'dad', 'daddy'],
  ['sister'],
  ['brother'],
  ['daughter'],
  ['son'],
  ['husband'],
  ['wife'],
  ['partner'],
  ['boyfriend'],
  ['girlfriend'],
  ['fiance', 'fiancee'],
  ['neighbour', 'neighbor', 'neighbours', 'neighbors'],
  ['boss', 'manager', 'supervisor', 'director', 'foreman', 'lead'],
  ['colleague', 'coworker', 'colleagues', 'coworkers'],
  ['flatmate', 'roommate', 'housemate', 'flatmates', 'roommates', 'housemates'],
  ['landlord', 'landlady'],
  ['teacher', 'tutor', 'lecturer'],
  ['coach'],
  ['aunt', 'auntie'],
  ['uncle'],
  ['cousin'],
  ['grandmother', 'grandma', 'gran', 'nan', 'nana'],
  ['grandfather', 'grandad', 'grandpa'],
  ['niece'],
  ['nephew'],
  ['ex'],
  ['mentor'],
  ['client', 'customer', 'clients', 'customers'],
  ['stepdad', 'stepfather'],
  ['stepmum', 'stepmom', 'stepmother'],
];
const RELATION_OF = new Map(RELATION_GROUPS.flatMap((g) => g.map((w) => [w, g] as const)));
/** Words that may stand between "your" and the relation ("your new manager"). */
const RELATION_ADJECTIVES = new Set(['new', 'old', 'best', 'late', 'little', 'big', 'older', 'younger', 'own', 'ex']);

/**
 * "Your sister" said to somebody who never spoke of one: the relation at i (after "your", perhaps
 * an adjective between), when no word of its group is one the user has used. Returns the label.
 */
function foreignRelation(ctx: DetectorContext, words: readonly string[], i: number): string | undefined {
  if (words[i] !== 'your') return undefined;
  let j = i + 1;
  if (RELATION_ADJECTIVES.has(words[j]) && RELATION_OF.has(words[j + 1])) j++;
  const group = RELATION_OF.get(words[j]);
  // "My grandmother's ring" is one token to the user's lines: the possessive counts as the word.
  if (!group || group.some((w) => userKnows(ctx, w) || userKnows(ctx, `${w}'s`))) return undefined;
  return words.slice(i, j + 1).join(' ');
}

export function detectForeignDetail(ctx: DetectorContext): DetectorHit {
  // "Kenji's side" names Kenji.
  const words = ctx.reply.words.map((w) => (w.endsWith("'s") ? w.slice(0, -2) : w));
  const details = knownDetails();
  const found: string[] = [];
  for (let i = 0; i < words.length && found.length < 2; i++) {
    const relation = foreignRelation(ctx, words, i);
    if (relation !== undefined) {
      if (!found.includes(relation)) found.push(relation);
      continue;
    }
    const candidates = details.get(words[i]);
    if (!candidates) continue;
    for (const k of candidates) {
      if (k.needsDeterminer && !(i > 0 && DETERMINERS.has(words[i - 1]))) continue;
      let j = 1;
      while (j < k.tokens.length && words[i + j] === k.tokens[j]) j++;
      if (j < k.tokens.length) continue;
      if (k.words.every((w) => userKnows(ctx, w))) continue;
      if (!found.includes(k.label)) found.push(k.label);
      i += k.tokens.length - 1; // "the Monday video call" is not also "the video call"
      break;
    }
  }
  if (found.length === 0) return { id: 'foreignDetail', score: 0, reason: "nothing from somebody else's story" };
  return {
    id: 'foreignDetail',
    score: 1,
    reason: `talks about ${found.map((f) => `"${f}"`).join(' and ')}, which I never mentioned`,
  };
}
