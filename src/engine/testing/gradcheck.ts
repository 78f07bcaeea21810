/**
 * Finite-difference gradient checks for the CPU references, in float64 so the tolerance can be
 * tight. A check builds a scalar loss L = Σ w ⊙ f(x) with fixed random weights w, gets the analytic
 * gradient from the op's backward with dOut = w, and compares with central differences
 * (L(x + h) − L(x − h)) / 2h for every input element.
 */
import { Rng } from '../rng';
import { compare, type CompareReport, type Tolerance } from './compare';

const FD_TOL: Tolerance = { abs: 1e-6, rel: 1e-5 };

/** Random float64 values, normal(0, scale). */
export function randn64(rng: Rng, n: number, scale = 1): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.normal() * scale;
  return out;
}

/**
 * Compare `analytic` (dL/dx) with central differences of `loss` around x. `loss` must read x
 * afresh on every call (it is perturbed in place and restored).
 */
export function gradCheck(
  label: string,
  loss: () => number,
  x: Float64Array,
  analytic: ArrayLike<number>,
  { h = 1e-5, tol = FD_TOL }: { h?: number; tol?: Tolerance } = {},
): CompareReport {
  const numeric = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const x0 = x[i];
    x[i] = x0 + h;
    const up = loss();
    x[i] = x0 - h;
    const down = loss();
    x[i] = x0;
    numeric[i] = (up - down) / (2 * h);
  }
  return compare(label, analytic, numeric, tol);
}

/** Σ w ⊙ y: the scalar the checks differentiate. */
export function weightedSum(y: ArrayLike<number>, w: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += y[i] * w[i];
  return s;
}
