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
import type { Encoded } from '../engine/model/format';
import { CHANGES } from '../persona/dynamics';
import type { DialogueRollout } from './rollout';

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

/** The latest `keep` top-rewarded replies of a run, oldest first. */
export class ImitationMemory {
  private items: Encoded[] = [];

  /** `saved`: a resumed run's memory (its checkpoint's), the latest `keep` of it. */
  constructor(
    readonly keep: number,
    saved: readonly ImitationRecord[] = [],
  ) {
    if (!(Number.isInteger(keep) && keep >= 1)) throw new Error(`imitateKeep must be a whole number ≥ 1, not ${keep}`);
    this.items = saved.slice(-keep).map((r) => example(r.ids.slice(), r.scoredFrom));
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
