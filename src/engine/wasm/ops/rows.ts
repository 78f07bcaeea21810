/**
 * Row ops on the wasm backend (asm/rows.ts): bias, embedding, LayerNorm, GELU, softmax,
 * log-softmax, cross-entropy. Row ops are threaded over rows; the sums over rows (dBias, LayerNorm's
 * dWeight and dBias, the embedding scatter-add) over columns, so 1 and N threads give the same bits.
 * Shapes are checked as by the CPU entry points (src/engine/ops/<op>.ts).
 */
import { assertSize, type Tensor } from '../../backend';
import { LAYER_NORM_EPS } from '../../ops/layernorm';
import { biasDims } from '../../ops/bias';
import { embeddingDims } from '../../ops/embedding';
import { rowsOf } from '../../ops/rowreduce';
import { backwardRows, rows as sameRows } from '../../ops/softmax';
import { f32Ptr, i32Ptr } from './elementwise';
import type { WasmEntries } from './types';

/** Work (≈ multiply-adds) per element of a pass that takes an exponential. */
const EXP_WORK = 8;

/** Rows of cross-entropy's logits, with targets (i32) and a per-row tensor of N. */
function ceRows(logits: Tensor, targets: Tensor, perRow: Tensor, what: string): { N: number; V: number } {
  const { N, V } = rowsOf(logits.shape, logits.size, what);
  if (targets.dtype !== 'i32') throw new Error(`${what}: targets must be i32, got ${targets.dtype}`);
  assertSize(targets, N, `${what} targets (one per row of logits [${logits.shape.join(', ')}])`);
  assertSize(perRow, N, `${what} per-row losses`);
  return { N, V };
}

/** LayerNorm's (N, C) from x, checking the other tensors' sizes. */
function layerNormDims(x: Tensor, perRow: Tensor[], perCol: Tensor[], same: Tensor[], what: string) {
  const { N, V: C } = rowsOf(x.shape, x.size, `${what} x`);
  for (const t of same) assertSize(t, x.size, `${what} (N, C) tensor`);
  for (const t of perRow) assertSize(t, N, `${what} mean / rstd (one per row)`);
  for (const t of perCol) assertSize(t, C, `${what} weight / bias (last dim of x)`);
  return { N, C };
}

export const rowsWasm = {
  addBias(be, out, x, bias) {
    const { N, C } = biasDims(x, bias, 'addBias');
    assertSize(out, x.size, 'addBias out');
    be.par('row_addBias', N * C, f32Ptr(be, out), f32Ptr(be, x), f32Ptr(be, bias), N, C);
  },
  biasBackward(be, dBias, dOut) {
    const { N, C } = biasDims(dOut, dBias, 'biasBackward');
    if (N === 0 || C === 0) return;
    const acc = be.scratch([2 * C]); // C f64 sums
    be.par('row_biasBackward', N * C, f32Ptr(be, dBias), f32Ptr(be, dOut), be.ptr(acc), N, C);
    be.release(acc);
  },
  embedding(be, out, table, ids) {
    const { V, C, N } = embeddingDims(out, table, ids, 'embedding');
    be.par('row_embedding', N * C, f32Ptr(be, out), f32Ptr(be, table), i32Ptr(be, ids), N, V, C);
  },
  embeddingBackward(be, dTable, dOut, ids) {
    const { V, C, N } = embeddingDims(dOut, dTable, ids, 'embeddingBackward');
    if (V === 0 || C === 0) return;
    be.par('row_embeddingBackward', N * C, f32Ptr(be, dTable), f32Ptr(be, dOut), i32Ptr(be, ids), N, V, C);
  },
  layerNorm(be, out, mean, rstd, x, weight, bias, eps = LAYER_NORM_EPS) {
    const { N, C } = layerNormDims(x, [mean, rstd], [weight, bias], [out], 'layerNorm');
    const p = [out, mean, rstd, x, weight, bias].map((t) => f32Ptr(be, t));
    be.par('row_layerNorm', 4 * N * C, ...p, N, C, eps);
  },
  layerNormBackward(be, dx, dWeight, dBias, dOut, x, mean, rstd, weight) {
    const what = 'layerNormBackward';
    const { N, C } = layerNormDims(x, [mean, rstd], [weight, dWeight, dBias], [dx, dOut], what);
    const [pdx, pdw, pdb, pg, px, pm, ps, pw] = [dx, dWeight, dBias, dOut, x, mean, rstd, weight].map((t) =>
      f32Ptr(be, t),
    );
    be.par('row_layerNormBackwardDx', 4 * N * C, pdx, pg, px, pm, ps, pw, N, C);
    be.par('row_layerNormBackwardParams', 2 * N * C, pdw, pdb, pg, px, pm, ps, N, C);
  },
  gelu(be, out, x) {
    assertSize(out, x.size, 'gelu out');
    be.par('row_gelu', EXP_WORK * x.size, f32Ptr(be, out), f32Ptr(be, x), x.size);
  },
  geluBackward(be, dx, x, dOut) {
    assertSize(dx, x.size, 'geluBackward dx');
    assertSize(dOut, x.size, 'geluBackward dOut');
    be.par('row_geluBackward', EXP_WORK * x.size, f32Ptr(be, dx), f32Ptr(be, x), f32Ptr(be, dOut), x.size);
  },
  softmax(be, out, x) {
    const { N, V } = sameRows(out, x, 'softmax');
    be.par('row_softmax', EXP_WORK * N * V, f32Ptr(be, out), f32Ptr(be, x), N, V);
  },
  softmaxBackward(be, dx, y, dy) {
    const { N, V } = backwardRows(dx, y, dy, 'softmaxBackward');
    be.par('row_softmaxBackward', 2 * N * V, f32Ptr(be, dx), f32Ptr(be, y), f32Ptr(be, dy), N, V);
  },
  logSoftmax(be, out, x) {
    const { N, V } = sameRows(out, x, 'logSoftmax');
    be.par('row_logSoftmax', EXP_WORK * N * V, f32Ptr(be, out), f32Ptr(be, x), N, V);
  },
  logSoftmaxBackward(be, dx, y, dy) {
    const { N, V } = backwardRows(dx, y, dy, 'logSoftmaxBackward');
    be.par('row_logSoftmaxBackward', EXP_WORK * N * V, f32Ptr(be, dx), f32Ptr(be, y), f32Ptr(be, dy), N, V);
  },
  crossEntropy(be, losses, logits, targets) {
    const { N, V } = ceRows(logits, targets, losses, 'crossEntropy');
    be.par('row_crossEntropy', EXP_WORK * N * V, f32Ptr(be, losses), f32Ptr(be, logits), i32Ptr(be, targets), N, V);
  },
  crossEntropyBackward(be, dLogits, logits, targets, dLosses) {
    const { N, V } = ceRows(logits, targets, dLosses, 'crossEntropyBackward');
    assertSize(dLogits, logits.size, 'crossEntropyBackward dLogits');
    const p = [f32Ptr(be, dLogits), f32Ptr(be, logits), i32Ptr(be, targets), f32Ptr(be, dLosses)];
    const exps = be.scratch([be.threads * V]); // one row of exponentials per part
    be.par('row_crossEntropyBackward', EXP_WORK * N * V, ...p, be.ptr(exps), N, V);
    be.release(exps);
  },
} satisfies WasmEntries;
