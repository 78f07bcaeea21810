/**
 * Step two of a user turn (after SAGE's actor): write the user's next line in character, from the
 * appraisal's reaction, the emotion band, the personality and what has been said so far. Short and
 * colloquial: a reaction, then perhaps a disclosure of a new story detail, a cue to the hidden
 * intention (never the intention itself) and one of the profile's own voice phrases. Passive users
 * ask no questions; negative ones snap; avoidant ones deflect; nobody asks more than two questions
 * or repeats a line verbatim; S and F say goodbye.
 *
 * All choices come from the Rng passed in (seeded per turn by user.ts): same inputs, same line.
 * Not here: scoring (appraiser.ts) or state transitions (user.ts).
 */
import type { Reaction } from './appraiser.ts';
import { voiceRegister, type Band, type Difficulty } from './dynamics.ts';
import type { ChallengeMove } from './challenge.ts';
import {
  ASKS,
  CUES,
  DENIALS,
  DEFLECTS,
  ESCALATIONS,
  DETAIL_FRAMES,
  FILLERS,
  GOODBYES,
  OPEN_POSITIVE,
  OPENERS,
  PRAISE_TAILS,
  REACTION_LINES,
  SNAPS,
  TRIED_TAILS,
} from './lines.ts';
import type { Profile } from './profile.ts';
import type { Rng } from '../engine/rng.ts';

/** What the actor remembers (part of the user state; all strings, JSON-able). */
export interface ActorMemory {
  /** Every sentence said so far, normalised, so none is said twice. */
  said: string[];
  /** Whole lines said so far, normalised. */
  lines: string[];
  /** Disclosure keys already used ("d:0", "problem", "tried:1", "acc"). */
  disclosed: string[];
}
export const emptyMemory = (): ActorMemory => ({ said: [], lines: [], disclosed: [] });

/**
 * Chance that a line carries a cue to the hidden intention, by difficulty. Tuned so the measured
 * need-expression rate lands near RLVER's 79% (moderate) and 64% (strict); see calibrate.ts.
 */
const CUE_RATE: Record<Difficulty, number> = { moderate: 0.82, strict: 0.67 };
/** Strict users pick a subtle cue over an overt one this often (moderate: never). */
const SUBTLE_SHARE: Record<Difficulty, number> = { moderate: 0, strict: 0.5 };
/** Avoidant users voice their need less; negative ones blurt it. */
const CUE_TYPE_SHIFT = { negative: 0.04, passive: 0, avoidant: -0.06 } as const;
/** Chance of disclosing a new story detail in a line (avoidant users hold back). */
const DISCLOSE_RATE = { negative: 0.55, passive: 0.6, avoidant: 0.45 } as const;
/** Chance of adding one of the profile's voice phrases. */
const VOICE_RATE = 0.45;
/** At most this many sentences in a line (short, like a chat message) and this many questions. */
const MAX_SENTENCES = 3;
const MAX_QUESTIONS = 2;

const POSITIVE: readonly Reaction[] = ['needMet', 'heard'];
/** Lines and sentences compared as lower-case letters, digits and single spaces. */
const normalForm = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
/**
 * The normal forms of candidate sentences, kept: most come from the phrase banks, so a few
 * thousand cover them (the store is emptied when full). Whole lines are new each time: not kept.
 */
const NORMS = new Map<string, string>();
const NORMS_MAX = 4096;
function norm(s: string): string {
  let n = NORMS.get(s);
  if (n === undefined) {
    n = normalForm(s);
    if (NORMS.size >= NORMS_MAX) NORMS.clear();
    NORMS.set(s, n);
  }
  return n;
}
const questions = (s: string): number => (s.match(/\?/g) ?? []).length;

export interface ActorTurn {
  line: string;
  /** Whether the line carries a cue to the hidden intention (for the need-expression rate). */
  cue: boolean;
  memory: ActorMemory;
}

interface Draft {
  parts: string[];
  memory: ActorMemory;
  profile: Profile;
}

/** Add a sentence unless it was said before, would make too many questions, or a passive user would be asking. */
function tryAdd(d: Draft, s: string): boolean {
  const n = norm(s);
  if (!n || d.memory.said.includes(n) || d.parts.length >= MAX_SENTENCES) return false;
  const q = questions(s);
  if (q > 0 && d.profile.personality.type === 'passive') return false;
  if (d.parts.reduce((a, p) => a + questions(p), 0) + q > MAX_QUESTIONS) return false;
  d.parts.push(s);
  d.memory.said.push(n);
  return true;
}

/** Try candidates in a seeded order until one fits. */
function addOne(d: Draft, candidates: readonly string[], rng: Rng): boolean {
  for (const c of rng.shuffle(candidates)) if (tryAdd(d, c)) return true;
  return false;
}

/** Bank lines without a slot, spaces collapsed: what fill makes of them (the banks are fixed, so this stays small). */
const PLAIN = new Map<string, string>();
const PLAIN_MAX = 4096;

function fill(text: string, profile: Profile, rng: Rng): string {
  if (!text.includes('{')) {
    let plain = PLAIN.get(text);
    if (plain === undefined) {
      plain = text.replace(/\s+/g, ' ').trim();
      if (PLAIN.size >= PLAIN_MAX) PLAIN.clear();
      PLAIN.set(text, plain);
    }
    return plain;
  }
  const people = profile.scenario.people;
  const person = people[0]?.name ?? 'they';
  return text
    .replace(/\{person\}/g, person)
    .replace(/\{detail\}/g, () => rng.pick(profile.scenario.details))
    .replace(/\{rel\}/g, people[0]?.relation ?? 'people')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function cueChance(profile: Profile, difficulty: Difficulty, reaction: Reaction | 'opening'): number {
  const shift = CUE_TYPE_SHIFT[profile.personality.type] + (POSITIVE.includes(reaction as Reaction) ? 0.04 : 0);
  return Math.max(0, Math.min(1, CUE_RATE[difficulty] + shift));
}

function addCue(d: Draft, difficulty: Difficulty, rng: Rng): boolean {
  const bank = CUES[d.profile.intention];
  const subtle = rng.next() < SUBTLE_SHARE[difficulty];
  const first = (subtle ? bank.subtle : bank.overt).map((c) => fill(c, d.profile, rng));
  const second = (subtle ? bank.overt : bank.subtle).map((c) => fill(c, d.profile, rng));
  return addOne(d, first, rng) || addOne(d, second, rng);
}

/** A first-person sentence about the accomplishment, whatever person the profile wrote it in. */
function accomplishmentLine(profile: Profile): string {
  const a = profile.scenario.accomplishment.trim().replace(/[.!]+$/, '');
  return /^(i|i'm|i've|my)\b/i.test(a) ? `${a}.` : `And I ${a.charAt(0).toLowerCase()}${a.slice(1)}.`;
}

/** The next undisclosed piece of the story, in a fixed order per intention (praise-seekers bring up their deed early). */
function addDisclosure(d: Draft, rng: Rng): boolean {
  const s = d.profile.scenario;
  const keys: string[] = s.details.map((_, i) => `d:${i}`);
  keys.splice(1, 0, 'problem');
  keys.splice(d.profile.intention === 'sincere-praise' ? 1 : 3, 0, 'acc');
  keys.push(...s.tried.map((_, i) => `tried:${i}`));
  for (const k of keys) {
    if (d.memory.disclosed.includes(k)) continue;
    let text: string;
    if (k === 'problem') text = s.problem;
    else if (k === 'acc')
      text =
        accomplishmentLine(d.profile) + (d.profile.intention === 'sincere-praise' ? ' ' + rng.pick(PRAISE_TAILS) : '');
    else if (k.startsWith('tried:')) text = `${s.tried[Number(k.slice(6))]} ${rng.pick(TRIED_TAILS)}`;
    else text = rng.pick(DETAIL_FRAMES).replace('{d}', s.details[Number(k.slice(2))]);
    d.memory.disclosed.push(k);
    if (tryAdd(d, text)) return true;
  }
  return false;
}

function addVoice(d: Draft, band: Band, rng: Rng): boolean {
  const phrases = d.profile.voice[voiceRegister(band)].phrases.map((p) => fill(p, d.profile, rng));
  return addOne(d, phrases, rng);
}

/** Join parts, making sure the whole line is new (a filler is added if it is not). */
function finish(d: Draft, rng: Rng): string {
  let line = d.parts.join(' ');
  for (const f of rng.shuffle(FILLERS)) {
    if (!d.memory.lines.includes(normalForm(line))) break;
    line = `${f} ${line}`;
  }
  d.memory.lines.push(normalForm(line));
  return line;
}

const clone = (m: ActorMemory): ActorMemory => ({
  said: [...m.said],
  lines: [...m.lines],
  disclosed: [...m.disclosed],
});

/** The user's first line in training (benchmark profiles carry a preset one). */
export function openingLine(profile: Profile, difficulty: Difficulty, rng: Rng): ActorTurn {
  const d: Draft = { parts: [], memory: emptyMemory(), profile };
  const event = profile.scenario.event.split(/(?<=[.!?])\s+/)[0];
  const opener = rng.next() < 0.5 ? rng.pick(OPENERS[profile.personality.type]) : '';
  tryAdd(d, opener ? `${opener} ${event}` : event);
  // The event sentence names whatever details it contains; count those as disclosed.
  profile.scenario.details.forEach((det, i) => {
    if (event.toLowerCase().includes(det.toLowerCase())) d.memory.disclosed.push(`d:${i}`);
  });
  let cue = false;
  if (rng.next() < cueChance(profile, difficulty, 'opening')) cue = addCue(d, difficulty, rng);
  if (rng.next() < VOICE_RATE) addVoice(d, 'C', rng);
  return { line: finish(d, rng), cue, memory: d.memory };
}

export interface ActInput {
  profile: Profile;
  difficulty: Difficulty;
  band: Band;
  reaction: Reaction;
  /** The dialogue ends after this line: goodbye if S or F. */
  ending: 'success' | 'failure' | 'cap' | null;
  memory: ActorMemory;
  rng: Rng;
  /** Challenge-set users only: what their push-back makes them say (challenge.ts). */
  moves?: readonly ChallengeMove[];
  /** The detail a denying user takes back. */
  denied?: string | null;
}

/**
 * The challenge moves, which are the point of the line: an escalation comes before the reaction,
 * a denial or a request for agreement right after it.
 */
function addMoves(d: Draft, input: ActInput, when: 'before' | 'after'): void {
  const { moves = [], rng } = input;
  if (when === 'before') {
    if (moves.includes('escalate')) addOne(d, ESCALATIONS, rng);
    return;
  }
  if (moves.includes('deny') && input.denied) {
    // What the user took back, they do not bring up again as a new disclosure.
    const i = d.profile.scenario.details.indexOf(input.denied);
    if (i >= 0 && !d.memory.disclosed.includes(`d:${i}`)) d.memory.disclosed.push(`d:${i}`);
    addOne(
      d,
      DENIALS.map((t) => t.replace('{d}', input.denied as string)),
      rng,
    );
  }
  const w = d.profile.challenge?.wrongdoing;
  if (moves.includes('ask') && w) {
    const deed = /[.!?]$/.test(w.trim()) ? w.trim() : `${w.trim()}.`;
    addOne(
      d,
      ASKS.map((t) => t.replace('{w}', deed)),
      rng,
    );
  }
}

export function act(input: ActInput): ActorTurn {
  const { profile, difficulty, band, reaction, rng } = input;
  const d: Draft = { parts: [], memory: clone(input.memory), profile };
  const type = profile.personality.type;
  const negative = !POSITIVE.includes(reaction) && reaction !== 'lukewarm';

  if (input.ending === 'success' || input.ending === 'failure') {
    if (input.ending === 'success') addVoice(d, 'A', rng);
    else if (type === 'negative') addOne(d, SNAPS, rng);
    const bank = input.ending === 'success' ? GOODBYES.success : GOODBYES.failure[type];
    if (!addOne(d, bank, rng)) d.parts.push(rng.pick(bank));
    return { line: finish(d, rng), cue: false, memory: d.memory };
  }

  if (input.moves?.length) addMoves(d, input, 'before');
  // An escalation or a denial is this line's snap; a challenge user does not snap twice.
  if (!input.moves?.length && negative && type === 'negative' && rng.next() < 0.5) addOne(d, SNAPS, rng);
  const open = voiceRegister(band) === 'high' ? OPEN_POSITIVE[reaction] : undefined;
  const reactionLines = open ? [...open, ...REACTION_LINES[reaction]] : REACTION_LINES[reaction];
  if (!addOne(d, open ?? reactionLines, rng)) addOne(d, reactionLines, rng);
  if (input.moves?.length) addMoves(d, input, 'after');
  if (negative && type === 'avoidant' && rng.next() < 0.5) addOne(d, DEFLECTS, rng);

  // Gibberish and scorer talk get a confused reaction only: the user does not open up to them.
  const engaged = reaction !== 'nonsense' && reaction !== 'scorer' && reaction !== 'silence';
  let cue = false;
  const wantsCue = engaged && rng.next() < cueChance(profile, difficulty, reaction);
  const wantsDisclosure = engaged && rng.next() < DISCLOSE_RATE[type] * (negative ? 0.6 : 1);
  if (wantsDisclosure) addDisclosure(d, rng);
  if (wantsCue) cue = addCue(d, difficulty, rng);
  if (d.parts.length < 2 && rng.next() < VOICE_RATE) addVoice(d, band, rng);
  if (d.parts.length === 0) d.parts.push(rng.pick(FILLERS));
  return { line: finish(d, rng), cue, memory: d.memory };
}
