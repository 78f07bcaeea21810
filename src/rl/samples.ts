/**
 * What the policy-gradient update trains on: a sample (a token sequence, the policy rows in it and
 * each row's figures), and a minibatch of samples packed for the device: ids padded to (B, T), the
 * policy rows compacted so only their logits are computed. Pure: no backend.
 * Not here: scoring and the update itself (update.ts).
 *
 * Shape legend: B sequences per minibatch, T padded length, R policy rows, V vocab.
 */

export interface TrainSample {
  ids: number[];
  /** Policy rows, increasing: row t predicts ids[t + 1]. */
  rows: number[];
  /** Per policy row. */
  advantages: ArrayLike<number>;
  /** Per policy row: log π_old of the token (from scoreSamples). */
  oldLogprobs: ArrayLike<number>;
  /** Per policy row, PPO only: value targets and the values at rollout time. */
  returns?: ArrayLike<number>;
  oldValues?: ArrayLike<number>;
  /** Per policy row, with a KL penalty: log π_ref of the token. */
  refLogprobs?: ArrayLike<number>;
  /** Per policy row: 1 trains the row, 0 leaves it out of every loss (a forced token); all 1 when absent. */
  mask?: ArrayLike<number>;
  /**
   * Banned logits (a grammar's): flat indices j·V + token into the policy rows' logits (rows.length,
   * V), set to BANNED_LOGIT after the temperature scale in every scoring of the sample.
   */
  banned?: ArrayLike<number>;
}

/** A sample whose response is ids[responseStart..], every token with the same advantage. */
export function responseSample(
  ids: number[],
  responseStart: number,
  advantage: number,
): Pick<TrainSample, 'ids' | 'rows' | 'advantages'> {
  const rows = Array.from({ length: ids.length - responseStart }, (_, i) => responseStart - 1 + i);
  return { ids, rows, advantages: rows.map(() => advantage) };
}

/**
 * A minibatch: ids padded to (B, T), and the policy rows compacted: row i of every per-row array
 * is flat row rowIndex[i] of (B, T). Only those rows' logits are computed (forwardRows).
 */
export interface Packed {
  B: number;
  T: number;
  ids: Int32Array;
  /** R policy rows: flat indices into B·T, and per row the action and the sample's figures. */
  rowIndex: Int32Array;
  actions: Int32Array;
  advantages: Float32Array;
  oldLogprobs: Float32Array;
  returns: Float32Array;
  oldValues: Float32Array;
  refLogprobs: Float32Array;
  /** Per row: 1 trained, 0 left out of the losses. */
  mask: Float32Array;
  /** The samples' banned logits as flat indices into the rows' logits (R, V), for fillAt. */
  banned: Int32Array;
  /** R: the policy rows. */
  tokens: number;
  /** The rows whose mask is not 0 (the token-mean's denominator). */
  trained: number;
}

export type PackInput = Pick<TrainSample, 'ids' | 'rows'> & Partial<Omit<TrainSample, 'ids' | 'rows'>>;

/** Pad a minibatch to its longest sequence and list its policy rows (and their banned logits, given V). */
export function packSamples(samples: readonly PackInput[], maxT: number, vocabSize = 0): Packed {
  const T = Math.min(maxT, Math.max(2, ...samples.map((s) => s.ids.length)));
  const B = samples.length;
  const R = samples.reduce((n, s) => n + s.rows.length, 0);
  const nBanned = samples.reduce((n, s) => n + (s.banned?.length ?? 0), 0);
  if (nBanned > 0 && !(Number.isInteger(vocabSize) && vocabSize > 0))
    throw new Error('packSamples: samples with banned logits need the vocabulary size');
  if (R * vocabSize > 2 ** 31 - 1)
    throw new Error(`packSamples: ${R} rows of ${vocabSize} logits are too many for i32 indices`);
  const p: Packed = {
    B,
    T,
    ids: new Int32Array(B * T),
    rowIndex: new Int32Array(R),
    actions: new Int32Array(R),
    advantages: new Float32Array(R),
    oldLogprobs: new Float32Array(R),
    returns: new Float32Array(R),
    oldValues: new Float32Array(R),
    refLogprobs: new Float32Array(R),
    mask: new Float32Array(R).fill(1),
    banned: new Int32Array(nBanned),
    tokens: R,
    trained: 0,
  };
  let i = 0;
  let k = 0;
  samples.forEach((s, b) => {
    if (s.ids.length > T) throw new Error(`a sample of ${s.ids.length} tokens exceeds the context (${T})`);
    for (let t = 0; t < s.ids.length; t++) p.ids[b * T + t] = s.ids[t];
    const span = s.rows.length * vocabSize;
    const banned = s.banned ?? [];
    for (let j = 0; j < banned.length; j++) {
      const at = banned[j];
      if (!(Number.isInteger(at) && at >= 0 && at < span))
        throw new Error(`banned logit ${at} is outside a sample's ${s.rows.length} rows of ${vocabSize}`);
      p.banned[k++] = i * vocabSize + at; // i: the sample's first row in the minibatch
    }
    s.rows.forEach((row, j) => {
      if (!(row >= 0 && row + 1 < s.ids.length))
        throw new Error(`policy row ${row} is outside a sample of ${s.ids.length} tokens`);
      p.rowIndex[i] = b * T + row;
      p.actions[i] = s.ids[row + 1];
      if (s.advantages) p.advantages[i] = s.advantages[j];
      if (s.oldLogprobs) p.oldLogprobs[i] = s.oldLogprobs[j];
      if (s.returns) p.returns[i] = s.returns[j];
      if (s.oldValues) p.oldValues[i] = s.oldValues[j];
      if (s.refLogprobs) p.refLogprobs[i] = s.refLogprobs[j];
      if (s.mask) p.mask[i] = s.mask[j];
      if (p.mask[i] !== 0) p.trained++;
      i++;
    });
  });
  return p;
}
