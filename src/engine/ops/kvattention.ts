/**
 * Causal attention with a KV cache, for sampling (forward only). New tokens' k and v go into the
 * cache at their positions; each new query attends over the cache up to its own position. One op
 * serves a decoding step (S = 1), a prefill (start = 0, S = T) and a chunk appended mid-dialogue
 * (a user's line), with sequences of different lengths in one batch (len[b] <= S; the rest is padding).
 *
 * Shape legend: B sequences, S new tokens, maxT cache length, C channels, H heads, hs = C / H.
 * Layout: qkv (B, S, 3C) = [q | k | v] per token; kCache, vCache (B, maxT, C); out (B, S, C).
 */
import type { CachedAttentionShape, Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { f32, grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import type { Vec } from './types';

/** Threads per workgroup of the attend kernel (one workgroup per (sequence, token, head)). */
const WG = 64;
/** Workgroup memory holds one score per cached position: 4 bytes × maxT of the 16 KiB guaranteed. */
export const MAX_CACHED_T = 3072;

function check(s: CachedAttentionShape, out: Tensor, kCache: Tensor, vCache: Tensor, qkv: Tensor, start: Tensor, len: Tensor): void {
  const { B, S, maxT, C, H } = s;
  if (C % H !== 0) throw new Error(`attentionCached: C (${C}) must be divisible by H (${H})`);
  if (maxT > MAX_CACHED_T) throw new Error(`attentionCached: cache length ${maxT} exceeds ${MAX_CACHED_T}`);
  const want: [Tensor, number, string][] = [
    [out, B * S * C, 'out (B, S, C)'], [kCache, B * maxT * C, 'kCache (B, maxT, C)'], [vCache, B * maxT * C, 'vCache (B, maxT, C)'],
    [qkv, B * S * 3 * C, 'qkv (B, S, 3C)'], [start, B, 'start (B)'], [len, B, 'len (B)'],
  ];
  for (const [t, n, what] of want) if (t.size !== n) throw new Error(`attentionCached: ${what} needs ${n} elements, got ${t.size}`);
  if (start.dtype !== 'i32' || len.dtype !== 'i32') throw new Error('attentionCached: start and len must be i32 tensors');
}

/** The reference (the spec): plain loops. Positions past the cache are skipped. */
export function attentionCachedRef(
  out: Vec, kCache: Vec, vCache: Vec, qkv: Vec, start: Int32Array, len: Int32Array, s: CachedAttentionShape,
): void {
  const { B, S, maxT, C, H } = s;
  const hs = C / H;
  const scale = 1 / Math.sqrt(hs);
  for (let b = 0; b < B; b++) {
    for (let j = 0; j < S && j < len[b]; j++) {
      const t = start[b] + j;
      if (t < 0 || t >= maxT) continue;
      for (let c = 0; c < C; c++) {
        kCache[(b * maxT + t) * C + c] = qkv[(b * S + j) * 3 * C + C + c];
        vCache[(b * maxT + t) * C + c] = qkv[(b * S + j) * 3 * C + 2 * C + c];
      }
    }
  }
  const scores = new Float64Array(maxT);
  for (let b = 0; b < B; b++) {
    for (let j = 0; j < S; j++) {
      const t = Math.min(start[b] + j, maxT - 1);
      const active = j < len[b] && start[b] + j >= 0 && start[b] + j < maxT;
      for (let h = 0; h < H; h++) {
        const o = (b * S + j) * C + h * hs;
        if (!active) {
          for (let i = 0; i < hs; i++) out[o + i] = 0;
          continue;
        }
        const q = (b * S + j) * 3 * C + h * hs;
        let max = -Infinity;
        for (let u = 0; u <= t; u++) {
          let dot = 0;
          for (let i = 0; i < hs; i++) dot += qkv[q + i] * kCache[(b * maxT + u) * C + h * hs + i];
          scores[u] = dot * scale;
          if (scores[u] > max) max = scores[u];
        }
        let sum = 0;
        for (let u = 0; u <= t; u++) {
          scores[u] = Math.exp(scores[u] - max);
          sum += scores[u];
        }
        for (let i = 0; i < hs; i++) {
          let acc = 0;
          for (let u = 0; u <= t; u++) acc += scores[u] * vCache[(b * maxT + u) * C + h * hs + i];
          out[o + i] = acc / sum;
        }
      }
    }
  }
}

const PARAMS = /* wgsl */ `struct Params { B: u32, S: u32, maxT: u32, C: u32, H: u32, scale: f32 }
@group(0) @binding(0) var<uniform> P: Params;`;

const WRITE: Kernel = {
  name: 'kv_cache_write',
  code: /* wgsl */ `${PARAMS}
${WGSL_LINEAR_INDEX}
@group(0) @binding(1) var<storage, read_write> kc: array<f32>;
@group(0) @binding(2) var<storage, read_write> vc: array<f32>;
@group(0) @binding(3) var<storage, read> qkv: array<f32>;
@group(0) @binding(4) var<storage, read> start: array<i32>;
@group(0) @binding(5) var<storage, read> len: array<i32>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, 256u);
  if (i >= P.B * P.S * P.C) { return; }
  let c = i % P.C;
  let j = (i / P.C) % P.S;
  let b = i / (P.C * P.S);
  let t = start[b] + i32(j);
  if (i32(j) >= len[b] || t < 0 || t >= i32(P.maxT)) { return; }
  let dst = (b * P.maxT + u32(t)) * P.C + c;
  let src = (b * P.S + j) * 3u * P.C;
  kc[dst] = qkv[src + P.C + c];
  vc[dst] = qkv[src + 2u * P.C + c];
}`,
};

function attendKernel(maxT: number): Kernel {
  return {
    name: `kv_attend_${maxT}`,
    code: /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> kc: array<f32>;
@group(0) @binding(3) var<storage, read> vc: array<f32>;
@group(0) @binding(4) var<storage, read> qkv: array<f32>;
@group(0) @binding(5) var<storage, read> start: array<i32>;
@group(0) @binding(6) var<storage, read> len: array<i32>;
var<workgroup> scores: array<f32, ${maxT}>;
var<workgroup> red: array<f32, ${WG}>;
// One workgroup per (token j, head h) of sequence b = wid.y; reductions are fixed-order trees.
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>) {
  let lid = lid3.x;
  let j = wid.x / P.H;
  let h = wid.x % P.H;
  let b = wid.y;
  let hs = P.C / P.H;
  let pos = start[b] + i32(j);
  let live = i32(j) < len[b] && pos >= 0 && pos < i32(P.maxT);
  let nU = select(0u, u32(pos) + 1u, live);
  let q = (b * P.S + j) * 3u * P.C + h * hs;
  for (var u = lid; u < nU; u += ${WG}u) {
    var dot = 0.0;
    let k = (b * P.maxT + u) * P.C + h * hs;
    for (var i = 0u; i < hs; i++) { dot += qkv[q + i] * kc[k + i]; }
    scores[u] = dot * P.scale;
  }
  workgroupBarrier();
  var m = -3.4e38;
  for (var u = lid; u < nU; u += ${WG}u) { m = max(m, scores[u]); }
  red[lid] = m;
  workgroupBarrier();
  for (var stride = ${WG / 2}u; stride > 0u; stride >>= 1u) {
    if (lid < stride) { red[lid] = max(red[lid], red[lid + stride]); }
    workgroupBarrier();
  }
  let mx = red[0];
  workgroupBarrier();
  var sum = 0.0;
  for (var u = lid; u < nU; u += ${WG}u) {
    let e = exp(scores[u] - mx);
    scores[u] = e;
    sum += e;
  }
  red[lid] = sum;
  workgroupBarrier();
  for (var stride = ${WG / 2}u; stride > 0u; stride >>= 1u) {
    if (lid < stride) { red[lid] = red[lid] + red[lid + stride]; }
    workgroupBarrier();
  }
  let total = red[0];
  let o = (b * P.S + j) * P.C + h * hs;
  for (var i = lid; i < hs; i += ${WG}u) {
    var acc = 0.0;
    for (var u = 0u; u < nU; u++) { acc += scores[u] * vc[(b * P.maxT + u) * P.C + h * hs + i]; }
    out[o + i] = select(0.0, acc / total, live);
  }
}`,
  };
}

export function attentionCachedOnCpu(
  be: CpuBackend, out: Tensor, kCache: Tensor, vCache: Tensor, qkv: Tensor, start: Tensor, len: Tensor, s: CachedAttentionShape,
): void {
  check(s, out, kCache, vCache, qkv, start, len);
  attentionCachedRef(be.f(out), be.f(kCache), be.f(vCache), be.f(qkv), be.i(start), be.i(len), s);
}

export function attentionCachedOnGpu(
  be: WebGpuBackend, out: Tensor, kCache: Tensor, vCache: Tensor, qkv: Tensor, start: Tensor, len: Tensor, s: CachedAttentionShape,
): void {
  check(s, out, kCache, vCache, qkv, start, len);
  const { B, S, maxT, C, H } = s;
  const u = [u32(B), u32(S), u32(maxT), u32(C), u32(H), f32(1 / Math.sqrt(C / H))];
  be.dispatch(WRITE, [kCache, vCache, qkv, start, len], u, grid1d(B * S * C, 256));
  be.dispatch(attendKernel(maxT), [out, kCache, vCache, qkv, start, len], u, [S * H, B]);
}
