/**
 * Attention kernels (ops/attention.ts, ops/kvattention.ts are the references): the training
 * forward and backward (causal self-attention from packed qkv, the probabilities saved as causal
 * triangles) and the cached decoding step (k and v in an f32 cache or as packed IEEE halves).
 *
 * Layout: qkv (B, T, 3C) = [q | k | v] per token, head h owning channels [h·hs, (h+1)·hs) of each;
 * saved probability (b, h, t, t2 ≤ t) at (b·H + h)·T(T+1)/2 + t(t+1)/2 + t2.
 *
 * Dot products and weighted sums run over the head dim in f32x4 lanes (a scalar tail where hs is
 * not a multiple of 4; lanes summed (0 + 1) + (2 + 3)). Threads split:
 *   forward   query rows (b, h, t): each row's scores, softmax and output computed by one part;
 *   backward  (b, h) pairs: dk and dv of a pair sum over that pair's rows only, so one part owns
 *             every sum into the pair's channels and adds its rows in order t = 0, 1, …;
 *   cached    queries (b, s, h).
 * The loops of an output never depend on the split: the bits are the same on any number of threads.
 * Scratch (the backward's dscores triangle of the current pair, the cached scores of the current
 * query) is one region per part, passed in by the glue (parts ≤ threads).
 */
import { splitFrom } from './split';
import { expv, hsum } from './simd';
import { f32ToHalf, halfToF32, halvesAt } from './half';

// ---- helpers -------------------------------------------------------------------------------------

/** Σ a[i]·b[i], i < n (f32 rows at byte addresses a, b). */
function dotF32(a: usize, b: usize, n: i32): f32 {
  let acc = f32x4.splat(0);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = (<usize>i) << 2;
    acc = f32x4.add(acc, f32x4.mul(v128.load(a + o), v128.load(b + o)));
  }
  let s = hsum(acc);
  for (; i < n; i++) {
    const o = (<usize>i) << 2;
    s += load<f32>(a + o) * load<f32>(b + o);
  }
  return s;
}

/** Σ q[i]·k[i], i < n, q f32 and k halves (n even, k word-aligned). */
function dotHalf(q: usize, k: usize, n: i32): f32 {
  let acc = f32x4.splat(0);
  let i = 0;
  for (; i + 4 <= n; i += 4)
    acc = f32x4.add(acc, f32x4.mul(v128.load(q + ((<usize>i) << 2)), halvesAt(k + ((<usize>i) << 1))));
  let s = hsum(acc);
  for (; i < n; i++) s += load<f32>(q + ((<usize>i) << 2)) * halfToF32(load<u16>(k + ((<usize>i) << 1)));
  return s;
}

/**
 * dst[u] = (q · k_u)·scale for u < n, k_u = k0 + u·stride (bytes), hs channels; returns the max.
 * Four positions at a time (four independent sums sharing the q loads); each score is summed
 * exactly as dotF32 sums it.
 */
function scoresF32(dst: usize, q: usize, k0: usize, stride: usize, n: i32, hs: i32, scale: f32): f32 {
  let max: f32 = -Infinity;
  let u = 0;
  for (; u + 4 <= n; u += 4) {
    const k = k0 + <usize>u * stride;
    let a0 = f32x4.splat(0);
    let a1 = f32x4.splat(0);
    let a2 = f32x4.splat(0);
    let a3 = f32x4.splat(0);
    let i = 0;
    for (; i + 4 <= hs; i += 4) {
      const o = (<usize>i) << 2;
      const x = v128.load(q + o);
      a0 = f32x4.add(a0, f32x4.mul(x, v128.load(k + o)));
      a1 = f32x4.add(a1, f32x4.mul(x, v128.load(k + stride + o)));
      a2 = f32x4.add(a2, f32x4.mul(x, v128.load(k + 2 * stride + o)));
      a3 = f32x4.add(a3, f32x4.mul(x, v128.load(k + 3 * stride + o)));
    }
    let s0 = hsum(a0);
    let s1 = hsum(a1);
    let s2 = hsum(a2);
    let s3 = hsum(a3);
    for (; i < hs; i++) {
      const o = (<usize>i) << 2;
      const x = load<f32>(q + o);
      s0 += x * load<f32>(k + o);
      s1 += x * load<f32>(k + stride + o);
      s2 += x * load<f32>(k + 2 * stride + o);
      s3 += x * load<f32>(k + 3 * stride + o);
    }
    const d = dst + ((<usize>u) << 2);
    s0 *= scale;
    s1 *= scale;
    s2 *= scale;
    s3 *= scale;
    store<f32>(d, s0);
    store<f32>(d + 4, s1);
    store<f32>(d + 8, s2);
    store<f32>(d + 12, s3);
    max = Mathf.max(Mathf.max(Mathf.max(max, s0), s1), Mathf.max(s2, s3));
  }
  for (; u < n; u++) {
    const v = dotF32(q, k0 + <usize>u * stride, hs) * scale;
    store<f32>(dst + ((<usize>u) << 2), v);
    max = Mathf.max(max, v);
  }
  return max;
}

/** scoresF32 over a cache of halves (hs even; stride in bytes), each score summed as dotHalf. */
function scoresHalf(dst: usize, q: usize, k0: usize, stride: usize, n: i32, hs: i32, scale: f32): f32 {
  let max: f32 = -Infinity;
  let u = 0;
  for (; u + 4 <= n; u += 4) {
    const k = k0 + <usize>u * stride;
    let a0 = f32x4.splat(0);
    let a1 = f32x4.splat(0);
    let a2 = f32x4.splat(0);
    let a3 = f32x4.splat(0);
    let i = 0;
    for (; i + 4 <= hs; i += 4) {
      const x = v128.load(q + ((<usize>i) << 2));
      const o = (<usize>i) << 1;
      a0 = f32x4.add(a0, f32x4.mul(x, halvesAt(k + o)));
      a1 = f32x4.add(a1, f32x4.mul(x, halvesAt(k + stride + o)));
      a2 = f32x4.add(a2, f32x4.mul(x, halvesAt(k + 2 * stride + o)));
      a3 = f32x4.add(a3, f32x4.mul(x, halvesAt(k + 3 * stride + o)));
    }
    let s0 = hsum(a0);
    let s1 = hsum(a1);
    let s2 = hsum(a2);
    let s3 = hsum(a3);
    for (; i < hs; i++) {
      const x = load<f32>(q + ((<usize>i) << 2));
      const o = (<usize>i) << 1;
      s0 += x * halfToF32(load<u16>(k + o));
      s1 += x * halfToF32(load<u16>(k + stride + o));
      s2 += x * halfToF32(load<u16>(k + 2 * stride + o));
      s3 += x * halfToF32(load<u16>(k + 3 * stride + o));
    }
    const d = dst + ((<usize>u) << 2);
    s0 *= scale;
    s1 *= scale;
    s2 *= scale;
    s3 *= scale;
    store<f32>(d, s0);
    store<f32>(d + 4, s1);
    store<f32>(d + 8, s2);
    store<f32>(d + 12, s3);
    max = Mathf.max(Mathf.max(Mathf.max(max, s0), s1), Mathf.max(s2, s3));
  }
  for (; u < n; u++) {
    const v = dotHalf(q, k0 + <usize>u * stride, hs) * scale;
    store<f32>(dst + ((<usize>u) << 2), v);
    max = Mathf.max(max, v);
  }
  return max;
}

/**
 * o[i] (+)= Σ_u w[u]·v_u[i] for i < hs, v_u = v0 + u·stride (bytes, f32 rows; `add`: onto o).
 * Sixteen channels at a time (four independent sums), then four, then one; every element sums
 * over u = 0, 1, … in order.
 */
function weightedF32(o: usize, w: usize, v0: usize, stride: usize, n: i32, hs: i32, add: bool): void {
  let i = 0;
  for (; i + 16 <= hs; i += 16) {
    let a0 = f32x4.splat(0);
    let a1 = f32x4.splat(0);
    let a2 = f32x4.splat(0);
    let a3 = f32x4.splat(0);
    let v = v0 + ((<usize>i) << 2);
    for (let u = 0; u < n; u++) {
      const x = f32x4.splat(load<f32>(w + ((<usize>u) << 2)));
      a0 = f32x4.add(a0, f32x4.mul(x, v128.load(v)));
      a1 = f32x4.add(a1, f32x4.mul(x, v128.load(v + 16)));
      a2 = f32x4.add(a2, f32x4.mul(x, v128.load(v + 32)));
      a3 = f32x4.add(a3, f32x4.mul(x, v128.load(v + 48)));
      v += stride;
    }
    const at = o + ((<usize>i) << 2);
    if (add) {
      a0 = f32x4.add(v128.load(at), a0);
      a1 = f32x4.add(v128.load(at + 16), a1);
      a2 = f32x4.add(v128.load(at + 32), a2);
      a3 = f32x4.add(v128.load(at + 48), a3);
    }
    v128.store(at, a0);
    v128.store(at + 16, a1);
    v128.store(at + 32, a2);
    v128.store(at + 48, a3);
  }
  for (; i + 4 <= hs; i += 4) {
    let acc = f32x4.splat(0);
    let v = v0 + ((<usize>i) << 2);
    for (let u = 0; u < n; u++) {
      acc = f32x4.add(acc, f32x4.mul(f32x4.splat(load<f32>(w + ((<usize>u) << 2))), v128.load(v)));
      v += stride;
    }
    const at = o + ((<usize>i) << 2);
    v128.store(at, add ? f32x4.add(v128.load(at), acc) : acc);
  }
  for (; i < hs; i++) {
    let acc: f32 = 0;
    let v = v0 + ((<usize>i) << 2);
    for (let u = 0; u < n; u++) {
      acc += load<f32>(w + ((<usize>u) << 2)) * load<f32>(v);
      v += stride;
    }
    const at = o + ((<usize>i) << 2);
    store<f32>(at, add ? load<f32>(at) + acc : acc);
  }
}

/** o[i] = Σ_u w[u]·v_u[i] over a cache of halves (hs even, stride in bytes), as weightedF32. */
function weightedHalf(o: usize, w: usize, v0: usize, stride: usize, n: i32, hs: i32): void {
  let i = 0;
  for (; i + 16 <= hs; i += 16) {
    let a0 = f32x4.splat(0);
    let a1 = f32x4.splat(0);
    let a2 = f32x4.splat(0);
    let a3 = f32x4.splat(0);
    let v = v0 + ((<usize>i) << 1);
    for (let u = 0; u < n; u++) {
      const x = f32x4.splat(load<f32>(w + ((<usize>u) << 2)));
      a0 = f32x4.add(a0, f32x4.mul(x, halvesAt(v)));
      a1 = f32x4.add(a1, f32x4.mul(x, halvesAt(v + 8)));
      a2 = f32x4.add(a2, f32x4.mul(x, halvesAt(v + 16)));
      a3 = f32x4.add(a3, f32x4.mul(x, halvesAt(v + 24)));
      v += stride;
    }
    const at = o + ((<usize>i) << 2);
    v128.store(at, a0);
    v128.store(at + 16, a1);
    v128.store(at + 32, a2);
    v128.store(at + 48, a3);
  }
  for (; i + 4 <= hs; i += 4) {
    let acc = f32x4.splat(0);
    let v = v0 + ((<usize>i) << 1);
    for (let u = 0; u < n; u++) {
      acc = f32x4.add(acc, f32x4.mul(f32x4.splat(load<f32>(w + ((<usize>u) << 2))), halvesAt(v)));
      v += stride;
    }
    v128.store(o + ((<usize>i) << 2), acc);
  }
  for (; i < hs; i++) {
    let acc: f32 = 0;
    let v = v0 + ((<usize>i) << 1);
    for (let u = 0; u < n; u++) {
      acc += load<f32>(w + ((<usize>u) << 2)) * halfToF32(load<u16>(v));
      v += stride;
    }
    store<f32>(o + ((<usize>i) << 2), acc);
  }
}

/** p[u] = exp(p[u] − max) for u < n; returns Σ (in f64, in order u = 0, 1, …). */
function expRow(p: usize, n: i32, max: f32): f64 {
  let sum: f64 = 0;
  const m = f32x4.splat(max);
  let u = 0;
  for (; u + 4 <= n; u += 4) {
    const at = p + ((<usize>u) << 2);
    const e = expv(f32x4.sub(v128.load(at), m));
    v128.store(at, e);
    sum += <f64>f32x4.extract_lane(e, 0);
    sum += <f64>f32x4.extract_lane(e, 1);
    sum += <f64>f32x4.extract_lane(e, 2);
    sum += <f64>f32x4.extract_lane(e, 3);
  }
  for (; u < n; u++) {
    const at = p + ((<usize>u) << 2);
    const e = f32x4.extract_lane(expv(f32x4.splat(load<f32>(at) - max)), 0);
    store<f32>(at, e);
    sum += <f64>e;
  }
  return sum;
}

// ---- training forward ------------------------------------------------------------------------------

/**
 * out (B, T, C) and att (the causal triangles) from qkv (B, T, 3C): the rows (b, h, t) of part
 * `part`, r = (b·H + h)·T + t.
 */
export function attn_forward(
  out: usize,
  att: usize,
  qkv: usize,
  B: i32,
  T: i32,
  C: i32,
  H: i32,
  scale: f32,
  part: i32,
  parts: i32,
): void {
  const hs = C / H;
  const stride = (<usize>(3 * C)) << 2; // bytes from one token's qkv to the next
  const tri = (<usize>T * <usize>(T + 1)) >> 1;
  const n = B * H * T;
  const to = splitFrom(n, part + 1, parts);
  for (let r = splitFrom(n, part, parts); r < to; r++) {
    const t = r % T;
    const bh = r / T;
    const b = bh / H;
    const h = bh % H;
    const tok0 = <usize>b * <usize>T; // token (b, 0)
    const q = qkv + (tok0 + <usize>t) * stride + ((<usize>(h * hs)) << 2);
    const k0 = qkv + tok0 * stride + ((<usize>(C + h * hs)) << 2);
    const v0 = qkv + tok0 * stride + ((<usize>(2 * C + h * hs)) << 2);
    const a = att + ((<usize>bh * tri + ((<usize>t * <usize>(t + 1)) >> 1)) << 2);
    const n2 = t + 1;
    const max = scoresF32(a, q, k0, stride, n2, hs, scale);
    const sum = <f32>expRow(a, n2, max);
    const vs = f32x4.splat(sum);
    let t2 = 0;
    for (; t2 + 4 <= n2; t2 += 4) {
      const at = a + ((<usize>t2) << 2);
      v128.store(at, f32x4.div(v128.load(at), vs));
    }
    for (; t2 < n2; t2++) {
      const at = a + ((<usize>t2) << 2);
      store<f32>(at, load<f32>(at) / sum);
    }
    // out = Σ att · v
    weightedF32(out + ((tok0 + <usize>t) * <usize>C + <usize>(h * hs)) * 4, a, v0, stride, n2, hs, false);
  }
}

// ---- training backward -----------------------------------------------------------------------------

/**
 * dqkv (B, T, 3C) += from dOut (B, T, C), qkv and att (f32 triangles, or packed halves where `half`
 * is 1): the (b, h) pairs of part `part`, each in two passes. Rows t: dscores (kept, a triangle like
 * att's) and dq[t]. Columns u: dv[u] += Σ_t att[t, u]·dOut[t] and dk[u] += Σ_t dscores[t, u]·q[t],
 * t = u … T−1 in order. `scratch` holds T(T+1)/2 + 3T floats per part: the dscores triangle, a row
 * of probabilities unpacked from halves, and two gathered columns.
 */
export function attn_backward(
  dqkv: usize,
  dout: usize,
  qkv: usize,
  att: usize,
  scratch: usize,
  B: i32,
  T: i32,
  C: i32,
  H: i32,
  scale: f32,
  half: i32,
  part: i32,
  parts: i32,
): void {
  const hs = C / H;
  const stride = (<usize>(3 * C)) << 2;
  const dstride = (<usize>C) << 2; // bytes from one token's dOut to the next
  const tri = (<usize>T * <usize>(T + 1)) >> 1;
  const ds = scratch + ((<usize>part * (tri + 3 * <usize>T)) << 2); // dscores, the causal triangle
  const ph = ds + (tri << 2); // a row's probabilities, from halves
  const ca = ph + ((<usize>T) << 2); // column u of att
  const cd = ca + ((<usize>T) << 2); // column u of dscores
  const vsc = f32x4.splat(scale);
  const n = B * H;
  const to = splitFrom(n, part + 1, parts);
  for (let bh = splitFrom(n, part, parts); bh < to; bh++) {
    const b = bh / H;
    const h = bh % H;
    const tok0 = <usize>b * <usize>T;
    const q0 = qkv + tok0 * stride + ((<usize>(h * hs)) << 2);
    const k0 = qkv + tok0 * stride + ((<usize>(C + h * hs)) << 2);
    const v0 = qkv + tok0 * stride + ((<usize>(2 * C + h * hs)) << 2);
    const o0 = dout + (tok0 * <usize>C + <usize>(h * hs)) * 4;
    const base = <usize>bh * tri; // index of (t = 0, u = 0) of this pair in att
    // rows: dscores[t] = att ⊙ (datt − Σ att⊙datt)·scale, datt = dOut[t]·v; dq[t] += Σ dscores·k
    for (let t = 0; t < T; t++) {
      const n2 = t + 1;
      const first = (<usize>t * <usize>(t + 1)) >> 1; // (t, 0) within the pair
      let p = att + ((base + first) << 2);
      if (half) {
        for (let u = 0; u < n2; u++)
          store<f32>(ph + ((<usize>u) << 2), halfToF32(load<u16>(att + ((base + first + <usize>u) << 1))));
        p = ph;
      }
      const d = ds + (first << 2);
      scoresF32(d, o0 + <usize>t * dstride, v0, stride, n2, hs, 1);
      const dot = dotF32(p, d, n2);
      const vdot = f32x4.splat(dot);
      let u = 0;
      for (; u + 4 <= n2; u += 4) {
        const o4 = (<usize>u) << 2;
        v128.store(d + o4, f32x4.mul(f32x4.mul(v128.load(p + o4), f32x4.sub(v128.load(d + o4), vdot)), vsc));
      }
      for (; u < n2; u++) {
        const o1 = (<usize>u) << 2;
        store<f32>(d + o1, load<f32>(p + o1) * (load<f32>(d + o1) - dot) * scale);
      }
      weightedF32(q0 - qkv + dqkv + <usize>t * stride, d, k0, stride, n2, hs, true);
    }
    // columns: dv[u] += Σ_t att[t, u]·dOut[t], dk[u] += Σ_t dscores[t, u]·q[t]
    for (let u = 0; u < T; u++) {
      const m = T - u;
      let at = ((<usize>u * <usize>(u + 1)) >> 1) + <usize>u; // (t = u, u)
      for (let w = 0; w < m; w++) {
        const a = base + at;
        const pv = half ? halfToF32(load<u16>(att + (a << 1))) : load<f32>(att + (a << 2));
        store<f32>(ca + ((<usize>w) << 2), pv);
        store<f32>(cd + ((<usize>w) << 2), load<f32>(ds + (at << 2)));
        at += <usize>(u + w + 1); // row t + 1 starts t + 1 later
      }
      weightedF32(v0 - qkv + dqkv + <usize>u * stride, ca, o0 + <usize>u * dstride, dstride, m, hs, true);
      weightedF32(k0 - qkv + dqkv + <usize>u * stride, cd, q0 + <usize>u * stride, stride, m, hs, true);
    }
  }
}

// ---- cached attention ----------------------------------------------------------------------------

/**
 * The new tokens' k and v into kCache / vCache (B, maxT, C): f32, or (f16 = 1) halves packed two
 * to a word (C even). Padding (s ≥ len[b]) and positions outside [0, maxT) are skipped.
 */
export function attn_kv_write(
  kc: usize,
  vc: usize,
  qkv: usize,
  start: usize,
  len: usize,
  B: i32,
  S: i32,
  maxT: i32,
  C: i32,
  f16: i32,
): void {
  for (let b = 0; b < B; b++) {
    const st = load<i32>(start + ((<usize>b) << 2));
    const ln = load<i32>(len + ((<usize>b) << 2));
    for (let j = 0; j < S && j < ln; j++) {
      const t = st + j;
      if (t < 0 || t >= maxT) continue;
      const dst = (<usize>b * <usize>maxT + <usize>t) * <usize>C; // element index of channel 0
      const src = qkv + ((<usize>(b * S + j) * <usize>(3 * C)) << 2);
      const k = src + ((<usize>C) << 2);
      const v = src + ((<usize>(2 * C)) << 2);
      if (f16) {
        for (let c = 0; c < C; c += 2) {
          const o = (<usize>c) << 2;
          const w = (dst + <usize>c) << 1; // byte address of the word holding channels c, c + 1
          store<u32>(kc + w, f32ToHalf(load<f32>(k + o)) | (f32ToHalf(load<f32>(k + o + 4)) << 16));
          store<u32>(vc + w, f32ToHalf(load<f32>(v + o)) | (f32ToHalf(load<f32>(v + o + 4)) << 16));
        }
      } else {
        memory.copy(kc + (dst << 2), k, (<usize>C) << 2);
        memory.copy(vc + (dst << 2), v, (<usize>C) << 2);
      }
    }
  }
}

/**
 * out (B, S, C): each live new query (b, s, h) attends over cache positions 0 … start[b] + s (the
 * cache as attn_kv_write left it); padding rows are 0. Queries q = (b·S + s)·H + h of part `part`;
 * `scores` holds maxT floats per part.
 */
export function attn_kv_attend(
  out: usize,
  kc: usize,
  vc: usize,
  qkv: usize,
  start: usize,
  len: usize,
  scores: usize,
  B: i32,
  S: i32,
  maxT: i32,
  C: i32,
  H: i32,
  scale: f32,
  f16: i32,
  part: i32,
  parts: i32,
): void {
  const hs = C / H;
  const sc = scores + ((<usize>part * <usize>maxT) << 2);
  const eb: usize = f16 ? 1 : 2; // log2 of the bytes per cached element
  const row = (<usize>C) << eb; // bytes from one cached position to the next
  const n = B * S * H;
  const to = splitFrom(n, part + 1, parts);
  for (let item = splitFrom(n, part, parts); item < to; item++) {
    const h = item % H;
    const bs = item / H;
    const j = bs % S;
    const b = bs / S;
    const pos = load<i32>(start + ((<usize>b) << 2)) + j;
    const o = out + ((<usize>bs * <usize>C + <usize>(h * hs)) << 2);
    if (j >= load<i32>(len + ((<usize>b) << 2)) || pos < 0 || pos >= maxT) {
      memory.fill(o, 0, (<usize>hs) << 2);
      continue;
    }
    const q = qkv + ((<usize>bs * <usize>(3 * C) + <usize>(h * hs)) << 2);
    const first = (<usize>b * <usize>maxT * <usize>C + <usize>(h * hs)) << eb; // position 0 of this head
    const k0 = kc + first;
    const v0 = vc + first;
    const n2 = pos + 1;
    const max = f16 ? scoresHalf(sc, q, k0, row, n2, hs, scale) : scoresF32(sc, q, k0, row, n2, hs, scale);
    const sum = <f32>expRow(sc, n2, max);
    if (f16) weightedHalf(o, sc, v0, row, n2, hs);
    else weightedF32(o, sc, v0, row, n2, hs, false);
    const vs = f32x4.splat(sum);
    let i = 0;
    for (; i + 4 <= hs; i += 4) {
      const at = o + ((<usize>i) << 2);
      v128.store(at, f32x4.div(v128.load(at), vs));
    }
    for (; i < hs; i++) {
      const at = o + ((<usize>i) << 2);
      store<f32>(at, load<f32>(at) / sum);
    }
  }
}
