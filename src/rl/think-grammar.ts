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
 * The policy is then π_c(a | s) ∝ π(a | s) on the allowed tokens. The update scores it so (the
 * banned logits set to BANNED_LOGIT before log-softmax, in the old, reference and new log-probs
 * alike), so the ratio stays that of the distribution sampled from; the forced token is left out
 * of the losses (its probability under π_c is 1, so its gradient is 0 anyway). A plan cut by the
 * budget is a forced token too: what it costs is the shorter reply, which the user reads.
 * Pure: token ids in, token ids out.
 */
import type { Tokenizer } from '../engine/model/tokenizer';

/** Where a banned token's logit is set: exp of it is 0 in f32, and 0 · it is 0, so no NaN follows. */
export const BANNED_LOGIT = -1e9;

export interface ThinkGrammar {
  /** What may follow `prefix` (the turn's tokens so far): a forced token, or the banned ones. */
  next(prefix: readonly number[]): { force: number } | { banned: readonly number[] };
}

/** Tokens a turn of `maxTurnTokens` keeps for its reply: the plan is closed when only these are left. */
export function replyReserve(maxTurnTokens: number): number {
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

/**
 * Per token of each turn's response: its banned tokens (empty when forced) and whether it was
 * forced. Replays the grammar over what was sampled, so the update applies exactly the masks the
 * sampler applied.
 */
export function grammarOfResponse(
  g: ThinkGrammar,
  response: readonly number[],
): { banned: (readonly number[])[]; forced: boolean[] } {
  const banned: (readonly number[])[] = [];
  const forced: boolean[] = [];
  for (let i = 0; i < response.length; i++) {
    const n = g.next(response.slice(0, i));
    forced.push('force' in n);
    banned.push('banned' in n ? n.banned : []);
  }
  return { banned, forced };
}

/** A copy of `logits` with the banned entries at BANNED_LOGIT (the sampler's view of π_c). */
export function banLogits(logits: ArrayLike<number>, banned: readonly number[]): Float32Array {
  const z = Float32Array.from(logits);
  for (const t of banned) if (t >= 0 && t < z.length) z[t] = BANNED_LOGIT;
  return z;
}
