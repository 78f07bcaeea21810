/**
 * Copying, taught and measured: sequences of random tokens in which a span comes back after a gap.
 * Only the second copy is scored, and nothing in it can be predicted but by finding the first copy
 * and reading on from there: what an induction head does (Olsson et al. 2022). A policy needs it to
 * name the user's own details back, which a model that only recalls its training stories cannot
 * (docs/MODEL.md, "Copying").
 *
 *   span (L tokens) · gap (G tokens, unscored) · span again (scored from its second token) · …
 *
 * L and G are drawn per segment, so the distance between the copies varies and the only rule that
 * predicts the repeat is "find where this token was before and say what came next". The tokens are
 * the tokenizer's merges (never raw bytes or specials), drawn uniformly: none is more likely than
 * another unless it was seen before in the row.
 */
import { Rng } from '../rng';
import type { Encoded } from './format';
import { N_BYTES, SPECIALS } from './tokenizer';

/** Shortest and longest copied span, and the longest gap between its copies. */
const MIN_SPAN = 4;
const MAX_SPAN = 48;
const MAX_GAP = 64;

export interface CopyTaskOptions {
  /** Tokens per example (the training window, seqLen + 1). */
  window: number;
  /** The first id that may be drawn and one past the last (the tokenizer's merges). */
  firstId: number;
  vocabSize: number;
}

/**
 * `n` copying examples from `seed`; the same arguments give the same examples. Each fills the
 * window with segments (span, gap, span again) back to back, so that about a third of its tokens
 * are scored repeats (a single span in a 513-token row scored one token in twenty, and 1,600 rows
 * of it grew no induction head in a `micro` model: docs/log/2026-12-copying.md).
 */
export function copyExamples(n: number, seed: string | number, o: CopyTaskOptions): Encoded[] {
  if (!(Number.isInteger(n) && n >= 0)) throw new Error(`copyExamples: n must be a whole number, got ${n}`);
  if (o.window < 2 * MIN_SPAN) throw new Error(`copyExamples: a window of ${o.window} tokens holds no copy`);
  if (!(o.vocabSize - o.firstId >= 2)) throw new Error('copyExamples: fewer than two tokens to draw from');
  const rng = new Rng(`copy:${seed}`);
  const draw = () => rng.int(o.firstId, o.vocabSize - 1);
  const out: Encoded[] = [];
  for (let k = 0; k < n; k++) {
    const ids: number[] = [];
    const agentMask: number[] = [];
    while (o.window - ids.length >= 2 * MIN_SPAN) {
      const room = o.window - ids.length;
      const span = rng.int(MIN_SPAN, Math.min(MAX_SPAN, Math.floor(room / 2)));
      const gap = rng.int(0, Math.min(MAX_GAP, room - 2 * span));
      const first = Array.from({ length: span }, draw);
      ids.push(...first, ...Array.from({ length: gap }, draw), ...first);
      // The second copy's first token follows the gap, which says nothing of it: scored from the next.
      for (let i = 0; i < span + gap; i++) agentMask.push(0);
      for (let i = 0; i < span; i++) agentMask.push(i > 0 ? 1 : 0);
    }
    out.push({ ids, agentMask });
  }
  return out;
}

/** The task for rows of `window` tokens over a tokenizer of `vocabSize` ids: its merges are drawn. */
export function copyTask(window: number, vocabSize: number): CopyTaskOptions {
  return { window, firstId: N_BYTES + SPECIALS.length, vocabSize };
}

/** Copying examples a probe reads: fixed, and drawn from a seed no training run uses. */
export function copyProbe(o: CopyTaskOptions, n = 64): Encoded[] {
  return copyExamples(n, 'probe', o);
}
