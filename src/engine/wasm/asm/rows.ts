/**
 * Row kernels: bias, embedding, LayerNorm, GELU, softmax, log-softmax, cross-entropy (forward and
 * backward), in f32 SIMD. Row ops are threaded over rows; the reductions over rows (the bias and
 * LayerNorm parameter gradients, the embedding scatter-add) are threaded over columns in groups of
 * 4, each column summed over the rows in row order, so every output has one loop whatever the split.
 *
 * Within a row, a sum runs in two 4-lane accumulators over blocks of 8, one more block of 4 if it
 * fits, the lanes combined as ((0 + 1) + (2 + 3)), then the remaining elements in order: a fixed
 * order given the row length. Elements past the last full vector go through the same vector code
 * (loaded lane by lane), so exp and GELU give the same bits there as in a SIMD lane.
 */
import { splitFrom } from './split';
import { expv, geluGradV, geluV, hmax, hsum, rowMax } from './simd';

// ---- helpers --------------------------------------------------------------------------------------

/** k (1–3) floats from p in lanes 0 … k − 1, zeros above. */
function loadPart(p: usize, k: i32): v128 {
  let v = f32x4.replace_lane(f32x4.splat(0), 0, load<f32>(p));
  if (k > 1) v = f32x4.replace_lane(v, 1, load<f32>(p, 4));
  if (k > 2) v = f32x4.replace_lane(v, 2, load<f32>(p, 8));
  return v;
}

/** Lanes 0 … k − 1 (k 1–3) of v to p. */
function storePart(p: usize, v: v128, k: i32): void {
  store<f32>(p, f32x4.extract_lane(v, 0));
  if (k > 1) store<f32>(p, f32x4.extract_lane(v, 1), 4);
  if (k > 2) store<f32>(p, f32x4.extract_lane(v, 2), 8);
}

/** Lanes 0 … k − 1 (k 1–3) added to s in order. */
function addPart(s: f32, v: v128, k: i32): f32 {
  s += f32x4.extract_lane(v, 0);
  if (k > 1) s += f32x4.extract_lane(v, 1);
  if (k > 2) s += f32x4.extract_lane(v, 2);
  return s;
}

/** Σ p[0 … n), in the order of the file's doc. */
function rowSum(p: usize, n: i32): f32 {
  let a0 = f32x4.splat(0);
  let a1 = f32x4.splat(0);
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const q = p + ((<usize>i) << 2);
    a0 = f32x4.add(a0, v128.load(q));
    a1 = f32x4.add(a1, v128.load(q, 16));
  }
  if (i + 4 <= n) {
    a0 = f32x4.add(a0, v128.load(p + ((<usize>i) << 2)));
    i += 4;
  }
  let s = hsum(f32x4.add(a0, a1));
  for (; i < n; i++) s += load<f32>(p + ((<usize>i) << 2));
  return s;
}

/** Σ e^(p[i] − m) over [0, n); with `out` ≠ 0 the exponentials are also stored there. */
function rowExpSum(out: usize, p: usize, m: f32, n: i32): f32 {
  const mv = f32x4.splat(m);
  let a0 = f32x4.splat(0);
  let a1 = f32x4.splat(0);
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const o = (<usize>i) << 2;
    const e0 = expv(f32x4.sub(v128.load(p + o), mv));
    const e1 = expv(f32x4.sub(v128.load(p + o, 16), mv));
    if (out) {
      v128.store(out + o, e0);
      v128.store(out + o, e1, 16);
    }
    a0 = f32x4.add(a0, e0);
    a1 = f32x4.add(a1, e1);
  }
  if (i + 4 <= n) {
    const o = (<usize>i) << 2;
    const e0 = expv(f32x4.sub(v128.load(p + o), mv));
    if (out) v128.store(out + o, e0);
    a0 = f32x4.add(a0, e0);
    i += 4;
  }
  let s = hsum(f32x4.add(a0, a1));
  if (i < n) {
    const o = (<usize>i) << 2;
    const e = expv(f32x4.sub(loadPart(p + o, n - i), mv));
    if (out) storePart(out + o, e, n - i);
    s = addPart(s, e, n - i);
  }
  return s;
}

/** Columns [c0, c1) of C that part `part` of `parts` owns: groups of 4 columns split evenly. */
function colFrom(C: i32, part: i32, parts: i32): i32 {
  return min(C, splitFrom((C + 3) >> 2, part, parts) << 2);
}

// ---- bias -------------------------------------------------------------------------------------------

/** out (N, C) = x (N, C) + bias (C); out may be x. Threaded over rows. */
export function row_addBias(out: usize, x: usize, bias: usize, N: i32, C: i32, part: i32, parts: i32): void {
  const to = splitFrom(N, part + 1, parts);
  for (let r = splitFrom(N, part, parts); r < to; r++) {
    const o = (<usize>r * <usize>C) << 2;
    let c = 0;
    for (; c + 4 <= C; c += 4) {
      const q = (<usize>c) << 2;
      v128.store(out + o + q, f32x4.add(v128.load(x + o + q), v128.load(bias + q)));
    }
    for (; c < C; c++) {
      const q = (<usize>c) << 2;
      store<f32>(out + o + q, load<f32>(x + o + q) + load<f32>(bias + q));
    }
  }
}

/**
 * dBias (C) += Σ_rows dOut (N, C): each column summed over the rows in order in f64 (as the
 * reference, so the same bits), in `acc` (C f64 of scratch), then added to dBias. Threaded over
 * columns.
 */
export function row_biasBackward(dBias: usize, dOut: usize, acc: usize, N: i32, C: i32, part: i32, parts: i32): void {
  const c0 = colFrom(C, part, parts);
  const c1 = colFrom(C, part + 1, parts);
  for (let c = c0; c < c1; c++) store<f64>(acc + ((<usize>c) << 3), 0);
  for (let r = 0; r < N; r++) {
    const row = dOut + ((<usize>r * <usize>C) << 2);
    let c = c0;
    for (; c + 2 <= c1; c += 2) {
      const a = acc + ((<usize>c) << 3);
      const v = f64x2.promote_low_f32x4(v128.load64_zero(row + ((<usize>c) << 2)));
      v128.store(a, f64x2.add(v128.load(a), v));
    }
    if (c < c1) {
      const a = acc + ((<usize>c) << 3);
      store<f64>(a, load<f64>(a) + <f64>load<f32>(row + ((<usize>c) << 2)));
    }
  }
  for (let c = c0; c < c1; c++) {
    const d = dBias + ((<usize>c) << 2);
    store<f32>(d, <f32>(<f64>load<f32>(d) + load<f64>(acc + ((<usize>c) << 3))));
  }
}

// ---- embedding --------------------------------------------------------------------------------------

/** out (N, C) = table (V, C) [ids (N)], zero rows for ids outside [0, V). Threaded over rows. */
export function row_embedding(
  out: usize,
  table: usize,
  ids: usize,
  N: i32,
  V: i32,
  C: i32,
  part: i32,
  parts: i32,
): void {
  const bytes = (<usize>C) << 2;
  const to = splitFrom(N, part + 1, parts);
  for (let r = splitFrom(N, part, parts); r < to; r++) {
    const v = load<i32>(ids + ((<usize>r) << 2));
    const o = out + <usize>r * bytes;
    if (v >= 0 && v < V) memory.copy(o, table + <usize>v * bytes, bytes);
    else memory.fill(o, 0, bytes);
  }
}

/**
 * dTable (V, C) += dOut (N, C) scattered by ids (N), positions in order (ids outside [0, V)
 * skipped): each element's additions in the reference's order, so the same bits. Threaded over
 * columns.
 */
export function row_embeddingBackward(
  dTable: usize,
  dOut: usize,
  ids: usize,
  N: i32,
  V: i32,
  C: i32,
  part: i32,
  parts: i32,
): void {
  const c0 = colFrom(C, part, parts);
  const c1 = colFrom(C, part + 1, parts);
  if (c0 >= c1) return;
  for (let r = 0; r < N; r++) {
    const v = load<i32>(ids + ((<usize>r) << 2));
    if (v < 0 || v >= V) continue;
    const d = dTable + ((<usize>v * <usize>C) << 2);
    const s = dOut + ((<usize>r * <usize>C) << 2);
    let c = c0;
    for (; c + 4 <= c1; c += 4) {
      const q = (<usize>c) << 2;
      v128.store(d + q, f32x4.add(v128.load(d + q), v128.load(s + q)));
    }
    for (; c < c1; c++) {
      const q = (<usize>c) << 2;
      store<f32>(d + q, load<f32>(d + q) + load<f32>(s + q));
    }
  }
}

// ---- LayerNorm --------------------------------------------------------------------------------------

/**
 * out (N, C) = (x − μ)·rstd·weight + bias per row, mean (N) = μ, rstd (N) = 1/√(σ² + eps): the
 * mean, then the variance about it (two passes, no E[x²] − μ² cancellation; a row is in cache).
 * Threaded over rows.
 */
export function row_layerNorm(
  out: usize,
  mean: usize,
  rstd: usize,
  x: usize,
  weight: usize,
  bias: usize,
  N: i32,
  C: i32,
  eps: f32,
  part: i32,
  parts: i32,
): void {
  const to = splitFrom(N, part + 1, parts);
  for (let r = splitFrom(N, part, parts); r < to; r++) {
    const o = (<usize>r * <usize>C) << 2;
    const xr = x + o;
    const m = rowSum(xr, C) / <f32>C;
    const mv = f32x4.splat(m);
    let a0 = f32x4.splat(0);
    let a1 = f32x4.splat(0);
    let c = 0;
    for (; c + 8 <= C; c += 8) {
      const q = xr + ((<usize>c) << 2);
      const d0 = f32x4.sub(v128.load(q), mv);
      const d1 = f32x4.sub(v128.load(q, 16), mv);
      a0 = f32x4.add(a0, f32x4.mul(d0, d0));
      a1 = f32x4.add(a1, f32x4.mul(d1, d1));
    }
    if (c + 4 <= C) {
      const d0 = f32x4.sub(v128.load(xr + ((<usize>c) << 2)), mv);
      a0 = f32x4.add(a0, f32x4.mul(d0, d0));
      c += 4;
    }
    let v = hsum(f32x4.add(a0, a1));
    for (; c < C; c++) {
      const d = load<f32>(xr + ((<usize>c) << 2)) - m;
      v += d * d;
    }
    v /= <f32>C;
    const s: f32 = 1 / Mathf.sqrt(v + eps);
    const sv = f32x4.splat(s);
    const or = out + o;
    c = 0;
    for (; c + 4 <= C; c += 4) {
      const q = (<usize>c) << 2;
      const y = f32x4.mul(f32x4.mul(f32x4.sub(v128.load(xr + q), mv), sv), v128.load(weight + q));
      v128.store(or + q, f32x4.add(y, v128.load(bias + q)));
    }
    for (; c < C; c++) {
      const q = (<usize>c) << 2;
      store<f32>(or + q, (load<f32>(xr + q) - m) * s * load<f32>(weight + q) + load<f32>(bias + q));
    }
    store<f32>(mean + ((<usize>r) << 2), m);
    store<f32>(rstd + ((<usize>r) << 2), s);
  }
}

/**
 * LayerNorm's dx (N, C) += (dn − mean(dn) − x̂·mean(dn⊙x̂))·rstd per row, dn = weight⊙dOut,
 * x̂ = (x − μ)·rstd from the saved mean and rstd. Threaded over rows.
 */
export function row_layerNormBackwardDx(
  dx: usize,
  dOut: usize,
  x: usize,
  mean: usize,
  rstd: usize,
  weight: usize,
  N: i32,
  C: i32,
  part: i32,
  parts: i32,
): void {
  const to = splitFrom(N, part + 1, parts);
  for (let r = splitFrom(N, part, parts); r < to; r++) {
    const o = (<usize>r * <usize>C) << 2;
    const xr = x + o;
    const gr = dOut + o;
    const m = load<f32>(mean + ((<usize>r) << 2));
    const s = load<f32>(rstd + ((<usize>r) << 2));
    const mv = f32x4.splat(m);
    const sv = f32x4.splat(s);
    let a0 = f32x4.splat(0); // Σ dn
    let b0 = f32x4.splat(0); // Σ dn·x̂
    let c = 0;
    for (; c + 4 <= C; c += 4) {
      const q = (<usize>c) << 2;
      const xh = f32x4.mul(f32x4.sub(v128.load(xr + q), mv), sv);
      const dn = f32x4.mul(v128.load(weight + q), v128.load(gr + q));
      a0 = f32x4.add(a0, dn);
      b0 = f32x4.add(b0, f32x4.mul(dn, xh));
    }
    let dnSum = hsum(a0);
    let dxSum = hsum(b0);
    for (; c < C; c++) {
      const q = (<usize>c) << 2;
      const xh = (load<f32>(xr + q) - m) * s;
      const dn = load<f32>(weight + q) * load<f32>(gr + q);
      dnSum += dn;
      dxSum += dn * xh;
    }
    const dnMean = dnSum / <f32>C;
    const dnXhatMean = dxSum / <f32>C;
    const av = f32x4.splat(dnMean);
    const bv = f32x4.splat(dnXhatMean);
    const dr = dx + o;
    c = 0;
    for (; c + 4 <= C; c += 4) {
      const q = (<usize>c) << 2;
      const xh = f32x4.mul(f32x4.sub(v128.load(xr + q), mv), sv);
      const dn = f32x4.mul(v128.load(weight + q), v128.load(gr + q));
      const g = f32x4.mul(f32x4.sub(f32x4.sub(dn, av), f32x4.mul(xh, bv)), sv);
      v128.store(dr + q, f32x4.add(v128.load(dr + q), g));
    }
    for (; c < C; c++) {
      const q = (<usize>c) << 2;
      const xh = (load<f32>(xr + q) - m) * s;
      const dn = load<f32>(weight + q) * load<f32>(gr + q);
      store<f32>(dr + q, load<f32>(dr + q) + (dn - dnMean - xh * dnXhatMean) * s);
    }
  }
}

/**
 * LayerNorm's dWeight (C) += Σ_n dOut⊙x̂ and dBias (C) += Σ_n dOut, added into the gradients row
 * by row in row order (dBias then has the reference's bits). Threaded over columns.
 */
export function row_layerNormBackwardParams(
  dWeight: usize,
  dBias: usize,
  dOut: usize,
  x: usize,
  mean: usize,
  rstd: usize,
  N: i32,
  C: i32,
  part: i32,
  parts: i32,
): void {
  const c0 = colFrom(C, part, parts);
  const c1 = colFrom(C, part + 1, parts);
  if (c0 >= c1) return;
  for (let r = 0; r < N; r++) {
    const o = (<usize>r * <usize>C) << 2;
    const xr = x + o;
    const gr = dOut + o;
    const m = load<f32>(mean + ((<usize>r) << 2));
    const s = load<f32>(rstd + ((<usize>r) << 2));
    const mv = f32x4.splat(m);
    const sv = f32x4.splat(s);
    let c = c0;
    for (; c + 4 <= c1; c += 4) {
      const q = (<usize>c) << 2;
      const g = v128.load(gr + q);
      const xh = f32x4.mul(f32x4.sub(v128.load(xr + q), mv), sv);
      v128.store(dBias + q, f32x4.add(v128.load(dBias + q), g));
      v128.store(dWeight + q, f32x4.add(v128.load(dWeight + q), f32x4.mul(g, xh)));
    }
    for (; c < c1; c++) {
      const q = (<usize>c) << 2;
      const g = load<f32>(gr + q);
      const xh = (load<f32>(xr + q) - m) * s;
      store<f32>(dBias + q, load<f32>(dBias + q) + g);
      store<f32>(dWeight + q, load<f32>(dWeight + q) + g * xh);
    }
  }
}

// ---- GELU -------------------------------------------------------------------------------------------

/** out[i] = gelu(x[i]) for i in [0, n), threaded over elements. */
export function row_gelu(out: usize, x: usize, n: i32, part: i32, parts: i32): void {
  const to = splitFrom(n, part + 1, parts);
  let i = splitFrom(n, part, parts);
  for (; i + 4 <= to; i += 4) {
    const o = (<usize>i) << 2;
    v128.store(out + o, geluV(v128.load(x + o)));
  }
  if (i < to) {
    const o = (<usize>i) << 2;
    storePart(out + o, geluV(loadPart(x + o, to - i)), to - i);
  }
}

/** dx[i] += gelu'(x[i])·dOut[i], threaded over elements. */
export function row_geluBackward(dx: usize, x: usize, dOut: usize, n: i32, part: i32, parts: i32): void {
  const to = splitFrom(n, part + 1, parts);
  let i = splitFrom(n, part, parts);
  for (; i + 4 <= to; i += 4) {
    const o = (<usize>i) << 2;
    const g = f32x4.mul(geluGradV(v128.load(x + o)), v128.load(dOut + o));
    v128.store(dx + o, f32x4.add(v128.load(dx + o), g));
  }
  if (i < to) {
    const o = (<usize>i) << 2;
    const k = to - i;
    const g = f32x4.mul(geluGradV(loadPart(x + o, k)), loadPart(dOut + o, k));
    storePart(dx + o, f32x4.add(loadPart(dx + o, k), g), k);
  }
}

// ---- softmax and log-softmax ------------------------------------------------------------------------

/** out (N, V) = softmax of each row of x: e^(x − max) (stored), then divided by their sum. Threaded over rows. */
export function row_softmax(out: usize, x: usize, N: i32, V: i32, part: i32, parts: i32): void {
  const to = splitFrom(N, part + 1, parts);
  for (let r = splitFrom(N, part, parts); r < to; r++) {
    const o = (<usize>r * <usize>V) << 2;
    const xr = x + o;
    const yr = out + o;
    const s = rowExpSum(yr, xr, rowMax(xr, V), V);
    const sv = f32x4.splat(s);
    let i = 0;
    for (; i + 4 <= V; i += 4) {
      const q = yr + ((<usize>i) << 2);
      v128.store(q, f32x4.div(v128.load(q), sv));
    }
    for (; i < V; i++) {
      const q = yr + ((<usize>i) << 2);
      store<f32>(q, load<f32>(q) / s);
    }
  }
}

/** out (N, V) = (x − max) − log Σ e^(x − max) per row. Threaded over rows. */
export function row_logSoftmax(out: usize, x: usize, N: i32, V: i32, part: i32, parts: i32): void {
  const to = splitFrom(N, part + 1, parts);
  for (let r = splitFrom(N, part, parts); r < to; r++) {
    const o = (<usize>r * <usize>V) << 2;
    const xr = x + o;
    const yr = out + o;
    const m = rowMax(xr, V);
    const ls = Mathf.log(rowExpSum(0, xr, m, V));
    const mv = f32x4.splat(m);
    const lv = f32x4.splat(ls);
    let i = 0;
    for (; i + 4 <= V; i += 4) {
      const q = (<usize>i) << 2;
      v128.store(yr + q, f32x4.sub(f32x4.sub(v128.load(xr + q), mv), lv));
    }
    for (; i < V; i++) {
      const q = (<usize>i) << 2;
      store<f32>(yr + q, load<f32>(xr + q) - m - ls);
    }
  }
}

/** dx (N, V) += y ⊙ (dy − Σ dy⊙y) per row, y the softmax. Threaded over rows. */
export function row_softmaxBackward(dx: usize, y: usize, dy: usize, N: i32, V: i32, part: i32, parts: i32): void {
  const to = splitFrom(N, part + 1, parts);
  for (let r = splitFrom(N, part, parts); r < to; r++) {
    const o = (<usize>r * <usize>V) << 2;
    const yr = y + o;
    const gr = dy + o;
    const dr = dx + o;
    let a0 = f32x4.splat(0);
    let a1 = f32x4.splat(0);
    let i = 0;
    for (; i + 8 <= V; i += 8) {
      const q = (<usize>i) << 2;
      a0 = f32x4.add(a0, f32x4.mul(v128.load(gr + q), v128.load(yr + q)));
      a1 = f32x4.add(a1, f32x4.mul(v128.load(gr + q, 16), v128.load(yr + q, 16)));
    }
    if (i + 4 <= V) {
      const q = (<usize>i) << 2;
      a0 = f32x4.add(a0, f32x4.mul(v128.load(gr + q), v128.load(yr + q)));
      i += 4;
    }
    let dot = hsum(f32x4.add(a0, a1));
    for (; i < V; i++) {
      const q = (<usize>i) << 2;
      dot += load<f32>(gr + q) * load<f32>(yr + q);
    }
    const dv = f32x4.splat(dot);
    i = 0;
    for (; i + 4 <= V; i += 4) {
      const q = (<usize>i) << 2;
      const g = f32x4.mul(v128.load(yr + q), f32x4.sub(v128.load(gr + q), dv));
      v128.store(dr + q, f32x4.add(v128.load(dr + q), g));
    }
    for (; i < V; i++) {
      const q = (<usize>i) << 2;
      store<f32>(dr + q, load<f32>(dr + q) + load<f32>(yr + q) * (load<f32>(gr + q) - dot));
    }
  }
}

/** dx (N, V) += dy − e^y ⊙ Σ dy per row, y the log-softmax. Threaded over rows. */
export function row_logSoftmaxBackward(dx: usize, y: usize, dy: usize, N: i32, V: i32, part: i32, parts: i32): void {
  const to = splitFrom(N, part + 1, parts);
  for (let r = splitFrom(N, part, parts); r < to; r++) {
    const o = (<usize>r * <usize>V) << 2;
    const yr = y + o;
    const gr = dy + o;
    const dr = dx + o;
    const s = rowSum(gr, V);
    const sv = f32x4.splat(s);
    let i = 0;
    for (; i + 4 <= V; i += 4) {
      const q = (<usize>i) << 2;
      const g = f32x4.sub(v128.load(gr + q), f32x4.mul(expv(v128.load(yr + q)), sv));
      v128.store(dr + q, f32x4.add(v128.load(dr + q), g));
    }
    if (i < V) {
      const q = (<usize>i) << 2;
      const k = V - i;
      const g = f32x4.sub(loadPart(gr + q, k), f32x4.mul(expv(loadPart(yr + q, k)), sv));
      storePart(dr + q, f32x4.add(loadPart(dr + q, k), g), k);
    }
  }
}

// ---- cross-entropy ----------------------------------------------------------------------------------

/**
 * losses (N) = (max − logits[t]) + log Σ e^(logits − max) per row (the difference first, so a
 * large max does not round the loss away); 0 where the target is outside [0, V). Threaded over rows.
 */
export function row_crossEntropy(
  losses: usize,
  logits: usize,
  targets: usize,
  N: i32,
  V: i32,
  part: i32,
  parts: i32,
): void {
  const to = splitFrom(N, part + 1, parts);
  for (let r = splitFrom(N, part, parts); r < to; r++) {
    const t = load<i32>(targets + ((<usize>r) << 2));
    let loss: f32 = 0;
    if (t >= 0 && t < V) {
      const xr = logits + ((<usize>r * <usize>V) << 2);
      const m = rowMax(xr, V);
      loss = m - load<f32>(xr + ((<usize>t) << 2)) + Mathf.log(rowExpSum(0, xr, m, V));
    }
    store<f32>(losses + ((<usize>r) << 2), loss);
  }
}

/**
 * dLogits (N, V) += (softmax(logits) − onehot(t))·dLosses[n] per row (p = e^(x − max) / Σ, the
 * target's (p − 1)·dL computed as such); rows whose target is outside [0, V) add nothing. The
 * exponentials are kept in `scratch` (V floats per part, at part · V) between the sum and the
 * update. Threaded over rows.
 */
export function row_crossEntropyBackward(
  dLogits: usize,
  logits: usize,
  targets: usize,
  dLosses: usize,
  scratch: usize,
  N: i32,
  V: i32,
  part: i32,
  parts: i32,
): void {
  const e = scratch + ((<usize>part * <usize>V) << 2);
  const to = splitFrom(N, part + 1, parts);
  for (let r = splitFrom(N, part, parts); r < to; r++) {
    const t = load<i32>(targets + ((<usize>r) << 2));
    if (t < 0 || t >= V) continue;
    const o = (<usize>r * <usize>V) << 2;
    const xr = logits + o;
    const dr = dLogits + o;
    const m = rowMax(xr, V);
    const s = rowExpSum(e, xr, m, V);
    const dl = load<f32>(dLosses + ((<usize>r) << 2));
    const sv = f32x4.splat(s);
    const dv = f32x4.splat(dl);
    const qt = (<usize>t) << 2;
    const before = load<f32>(dr + qt);
    let i = 0;
    for (; i + 4 <= V; i += 4) {
      const q = (<usize>i) << 2;
      const p = f32x4.div(v128.load(e + q), sv);
      v128.store(dr + q, f32x4.add(v128.load(dr + q), f32x4.mul(p, dv)));
    }
    for (; i < V; i++) {
      const q = (<usize>i) << 2;
      store<f32>(dr + q, load<f32>(dr + q) + (load<f32>(e + q) / s) * dl);
    }
    store<f32>(dr + qt, before + (load<f32>(e + qt) / s - 1) * dl);
  }
}
