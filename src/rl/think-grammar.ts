/**
 * The think-mode turn format as a grammar the sampler keeps: `<think> plan </think> reply <|end|>`.
 * Constrained decoding, the way structured-output samplers keep a JSON schema: before each token
 * the tokens that would break the format are taken out of the distribution, and a token the
 * format fixes is written without sampling.
 *
 *   before the first token   `<think>` is written (forced: the policy chooses nothing)
 *   inside the think block   `<|end|>` and a second `<think>` are banned; once only a quarter of
 *                            the turn's tokens are left, `</think>` is written (a thinking budget,
 *                            as s1's budget forcing and Qwen3's thinking budget do), so the reply
 *                            keeps room
 *   after `</think>`         `<think>` and `</think>` are banned
 *
 * The policy is then π_c(a | s) ∝ π(a | s) on the allowed tokens. Scoring such samples on-policy
 * means setting the same banned logits (the engine's fillAt) before the log-softmax of the old,
 * reference and new log-probs alike, and leaving the forced tokens out of the losses; the RL
 * update does not do that yet, so training rollouts sample freely (trainer.ts), and the grammar
 * serves evaluation (`npm run evaluate -- --think`) and the benchmark.
 * Pure: token ids in, token ids out.
 */
import type { Tokenizer } from '../engine/model/tokenizer';

/** Where a banned token's logit is set: exp of it is 0 in f32, and 0 · it is 0, so no NaN follows. */
const BANNED_LOGIT = -1e9;

export interface ThinkGrammar {
  /** What may follow `prefix` (the turn's tokens so far): a forced token, or the banned ones. */
  next(prefix: readonly number[]): { force: number } | { banned: readonly number[] };
}

/** Tokens a turn of `maxTurnTokens` keeps for its reply: the plan is closed when only these are left. */
function replyReserve(maxTurnTokens: number): number {
  return Math.max(1, Math.round(maxTurnTokens / 4));
}

/** The grammar of a turn of at most `maxTurnTokens` tokens (its last one the closing `<|end|>`). */
export function thinkGrammar(tok: Tokenizer, maxTurnTokens: number): ThinkGrammar {
  const open = tok.special('<think>');
  const close = tok.special('</think>');
  const end = tok.special('<|end|>');
  const inside = [end, open];
  const after = [open, close];
  // Position n is the (n+1)-th token; max − 1 is the forced <|end|>: close by then, leaving the reserve.
  const closeAt = Math.max(1, maxTurnTokens - 1 - replyReserve(maxTurnTokens));
  return {
    next(prefix) {
      if (prefix.length === 0) return { force: open };
      if (prefix.includes(close)) return { banned: after };
      return prefix.length >= closeAt ? { force: close } : { banned: inside };
    },
  };
}

/** A copy of `logits` with the banned entries at BANNED_LOGIT (the sampler's view of π_c). */
export function banLogits(logits: ArrayLike<number>, banned: readonly number[]): Float32Array {
  const z = Float32Array.from(logits);
  for (const t of banned) if (t >= 0 && t < z.length) z[t] = BANNED_LOGIT;
  return z;
}
