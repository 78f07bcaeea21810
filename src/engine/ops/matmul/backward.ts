/**
 * The matmul backward as a plan of forward matmuls with transposed operands: dA += dOut·op(b)ᵀ,
 * dB += op(a)ᵀ·dOut, never materialising a transpose; and its CPU reference.
 */
import { type Backend, type MatmulOptions, type Tensor } from '../../backend';
import { type Vec } from '../types';
import { type MatmulDims, matmulDims } from './dims';
import { matmulRef } from './reference';

// ---- backward as a plan of forward matmuls ------------------------------------------------------------

type Operand = 'a' | 'b' | 'dOut';

/** grad += op(x) · op(y); `flat` views x and y as 2-D (rows, last dim) to sum over the batch. */
interface BackwardStep {
  grad: 'dA' | 'dB';
  x: Operand;
  y: Operand;
  transA: boolean;
  transB: boolean;
  flat: boolean;
}

/**
 * The gradients of C = op(A)·op(B), each one forward matmul with transposed operands:
 *   C = A B:      dA = dC Bᵀ,      dB = Aᵀ dC
 *   C = A Bᵀ:     dA = dC B,       dB = dCᵀ A
 *   C = Aᵀ B:     dA = B dCᵀ,      dB = A dC
 *   C = Aᵀ Bᵀ:    dA = Bᵀ dCᵀ,     dB = dCᵀ Aᵀ
 * With a broadcast 2-D b (transA = false) dB sums over the batch: flatten A and dC to (Z·M, ·).
 */
function matmulBackwardPlan(d: MatmulDims): BackwardStep[] {
  const step = (
    grad: 'dA' | 'dB',
    x: Operand,
    y: Operand,
    transA: boolean,
    transB: boolean,
    flat = false,
  ): BackwardStep => ({ grad, x, y, transA, transB, flat });
  const broadcast = !d.bBatched && d.batch > 1;
  if (!d.transA && !d.transB)
    return [step('dA', 'dOut', 'b', false, true), step('dB', 'a', 'dOut', true, false, broadcast)];
  if (!d.transA && d.transB)
    return [step('dA', 'dOut', 'b', false, false), step('dB', 'dOut', 'a', true, false, broadcast)];
  if (d.transA && !d.transB) return [step('dA', 'b', 'dOut', false, true), step('dB', 'a', 'dOut', false, false)];
  return [step('dA', 'b', 'dOut', true, true), step('dB', 'dOut', 'a', true, true)];
}

const flat2d = (s: readonly number[]): number[] => [s.slice(0, -1).reduce((p, x) => p * x, 1), s[s.length - 1]];

/** How the dA step of matmulBackward writes: `overwrite` (dA = instead of +=, no zero fill needed), `geluGradOf` (see MatmulOptions). */
export interface BackwardDA {
  overwrite?: boolean;
  geluGradOf?: Tensor;
}

/**
 * dA (shape of a) += ∂L/∂a, dB (shape of b) += ∂L/∂b, from dOut (shape of out). Either grad may be
 * null. `da` changes how dA is written: overwritten instead of accumulated, and/or multiplied by
 * gelu'(pre) on the way (the gradient at a GELU's input when `a` is that GELU's output).
 */
export function matmulBackward(
  be: Backend,
  dA: Tensor | null,
  dB: Tensor | null,
  dOut: Tensor,
  a: Tensor,
  b: Tensor,
  opts: MatmulOptions = {},
  da: BackwardDA = {},
): void {
  const d = matmulDims(dOut.shape, a.shape, b.shape, opts);
  const src = { a, b, dOut };
  for (const s of matmulBackwardPlan(d)) {
    const g = s.grad === 'dA' ? dA : dB;
    if (!g) continue;
    // Flattened (rows, last dim) views share the operands' memory: no copy.
    const x = s.flat ? be.view(src[s.x], 0, flat2d(src[s.x].shape)) : src[s.x];
    const y = s.flat ? be.view(src[s.y], 0, flat2d(src[s.y].shape)) : src[s.y];
    const isA = s.grad === 'dA';
    be.matmul(g, x, y, {
      transA: s.transA,
      transB: s.transB,
      variant: opts.variant,
      accumulate: !(isA && da.overwrite),
      geluGradOf: isA ? da.geluGradOf : undefined,
    });
  }
}

/** The same plan on plain float64 arrays (for the finite-difference checks). */
export function matmulBackwardRef(
  dA: Vec | null,
  dB: Vec | null,
  dOut: Vec,
  a: Vec,
  b: Vec,
  shapes: { out: readonly number[]; a: readonly number[]; b: readonly number[] },
  opts: MatmulOptions = {},
): void {
  const d = matmulDims(shapes.out, shapes.a, shapes.b, opts);
  const data = { a, b, dOut };
  const shapeOf = { a: shapes.a, b: shapes.b, dOut: shapes.out };
  for (const s of matmulBackwardPlan(d)) {
    const g = s.grad === 'dA' ? dA : dB;
    if (!g) continue;
    const gShape = s.grad === 'dA' ? shapes.a : shapes.b;
    const xs = s.flat ? flat2d(shapeOf[s.x]) : shapeOf[s.x];
    const ys = s.flat ? flat2d(shapeOf[s.y]) : shapeOf[s.y];
    matmulRef(
      g,
      data[s.x],
      data[s.y],
      matmulDims(gShape, xs, ys, { transA: s.transA, transB: s.transB, accumulate: true }),
    );
  }
}
