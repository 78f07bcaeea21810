/**
 * What the corpus's reply generator may read: only the visible dialogue, i.e. the lines the user
 * actually typed (and the agent's own earlier lines). From them it pulls story details ("my mum
 * Beatriz", "the night shift"), people's names, feeling words the user used about themselves and
 * a deed they described ("I kept the shop open on my own"). Every item keeps its raw form, exactly
 * as it occurs in the user's text, so a test can check that each filled detail was really said.
 *
 * Not here: any hidden profile field (intention, scenario, accomplishment). The persona engine's
 * own reader (src/persona/policyText.ts) does a similar job for the reference policies; this one is
 * separate so the corpus can record raw spans and turn "my" into "your" (reply) or "their" (plan).
 * Pure TypeScript: no DOM, no Node APIs.
 */

/** A phrase from the user's text in three persons: as said, as the agent says it, as a plan says it. */
export interface Span {
  /** Exactly as it occurs in the user's text ("my aunt Olga"). */
  raw: string;
  /** Addressed to the user ("your aunt Olga"). */
  you: string;
  /** About the user, for think plans ("their aunt Olga"). */
  them: string;
}

export interface Visible {
  /** Things and events the user mentioned ("the smaller plate"), newest line first. */
  details: Span[];
  /** People the user mentioned: a name ("Beatriz") or, without one, a relation ("my neighbour"). */
  people: Span[];
  /** Feeling words the user applied to themselves ("I'm so tired" gives "tired"); may be empty. */
  feelings: string[];
  /** A deed the user described, if any ("I covered three shifts"). */
  deed: Span | null;
  /** The agent's earlier replies, oldest first. */
  ownLines: string[];
  /** Every user line so far, oldest first. */
  userLines: string[];
}

/** Words that end a noun phrase: function words and common verbs. */
const STOP = new Set(
  (
    'a an the and or but so if then that this it is are was were be been to of in on at for with from by about as into like than too ' +
    'very just not no do did i me my you your he she they we us our his her their again without when while after before because ' +
    'had has have can could would should will all any some more much really also even still up out over now today yesterday ' +
    'who which where what how why there here said told asked went came got made took gave put kept left sent called keeps ' +
    'never always every thing things stuff lot bit way point part one time same other fell lost won ran broke sat stood died lives starts ' +
    'calls wakes plays leaves alone together down off back home away two three four five six seven eight nine ten eleven twelve twenty ' +
    'thirty forty fifty hundred ago last next'
  ).split(' '),
);
/** Heads that are not story details ("my fault", "my head", "my chest" as in "off my chest"). */
const NOT_DETAIL = new Set(
  'fault family head side mind own life god place problem deal chest part business best word words turn fine self eyes heart sake favour favor whole essay posters outside'.split(
    ' ',
  ),
);
/** Words a phrase must not end on (it would read as cut off: "the little", "my new"). */
const DANGLING = new Set(
  'worst best reliable little big new old first last next only own whole other same few many most least real actual entire usual'.split(
    ' ',
  ),
);
/** Relation words that introduce a name ("my mum Beatriz", "my neighbour Wanjiru's oak tree"). */
const RELATIONS =
  'mum mom mother dad father sister brother daughter son husband wife partner boyfriend girlfriend fiance fiancee friend neighbour neighbor ' +
  'boss manager colleague coworker co-worker flatmate roommate housemate landlord landlady teacher tutor coach aunt uncle cousin grandma ' +
  'grandmother gran nan grandad grandpa grandfather niece nephew baby ex supervisor mentor doctor client bestie stepdad stepmum stepmom';
const RELATION_SET = new Set(RELATIONS.split(' '));
const RELATION_ALT = RELATIONS.split(' ').join('|');
const RELATION_RE = new RegExp(
  `\\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir) (?:[a-z-]+ )?(?:${RELATION_ALT}) (\\p{Lu}\\p{Ll}+(?:-\\p{Ll}+)?)`,
  'gu',
);
/** A capitalised word followed by something a person does ("Imran wants", "Hana said"). */
const ACTOR_RE =
  /(?<=[\p{Ll},] )(\p{Lu}\p{Ll}+(?:-\p{Ll}+)?)(?='s\b| (?:said|says|told|tells|wants|wanted|did|does|was|is|has|had|keeps|kept|called|asked|left|came|went|never|always|just|thinks|thought|won't|didn't|doesn't|hasn't|isn't|wasn't)\b)/gu;
const NOT_NAMES = new Set(
  (
    'I Im Ive Id Ill OK Okay Sorry Honestly Anyway Whatever Yeah Yes No Plus And But So Maybe Thanks Thank Hm Mm Ugh Wow Seriously Right Um Hi ' +
    'Nobody Everyone Someone Not Just Great Cool Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June ' +
    'July August September October November December Christmas Easter Mum Mom Dad God Instagram Facebook WhatsApp Google'
  ).split(' '),
);
/** Feeling words a listener can reflect, when the user applies one to themselves. */
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
  'overwhelmed',
  'scared',
  'worried',
  'frustrated',
  'crushed',
  'heartbroken',
  'furious',
  'embarrassed',
  'humiliated',
  'mad',
  'sad',
  'bitter',
  'drained',
  'anxious',
  'upset',
  'small',
  'useless',
  'gutted',
  'sick',
  'stupid',
  'awful',
  'terrible',
  'numb',
  'alone',
  'helpless',
  'betrayed',
];
const FEELING_RE = new RegExp(
  `\\b(?:feel|feeling|felt|i'm|i am|i was|i've been|so|really|just|completely|totally) (?:so |really |a bit |kind of |pretty |just )?(${FEELINGS.join('|')})\\b`,
  'gi',
);
/** A first-person sentence in the past or present perfect: a candidate deed. */
const DEED_RE =
  /^(?:and |but )?i (?:(?:also|finally|actually|even|still|basically) )?(?:have |'ve )?(?:(?:[a-z]{2,}ed)|built|rebuilt|kept|made|ran|did|took|gave|wrote|rewrote|sorted|taught|found|held|fought|brought|got|stood|led|sold|won|paid|drove|spent|set|put|cooked|sat|stayed|fed)\b/i;
/** Signs that a first-person sentence is an effort worth praising, not just an event ("I found a lump"). */
const EFFORT =
  /\b(?:kept|keep|even though|on my own|myself|calmly|properly|every|instead of|still|without|twice|times|and then some|everything|all day|straight away|honestly|rebuilding|rebuilt|built|organised|organized|managed|finished|pulled off|held|stayed|looked after|cared for|(?:weeks|months|years|weekends|nights)(?! ago))\b/i;
const NOT_DEED =
  /\b(?:need|needed|wanted|wonder|keep|should|didn't|can't|couldn't|don't|never|feel|felt|hated|asked|cried|used|tried)\b|\?/i;

/** "my" becomes "your" (reply) or "their" (plan); the other persons stay. */
function person(s: string, to: 'you' | 'them'): string {
  const poss = to === 'you' ? 'your' : 'their';
  return s
    .replace(/\b(?:my|our)\b/gi, poss)
    .replace(/\bmyself\b/gi, to === 'you' ? 'yourself' : 'themselves')
    .replace(/\bI'm\b/g, to === 'you' ? "you're" : "they're")
    .replace(/\bI've\b/g, to === 'you' ? "you've" : "they've")
    .replace(/\bI\b/g, to === 'you' ? 'you' : 'they')
    .replace(/\bme\b/gi, to === 'you' ? 'you' : 'them');
}

function span(raw: string): Span {
  // "The roots" opens a sentence in the user's line; inside a reply it is "the roots".
  const mid = raw.replace(/^(The|My|His|Her|Their|Our) /, (w) => w.toLowerCase());
  return { raw, you: person(mid, 'you'), them: person(mid, 'them') };
}

/** Noun phrases opened by a determiner: "the smaller plate", "my aunt Olga", "his new partner Marisol". */
function phrasesOf(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/\b(the|my|his|her|their|our) ((?:[\p{L}'-]+)(?: [\p{L}'-]+){0,3})/giu)) {
    const kept: string[] = [];
    for (const w of m[2].split(' ')) {
      const lw = w.toLowerCase().replace(/'s$/, '');
      if (STOP.has(lw) || /ed$|ing$|ly$/.test(lw) || kept.length >= 3) break;
      kept.push(w.replace(/'s$/, ''));
      // A name ends the phrase: "my mum Abena calls" is "my mum Abena".
      if (
        w.endsWith("'s") ||
        (kept.length > 1 && /^\p{Lu}/u.test(w) && RELATION_SET.has(kept[kept.length - 2].toLowerCase()))
      )
        break;
    }
    while (kept.length && DANGLING.has(kept[kept.length - 1].toLowerCase())) kept.pop();
    if (!kept.length) continue;
    const head = kept[kept.length - 1].toLowerCase();
    if (NOT_DETAIL.has(head) || !kept.some((w) => w.length >= 4) || /["“”]/.test(kept.join(' '))) continue;
    const raw = `${m[1]} ${kept.join(' ')}`;
    if (line.includes(raw) && !out.includes(raw)) out.push(raw);
  }
  return out;
}

function namesOf(line: string): string[] {
  const out: string[] = [];
  const add = (n: string) => {
    if (!NOT_NAMES.has(n) && !out.includes(n)) out.push(n);
  };
  for (const m of line.matchAll(RELATION_RE)) add(m[1]);
  for (const m of line.matchAll(ACTOR_RE)) add(m[1]);
  return out;
}

/** The names the user gave people in these lines ("my aunt Olga", "Imran said"), in order. */
export function namesSaid(userLines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of userLines) for (const n of namesOf(line)) if (!out.includes(n)) out.push(n);
  return out;
}

const YOUR_RELATION_RE = new RegExp(`\\byour (?:${RELATION_ALT})\\b`, 'i');

/** Whether a reply calls somebody by a relation of the user's ("your aunt"). */
export function callsByRelation(reply: string): boolean {
  return YOUR_RELATION_RE.test(reply);
}

function deedOf(line: string): string | null {
  for (const s of line.split(/(?<=[.!?])\s+/)) {
    const t = s
      .replace(/^(?:and|but) /i, '')
      .replace(/[.!]+$/, '')
      .trim();
    if (
      DEED_RE.test(s) &&
      EFFORT.test(s) &&
      !NOT_DEED.test(s) &&
      t.split(' ').length >= 4 &&
      t.split(' ').length <= 22 &&
      !/["“”]/.test(t)
    )
      return t;
  }
  return null;
}

/** Whether a phrase holds a name past its first word ("my aunt Olga", "the party for Hana"). */
function holdsName(phrase: string): boolean {
  return phrase
    .split(' ')
    .slice(1)
    .some((w) => /^\p{Lu}\p{Ll}/u.test(w) && !NOT_NAMES.has(w.replace(/'s$/, '').replace(/'/g, '')));
}

export interface ReadOptions {
  /**
   * false: the listener calls nobody by name. A person is the relation the user gave ("my aunt
   * Olga" is "your aunt"); a name alone ("Imran said") is no person to fill, and a detail or deed
   * that holds a name is skipped. Default true: names as the user said them.
   */
  names?: boolean;
}

/** Read the visible dialogue: user lines and the agent's own lines, each oldest first. */
export function readVisible(
  userLines: readonly string[],
  ownLines: readonly string[],
  opts: ReadOptions = {},
): Visible {
  const names = opts.names ?? true;
  const details: Span[] = [];
  const people: Span[] = [];
  const addPerson = (raw: string) => {
    if (!people.some((p) => p.raw === raw || p.raw.endsWith(` ${raw}`) || raw.endsWith(` ${p.raw}`)))
      people.push(span(raw));
  };
  const feelings: string[] = [];
  let deed: Span | null = null;
  for (let i = userLines.length - 1; i >= 0; i--) {
    const line = userLines[i];
    if (names) for (const n of namesOf(line)) addPerson(n);
    for (const p of phrasesOf(line)) {
      const words = p.split(' ');
      if (words.some((w) => RELATION_SET.has(w.toLowerCase()))) {
        // "my aunt Olga" is a person: call her Olga (without names, "your aunt"); "my neighbour"
        // stays "your neighbour".
        const last = words[words.length - 1];
        const named = /^\p{Lu}/u.test(last) && words.length > 2;
        if (!named) addPerson(p);
        else addPerson(names ? last : words.slice(0, -1).join(' '));
      } else if (!names && holdsName(p)) continue;
      else if (!details.some((d) => d.raw.toLowerCase() === p.toLowerCase())) details.push(span(p));
    }
    for (const m of line.matchAll(FEELING_RE)) {
      const f = m[1].toLowerCase();
      if (!feelings.includes(f)) feelings.push(f);
    }
    if (!deed) {
      const d = deedOf(line);
      if (d && (names || !holdsName(d))) deed = span(d);
    }
  }
  return { details, people, feelings, deed, ownLines: [...ownLines], userLines: [...userLines] };
}
