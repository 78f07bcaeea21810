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
 * The policy is then π_c(a | s) ∝ π(a | s) on the allowed tokens. The rollout records what the
 * grammar did at each token (a GrammarTrace: forced, or which tokens were banned); the RL update
 * scores π_c from it (batch.ts, update.ts: the same banned logits, set with the engine's fillAt
 * after the temperature scale, in the old, reference and new log-probs alike; forced tokens left
 * out of every loss). docs/ALGORITHMS.md has the equations.
 * Pure: token ids in, token ids out.
 */
import type { Tokenizer } from '../engine/model/tokenizer';

/**
 * Where a banned token's logit is set, by the sampler and by the update's scoring alike: exp of it
 * is 0 in f32 (divided by any temperature up to 2 as well), and 0 · it is 0, so no NaN follows.
 */
export const BANNED_LOGIT = -1e9;

/** What the grammar allows next: one forced token, or every token but the banned ones. */
export type GrammarStep = { force: number } | { banned: readonly number[] };

export interface ThinkGrammar {
  /** What may follow `prefix` (the turn's tokens so far). */
  next(prefix: readonly number[]): GrammarStep;
}

/** A trace step: the token was written without sampling. */
export const FORCED = -1;

/**
 * What the grammar did at each token of a turn, compactly: per token FORCED, or the index in
 * `bans` of the list of tokens banned before it was sampled (a turn has two such lists at most).
 */
export interface GrammarTrace {
  steps: number[];
  bans: number[][];
}

/** Append one step to `trace` (a banned list already in it is referred to, not copied again). */
export function traceStep(trace: GrammarTrace, step: GrammarStep): void {
  if ('force' in step) {
    trace.steps.push(FORCED);
    return;
  }
  const same = (b: readonly number[]) => b.length === step.banned.length && b.every((t, i) => t === step.banned[i]);
  let k = trace.bans.findIndex(same);
  if (k < 0) k = trace.bans.push(step.banned.slice()) - 1;
  trace.steps.push(k);
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
