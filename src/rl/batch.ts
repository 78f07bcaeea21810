/**
 * From dialogues to training sequences. Each agent turn was sampled from a prompt (the visible
 * history the policy saw); when a turn's prompt begins with the previous turn's prompt and response
 * (no think block was dropped and the context window did not slide), the two turns are one causal
 * sequence, so they train as one: a dialogue becomes a few sequences with several response spans
 * instead of one sequence per turn, which reads each token once rather than once per later turn.
 * The loss is the same: every response token is scored under exactly the prompt it was sampled
 * from.
 *
 * Every policy token also has a place in its dialogue's token stream (all of the dialogue's
 * response tokens in the order they were generated), where returns and advantages are computed
 * (GAE is a scan over that stream; turn rewards sit on each turn's last token).
 *
 * A turn sampled under the think grammar (think-grammar.ts) carries what the grammar did at each
 * token; here that becomes, per sequence, the flat fillAt indices of its banned logits (`banned`)
 * and, per stream token, a mask that leaves the forced tokens out of the losses (grammarMask).
 *
 * Shape legend: V vocab; a sequence's policy logits are (rows.length, V).
 */
import type { DialogueRollout } from './rollout';
import { FORCED } from './think-grammar';

export interface TrainSequence {
  ids: number[];
  /** Rows whose next token is the policy's: row t predicts ids[t + 1]. Increasing. */
  rows: number[];
  /** For each entry of rows, its index in the token stream. */
  stream: number[];
  /**
   * The grammar's banned logits, as flat indices into the policy rows' logits: j·V + token for
   * entry j of rows (set to BANNED_LOGIT before the softmax when scoring). Empty without a grammar.
   */
  banned: number[];
}

export interface TokenStream {
  /** Dialogue d owns stream tokens [offsets[d], offsets[d + 1]) (D + 1 entries). */
  offsets: Int32Array;
  /** Index of the stream token that closes each turn, dialogue by dialogue (turnEnds[d][k]). */
  turnEnds: number[][];
  /** Total policy tokens. */
  N: number;
}

function startsWith(a: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length > a.length) return false;
  for (let i = 0; i < prefix.length; i++) if (a[i] !== prefix[i]) return false;
  return true;
}

/** The training sequences of `dialogues` for a model of `vocabSize` tokens, and their token stream. */
export function buildSequences(
  dialogues: readonly DialogueRollout[],
  vocabSize: number,
): {
  sequences: TrainSequence[];
  stream: TokenStream;
} {
  const sequences: TrainSequence[] = [];
  const offsets = new Int32Array(dialogues.length + 1);
  const turnEnds: number[][] = [];
  let pos = 0;
  dialogues.forEach((d, di) => {
    offsets[di] = pos;
    const ends: number[] = [];
    let seq: TrainSequence | null = null;
    for (const t of d.turns) {
      if (t.response.length === 0) {
        ends.push(pos - 1);
        continue;
      }
      if (seq && startsWith(t.prompt, seq.ids)) {
        for (let i = seq.ids.length; i < t.prompt.length; i++) seq.ids.push(t.prompt[i]);
      } else {
        if (seq) sequences.push(seq);
        seq = { ids: t.prompt.slice(), rows: [], stream: [], banned: [] };
      }
      const g = t.grammar;
      if (g && g.steps.length !== t.response.length)
        throw new Error(
          `a turn of ${t.response.length} tokens has a grammar trace of ${g.steps.length} steps (one per token expected)`,
        );
      for (const [i, token] of t.response.entries()) {
        const list = g && g.steps[i] !== FORCED ? g.bans[g.steps[i]] : []; // a forced token bans nothing
        if (!list) throw new Error(`a grammar trace refers to banned list ${g?.steps[i]} of ${g?.bans.length}`);
        for (const x of list) {
          if (!(Number.isInteger(x) && x >= 0 && x < vocabSize))
            throw new Error(`a grammar trace bans token ${x}, outside the vocabulary (${vocabSize})`);
          seq.banned.push(seq.rows.length * vocabSize + x);
        }
        seq.rows.push(seq.ids.length - 1);
        seq.stream.push(pos++);
        seq.ids.push(token);
      }
      ends.push(pos - 1);
    }
    if (seq) sequences.push(seq);
    turnEnds.push(ends);
  });
  offsets[dialogues.length] = pos;
  return { sequences, stream: { offsets, turnEnds, N: pos } };
}

/**
 * Each turn's stream tokens of dialogue d as an inclusive span [from, to]: from the token after
 * the previous turn's last to the turn's own last (an empty turn gives from > to).
 */
export function turnSpans(stream: TokenStream, d: number): (readonly [number, number])[] {
  let from = stream.offsets[d];
  return stream.turnEnds[d].map((at) => {
    const span = [from, at] as const;
    from = Math.max(from, at + 1);
    return span;
  });
}

/**
 * Per stream token: 0 where the think grammar forced the token (written without sampling: its
 * log-prob says nothing of what the policy chose, and under π_c it had probability 1), else 1.
 */
export function grammarMask(dialogues: readonly DialogueRollout[], stream: TokenStream): Float32Array {
  const mask = new Float32Array(stream.N).fill(1);
  dialogues.forEach((d, di) => {
    let at = stream.offsets[di];
    for (const t of d.turns) {
      t.response.forEach((_, i) => {
        if (t.grammar?.steps[i] === FORCED) mask[at] = 0;
        at++;
      });
    }
  });
  return mask;
}

/**
 * What to do with a turn cut at maxTurnTokens, whose closing <|end|> was forced rather than sampled:
 * 'train' it as if sampled, 'mask-end' leave the forced token out of the losses (its log-prob says
 * nothing of what the policy chose), 'mask-turn' leave the whole turn out (TRL's
 * mask_truncated_completions).
 */
export type TruncationMode = 'train' | 'mask-end' | 'mask-turn';

/** Per stream token: 1 trained, 0 masked, for the truncated turns of `dialogues` under `mode`. */
export function truncationMask(
  dialogues: readonly DialogueRollout[],
  stream: TokenStream,
  mode: TruncationMode,
): Float32Array {
  const mask = new Float32Array(stream.N).fill(1);
  if (mode === 'train') return mask;
  dialogues.forEach((d, di) =>
    turnSpans(stream, di).forEach(([from, at], k) => {
      const t = d.turns[k];
      if (!t.truncated || t.response.length === 0) return;
      if (mode === 'mask-end') mask[at] = 0;
      else for (let i = from; i <= at; i++) mask[i] = 0;
    }),
  );
  return mask;
}
