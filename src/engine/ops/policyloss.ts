/**
 * The RL losses on the logits, fused per row (one workgroup per token row, fixed-order tree
 * reductions over V as in crossentropy.ts; no atomics):
 *   - tokenLogprobs: log π(a|s) of the chosen token and the entropy of the row (rollout scoring of
 *     oldLogprobs / refLogprobs, diagnostics);
 *   - policyLoss: the clipped PPO surrogate + entropy bonus + KL to a frozen reference, forward
 *     diagnostics per row and the gradient of the token-mean total loss w.r.t. the logits.
 * The value loss, elementwise, is in valueloss.ts.
 * CPU references (the spec, plain loops), WGSL kernels, backend entry points, and the host-side
 * reduction of the per-row diagnostics into step metrics. Equations and sources: docs/ALGORITHMS.md.
 *
 * Per active row (mask > 0 and 0 <= action < V), with w = mask · lossScale (lossScale = 1/#masked
 * tokens gives verl's token-mean):
 *   logp   = z_a − logsumexp(z)                                   log π_θ(a|s)
 *   H      = −Σ p log p                                           entropy
 *   ρ      = exp(clamp(logp − oldLogp, ±LOG_RATIO_CLAMP))         ratio r_t(θ)
 *   pg     = max(−A ρ, −A clip(ρ, 1 − ε_low, 1 + ε_high))         −L^CLIP (per token)
 *   kl     = logp − refLogp (k1)  |  e^δ − δ − 1, δ = refLogp − logp (k3, verl "low_var_kl")
 *   ℓ      = pg − c_H H + c_KL kl                                 the total loss, L = Σ w ℓ
 *   dz_i  += w [ g (1[i=a] − p_i) + c_H p_i (log p_i + H) ],  g = ∂(pg + c_KL kl)/∂logp
 * Masked rows (mask <= 0) and rows with an action outside [0, V) add nothing and get all-zero stats.
 *
 * Shape legend: N token rows (B*T), V vocab, S = POLICY_STATS columns.
 *   logits, dLogits: (N, V); actions (i32), oldLogprobs, refLogprobs, advantages, responseMask: (N);
 *   stats: (N, S), columns named by POLICY_STAT.
 *
 * Longer than ~400 lines on purpose: both fused row ops share the row statistics (max, log-sum-exp,
 * entropy) in the CPU reference and the WGSL, and the host-side metrics read the columns they write.
 */
import { assertSize, type PolicyLossOptions, type Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { f32, u32, type Kernel } from '../gpu/kernel';
import { dispatchRows, ROW_WG, rowsOf, WGSL_NEG_MAX, wgslRowReduce } from './rowreduce';
import type { Vec } from './types';
import type { OpEntries } from './registry';

/** The log-ratio is clamped to ±20 before exp, as verl's compute_policy_loss (ratio <= e^20). */
export const LOG_RATIO_CLAMP = 20;
/** verl clamps the k3 ("low_var_kl") estimate to [−10, 10] (k3 >= 0, so only the top binds). */
export const KL_CLAMP = 10;

/** Columns of the per-row diagnostics of policyLoss. */
export const POLICY_STAT = {
  logprob: 0,
  entropy: 1,
  ratio: 2,
  clippedLow: 3,
  clippedHigh: 4,
  approxKl: 5,
  refKl: 6,
  pgLoss: 7,
} as const;
export const POLICY_STATS = 8;
// ---- CPU references -------------------------------------------------------------------------------

/** Row statistics shared by every kernel here: max, Σ e^{z−m}, logsumexp and the entropy. */
function rowStatsRef(logits: Vec, o: number, V: number): { m: number; s: number; lse: number; ent: number } {
  let m = -Infinity;
  for (let v = 0; v < V; v++) m = Math.max(m, logits[o + v]);
  let s = 0;
  let t = 0;
  for (let v = 0; v < V; v++) {
    const d = logits[o + v] - m;
    const e = Math.exp(d);
    s += e;
    t += e * d;
  }
  const ls = Math.log(s);
  return { m, s, lse: m + ls, ent: ls - t / s }; // H = log s − Σ e d / s
}

/** logprobs (N) = log softmax(logits)[n, a_n] (0 where a_n is outside [0, V)); entropy (N) of every row. */
export function tokenLogprobsRef(
  logprobs: Vec,
  entropy: Vec,
  logits: Vec,
  actions: Int32Array,
  N: number,
  V: number,
): void {
  for (let n = 0; n < N; n++) {
    const o = n * V;
    const st = rowStatsRef(logits, o, V);
    const a = actions[n];
    logprobs[n] = a >= 0 && a < V ? logits[o + a] - st.lse : 0;
    entropy[n] = st.ent;
  }
}

/** The scalar part of one row: the diagnostics and g = ∂(pg + c_KL kl)/∂logp. */
export function policyRowRef(
  logp: number,
  oldLogp: number,
  adv: number,
  refLogp: number | null,
  o: PolicyLossOptions,
): { ratio: number; clippedLow: number; clippedHigh: number; approxKl: number; refKl: number; pg: number; g: number } {
  const raw = logp - oldLogp;
  const logRatio = Math.min(LOG_RATIO_CLAMP, Math.max(-LOG_RATIO_CLAMP, raw));
  const ratio = Math.exp(logRatio); // ρ
  const pg1 = -adv * ratio;
  const pg2 = -adv * Math.min(1 + o.clipHigh, Math.max(1 - o.clipLow, ratio));
  const clipped = pg2 > pg1; // PPO's min picks the constant: no gradient
  let g = clipped || raw !== logRatio ? 0 : -adv * ratio; // ∂pg/∂logp
  const approxKl = ratio - 1 - logRatio; // k3 of KL(π_old ‖ π_θ), cleanrl's approx_kl
  let refKl = 0;
  if (refLogp !== null) {
    if (o.klEstimator === 'k3') {
      const dRaw = refLogp - logp;
      const d = Math.min(LOG_RATIO_CLAMP, Math.max(-LOG_RATIO_CLAMP, dRaw));
      const e = Math.exp(d);
      const k = e - d - 1; // δ = log π_ref/π_θ
      refKl = Math.min(KL_CLAMP, Math.max(-KL_CLAMP, k));
      if (dRaw === d && k === refKl) g += o.klCoef * (1 - e); // ∂k3/∂logp = 1 − e^δ
    } else {
      refKl = logp - refLogp; // k1
      g += o.klCoef;
    }
  }
  return {
    ratio,
    clippedLow: clipped && adv < 0 ? 1 : 0,
    clippedHigh: clipped && adv > 0 ? 1 : 0,
    approxKl,
    refKl,
    pg: Math.max(pg1, pg2),
    g,
  };
}

/** stats (N, S) = per-row diagnostics; dLogits (N, V) += ∂L/∂logits. */
export function policyLossRef(
  dLogits: Vec,
  stats: Vec,
  logits: Vec,
  actions: Int32Array,
  oldLogprobs: Vec,
  advantages: Vec,
  responseMask: Vec,
  refLogprobs: Vec | null,
  o: PolicyLossOptions,
  N: number,
  V: number,
): void {
  for (let n = 0; n < N; n++) {
    const so = n * POLICY_STATS;
    for (let k = 0; k < POLICY_STATS; k++) stats[so + k] = 0;
    const a = actions[n];
    if (!(responseMask[n] > 0) || a < 0 || a >= V) continue;
    const lo = n * V;
    const st = rowStatsRef(logits, lo, V);
    const logp = logits[lo + a] - st.lse;
    const r = policyRowRef(logp, oldLogprobs[n], advantages[n], refLogprobs ? refLogprobs[n] : null, o);
    stats[so + POLICY_STAT.logprob] = logp;
    stats[so + POLICY_STAT.entropy] = st.ent;
    stats[so + POLICY_STAT.ratio] = r.ratio;
    stats[so + POLICY_STAT.clippedLow] = r.clippedLow;
    stats[so + POLICY_STAT.clippedHigh] = r.clippedHigh;
    stats[so + POLICY_STAT.approxKl] = r.approxKl;
    stats[so + POLICY_STAT.refKl] = r.refKl;
    stats[so + POLICY_STAT.pgLoss] = r.pg;
    const w = responseMask[n] * o.lossScale;
    const ls = Math.log(st.s);
    for (let v = 0; v < V; v++) {
      const lp = logits[lo + v] - st.m - ls; // log p_v
      const p = Math.exp(lp);
      dLogits[lo + v] += w * (r.g * ((v === a ? 1 : 0) - p) + o.entropyCoef * p * (lp + st.ent));
    }
  }
}

// ---- host-side metrics --------------------------------------------------------------------------------

export interface PolicyLossMetrics {
  'losses/policy_loss': number;
  'losses/entropy': number;
  'losses/approx_kl': number;
  'losses/clipfrac': number;
  'losses/clipfrac_low': number;
  'losses/clipfrac_high': number;
  'losses/kl_ref': number;
  /** Active rows (mask > 0), the token-mean denominator. */
  tokens: number;
}

/**
 * Token means over the rows with mask > 0 (in float64, row order) of policyLoss's stats. Rows
 * with an invalid action must not carry mask > 0 (their stats are zero and would dilute the means).
 * No active rows: every mean is 0.
 */
export function policyLossMetrics(stats: ArrayLike<number>, responseMask: ArrayLike<number>): PolicyLossMetrics {
  const sum = new Float64Array(POLICY_STATS);
  let tokens = 0;
  for (let n = 0; n < responseMask.length; n++) {
    if (!(responseMask[n] > 0)) continue;
    tokens++;
    for (let k = 0; k < POLICY_STATS; k++) sum[k] += stats[n * POLICY_STATS + k];
  }
  const mean = (k: number): number => (tokens > 0 ? sum[k] / tokens : 0);
  const S = POLICY_STAT;
  return {
    'losses/policy_loss': mean(S.pgLoss),
    'losses/entropy': mean(S.entropy),
    'losses/approx_kl': mean(S.approxKl),
    'losses/clipfrac': mean(S.clippedLow) + mean(S.clippedHigh),
    'losses/clipfrac_low': mean(S.clippedLow),
    'losses/clipfrac_high': mean(S.clippedHigh),
    'losses/kl_ref': mean(S.refKl),
    tokens,
  };
}

// ---- WGSL -------------------------------------------------------------------------------------------

const WG = ROW_WG;

// As in crossentropy.ts every thread runs the reductions, whatever the row's mask or action: a
// branch on storage data before a barrier would break uniformity. Entropy: H = log s − Σ e d / s.
const rowHeader = (params: string): string => /* wgsl */ `
struct Params { ${params} }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(3) var<storage, read> logits: array<f32>;
@group(0) @binding(4) var<storage, read> actions: array<i32>;
${wgslRowReduce(WG)}
struct RowStats { m: f32, ls: f32, lse: f32, ent: f32 }
fn row_stats(o: u32, lid: u32) -> RowStats {
  var m = ${WGSL_NEG_MAX};
  for (var i = lid; i < P.v; i += ROW_STRIDE) { m = max(m, logits[o + i]); }
  m = wg_max(m, lid);
  var s = 0.0;
  var t = 0.0;
  for (var i = lid; i < P.v; i += ROW_STRIDE) { let d = logits[o + i] - m; let e = exp(d); s += e; t += e * d; }
  s = wg_sum(s, lid);
  t = wg_sum(t, lid);
  let ls = log(s);
  return RowStats(m, ls, m + ls, ls - t / s);
}`;

const ENTRY =
  '@compute @workgroup_size(' +
  WG +
  ') fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {';

const TOKEN_LOGPROBS: Kernel = {
  name: 'token_logprobs',
  code: /* wgsl */ `${rowHeader('n: u32, v: u32')}
@group(0) @binding(1) var<storage, read_write> logprobs: array<f32>;
@group(0) @binding(2) var<storage, read_write> entropy: array<f32>;
${ENTRY}
  let row = row_index(wid, nwg);
  if (row >= P.n) { return; }
  let o = row * P.v;
  let st = row_stats(o, lid);
  if (lid == 0u) {
    let a = actions[row];
    var lp = 0.0;
    if (a >= 0 && u32(a) < P.v) { lp = logits[o + u32(a)] - st.lse; }
    logprobs[row] = lp;
    entropy[row] = st.ent;
  }
}`,
};

const POLICY_LOSS: Kernel = {
  name: 'policy_loss',
  code: /* wgsl */ `${rowHeader(`n: u32, v: u32, clip_low: f32, clip_high: f32, ent_coef: f32, kl_coef: f32,
  kl_k3: u32, has_ref: u32, loss_scale: f32, lr_clamp: f32, kl_clamp: f32`)}
@group(0) @binding(1) var<storage, read_write> dlogits: array<f32>;
@group(0) @binding(2) var<storage, read_write> stats: array<f32>;
@group(0) @binding(5) var<storage, read> old_logprobs: array<f32>;
@group(0) @binding(6) var<storage, read> advantages: array<f32>;
@group(0) @binding(7) var<storage, read> response_mask: array<f32>;
@group(0) @binding(8) var<storage, read> ref_logprobs: array<f32>;
${ENTRY}
  let row = row_index(wid, nwg);
  if (row >= P.n) { return; }
  let o = row * P.v;
  let st = row_stats(o, lid);
  let a = actions[row];
  let mask = response_mask[row];
  let live = mask > 0.0 && a >= 0 && u32(a) < P.v;
  let ai = select(0u, u32(a), live);
  let logp = logits[o + ai] - st.lse;
  // clipped surrogate
  let raw = logp - old_logprobs[row];
  let log_ratio = clamp(raw, -P.lr_clamp, P.lr_clamp);
  let ratio = exp(log_ratio);
  let adv = advantages[row];
  let pg1 = -adv * ratio;
  let pg2 = -adv * clamp(ratio, 1.0 - P.clip_low, 1.0 + P.clip_high);
  let clipped = pg2 > pg1;
  var g = select(-adv * ratio, 0.0, clipped || raw != log_ratio);
  // KL to the reference
  var kl = 0.0;
  if (P.has_ref != 0u) {
    let ref_lp = ref_logprobs[row];
    if (P.kl_k3 != 0u) {
      let d_raw = ref_lp - logp;
      let d = clamp(d_raw, -P.lr_clamp, P.lr_clamp);
      let e = exp(d);
      let k = e - d - 1.0;
      kl = clamp(k, -P.kl_clamp, P.kl_clamp);
      if (d_raw == d && k == kl) { g += P.kl_coef * (1.0 - e); }
    } else {
      kl = logp - ref_lp;
      g += P.kl_coef;
    }
  }
  if (lid == 0u) {
    let so = row * ${POLICY_STATS}u;
    let on = select(0.0, 1.0, live);
    stats[so + ${POLICY_STAT.logprob}u] = on * logp;
    stats[so + ${POLICY_STAT.entropy}u] = on * st.ent;
    stats[so + ${POLICY_STAT.ratio}u] = on * ratio;
    stats[so + ${POLICY_STAT.clippedLow}u] = select(0.0, 1.0, live && clipped && adv < 0.0);
    stats[so + ${POLICY_STAT.clippedHigh}u] = select(0.0, 1.0, live && clipped && adv > 0.0);
    stats[so + ${POLICY_STAT.approxKl}u] = on * ((ratio - 1.0) - log_ratio);
    stats[so + ${POLICY_STAT.refKl}u] = on * kl;
    stats[so + ${POLICY_STAT.pgLoss}u] = on * max(pg1, pg2);
  }
  if (!live) { return; }
  let w = mask * P.loss_scale;
  for (var i = lid; i < P.v; i += ROW_STRIDE) {
    let lp = logits[o + i] - st.m - st.ls;
    let p = exp(lp);
    let onehot = select(0.0, 1.0, i == ai);
    dlogits[o + i] = dlogits[o + i] + w * (g * (onehot - p) + P.ent_coef * p * (lp + st.ent));
  }
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

export function checkRows(logits: Tensor, actions: Tensor, what: string): { N: number; V: number } {
  const { N, V } = rowsOf(logits.shape, logits.size, what);
  if (actions.dtype !== 'i32') throw new Error(`${what}: actions must be i32, got ${actions.dtype}`);
  assertSize(actions, N, `${what} actions (one per row of logits [${logits.shape.join(', ')}])`);
  return { N, V };
}

export function checkPolicy(
  dLogits: Tensor,
  stats: Tensor,
  logits: Tensor,
  actions: Tensor,
  perRow: Record<string, Tensor | null>,
  o: PolicyLossOptions,
): { N: number; V: number } {
  const { N, V } = checkRows(logits, actions, 'policyLoss');
  assertSize(dLogits, logits.size, 'policyLoss dLogits');
  assertSize(stats, N * POLICY_STATS, `policyLoss stats (N, ${POLICY_STATS})`);
  for (const [k, t] of Object.entries(perRow)) if (t) assertSize(t, N, `policyLoss ${k}`);
  if (!(o.clipLow >= 0 && o.clipLow < 1) || !(o.clipHigh >= 0))
    throw new Error(`policyLoss: need 0 <= clipLow < 1 and clipHigh >= 0, got ${o.clipLow}, ${o.clipHigh}`);
  if (!Number.isFinite(o.lossScale)) throw new Error(`policyLoss: lossScale must be finite, got ${o.lossScale}`);
  if (o.klCoef !== 0 && !perRow.refLogprobs) throw new Error('policyLoss: klCoef != 0 needs refLogprobs');
  return { N, V };
}

function tokenLogprobsOnCpu(be: CpuBackend, logprobs: Tensor, entropy: Tensor, logits: Tensor, actions: Tensor): void {
  const { N, V } = checkRows(logits, actions, 'tokenLogprobs');
  assertSize(logprobs, N, 'tokenLogprobs logprobs');
  assertSize(entropy, N, 'tokenLogprobs entropy');
  tokenLogprobsRef(be.f32Of(logprobs), be.f32Of(entropy), be.f32Of(logits), be.i32Of(actions), N, V);
}
function tokenLogprobsOnGpu(
  be: WebGpuBackend,
  logprobs: Tensor,
  entropy: Tensor,
  logits: Tensor,
  actions: Tensor,
): void {
  const { N, V } = checkRows(logits, actions, 'tokenLogprobs');
  assertSize(logprobs, N, 'tokenLogprobs logprobs');
  assertSize(entropy, N, 'tokenLogprobs entropy');
  dispatchRows(be, TOKEN_LOGPROBS, [logprobs, entropy, logits, actions], [u32(N), u32(V)], N);
}

function policyLossOnCpu(
  be: CpuBackend,
  dLogits: Tensor,
  stats: Tensor,
  logits: Tensor,
  actions: Tensor,
  oldLogprobs: Tensor,
  advantages: Tensor,
  responseMask: Tensor,
  refLogprobs: Tensor | null,
  o: PolicyLossOptions,
): void {
  const { N, V } = checkPolicy(
    dLogits,
    stats,
    logits,
    actions,
    { oldLogprobs, advantages, responseMask, refLogprobs },
    o,
  );
  policyLossRef(
    be.f32Of(dLogits),
    be.f32Of(stats),
    be.f32Of(logits),
    be.i32Of(actions),
    be.f32Of(oldLogprobs),
    be.f32Of(advantages),
    be.f32Of(responseMask),
    refLogprobs ? be.f32Of(refLogprobs) : null,
    o,
    N,
    V,
  );
}
function policyLossOnGpu(
  be: WebGpuBackend,
  dLogits: Tensor,
  stats: Tensor,
  logits: Tensor,
  actions: Tensor,
  oldLogprobs: Tensor,
  advantages: Tensor,
  responseMask: Tensor,
  refLogprobs: Tensor | null,
  o: PolicyLossOptions,
): void {
  const { N, V } = checkPolicy(
    dLogits,
    stats,
    logits,
    actions,
    { oldLogprobs, advantages, responseMask, refLogprobs },
    o,
  );
  // Without a reference, oldLogprobs stands in at binding 8 (read-only twice is allowed; has_ref = 0).
  dispatchRows(
    be,
    POLICY_LOSS,
    [dLogits, stats, logits, actions, oldLogprobs, advantages, responseMask, refLogprobs ?? oldLogprobs],
    [
      u32(N),
      u32(V),
      f32(o.clipLow),
      f32(o.clipHigh),
      f32(o.entropyCoef),
      f32(o.klCoef),
      u32(o.klEstimator === 'k3' ? 1 : 0),
      u32(refLogprobs ? 1 : 0),
      f32(o.lossScale),
      f32(LOG_RATIO_CLAMP),
      f32(KL_CLAMP),
    ],
    N,
  );
}

/** The registry's entries for these ops (./registry.ts). */
export const policyLossOps = {
  tokenLogprobs: { cpu: tokenLogprobsOnCpu, webgpu: tokenLogprobsOnGpu },
  policyLoss: { cpu: policyLossOnCpu, webgpu: policyLossOnGpu },
} satisfies OpEntries;
