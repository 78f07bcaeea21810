/**
 * Self-imitation (Oh et al. 2018, "Self-Imitation Learning"; in language-model RL, the filtered
 * replay of ReST and RAFT): the run keeps its own training replies that a user rewarded with the
 * top step, each with the prompt it was sampled from, and every minibatch adds the next-token loss
 * on a few of them (update.ts, imitateCoef). A reply that met the need is rare early in a run;
 * the policy-gradient step raises it once, by at most the clip range, and the next rollout rarely
 * samples it again. Replaying it keeps raising it, under the line it answered, until the policy
 * writes it unprompted (docs/ALGORITHMS.md, "Self-imitation").
 */
import type { ImitationRecord } from '../engine/model/checkpoint';
import { historyChunks, type Encoded } from '../engine/model/format';
import type { Tokenizer } from '../engine/model/tokenizer';
import { buildCorpus, type CorpusOptions } from '../corpus/build';
import { CHANGES } from '../persona/dynamics';
import type { DialogueRollout } from './rollout';
import { DEFAULT_WINDOW, windowPrompt } from './window';

/** The top step a reply can move a user by: the replies self-imitation keeps. */
export const TOP_CHANGE = CHANGES[CHANGES.length - 1];

/** A kept reply as a training example: `ids` scored from `scoredFrom` on (the reply), the prompt context only. */
function example(ids: number[], scoredFrom: number): Encoded {
  return { ids, agentMask: ids.map((_, i) => (i >= scoredFrom ? 1 : 0)), scoredFrom };
}

/**
 * The replies of `dialogues` the user rewarded with the top step, in order, as examples: the
 * prompt the policy saw and its response, with only the response scored. A reply cut at the token
 * cap is left out (its closing <|end|> was forced, not chosen).
 */
export function topRewardedReplies(dialogues: readonly DialogueRollout[]): Encoded[] {
  return dialogues.flatMap((d) =>
    d.turns
      .filter((t) => t.result.change >= TOP_CHANGE && !t.truncated && t.response.length > 0)
      .map((t) => example([...t.prompt, ...t.response], t.prompt.length)),
  );
}

/**
 * The corpus the demonstrations come from: the training users (never the benchmark's) and the
 * grammar's agent with half its replies led by the need the user's lines show and half joining two
 * strategies (docs/CORPUS.md), dialogues of up to 10 replies: the corpus whose agent meets the
 * need most often. Its own seed, so it is not the warm start's corpus.
 */
export const DEMO_CORPUS: Partial<CorpusOptions> = {
  seed: 7,
  maxTurns: 10,
  turnDecay: 0.5,
  needShare: 0.5,
  pairShare: 0.5,
};

/** Corpus dialogues first built per demonstration asked for (about one dialogue in two holds one), doubled while too few. */
const DEMO_DIALOGUES_PER = 4;
/** The most corpus dialogues built per demonstration asked for. */
const DEMO_DIALOGUES_MAX_PER = 64;

/**
 * Demonstrations for self-imitation (`imitateDemos`): the first `n` replies of the generated corpus
 * (DEMO_CORPUS, plain dialogues, in order) that their simulated user rewarded with the top step,
 * each under the prompt a rollout would have shown the policy at that turn (the system line, then
 * the history in the rollout's window of `contextLength` with room for a reply of `maxTurnTokens`,
 * then `<|agent|>`), only the reply and its `<|end|>` scored: what the run's own top-rewarded
 * replies look like in the memory. A reply longer than `maxTurnTokens` is left out (no rollout
 * could write it). Fewer than `n` only if 64·n dialogues do not hold them. Deterministic: the same
 * tokenizer and sizes, the same examples (a corpus's first dialogues do not depend on its size).
 */
export function corpusDemonstrations(
  tok: Tokenizer,
  n: number,
  contextLength: number,
  maxTurnTokens: number,
): Encoded[] {
  if (!(Number.isInteger(n) && n >= 0)) throw new Error(`imitateDemos must be a whole number ≥ 0, not ${n}`);
  let out: Encoded[] = [];
  for (let per = DEMO_DIALOGUES_PER; n > 0 && per <= DEMO_DIALOGUES_MAX_PER; per *= 2) {
    out = demonstrationsOf(tok, n, per * n, contextLength, maxTurnTokens);
    if (out.length >= n) break;
  }
  return out;
}

function demonstrationsOf(
  tok: Tokenizer,
  n: number,
  dialogues: number,
  contextLength: number,
  maxTurnTokens: number,
): Encoded[] {
  const out: Encoded[] = [];
  const budget = contextLength - maxTurnTokens - 1;
  const agentOpen = tok.special('<|agent|>');
  const corpus = buildCorpus({ ...DEMO_CORPUS, thinkShare: 0, dialogues, heldOutShare: 0 });
  for (const d of corpus.train) {
    const chunks = historyChunks(tok, d.turns);
    const dropped = new Set<number>();
    // Agent turn k is chunk 2k + 2 (system, opening, agent, user, …); its prompt ends at chunk 2k + 1.
    for (let k = 0; k < d.changes.length && out.length < n; k++) {
      // Every turn, as a rollout does: the window slides with the dialogue, taken or not.
      const prompt = windowPrompt(chunks.slice(0, 2 * k + 2), dropped, budget, DEFAULT_WINDOW, agentOpen).ids;
      if (d.changes[k] < TOP_CHANGE) continue;
      const reply = chunks[2 * k + 2].slice(1); // without its <|agent|>: the prompt ends with it
      if (reply.length > maxTurnTokens) continue;
      if (prompt.length > budget + 1) continue;
      out.push(example([...prompt, ...reply], prompt.length));
    }
    if (out.length >= n) break;
  }
  return out;
}

/** The latest `keep` top-rewarded replies of a run, oldest first. */
export class ImitationMemory {
  private items: Encoded[] = [];

  /**
   * `saved`: a resumed run's memory (its checkpoint's), the latest `keep` of it; else `seed`, a new
   * run's demonstrations (corpusDemonstrations), which its own replies displace as they come.
   */
  constructor(
    readonly keep: number,
    saved: readonly ImitationRecord[] = [],
    seed: readonly Encoded[] = [],
  ) {
    if (!(Number.isInteger(keep) && keep >= 1)) throw new Error(`imitateKeep must be a whole number ≥ 1, not ${keep}`);
    this.items = saved.length
      ? saved.slice(-keep).map((r) => example(r.ids.slice(), r.scoredFrom))
      : seed.slice(-keep).map((e) => example(e.ids.slice(), e.scoredFrom!));
  }

  /** The memory as a checkpoint stores it. */
  records(): ImitationRecord[] {
    return this.items.map((e) => ({ ids: e.ids.slice(), scoredFrom: e.scoredFrom! }));
  }

  /** Add a step's top-rewarded replies; the oldest drop past `keep`. */
  add(dialogues: readonly DialogueRollout[]): void {
    this.items.push(...topRewardedReplies(dialogues));
    if (this.items.length > this.keep) this.items.splice(0, this.items.length - this.keep);
  }

  get examples(): readonly Encoded[] {
    return this.items;
  }
}
