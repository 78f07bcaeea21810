/**
 * Matmul shapes: out (…, M, N) = op(a) · op(b) resolved to MatmulDims, with errors that name the
 * shapes. Shape legend (all matmul files): Z batch, M rows of op(a), K inner dim, N columns of op(b).
 */
import { type MatmulOptions, type Tensor } from '../../backend';

// ---- shapes ---------------------------------------------------------------------------------------

export interface MatmulDims {
  /** Z: product of the batch dims of a and out (1 for plain 2-D). */
  batch: number;
  M: number;
  N: number;
  K: number;
  transA: boolean;
  transB: boolean;
  /** b has the batch dims of a; false: b is 2-D and shared by every batch entry. */
  bBatched: boolean;
  accumulate: boolean;
}

export const fmt = (s: readonly number[]): string => `[${s.join(', ')}]`;
const sameDims = (x: readonly number[], y: readonly number[]): boolean =>
  x.length === y.length && x.every((d, i) => d === y[i]);

/** Resolve and validate the shapes of out = op(a)·op(b); throws a message naming every shape. */
export function matmulDims(
  outShape: readonly number[],
  aShape: readonly number[],
  bShape: readonly number[],
  opts: MatmulOptions = {},
): MatmulDims {
  const transA = opts.transA ?? false;
  const transB = opts.transB ?? false;
  const where = `matmul(out ${fmt(outShape)}, a ${fmt(aShape)}, b ${fmt(bShape)}, transA=${transA}, transB=${transB})`;
  if (aShape.length < 2) throw new Error(`${where}: a must have at least 2 dims`);
  if (bShape.length < 2) throw new Error(`${where}: b must have at least 2 dims`);
  const aBatch = aShape.slice(0, -2);
  const bBatch = bShape.slice(0, -2);
  const [a0, a1] = aShape.slice(-2);
  const [b0, b1] = bShape.slice(-2);
  const [M, K] = transA ? [a1, a0] : [a0, a1]; // op(a): (M, K)
  const [Kb, N] = transB ? [b1, b0] : [b0, b1]; // op(b): (K, N)
  if (K !== Kb) throw new Error(`${where}: inner dims differ: op(a) is (${M}, ${K}) but op(b) is (${Kb}, ${N})`);
  const bBatched = bBatch.length > 0;
  if (bBatched && !sameDims(aBatch, bBatch)) {
    throw new Error(`${where}: batch dims of b ${fmt(bBatch)} must equal those of a ${fmt(aBatch)} (or b must be 2-D)`);
  }
  if (!bBatched && aBatch.length > 0 && transA) {
    throw new Error(`${where}: a 2-D b is broadcast over the batch only with transA = false`);
  }
  const want = [...aBatch, M, N];
  if (!sameDims(outShape, want)) throw new Error(`${where}: out must have shape ${fmt(want)}`);
  const batch = aBatch.reduce((p, d) => p * d, 1);
  return { batch, M, N, K, transA, transB, bBatched, accumulate: opts.accumulate ?? false };
}

/** b's shape as the matmul sees it: with packed halves (`bHalf`) the last dim holds two values a word. */
export function logicalBShape(b: Tensor, opts: MatmulOptions): readonly number[] {
  if (!opts.bHalf) return b.shape;
  if (b.dtype !== 'f32') throw new Error(`matmul: packed halves (bHalf) live in an f32 tensor, got ${b.dtype}`);
  return [...b.shape.slice(0, -1), 2 * b.shape[b.shape.length - 1]];
}

/** Which epilogue steps a call asks for; `resid`: no residual, out itself (in place), or another tensor. */
