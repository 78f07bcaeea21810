/**
 * The warm-start corpus (DESIGN.md section 6): dialogues between simulated users from the persona
 * engine (their actor writes every user line, reacting to the reply it got) and an agent whose
 * replies come from the grammar (grammar.ts), with the strategy of each reply drawn UNIFORMLY from
 * every strategy the appraiser knows, good and bad. The corpus therefore teaches fluent English in
 * the dialogue format, not empathy: the warm start should score low, and RL has real work to do.
 *
 * A held-out slice, from training profiles never used in `train` (split by profile id), measures
 * language quality (perplexity) before and after RL. Deterministic: same options, same corpus.
 * Pure TypeScript, no DOM or Node APIs (cli.ts prints stats).
 */
import { digest, Rng } from '../engine/rng.ts';
import { SYSTEM_LINE, SYSTEM_LINE_THINK, type Turn } from '../engine/model/format.ts';
import { createSimulatedUser } from '../persona/user.ts';
import { trainingProfiles } from '../persona/sets.ts';
import { PLAN, type Strategy } from '../persona/policies.ts';
import { inferIntention } from '../persona/policyText.ts';
import { readReply } from '../persona/detectors/index.ts';
import { firstRepeat } from '../persona/detectors/repetition.ts';
import type { IntentionId, Profile } from '../persona/profile.ts';
import { callsByRelation, namesSaid, readVisible, type Visible } from './extract.ts';
import { CORPUS_STRATEGIES, renderReply, type CorpusStrategy, type Rendered } from './grammar.ts';
import { wholeWords } from './swap.ts';

export interface CorpusDialogue {
  profileId: string;
  /** Think mode: a SYSTEM_LINE_THINK system turn and a plan on every agent turn. */
  think: boolean;
  /** System turn first, then user and agent turns alternating; ends on the user's reply. */
  turns: Turn[];
  /** The strategy of each agent turn, in order (a reply of two strategies: the first). */
  strategies: CorpusStrategy[];
  /** Per agent turn: the second strategy of a reply that joins two (pairShare), else null. */
  companions: (CorpusStrategy | null)[];
  /** Per agent turn: whether the strategy followed the need the user's lines show (needShare). */
  needLed: boolean[];
  /** Per agent turn: how far the reply moved the user's emotion (the step the user took, −10..+10). */
  changes: number[];
}

export interface Corpus {
  train: CorpusDialogue[];
  heldOut: CorpusDialogue[];
}

export interface CorpusOptions {
  /** Seeds strategy draws, wording, think mode, turn counts and the simulated users. */
  seed: number;
  /** Dialogues in all (train + held out). */
  dialogues: number;
  /** Share of dialogues in think mode (a plan before each reply). */
  thinkShare: number;
  /** Agent turns per dialogue are drawn from 1..maxTurns (fewer if the user ends it). */
  maxTurns: number;
  /** A dialogue of k agent turns is drawn with weight k^-turnDecay: 0 draws every length alike. */
  turnDecay: number;
  /** Share of dialogues in the held-out slice. */
  heldOutShare: number;
  /**
   * Share of replies that join two strategies in one turn ("It sounds like ... . What was the
   * hardest part?"), the second drawn like the first: the shape of the reference policies'
   * replies, which a one-strategy corpus never shows. 0: every reply is one strategy.
   */
  pairShare: number;
  /**
   * Share of replies whose strategy follows the need the user's lines point to, read from the
   * visible text as the `adaptive` reference policy reads it (inferIntention: its main strategy,
   * a reflection while nothing points anywhere; in a pair, a reflection, validation or open
   * question beside it); the rest are drawn uniformly, good and bad. Gives the warm start the
   * cue-to-need link at a low rate, for RL to sharpen; kept low so the warm start scores low
   * (docs/CORPUS.md). 0: every strategy is drawn uniformly.
   */
  needShare: number;
  /**
   * Redraw a reply that repeats one of the agent's earlier replies in the dialogue (the users'
   * repetition reading: bigram overlap at or above REPEAT_THRESHOLD), up to FRESH_TRIES draws in
   * all: the corpus then shows an agent that never says the same thing twice, what the users and
   * the hacking check ask of a policy. false: every reply is the first draw (the uniform corpus
   * repeats about 1.4% of its replies in dialogues of up to 10 turns).
   */
  freshReplies: boolean;
  /**
   * Whether the agent calls people by the names the user gave ("talk to Olga"). false: by the
   * relation the user gave ("talk to your aunt"), and a template that needs a person the user named
   * only by name is skipped (src/corpus/extract.ts, readVisible). A warm start that cannot copy
   * writes the training users' names to everyone (non-words to the users' lexicon, a stranger in
   * the story); without names it has none to write.
   */
  names: boolean;
}

/** Draws of one reply under freshReplies before the last is kept whatever it repeats. */
const FRESH_TRIES = 8;

export const CORPUS_DEFAULTS: CorpusOptions = {
  seed: 1,
  dialogues: 4000,
  thinkShare: 0.3,
  maxTurns: 4,
  turnDecay: 1.5,
  heldOutShare: 0.05,
  pairShare: 0,
  needShare: 0,
  freshReplies: false,
  names: true,
};

/** The corpus's name for each of the reference policies' strategies. */
const AS_CORPUS: Record<Strategy, CorpusStrategy> = {
  reflect: 'reflection',
  validate: 'validation',
  ask: 'openQuestion',
  advise: 'advice',
  analyse: 'analysis',
  motives: 'motives',
  growth: 'growth',
  praise: 'praiseSpecific',
  exonerate: 'exoneration',
};

/** The corpus strategy that serves each hidden need: the main strategy of the reference policies' plan. */
export const NEED_STRATEGY = Object.fromEntries(
  Object.entries(PLAN).map(([need, plan]) => [need, AS_CORPUS[plan.main]]),
) as Record<IntentionId, CorpusStrategy>;

/** Whether each share of the reply mix is a number in 0..1; throws naming the first that is not. */
function checkShares(o: Pick<CorpusOptions, 'pairShare' | 'needShare'>, who: string): void {
  for (const k of ['pairShare', 'needShare'] as const)
    if (!(o[k] >= 0 && o[k] <= 1)) throw new Error(`${who}: ${k} must be between 0 and 1, got ${o[k]}`);
}

/** What one agent turn does: its strategy, a second one or none, and whether it read the need. */
interface TurnPlan {
  strategy: CorpusStrategy;
  companion: CorpusStrategy | null;
  needLed: boolean;
}

/**
 * The strategies of one reply. With both shares 0 this draws exactly what the uniform corpus
 * always drew (one pick), so the shipped warm starts' corpora are unchanged.
 */
function planTurn(userLines: readonly string[], ownLines: readonly string[], o: CorpusOptions, rng: Rng): TurnPlan {
  const needLed = o.needShare > 0 && rng.next() < o.needShare;
  const pair = o.pairShare > 0 && rng.next() < o.pairShare;
  if (needLed) {
    const need = inferIntention(userLines.map((text) => ({ role: 'user' as const, text })));
    const strategy = need ? NEED_STRATEGY[need] : 'reflection';
    const beside: CorpusStrategy[] =
      strategy === 'reflection' ? ['validation', 'openQuestion'] : ['reflection', 'validation'];
    return { strategy, companion: pair ? beside[ownLines.length % 2] : null, needLed };
  }
  const strategy = rng.pick(CORPUS_STRATEGIES);
  const companion = pair ? rng.pick(CORPUS_STRATEGIES.filter((x) => x !== strategy)) : null;
  return { strategy, companion, needLed };
}

/** Render a turn's plan: one reply, or two joined (the second's plan action added to the first's). */
function renderTurn(t: TurnPlan, v: Visible, rng: Rng): Rendered {
  const first = renderReply(t.strategy, v, rng);
  if (t.companion === null) return first;
  const second = renderReply(t.companion, { ...v, ownLines: [...v.ownLines, first.reply] }, rng);
  const action = second.plan.slice(second.plan.indexOf('; ') + 2);
  return {
    ...first,
    reply: `${first.reply} ${second.reply}`,
    plan: `${first.plan}, then ${action}`,
    fills: [...first.fills, ...second.fills],
  };
}

/** Whether `reply` repeats one of `ownLines` as the users' repetition detector reads it. */
function repeatsOwn(reply: string, ownLines: readonly string[]): boolean {
  const r = readReply(reply);
  return r.words.length > 0 && firstRepeat(r, ownLines.map(readReply)) >= 0;
}

/** Plan and render one agent turn; under freshReplies, redrawn while it repeats an earlier reply. */
function nextTurn(
  userLines: readonly string[],
  ownLines: readonly string[],
  o: CorpusOptions,
  rng: Rng,
): { plan: TurnPlan; r: Rendered } {
  for (let k = 1; ; k++) {
    const plan = planTurn(userLines, ownLines, o, rng);
    const r = renderTurn(plan, readVisible(userLines, ownLines, { names: o.names }), rng);
    if (!o.freshReplies || k >= FRESH_TRIES || !repeatsOwn(r.reply, ownLines)) return { plan, r };
  }
}

/**
 * Every HELD_OUT_EVERY-th training profile (train-0020, train-0040, ...) is held out: 25 of 500,
 * fixed whatever the seed, so perplexity is comparable across runs.
 */
const HELD_OUT_EVERY = 20;

function isHeldOutProfile(profile: Profile, index: number): boolean {
  return (index + 1) % HELD_OUT_EVERY === 0;
}

/**
 * Turn counts are drawn with weight k^-turnDecay for k = 1..maxTurns. The default (1.5, at most 4)
 * makes many short dialogues (cheap, and the first reply is where most of the variety is) and keeps
 * the default corpus near 400k characters of agent text; the warm starts ask for dialogues as long
 * as the benchmark's (src/experiment/warmstart.ts).
 */
function drawTurns(maxTurns: number, turnDecay: number, rng: Rng): number {
  const w = Array.from({ length: maxTurns }, (_, i) => (i + 1) ** -turnDecay);
  let x = rng.next() * w.reduce((a, b) => a + b, 0);
  for (let k = 0; k < maxTurns; k++) {
    x -= w[k];
    if (x < 0) return k + 1;
  }
  return maxTurns;
}

/** Transcript entries as the persona engine writes them (structurally TranscriptEntry). */
export interface Line {
  role: 'user' | 'agent';
  text: string;
}

/**
 * The corpus's agent as a policy: each reply planned and rendered as the corpus does (by default
 * one strategy drawn uniformly), from the visible dialogue. Same signature as the persona engine's
 * `Policy`, so `playDialogue` can run it: what a warm start that copied its corpus perfectly would
 * score.
 */
export function corpusPolicy(
  seed: number,
  shares: Partial<Pick<CorpusOptions, 'pairShare' | 'needShare' | 'freshReplies' | 'names'>> = {},
): (dialogue: readonly Line[]) => string {
  const o = { ...CORPUS_DEFAULTS, ...shares };
  checkShares(o, 'corpusPolicy');
  return (dialogue) => {
    const last = dialogue.length ? dialogue[dialogue.length - 1].text : '';
    const rng = new Rng(`corpus-policy|${seed >>> 0}|${dialogue.length}|${digest(last)}`);
    const userLines = dialogue.filter((e) => e.role === 'user').map((e) => e.text);
    const ownLines = dialogue.filter((e) => e.role === 'agent').map((e) => e.text);
    return nextTurn(userLines, ownLines, o, rng).r.reply;
  };
}

/** One dialogue with a fresh simulated user (training mode, moderate). */
function buildDialogue(profile: Profile, think: boolean, o: CorpusOptions, rng: Rng): CorpusDialogue {
  const user = createSimulatedUser(profile, { seed: rng.nextU32(), mode: 'train', difficulty: 'moderate' });
  const turns: Turn[] = [
    { role: 'system', text: think ? SYSTEM_LINE_THINK : SYSTEM_LINE },
    { role: 'user', text: user.opening },
  ];
  const strategies: CorpusStrategy[] = [];
  const companions: (CorpusStrategy | null)[] = [];
  const needLed: boolean[] = [];
  const changes: number[] = [];
  const userLines = [user.opening];
  const ownLines: string[] = [];
  const target = drawTurns(o.maxTurns, o.turnDecay, rng);
  for (let t = 0; t < target; t++) {
    const { plan, r } = nextTurn(userLines, ownLines, o, rng);
    turns.push(think ? { role: 'agent', text: r.reply, think: r.plan } : { role: 'agent', text: r.reply });
    strategies.push(plan.strategy);
    companions.push(plan.companion);
    needLed.push(plan.needLed);
    ownLines.push(r.reply);
    const result = user.respond(r.reply);
    changes.push(result.change);
    turns.push({ role: 'user', text: result.line });
    userLines.push(result.line);
    if (result.over) break; // the user said goodbye (band S or F)
  }
  return { profileId: profile.id, think, turns, strategies, companions, needLed, changes };
}

/** Build the corpus. Profiles are used round-robin in a seeded order so each gets a fair share. */
export function buildCorpus(options: Partial<CorpusOptions> = {}): Corpus {
  const o = { ...CORPUS_DEFAULTS, ...options };
  if (!(o.maxTurns >= 1) || !Number.isInteger(o.maxTurns))
    throw new Error(`buildCorpus: maxTurns must be a positive integer, got ${o.maxTurns}`);
  if (!(o.dialogues >= 0)) throw new Error(`buildCorpus: dialogues must be >= 0, got ${o.dialogues}`);
  if (!(o.turnDecay >= 0)) throw new Error(`buildCorpus: turnDecay must be >= 0, got ${o.turnDecay}`);
  checkShares(o, 'buildCorpus');
  const rng = new Rng(`corpus|${o.seed >>> 0}`);
  const all = trainingProfiles();
  const trainPool = rng.shuffle(all.filter((p, i) => !isHeldOutProfile(p, i)));
  const heldPool = rng.shuffle(all.filter((p, i) => isHeldOutProfile(p, i)));
  const nHeld = Math.round(o.dialogues * o.heldOutShare);
  const make = (pool: readonly Profile[], n: number, label: string): CorpusDialogue[] => {
    const r = rng.fork(label);
    return Array.from({ length: n }, (_, i) => buildDialogue(pool[i % pool.length], r.next() < o.thinkShare, o, r));
  };
  return { train: make(trainPool, o.dialogues - nHeld, 'train'), heldOut: make(heldPool, nHeld, 'heldOut') };
}

/** Every text in the corpus (turn texts and think plans), for training the tokenizer. */
export function corpusTexts(corpus: Corpus): string[] {
  const out: string[] = [];
  for (const d of [...corpus.train, ...corpus.heldOut]) {
    for (const t of d.turns) {
      out.push(t.text);
      if (t.think !== undefined) out.push(t.think);
    }
  }
  return out;
}

export interface CorpusStats {
  dialogues: { train: number; heldOut: number };
  profiles: { train: number; heldOut: number };
  /** Agent turns per strategy (train + held out). */
  strategies: Record<CorpusStrategy, number>;
  /** Dialogues by number of agent turns. */
  turns: Record<number, number>;
  thinkShare: number;
  agentTurns: number;
  chars: { agent: number; think: number; user: number; system: number };
  meanReplyChars: number;
  /** Agent turns that join two strategies (pairShare). */
  pairs: number;
  /** Agent turns whose strategy followed the need the user's lines show (needShare). */
  needLed: number;
  /** Agent replies that repeat an earlier reply of their dialogue, as the users' repetition reading has it. */
  repeats: number;
  /** Agent replies that name a person by a name the user gave in the dialogue so far. */
  named: number;
  /** Agent replies that call somebody by a relation of the user's ("your aunt"). */
  byRelation: number;
}

export function corpusStats(corpus: Corpus): CorpusStats {
  const all = [...corpus.train, ...corpus.heldOut];
  const strategies = Object.fromEntries(CORPUS_STRATEGIES.map((s) => [s, 0])) as Record<CorpusStrategy, number>;
  const turns: Record<number, number> = {};
  const chars = { agent: 0, think: 0, user: 0, system: 0 };
  let agentTurns = 0;
  let pairs = 0;
  let needLed = 0;
  let repeats = 0;
  let named = 0;
  let byRelation = 0;
  for (const d of all) {
    const userLines: string[] = [];
    const ownLines: string[] = [];
    let namesRe: RegExp | null = null;
    for (const t of d.turns) {
      if (t.role === 'user') {
        userLines.push(t.text);
        const said = namesSaid(userLines);
        namesRe = said.length ? wholeWords(said, 'u') : null;
      }
      if (t.role !== 'agent') continue;
      if (repeatsOwn(t.text, ownLines)) repeats++;
      if (namesRe?.test(t.text)) named++;
      if (callsByRelation(t.text)) byRelation++;
      ownLines.push(t.text);
    }
    pairs += d.companions.filter((c) => c !== null).length;
    needLed += d.needLed.filter(Boolean).length;
    for (const s of d.strategies) strategies[s]++;
    turns[d.strategies.length] = (turns[d.strategies.length] ?? 0) + 1;
    for (const t of d.turns) {
      chars[t.role] += t.text.length;
      if (t.think !== undefined) chars.think += t.think.length;
    }
    agentTurns += d.strategies.length;
  }
  return {
    dialogues: { train: corpus.train.length, heldOut: corpus.heldOut.length },
    profiles: {
      train: new Set(corpus.train.map((d) => d.profileId)).size,
      heldOut: new Set(corpus.heldOut.map((d) => d.profileId)).size,
    },
    strategies,
    turns,
    thinkShare: all.length ? all.filter((d) => d.think).length / all.length : 0,
    agentTurns,
    chars,
    meanReplyChars: agentTurns ? chars.agent / agentTurns : 0,
    pairs,
    needLed,
    repeats,
    named,
    byRelation,
  };
}
