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
import { Rng } from '../engine/rng.ts';
import { SYSTEM_LINE, SYSTEM_LINE_THINK, type Turn } from '../engine/model/format.ts';
import { createSimulatedUser } from '../persona/user.ts';
import { trainingProfiles } from '../persona/sets.ts';
import type { Profile } from '../persona/profile.ts';
import { readVisible } from './extract.ts';
import { CORPUS_STRATEGIES, renderReply, type CorpusStrategy } from './grammar.ts';

export interface CorpusDialogue {
  profileId: string;
  /** Think mode: a SYSTEM_LINE_THINK system turn and a plan on every agent turn. */
  think: boolean;
  /** System turn first, then user and agent turns alternating; ends on the user's reply. */
  turns: Turn[];
  /** The strategy of each agent turn, in order. */
  strategies: CorpusStrategy[];
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
}

export const CORPUS_DEFAULTS: CorpusOptions = {
  seed: 1,
  dialogues: 4000,
  thinkShare: 0.3,
  maxTurns: 4,
  turnDecay: 1.5,
  heldOutShare: 0.05,
};

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

/** One dialogue with a fresh simulated user (training mode, moderate). */
function buildDialogue(
  profile: Profile,
  think: boolean,
  maxTurns: number,
  turnDecay: number,
  rng: Rng,
): CorpusDialogue {
  const user = createSimulatedUser(profile, { seed: rng.nextU32(), mode: 'train', difficulty: 'moderate' });
  const turns: Turn[] = [
    { role: 'system', text: think ? SYSTEM_LINE_THINK : SYSTEM_LINE },
    { role: 'user', text: user.opening },
  ];
  const strategies: CorpusStrategy[] = [];
  const userLines = [user.opening];
  const ownLines: string[] = [];
  const target = drawTurns(maxTurns, turnDecay, rng);
  for (let t = 0; t < target; t++) {
    const strategy = rng.pick(CORPUS_STRATEGIES);
    const r = renderReply(strategy, readVisible(userLines, ownLines), rng);
    turns.push(think ? { role: 'agent', text: r.reply, think: r.plan } : { role: 'agent', text: r.reply });
    strategies.push(strategy);
    ownLines.push(r.reply);
    const result = user.respond(r.reply);
    turns.push({ role: 'user', text: result.line });
    userLines.push(result.line);
    if (result.over) break; // the user said goodbye (band S or F)
  }
  return { profileId: profile.id, think, turns, strategies };
}

/** Build the corpus. Profiles are used round-robin in a seeded order so each gets a fair share. */
export function buildCorpus(options: Partial<CorpusOptions> = {}): Corpus {
  const o = { ...CORPUS_DEFAULTS, ...options };
  if (!(o.maxTurns >= 1) || !Number.isInteger(o.maxTurns))
    throw new Error(`buildCorpus: maxTurns must be a positive integer, got ${o.maxTurns}`);
  if (!(o.dialogues >= 0)) throw new Error(`buildCorpus: dialogues must be >= 0, got ${o.dialogues}`);
  if (!(o.turnDecay >= 0)) throw new Error(`buildCorpus: turnDecay must be >= 0, got ${o.turnDecay}`);
  const rng = new Rng(`corpus|${o.seed >>> 0}`);
  const all = trainingProfiles();
  const trainPool = rng.shuffle(all.filter((p, i) => !isHeldOutProfile(p, i)));
  const heldPool = rng.shuffle(all.filter((p, i) => isHeldOutProfile(p, i)));
  const nHeld = Math.round(o.dialogues * o.heldOutShare);
  const make = (pool: readonly Profile[], n: number, label: string): CorpusDialogue[] => {
    const r = rng.fork(label);
    return Array.from({ length: n }, (_, i) =>
      buildDialogue(pool[i % pool.length], r.next() < o.thinkShare, o.maxTurns, o.turnDecay, r),
    );
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
}

export function corpusStats(corpus: Corpus): CorpusStats {
  const all = [...corpus.train, ...corpus.heldOut];
  const strategies = Object.fromEntries(CORPUS_STRATEGIES.map((s) => [s, 0])) as Record<CorpusStrategy, number>;
  const turns: Record<number, number> = {};
  const chars = { agent: 0, think: 0, user: 0, system: 0 };
  let agentTurns = 0;
  for (const d of all) {
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
  };
}
