/**
 * The optimiser and RL kernels (glue: ../ops/optim.ts; the specs: ../../ops/adamw.ts, clip.ts,
 * policyloss.ts, valueloss.ts, advantage.ts).
 *
 *   opt_adamw              one AdamW step, f32 SIMD, threaded over elements
 *   opt_nonfinite_chunks   non-finite counts of fixed chunks of a vector, threaded over chunks
 *   opt_nonfinite_finish   their sum, in chunk order, added to the flag
 *   opt_sumsq_chunks       sums of squares (f64) of fixed chunks, threaded over chunks
 *   opt_sumsq_finish       the norm from the chunk sums in chunk order; returns the clip factor
 *   opt_scale_f64          x *= s with s in f64 (as the reference's JavaScript multiply), threaded
 *   opt_token_logprobs     log-softmax at the action and entropy per row, threaded over rows
 *   opt_policy_loss        the fused PPO loss per row (stats, dLogits +=), threaded over rows
 *   opt_value_loss         the clipped value loss per token, f64 scalar, threaded over tokens
 *   opt_gae                GAE's reverse scans, f64 scalar, one thread
 *   opt_group_advantages   GRPO / RLOO, f64 scalar, one thread
 *
 * Reductions over a whole vector sum chunks of `chunk` elements (a multiple of 8 fixed by the
 * glue, never by the number of parts) into one partial each, in a fixed lane order; one thread
 * then adds the partials in order. Row kernels give each row to one part. Either way the bits do
 * not depend on the number of threads.
 *
 * The small scalar kernels (value loss, GAE, group advantages) compute in f64 in the reference's
 * order, so they give the reference's bits.
 */
import { splitFrom } from './split';
import { expv, hsum, rowMax } from './simd';

// ---- helpers --------------------------------------------------------------------------------------

function at(base: usize, i: i32): usize {
  return base + ((<usize>i) << 2);
}

/** The same function on one value (row tails), so a row's lanes and tail agree. */
function expF32(x: f32): f32 {
  return f32x4.extract_lane(expv(f32x4.splat(x)), 0);
}

// ---- AdamW ---------------------------------------------------------------------------------------

/**
 * One AdamW step on elements [0, n) in place (../../ops/adamw.ts): p ← p·decay − stepSize·m/(√v/bc2Sqrt + eps)
 * with m, v the updated moments; omb1 = 1 − β₁, omb2 = 1 − β₂. Runs of four and the tail do the
 * same lane operations (no fused multiply-add), so an element's bits do not depend on where the
 * split falls.
 */
export function opt_adamw(
  p: usize,
  g: usize,
  m: usize,
  v: usize,
  n: i32,
  beta1: f32,
  omb1: f32,
  beta2: f32,
  omb2: f32,
  eps: f32,
  decay: f32,
  stepSize: f32,
  bc2Sqrt: f32,
  part: i32,
  parts: i32,
): void {
  const from = splitFrom(n, part, parts);
  const to = splitFrom(n, part + 1, parts);
  const b1 = f32x4.splat(beta1);
  const c1 = f32x4.splat(omb1);
  const b2 = f32x4.splat(beta2);
  const c2 = f32x4.splat(omb2);
  const ep = f32x4.splat(eps);
  const dc = f32x4.splat(decay);
  const st = f32x4.splat(stepSize);
  const bc = f32x4.splat(bc2Sqrt);
  // Runs of four, then the tail one lane at a time through the same vector operations.
  let i = from;
  for (; i + 4 <= to; i += 4) {
    const b = (<usize>i) << 2;
    const gi = v128.load(g + b);
    const mi = f32x4.add(f32x4.mul(b1, v128.load(m + b)), f32x4.mul(c1, gi));
    const vi = f32x4.add(f32x4.mul(b2, v128.load(v + b)), f32x4.mul(f32x4.mul(c2, gi), gi));
    const denom = f32x4.add(f32x4.div(f32x4.sqrt(vi), bc), ep);
    const pi = f32x4.sub(f32x4.mul(v128.load(p + b), dc), f32x4.div(f32x4.mul(st, mi), denom));
    v128.store(p + b, pi);
    v128.store(m + b, mi);
    v128.store(v + b, vi);
  }
  for (; i < to; i++) {
    const b = (<usize>i) << 2;
    const gi = v128.load32_zero(g + b);
    const mi = f32x4.add(f32x4.mul(b1, v128.load32_zero(m + b)), f32x4.mul(c1, gi));
    const vi = f32x4.add(f32x4.mul(b2, v128.load32_zero(v + b)), f32x4.mul(f32x4.mul(c2, gi), gi));
    const denom = f32x4.add(f32x4.div(f32x4.sqrt(vi), bc), ep);
    const pi = f32x4.sub(f32x4.mul(v128.load32_zero(p + b), dc), f32x4.div(f32x4.mul(st, mi), denom));
    v128.store32_lane(p + b, pi, 0);
    v128.store32_lane(m + b, mi, 0);
    v128.store32_lane(v + b, vi, 0);
  }
}

// ---- non-finite count ----------------------------------------------------------------------------

/** partials[c] (i32) = the NaN and ±∞ elements (exponent bits all ones) of chunk c of x, for this part's chunks. */
export function opt_nonfinite_chunks(x: usize, n: i32, chunk: i32, partials: usize, part: i32, parts: i32): void {
  const W = (n + chunk - 1) / chunk;
  const cFrom = splitFrom(W, part, parts);
  const cTo = splitFrom(W, part + 1, parts);
  const expMask = i32x4.splat(0x7f800000);
  for (let c = cFrom; c < cTo; c++) {
    const from = c * chunk;
    const to = min(n, from + chunk);
    let acc = i32x4.splat(0);
    let i = from;
    for (; i + 4 <= to; i += 4) {
      const e = v128.and(v128.load(at(x, i)), expMask);
      acc = i32x4.sub(acc, i32x4.eq(e, expMask)); // a true lane is −1
    }
    let count =
      i32x4.extract_lane(acc, 0) + i32x4.extract_lane(acc, 1) + i32x4.extract_lane(acc, 2) + i32x4.extract_lane(acc, 3);
    for (; i < to; i++) if ((load<u32>(at(x, i)) & 0x7f800000) == 0x7f800000) count++;
    store<i32>(at(partials, c), count);
  }
}

/** flag[0] += Σ partials[0 .. W) (the sum exact in f64, one rounding to f32 as the reference's). */
export function opt_nonfinite_finish(flag: usize, partials: usize, W: i32): void {
  let total: f64 = 0;
  for (let c = 0; c < W; c++) total += <f64>load<i32>(at(partials, c));
  store<f32>(flag, <f32>(<f64>load<f32>(flag) + total));
}

// ---- gradient norm --------------------------------------------------------------------------------

/**
 * partials[c] (f64) = Σ x² over chunk c (in f64, four f64x2 accumulators over runs of 8 in a fixed
 * order), for this part's chunks. `chunk` is a multiple of 8, so only the last chunk has a tail.
 */
export function opt_sumsq_chunks(x: usize, n: i32, chunk: i32, partials: usize, part: i32, parts: i32): void {
  const W = (n + chunk - 1) / chunk;
  const cFrom = splitFrom(W, part, parts);
  const cTo = splitFrom(W, part + 1, parts);
  for (let c = cFrom; c < cTo; c++) {
    const from = c * chunk;
    const to = min(n, from + chunk);
    let a0 = f64x2.splat(0);
    let a1 = f64x2.splat(0);
    let a2 = f64x2.splat(0);
    let a3 = f64x2.splat(0);
    let i = from;
    for (; i + 8 <= to; i += 8) {
      const u = v128.load(at(x, i));
      const w = v128.load(at(x, i + 4));
      const u0 = f64x2.promote_low_f32x4(u);
      const u1 = f64x2.promote_low_f32x4(f32x4.shuffle(u, u, 2, 3, 0, 1));
      const w0 = f64x2.promote_low_f32x4(w);
      const w1 = f64x2.promote_low_f32x4(f32x4.shuffle(w, w, 2, 3, 0, 1));
      a0 = f64x2.add(a0, f64x2.mul(u0, u0));
      a1 = f64x2.add(a1, f64x2.mul(u1, u1));
      a2 = f64x2.add(a2, f64x2.mul(w0, w0));
      a3 = f64x2.add(a3, f64x2.mul(w1, w1));
    }
    const s = f64x2.add(f64x2.add(a0, a1), f64x2.add(a2, a3));
    let ss = f64x2.extract_lane(s, 0) + f64x2.extract_lane(s, 1);
    for (; i < to; i++) {
      const e = <f64>load<f32>(at(x, i));
      ss += e * e;
    }
    store<f64>(partials + ((<usize>c) << 3), ss);
  }
}

/**
 * norm[0] = √(Σ partials[0 .. W) in order); returns the clip factor min(1, maxNorm / (norm + eps))
 * in f64 from the unrounded norm (NaN for a non-finite norm, which scales nothing).
 */
export function opt_sumsq_finish(norm: usize, partials: usize, W: i32, maxNorm: f64, eps: f64): f64 {
  let ss: f64 = 0;
  for (let c = 0; c < W; c++) ss += load<f64>(partials + ((<usize>c) << 3));
  const nrm = Math.sqrt(ss);
  store<f32>(norm, <f32>nrm);
  return Math.min(1, maxNorm / (nrm + eps));
}

/** x[i] = f32(f64(x[i]) · s) for i in [0, n), threaded (the reference's `grad[i] *= s`, exactly). */
export function opt_scale_f64(x: usize, n: i32, s: f64, part: i32, parts: i32): void {
  const from = splitFrom(n, part, parts);
  const to = splitFrom(n, part + 1, parts);
  const sv = f64x2.splat(s);
  let i = from;
  for (; i + 4 <= to; i += 4) {
    const u = v128.load(at(x, i));
    const lo = f32x4.demote_f64x2_zero(f64x2.mul(f64x2.promote_low_f32x4(u), sv));
    const hi = f32x4.demote_f64x2_zero(f64x2.mul(f64x2.promote_low_f32x4(f32x4.shuffle(u, u, 2, 3, 0, 1)), sv));
    v128.store(at(x, i), f32x4.shuffle(lo, hi, 0, 1, 4, 5));
  }
  for (; i < to; i++) store<f32>(at(x, i), <f32>(<f64>load<f32>(at(x, i)) * s));
}

// ---- row statistics -----------------------------------------------------------------------------

/** (Σ e^{z−m}, Σ e^{z−m}(z − m)) of row [o, o + V) in lanes 0 and 1: four lanes each, then the tail. */
function rowSums(o: usize, V: i32, m: f32): v128 {
  const mv = f32x4.splat(m);
  let sv = f32x4.splat(0);
  let tv = f32x4.splat(0);
  let i = 0;
  for (; i + 4 <= V; i += 4) {
    const d = f32x4.sub(v128.load(at(o, i)), mv);
    const e = expv(d);
    sv = f32x4.add(sv, e);
    tv = f32x4.add(tv, f32x4.mul(e, d));
  }
  let s = hsum(sv);
  let t = hsum(tv);
  for (; i < V; i++) {
    const d = load<f32>(at(o, i)) - m;
    const e = expF32(d);
    s += e;
    t += e * d;
  }
  return f32x4.replace_lane(f32x4.splat(s), 1, t);
}

// ---- tokenLogprobs ----------------------------------------------------------------------------------

/**
 * logprobs[n] = z[n, a_n] − logsumexp(z[n]) (0 for an action outside [0, V)), entropy[n] =
 * log s − t/s (s = Σ e^{z−m}, t = Σ e^{z−m}(z − m)), for this part's rows of logits (N, V).
 */
export function opt_token_logprobs(
  logprobs: usize,
  entropy: usize,
  logits: usize,
  actions: usize,
  N: i32,
  V: i32,
  part: i32,
  parts: i32,
): void {
  const from = splitFrom(N, part, parts);
  const to = splitFrom(N, part + 1, parts);
  for (let n = from; n < to; n++) {
    const o = logits + ((<usize>n * <usize>V) << 2);
    const m = rowMax(o, V);
    const st = rowSums(o, V, m);
    const s = <f64>f32x4.extract_lane(st, 0);
    const t = <f64>f32x4.extract_lane(st, 1);
    const ls = Math.log(s);
    const a = load<i32>(at(actions, n));
    const lp = a >= 0 && a < V ? <f64>load<f32>(at(o, a)) - (<f64>m + ls) : 0;
    store<f32>(at(logprobs, n), <f32>lp);
    store<f32>(at(entropy, n), <f32>(ls - t / s));
  }
}

// ---- policyLoss ---------------------------------------------------------------------------------------

/**
 * The fused PPO policy loss for this part's rows (../../ops/policyloss.ts, policyLossRef): stats
 * (N, 8) overwritten (columns logprob, entropy, ratio, clippedLow, clippedHigh, approxKl, refKl,
 * pgLoss; 0 on inactive rows), dLogits (N, V) += the gradient on active rows. The per-row scalars
 * are f64 in the reference's order; the pass over V is f32 SIMD. refLogprobs is read only when
 * hasRef != 0; k3 != 0 picks the k3 estimator.
 */
export function opt_policy_loss(
  dLogits: usize,
  stats: usize,
  logits: usize,
  actions: usize,
  oldLogprobs: usize,
  advantages: usize,
  responseMask: usize,
  refLogprobs: usize,
  N: i32,
  V: i32,
  clipLow: f64,
  clipHigh: f64,
  entropyCoef: f64,
  klCoef: f64,
  k3: i32,
  hasRef: i32,
  lossScale: f64,
  lrClamp: f64,
  klClamp: f64,
  part: i32,
  parts: i32,
): void {
  const from = splitFrom(N, part, parts);
  const to = splitFrom(N, part + 1, parts);
  for (let n = from; n < to; n++) {
    const so = stats + ((<usize>n) << 5); // 8 columns of 4 bytes
    v128.store(so, f32x4.splat(0));
    v128.store(so + 16, f32x4.splat(0));
    const a = load<i32>(at(actions, n));
    const mask = <f64>load<f32>(at(responseMask, n));
    if (!(mask > 0) || a < 0 || a >= V) continue;
    const ro = (<usize>n * <usize>V) << 2;
    const o = logits + ro;
    const m = rowMax(o, V);
    const st = rowSums(o, V, m);
    const s = <f64>f32x4.extract_lane(st, 0);
    const t = <f64>f32x4.extract_lane(st, 1);
    const ls = Math.log(s);
    const ent = ls - t / s;
    const logp = <f64>load<f32>(at(o, a)) - (<f64>m + ls);
    // the clipped surrogate (policyRowRef)
    const adv = <f64>load<f32>(at(advantages, n));
    const raw = logp - <f64>load<f32>(at(oldLogprobs, n));
    const logRatio = Math.min(lrClamp, Math.max(-lrClamp, raw));
    const ratio = Math.exp(logRatio);
    const pg1 = -adv * ratio;
    const pg2 = -adv * Math.min(1 + clipHigh, Math.max(1 - clipLow, ratio));
    const clipped = pg2 > pg1;
    let g: f64 = clipped || raw != logRatio ? 0 : -adv * ratio;
    const approxKl = ratio - 1 - logRatio;
    let refKl: f64 = 0;
    if (hasRef != 0) {
      const refLp = <f64>load<f32>(at(refLogprobs, n));
      if (k3 != 0) {
        const dRaw = refLp - logp;
        const d = Math.min(lrClamp, Math.max(-lrClamp, dRaw));
        const e = Math.exp(d);
        const k = e - d - 1;
        refKl = Math.min(klClamp, Math.max(-klClamp, k));
        if (dRaw == d && k == refKl) g += klCoef * (1 - e);
      } else {
        refKl = logp - refLp;
        g += klCoef;
      }
    }
    store<f32>(so, <f32>logp);
    store<f32>(so + 4, <f32>ent);
    store<f32>(so + 8, <f32>ratio);
    store<f32>(so + 12, clipped && adv < 0 ? 1 : 0);
    store<f32>(so + 16, clipped && adv > 0 ? 1 : 0);
    store<f32>(so + 20, <f32>approxKl);
    store<f32>(so + 24, <f32>refKl);
    store<f32>(so + 28, <f32>Math.max(pg1, pg2));
    // dz_v += w (g (1[v = a] − p_v) + c_H p_v (log p_v + H)), log p_v = z_v − m − log s
    const w = <f32>(mask * lossScale);
    const gf = <f32>g;
    const cf = <f32>entropyCoef;
    const ef = <f32>ent;
    const lsf = <f32>ls;
    const dz = dLogits + ro;
    const mv = f32x4.splat(m);
    const lsv = f32x4.splat(lsf);
    const wv = f32x4.splat(w);
    const gv = f32x4.splat(gf);
    const cv = f32x4.splat(cf);
    const ev = f32x4.splat(ef);
    const one = f32x4.splat(1);
    const av = i32x4.splat(a);
    let idx = i32x4(0, 1, 2, 3);
    const four = i32x4.splat(4);
    let i = 0;
    for (; i + 4 <= V; i += 4) {
      const lp = f32x4.sub(f32x4.sub(v128.load(at(o, i)), mv), lsv);
      const p = expv(lp);
      const hot = v128.and(i32x4.eq(idx, av), one);
      const term = f32x4.add(f32x4.mul(gv, f32x4.sub(hot, p)), f32x4.mul(f32x4.mul(cv, p), f32x4.add(lp, ev)));
      v128.store(at(dz, i), f32x4.add(v128.load(at(dz, i)), f32x4.mul(wv, term)));
      idx = i32x4.add(idx, four);
    }
    for (; i < V; i++) {
      const lp = load<f32>(at(o, i)) - m - lsf;
      const p = expF32(lp);
      const hot: f32 = i == a ? 1 : 0;
      store<f32>(at(dz, i), load<f32>(at(dz, i)) + w * (gf * (hot - p) + cf * p * (lp + ef)));
    }
  }
}

// ---- valueLoss ------------------------------------------------------------------------------------------

/**
 * PPO's clipped value loss for this part's tokens (valueLossRef, in f64 in its order): stats (N, 2)
 * overwritten with [½ max((v−R)², (v_clip−R)²), clipped] (0 on masked tokens), dValues += the gradient.
 */
export function opt_value_loss(
  stats: usize,
  dValues: usize,
  values: usize,
  oldValues: usize,
  returns: usize,
  responseMask: usize,
  N: i32,
  hasClip: i32,
  clip: f64,
  lossScale: f64,
  part: i32,
  parts: i32,
): void {
  const from = splitFrom(N, part, parts);
  const to = splitFrom(N, part + 1, parts);
  for (let n = from; n < to; n++) {
    const so = stats + ((<usize>n) << 3);
    store<f32>(so, 0);
    store<f32>(so + 4, 0);
    const mask = <f64>load<f32>(at(responseMask, n));
    if (!(mask > 0)) continue;
    const v = <f64>load<f32>(at(values, n));
    const old = <f64>load<f32>(at(oldValues, n));
    const R = <f64>load<f32>(at(returns, n));
    const vc = hasClip != 0 ? Math.min(old + clip, Math.max(old - clip, v)) : v;
    const l1 = (v - R) * (v - R);
    const l2 = (vc - R) * (vc - R);
    const clipped = l2 > l1;
    store<f32>(so, <f32>(0.5 * Math.max(l1, l2)));
    store<f32>(so + 4, clipped ? 1 : 0);
    if (!clipped) store<f32>(at(dValues, n), <f32>(<f64>load<f32>(at(dValues, n)) + mask * lossScale * (v - R)));
  }
}

// ---- advantages -------------------------------------------------------------------------------------

/** GAE by a reverse scan per dialogue (gaeRef, in f64 in its order); offsets (D + 1, i32). One thread. */
export function opt_gae(
  advantages: usize,
  returns: usize,
  rewards: usize,
  values: usize,
  responseMask: usize,
  offsets: usize,
  D: i32,
  N: i32,
  gamma: f64,
  lambda: f64,
): void {
  for (let d = 0; d < D; d++) {
    const start = max(0, min(N, load<i32>(at(offsets, d))));
    const end = max(start, min(N, load<i32>(at(offsets, d + 1))));
    let nextValue: f64 = 0;
    let last: f64 = 0;
    for (let t = end - 1; t >= start; t--) {
      if (!(load<f32>(at(responseMask, t)) > 0)) {
        store<f32>(at(advantages, t), 0);
        store<f32>(at(returns, t), 0);
        continue;
      }
      const v = <f64>load<f32>(at(values, t));
      const delta = <f64>load<f32>(at(rewards, t)) + gamma * nextValue - v;
      last = delta + gamma * lambda * last;
      nextValue = v;
      store<f32>(at(advantages, t), <f32>last);
      store<f32>(at(returns, t), <f32>(last + v));
    }
  }
}

/**
 * GRPO / RLOO advantages over groups of dialogues (groupAdvantagesRef, in f64 in its order; O(D²)
 * as it is). rloo != 0: leave-one-out; else grpo, divided by (std + eps) when scaleByStd != 0.
 */
export function opt_group_advantages(
  advantages: usize,
  rewards: usize,
  groups: usize,
  D: i32,
  rloo: i32,
  scaleByStd: i32,
  eps: f64,
): void {
  for (let d = 0; d < D; d++) {
    const r = <f64>load<f32>(at(rewards, d));
    const gd = load<i32>(at(groups, d));
    store<f32>(at(advantages, d), 0);
    if (!isFinite<f64>(r)) continue;
    let k = 0;
    let sum: f64 = 0;
    let lo = r;
    let hi = r;
    for (let j = 0; j < D; j++) {
      const x = <f64>load<f32>(at(rewards, j));
      if (load<i32>(at(groups, j)) != gd || !isFinite<f64>(x)) continue;
      k++;
      sum += x;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    if (k < 2 || lo == hi) continue;
    if (rloo != 0) {
      store<f32>(at(advantages, d), <f32>(r - (sum - r) / <f64>(k - 1)));
      continue;
    }
    const mean = sum / <f64>k;
    let ss: f64 = 0;
    for (let j = 0; j < D; j++) {
      const x = <f64>load<f32>(at(rewards, j));
      if (load<i32>(at(groups, j)) == gd && isFinite<f64>(x)) ss += (x - mean) * (x - mean);
    }
    const std = Math.sqrt(ss / <f64>(k - 1));
    store<f32>(at(advantages, d), <f32>(scaleByStd != 0 ? (r - mean) / (std + eps) : r - mean));
  }
}
