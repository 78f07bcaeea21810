/**
 * What one step's update reinforced, token by token, for the transcript's inspector (after UNIPO's
 * per-step view): every policy token of a dialogue with the weight the update gave its log-prob,
 * read from the trainer's own update (Trainer.lastCredit): GRPO and RLOO, the token's advantage;
 * PPO, the advantage times the probability ratio after the update, clipped to [1 − clipLow,
 * 1 + clipHigh] (the ratio needs one scoring pass of the updated policy, so PPO's is taken for the
 * first PPO_INSPECTED dialogues only). A token the truncation mask leaves out of the losses weighs 0.
 * Positive: the update makes the token likelier; negative: less likely.
 * No DOM: runs in the worker and in Node tests.
 */
import { buildSequences, turnSpans } from '../rl/batch';
import type { DialogueRollout } from '../rl/rollout';
import type { Trainer } from '../rl/trainer';
import { scoreSamples } from '../rl/update';

/** One reply's tokens as text and the weight of each. */
export interface TurnCredit {
  tokens: string[];
  values: number[];
}

/** Dialogues whose PPO ratio is taken after the update (one scoring pass over them). */
const PPO_INSPECTED = 4;

/**
 * Per dialogue (the first `count`), per turn, the tokens and their weights in the trainer's last
 * update; undefined for a dialogue not inspected. Call right after `trainer.step()` on `dialogues`.
 */
export async function tokenCredit(
  trainer: Trainer,
  dialogues: readonly DialogueRollout[],
  count: number,
): Promise<(TurnCredit[] | undefined)[]> {
  const lc = trainer.lastCredit;
  if (!lc) return [];
  const c = trainer.config;
  const n = Math.min(count, dialogues.length, c.algo === 'ppo' ? PPO_INSPECTED : Infinity);
  let factor: ((at: number) => number) | null = null;
  if (c.algo === 'ppo') {
    // The first n dialogues own the first stream positions: their sequences index the same stream.
    const { sequences } = buildSequences(dialogues.slice(0, n), trainer.model.config.vocabSize);
    const now = await scoreSamples(trainer.model, sequences, Math.max(1, c.minibatchSize), c.temperature);
    const ratio = new Float32Array(lc.stream.N).fill(1);
    sequences.forEach((s, i) =>
      s.stream.forEach((at, j) => (ratio[at] = Math.exp(now.logprobs[i][j] - lc.oldLogprobs[at]))),
    );
    factor = (at) => Math.min(1 + c.clipHigh, Math.max(1 - c.clipLow, ratio[at]));
  }
  const tok = trainer.tokenizer;
  return dialogues.slice(0, count).map((d, di) => {
    if (di >= n) return undefined;
    return turnSpans(lc.stream, di).map(([from], k) => {
      const response = d.turns[k].response;
      return {
        tokens: response.map((id) => tok.decode([id], { showSpecials: true })),
        values: response.map((_, j) => {
          const at = from + j;
          return lc.advantages[at] * lc.mask[at] * (factor ? factor(at) : 1);
        }),
      };
    });
  });
}
