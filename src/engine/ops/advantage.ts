/**
 * Advantage estimators: GAE as a reverse scan per dialogue (PPO with a critic) and group
 * normalisation of per-dialogue rewards (GRPO: (r − mean)/(std + ADV_EPS); RLOO: r − mean of the
 * others). CPU references (the spec, plain loops), WGSL kernels (one thread per dialogue: each scan
 * and each group statistic is a serial loop in a fixed order, so reruns are bit-identical and no
 * atomics are needed), backend entry points. Equations, sources and every degenerate case:
 * docs/ALGORITHMS.md.
 *
 * GAE follows verl's compute_gae_advantage_return with the response mask: tokens with mask <= 0
 * (the simulated user's turns, the prompt) are SKIPPED by the recursion (V(s_{t+1}) and the running
 * Â are carried over them unchanged) and get advantage 0 and return 0 here (verl leaves the carried
 * value; it is masked out of every loss either way). A reward on a masked token is ignored, as in
 * verl: put it on the last agent token. The last response token of a dialogue bootstraps from 0
 * (the dialogue is terminal).
 *
 * Shape legend: N token rows, D dialogues. rewards, values, responseMask, advantages, returns: (N);
 * offsets (i32): (D + 1), dialogue d owns rows [offsets[d], offsets[d+1]) and the spans must tile
 * [0, N) (rows outside every span are left as they are). Group ops: rewards, groups (i32),
 * advantages: (D).
 */
import { assertSize, type GaeOptions, type GroupAdvantageOptions, type Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { f32, grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import type { Vec } from './types';
import type { OpEntries } from './registry';

/** Added to the group std before dividing (RLVER / verl GRPO: 1e-6). */
export const ADV_EPS = 1e-6;

const WG = 64;

// ---- CPU references -------------------------------------------------------------------------------

/** advantages, returns (N) by a reverse scan over each dialogue's response tokens. */
export function gaeRef(
  advantages: Vec,
  returns: Vec,
  rewards: Vec,
  values: Vec,
  responseMask: Vec,
  offsets: Int32Array,
  o: GaeOptions,
  N: number,
): void {
  const D = offsets.length - 1;
  for (let d = 0; d < D; d++) {
    const start = Math.max(0, Math.min(N, offsets[d]));
    const end = Math.max(start, Math.min(N, offsets[d + 1]));
    let nextValue = 0; // V(s_{t+1}); 0 past the end: the dialogue is terminal
    let lastGaeLam = 0; // Â_{t+1}
    for (let t = end - 1; t >= start; t--) {
      if (!(responseMask[t] > 0)) {
        advantages[t] = 0;
        returns[t] = 0;
        continue; // skipped: nextValue and lastGaeLam carry over
      }
      const delta = rewards[t] + o.gamma * nextValue - values[t]; // δ_t = r_t + γ V(s_{t+1}) − V(s_t)
      lastGaeLam = delta + o.gamma * o.lambda * lastGaeLam; // Â_t = δ_t + γλ Â_{t+1}
      nextValue = values[t];
      advantages[t] = lastGaeLam;
      returns[t] = lastGaeLam + values[t]; // R_t = Â_t + V(s_t)
    }
  }
}

/** A reward that takes part in its group's statistics: finite (NaN and ±Infinity are left out). */
function isValidReward(r: number): boolean {
  return Number.isFinite(r);
}

/**
 * advantages (D) from rewards (D) grouped by id. k = the number of valid rewards in the group.
 * An invalid reward, k < 2, or a group whose valid rewards are all equal → advantage exactly 0.
 * grpo: (r − mean) / (std + ADV_EPS), std unbiased (k − 1), as torch.std in verl and TRL;
 *       scaleByStd = false gives r − mean (Dr. GRPO, TRL scale_rewards = false).
 * rloo: r − (Σ_others r) / (k − 1).
 */
export function groupAdvantagesRef(
  advantages: Vec,
  rewards: Vec,
  groups: Int32Array,
  o: GroupAdvantageOptions,
  D: number,
): void {
  for (let d = 0; d < D; d++) {
    const r = rewards[d];
    advantages[d] = 0;
    if (!isValidReward(r)) continue;
    let k = 0;
    let sum = 0;
    let lo = r;
    let hi = r;
    for (let j = 0; j < D; j++) {
      const x = rewards[j];
      if (groups[j] !== groups[d] || !isValidReward(x)) continue;
      k++;
      sum += x;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    if (k < 2 || lo === hi) continue; // a group of one or zero spread: no signal, exactly 0
    if (o.estimator === 'rloo') {
      advantages[d] = r - (sum - r) / (k - 1); // leave-one-out baseline
      continue;
    }
    const mean = sum / k;
    let ss = 0;
    for (let j = 0; j < D; j++) {
      const x = rewards[j];
      if (groups[j] === groups[d] && isValidReward(x)) ss += (x - mean) * (x - mean);
    }
    const std = Math.sqrt(ss / (k - 1));
    advantages[d] = o.scaleByStd === false ? r - mean : (r - mean) / (std + ADV_EPS);
  }
}

/** Group ids for D dialogues in consecutive groups of G (the last may be short). */
export function fixedGroups(D: number, G: number): Int32Array {
  if (!(Number.isInteger(G) && G >= 1)) throw new Error(`fixedGroups: G must be a positive integer, got ${G}`);
  return Int32Array.from({ length: D }, (_, d) => Math.floor(d / G));
}

// ---- WGSL -------------------------------------------------------------------------------------------

const GAE: Kernel = {
  name: 'gae_scan',
  code: /* wgsl */ `
struct Params { d: u32, n: u32, gamma: f32, lambda: f32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> advantages: array<f32>;
@group(0) @binding(2) var<storage, read_write> returns: array<f32>;
@group(0) @binding(3) var<storage, read> rewards: array<f32>;
@group(0) @binding(4) var<storage, read> values: array<f32>;
@group(0) @binding(5) var<storage, read> response_mask: array<f32>;
@group(0) @binding(6) var<storage, read> offsets: array<i32>;
${WGSL_LINEAR_INDEX}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let d = linear_index(gid, nwg, ${WG}u);
  if (d >= P.d) { return; }
  let start = u32(clamp(offsets[d], 0, i32(P.n)));
  let end = max(start, u32(clamp(offsets[d + 1u], 0, i32(P.n))));
  var next_value = 0.0;
  var last = 0.0;
  for (var t = end; t > start; t--) {
    let i = t - 1u;
    if (!(response_mask[i] > 0.0)) { advantages[i] = 0.0; returns[i] = 0.0; continue; }
    let v = values[i];
    let delta = rewards[i] + P.gamma * next_value - v;
    last = delta + P.gamma * P.lambda * last;
    next_value = v;
    advantages[i] = last;
    returns[i] = last + v;
  }
}`,
};

// WGSL lets an implementation assume floats are finite, so x != x may fold to false: test the
// exponent bits instead (all ones = NaN or ±Infinity).
const GROUP: Kernel = {
  name: 'group_advantages',
  code: /* wgsl */ `
struct Params { d: u32, rloo: u32, scale: u32, eps: f32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> advantages: array<f32>;
@group(0) @binding(2) var<storage, read> rewards: array<f32>;
@group(0) @binding(3) var<storage, read> groups: array<i32>;
${WGSL_LINEAR_INDEX}
fn valid(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let d = linear_index(gid, nwg, ${WG}u);
  if (d >= P.d) { return; }
  let r = rewards[d];
  let g = groups[d];
  if (!valid(r)) { advantages[d] = 0.0; return; }
  var k = 0u;
  var sum = 0.0;
  var lo = r;
  var hi = r;
  for (var j = 0u; j < P.d; j++) {
    let x = rewards[j];
    if (groups[j] != g || !valid(x)) { continue; }
    k++;
    sum += x;
    lo = min(lo, x);
    hi = max(hi, x);
  }
  if (k < 2u || lo == hi) { advantages[d] = 0.0; return; }
  let km1 = f32(k - 1u);
  if (P.rloo != 0u) { advantages[d] = r - (sum - r) / km1; return; }
  let mean = sum / f32(k);
  var ss = 0.0;
  for (var j = 0u; j < P.d; j++) {
    let x = rewards[j];
    if (groups[j] == g && valid(x)) { ss += (x - mean) * (x - mean); }
  }
  let sd = sqrt(ss / km1);
  advantages[d] = select(r - mean, (r - mean) / (sd + P.eps), P.scale != 0u);
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

export function checkGae(
  advantages: Tensor,
  returns: Tensor,
  rewards: Tensor,
  values: Tensor,
  responseMask: Tensor,
  offsets: Tensor,
  o: GaeOptions,
): { N: number; D: number } {
  const N = advantages.size;
  const named: [Tensor, string][] = [
    [returns, 'returns'],
    [rewards, 'rewards'],
    [values, 'values'],
    [responseMask, 'responseMask'],
  ];
  for (const [t, what] of named) assertSize(t, N, `gae ${what}`);
  if (offsets.dtype !== 'i32' || offsets.size < 1)
    throw new Error(
      `gae: offsets must be i32 with D + 1 >= 1 entries, got ${offsets.dtype} [${offsets.shape.join(', ')}]`,
    );
  for (const [k, v] of Object.entries(o))
    if (!(v >= 0 && v <= 1)) throw new Error(`gae: ${k} must be in [0, 1], got ${String(v)}`);
  return { N, D: offsets.size - 1 };
}

function gaeOnCpu(
  be: CpuBackend,
  advantages: Tensor,
  returns: Tensor,
  rewards: Tensor,
  values: Tensor,
  responseMask: Tensor,
  offsets: Tensor,
  o: GaeOptions,
): void {
  const { N } = checkGae(advantages, returns, rewards, values, responseMask, offsets, o);
  gaeRef(
    be.f32Of(advantages),
    be.f32Of(returns),
    be.f32Of(rewards),
    be.f32Of(values),
    be.f32Of(responseMask),
    be.i32Of(offsets),
    o,
    N,
  );
}
function gaeOnGpu(
  be: WebGpuBackend,
  advantages: Tensor,
  returns: Tensor,
  rewards: Tensor,
  values: Tensor,
  responseMask: Tensor,
  offsets: Tensor,
  o: GaeOptions,
): void {
  const { N, D } = checkGae(advantages, returns, rewards, values, responseMask, offsets, o);
  if (D === 0) return;
  be.dispatch(
    GAE,
    [advantages, returns, rewards, values, responseMask, offsets],
    [u32(D), u32(N), f32(o.gamma), f32(o.lambda)],
    grid1d(D, WG),
  );
}

export function checkGroup(advantages: Tensor, rewards: Tensor, groups: Tensor): number {
  const D = advantages.size;
  assertSize(rewards, D, 'groupAdvantages rewards');
  if (groups.dtype !== 'i32') throw new Error(`groupAdvantages: groups must be i32, got ${groups.dtype}`);
  assertSize(groups, D, 'groupAdvantages groups (one id per dialogue)');
  return D;
}

function groupAdvantagesOnCpu(
  be: CpuBackend,
  advantages: Tensor,
  rewards: Tensor,
  groups: Tensor,
  o: GroupAdvantageOptions,
): void {
  const D = checkGroup(advantages, rewards, groups);
  groupAdvantagesRef(be.f32Of(advantages), be.f32Of(rewards), be.i32Of(groups), o, D);
}
function groupAdvantagesOnGpu(
  be: WebGpuBackend,
  advantages: Tensor,
  rewards: Tensor,
  groups: Tensor,
  o: GroupAdvantageOptions,
): void {
  const D = checkGroup(advantages, rewards, groups);
  if (D === 0) return;
  be.dispatch(
    GROUP,
    [advantages, rewards, groups],
    [u32(D), u32(o.estimator === 'rloo' ? 1 : 0), u32(o.scaleByStd === false ? 0 : 1), f32(ADV_EPS)],
    grid1d(D, WG),
  );
}

/** The registry's entries for these ops (./registry.ts). */
export const advantageOps = {
  gae: { cpu: gaeOnCpu, webgpu: gaeOnGpu },
  groupAdvantages: { cpu: groupAdvantagesOnCpu, webgpu: groupAdvantagesOnGpu },
} satisfies OpEntries;
