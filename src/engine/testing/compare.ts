/**
 * Comparing a result with its reference, llm.c style: an element passes when
 * |got − want| <= abs + rel·|want|; the report names the worst element (largest error relative to
 * its allowance), the first failing index and the first five (got, want) pairs from there.
 * NaN or ±Infinity in `got` where `want` is finite always fails.
 */

export interface Tolerance {
  abs: number;
  rel: number;
}

export const F32_TOL: Tolerance = { abs: 1e-5, rel: 1e-4 };

export interface CompareReport {
  ok: boolean;
  label: string;
  n: number;
  maxAbsErr: number;
  worst: { index: number; got: number; want: number; err: number; allowed: number } | null;
  firstBad: number;
  pairs: [number, number][];
  summary: string;
}

export function compare(
  label: string,
  got: ArrayLike<number>,
  want: ArrayLike<number>,
  tol: Tolerance = F32_TOL,
): CompareReport {
  const n = want.length;
  if (got.length !== n) {
    return {
      ok: false,
      label,
      n,
      maxAbsErr: Infinity,
      worst: null,
      firstBad: 0,
      pairs: [],
      summary: `${label}: length ${got.length} != reference length ${n}`,
    };
  }
  let maxAbsErr = 0;
  let worstRatio = -1;
  let worst: CompareReport['worst'] = null;
  let firstBad = -1;
  for (let i = 0; i < n; i++) {
    const g = got[i];
    const w = want[i];
    const allowed = tol.abs + tol.rel * Math.abs(w);
    let err = Math.abs(g - w);
    if (Number.isNaN(w) && Number.isNaN(g)) err = 0;
    else if (!Number.isFinite(g) || Number.isNaN(err)) err = g === w ? 0 : Infinity;
    if (err > maxAbsErr) maxAbsErr = err;
    const ratio = err / allowed;
    if (ratio > worstRatio) {
      worstRatio = ratio;
      worst = { index: i, got: g, want: w, err, allowed };
    }
    if (err > allowed && firstBad < 0) firstBad = i;
  }
  const ok = firstBad < 0;
  const pairs: [number, number][] = [];
  const from = ok ? 0 : firstBad;
  for (let i = from; i < Math.min(n, from + 5); i++) pairs.push([got[i], want[i]]);
  const w = worst;
  const worstText = w
    ? `worst [${w.index}] got ${w.got} want ${w.want} (err ${w.err.toExponential(2)}, allowed ${w.allowed.toExponential(2)})`
    : 'empty';
  const summary = ok
    ? `${label}: ok, n=${n}, max abs err ${maxAbsErr.toExponential(2)}, ${worstText}`
    : `${label}: FAIL at [${firstBad}], n=${n}, ${worstText}; first pairs (got, want): ${pairs.map(([g, x]) => `(${g}, ${x})`).join(' ')}`;
  return { ok, label, n, maxAbsErr, worst, firstBad, pairs, summary };
}
