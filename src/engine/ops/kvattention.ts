/**
 * Causal attention with a KV cache, for sampling (forward only). New tokens' k and v go into the
 * cache at their positions; each new query attends over the cache up to its own position. One op
 * serves a decoding step (S = 1), a prefill (start = 0, S = T) and a chunk appended mid-dialogue
 * (a user's line), with sequences of different lengths in one batch (len[b] <= S; the rest is padding).
 *
 * Shape legend: B sequences, S new tokens, maxT cache length, C channels, H heads, hs = C / H.
 * Layout: qkv (B, S, 3C) = [q | k | v] per token; kCache, vCache (B, maxT, C); out (B, S, C).
 * With `cache: 'f16'` the caches hold (B, maxT, C / 2) 32-bit words, channels 2i and 2i + 1 of a
 * position as the low and high half of word i (half.ts): half the memory and half the bytes a
 * decoding step reads from the cache; q, the scores and the sums stay f32.
 */
import type { CachedAttentionShape, Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { f32, grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import { halfWords, setHalf, unpackHalves, WGSL_PACK_HALF } from './half';
import { rowReduceMode } from './rowreduce';
import type { Vec } from './types';
import type { OpEntries } from './registry';

/** The longest cache the op accepts (kept from the first kernel, which held every score in workgroup memory). */
const MAX_CACHED_T = 3072;

function check(
  s: CachedAttentionShape,
  out: Tensor,
  kCache: Tensor,
  vCache: Tensor,
  qkv: Tensor,
  start: Tensor,
  len: Tensor,
): void {
  const { B, S, maxT, C, H } = s;
  if (C % H !== 0) throw new Error(`attentionCached: C (${C}) must be divisible by H (${H})`);
  if (maxT > MAX_CACHED_T) throw new Error(`attentionCached: cache length ${maxT} exceeds ${MAX_CACHED_T}`);
  const f16 = s.cache === 'f16';
  if (f16 && (C / H) % 2 !== 0) throw new Error(`attentionCached: an f16 cache needs an even head size, got ${C / H}`);
  const cacheSize = f16 ? (B * maxT * C) / 2 : B * maxT * C;
  const cacheShape = f16 ? '(B, maxT, C / 2) words' : '(B, maxT, C)';
  const want: [Tensor, number, string][] = [
    [out, B * S * C, 'out (B, S, C)'],
    [kCache, cacheSize, `kCache ${cacheShape}`],
    [vCache, cacheSize, `vCache ${cacheShape}`],
    [qkv, B * S * 3 * C, 'qkv (B, S, 3C)'],
    [start, B, 'start (B)'],
    [len, B, 'len (B)'],
  ];
  for (const [t, n, what] of want)
    if (t.size !== n) throw new Error(`attentionCached: ${what} needs ${n} elements, got ${t.size}`);
  if (start.dtype !== 'i32' || len.dtype !== 'i32')
    throw new Error('attentionCached: start and len must be i32 tensors');
}

/** An f16 cache's values in the (B, maxT, C) layout (f32: the array itself). */
function cacheValues(a: Vec, f16: boolean): Vec {
  if (!f16) return a;
  return unpackHalves(a);
}

/** The cache write of the reference: the new tokens' k and v at their positions. */
export function kvWriteRef(
  kCache: Vec,
  vCache: Vec,
  qkv: Vec,
  start: Int32Array,
  len: Int32Array,
  s: CachedAttentionShape,
): void {
  const { B, S, maxT, C } = s;
  const f16 = s.cache === 'f16';
  const [kw, vw] = f16 ? [halfWords(kCache), halfWords(vCache)] : [null, null];
  for (let b = 0; b < B; b++) {
    for (let j = 0; j < S && j < len[b]; j++) {
      const t = start[b] + j;
      if (t < 0 || t >= maxT) continue;
      for (let c = 0; c < C; c++) {
        const dst = (b * maxT + t) * C + c;
        const src = (b * S + j) * 3 * C + c;
        if (kw && vw) {
          setHalf(kw, dst, qkv[src + C]);
          setHalf(vw, dst, qkv[src + 2 * C]);
        } else {
          kCache[dst] = qkv[src + C];
          vCache[dst] = qkv[src + 2 * C];
        }
      }
    }
  }
}

/** The attention of the reference over the cache as it stands (after the write). */
export function kvAttendRef(
  out: Vec,
  kCache: Vec,
  vCache: Vec,
  qkv: Vec,
  start: Int32Array,
  len: Int32Array,
  s: CachedAttentionShape,
): void {
  const { B, S, maxT, C, H } = s;
  const hs = C / H;
  const scale = 1 / Math.sqrt(hs);
  const kc = cacheValues(kCache, s.cache === 'f16');
  const vc = cacheValues(vCache, s.cache === 'f16');
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
          for (let i = 0; i < hs; i++) dot += qkv[q + i] * kc[(b * maxT + u) * C + h * hs + i];
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
          for (let u = 0; u <= t; u++) acc += scores[u] * vc[(b * maxT + u) * C + h * hs + i];
          out[o + i] = acc / sum;
        }
      }
    }
  }
}

/** The reference (the spec): the write, then the attention. Positions past the cache are skipped. */
function attentionCachedRef(
  out: Vec,
  kCache: Vec,
  vCache: Vec,
  qkv: Vec,
  start: Int32Array,
  len: Int32Array,
  s: CachedAttentionShape,
): void {
  kvWriteRef(kCache, vCache, qkv, start, len, s);
  kvAttendRef(out, kCache, vCache, qkv, start, len, s);
}

const PARAMS = /* wgsl */ `struct Params { B: u32, S: u32, maxT: u32, C: u32, H: u32, scale: f32 }
@group(0) @binding(0) var<uniform> P: Params;`;

/**
 * The cache write: one invocation per E channels of a new token (E = 1 for f32; E = 2 for f16, the
 * pair packed into one word, so no two invocations share a word), skipping padding and positions
 * past the cache.
 */
function writeKernel(f16: boolean): Kernel {
  const E = f16 ? 2 : 1;
  const word = f16 ? 'u32' : 'f32';
  const value = (at: string): string => (f16 ? `pack_half(vec2<f32>(qkv[${at}], qkv[${at} + 1u]))` : `qkv[${at}]`);
  return {
    name: f16 ? 'kv_cache_write_f16' : 'kv_cache_write',
    code: /* wgsl */ `${PARAMS}
${WGSL_LINEAR_INDEX}
@group(0) @binding(1) var<storage, read_write> kc: array<${word}>;
@group(0) @binding(2) var<storage, read_write> vc: array<${word}>;
@group(0) @binding(3) var<storage, read> qkv: array<f32>;
@group(0) @binding(4) var<storage, read> start: array<i32>;
@group(0) @binding(5) var<storage, read> len: array<i32>;
const E = ${E}u;
${f16 ? WGSL_PACK_HALF : ''}
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, 256u);
  let per = P.C / E;
  if (i >= P.B * P.S * per) { return; }
  let c = (i % per) * E;
  let j = (i / per) % P.S;
  let b = i / (per * P.S);
  let t = start[b] + i32(j);
  if (i32(j) >= len[b] || t < 0 || t >= i32(P.maxT)) { return; }
  let dst = ((b * P.maxT + u32(t)) * P.C + c) / E;
  let src = (b * P.S + j) * 3u * P.C + c;
  kc[dst] = ${value('src + P.C')};
  vc[dst] = ${value('src + 2u * P.C')};
}`,
  };
}

const WRITE = writeKernel(false);
const WRITE_F16 = writeKernel(true);

/**
 * Threads per attend workgroup for head size hs: each thread keeps a partial output of hs floats in
 * workgroup memory for the merge, (hs + 2) · 4 bytes a thread within the 16 KiB every adapter has.
 */
function attendThreads(hs: number): number {
  let wg = 64;
  while (wg > 1 && wg * (hs + 2) * 4 > 16384) wg >>= 1;
  return wg;
}

/** Threads that share one query (its cached positions split between them): ~32 positions a thread at most. */
function attendLanes(maxT: number, hs: number): number {
  let g = 1;
  while (g < attendThreads(hs) && g * 32 < maxT) g <<= 1;
  return g;
}

/**
 * Split-K ("flash decoding"): G lanes share one query (sequence b, new token j, head h); lane g takes
 * cached positions g, g + G, … and keeps a running max, a running sum of exponentials and a running
 * weighted sum of v (online softmax) in registers; after one barrier, lane g merges the G partials in
 * lane order into output elements g, g + G, … A workgroup holds WG / G queries. Fixed order, no
 * atomics: bit-identical runs. Replaced a kernel with a workgroup per query that held every score
 * in workgroup memory and reduced with two barrier trees (~16 barriers and 4·maxT bytes of
 * workgroup memory a query): that cost 45% of a batch-64 decoding step on SwiftShader.
 * With one lane (G = 1, the backend's `thread` row mode: a software adapter) there is nothing to
 * merge: out = acc / l straight from registers, no workgroup memory and no barrier; that is the
 * G = 1 merge's arithmetic exactly (its weight is exp(0) = 1).
 */
function attendKernel(hs: number, lanes: number, f16: boolean): Kernel {
  const wg = attendThreads(hs);
  const one = lanes === 1;
  const word = f16 ? 'u32' : 'f32';
  // The dot product q·k and the update of acc by v, element by element in order either way; an
  // f16 cache unpacks two elements from each word.
  const dot = f16
    ? `for (var i = 0u; i < HS; i += 2u) {
        let k2 = unpack2x16float(kc[(base + i) / 2u]);
        s += q[i] * k2.x;
        s += q[i + 1u] * k2.y;
      }`
    : 'for (var i = 0u; i < HS; i++) { s += q[i] * kc[base + i]; }';
  const upd = f16
    ? `for (var i = 0u; i < HS; i += 2u) {
        let v2 = unpack2x16float(vc[(base + i) / 2u]);
        acc[i] = acc[i] * c + e * v2.x;
        acc[i + 1u] = acc[i + 1u] * c + e * v2.y;
      }`
    : 'for (var i = 0u; i < HS; i++) { acc[i] = acc[i] * c + e * vc[base + i]; }';
  return {
    name: `${one ? `kv_attend_thread_${hs}` : `kv_attend_split_${hs}_${lanes}`}${f16 ? '_f16' : ''}`,
    code: /* wgsl */ `${PARAMS}
${WGSL_LINEAR_INDEX}
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> kc: array<${word}>;
@group(0) @binding(3) var<storage, read> vc: array<${word}>;
@group(0) @binding(4) var<storage, read> qkv: array<f32>;
@group(0) @binding(5) var<storage, read> start: array<i32>;
@group(0) @binding(6) var<storage, read> len: array<i32>;
const HS = ${hs}u;
const G = ${lanes}u;
const WG = ${wg}u;${
      one
        ? ''
        : `
var<workgroup> pm: array<f32, WG>;
var<workgroup> pl: array<f32, WG>;
var<workgroup> pacc: array<f32, ${wg * hs}>;`
    }
@compute @workgroup_size(${wg}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>) {
  let lid = lid3.x;
  let item = linear_index(gid, nwg, WG) / G;
  let lane = lid % G;
  let valid = item < P.B * P.S * P.H;
  let h = item % P.H;
  let j = (item / P.H) % P.S;
  let b = min(item / (P.H * P.S), P.B - 1u);
  let pos = start[b] + i32(j);
  let live = valid && i32(j) < len[b] && pos >= 0 && pos < i32(P.maxT);
  let nU = select(0u, u32(pos) + 1u, live);
  var q: array<f32, HS>;
  var acc: array<f32, HS>;
  var m = -3.4e38;
  var l = 0.0;
  if (live) {
    let q0 = (b * P.S + j) * 3u * P.C + h * HS;
    for (var i = 0u; i < HS; i++) { q[i] = qkv[q0 + i] * P.scale; }
    for (var u = lane; u < nU; u += G) {
      let base = (b * P.maxT + u) * P.C + h * HS;
      var s = 0.0;
      ${dot}
      let mNew = max(m, s);
      let c = exp(m - mNew);
      let e = exp(s - mNew);
      l = l * c + e;
      ${upd}
      m = mNew;
    }
  }
${
  one
    ? `  if (!valid) { return; }
  let o = (b * P.S + j) * P.C + h * HS;
  for (var i = 0u; i < HS; i++) { out[o + i] = select(0.0, acc[i] / l, live); }
`
    : `  pm[lid] = m;
  pl[lid] = l;
  for (var i = 0u; i < HS; i++) { pacc[lid * HS + i] = acc[i]; }
  workgroupBarrier();
  if (!valid) { return; }
  let first = lid - lane;
  var mx = -3.4e38;
  for (var t = 0u; t < G; t++) { mx = max(mx, pm[first + t]); }
  let o = (b * P.S + j) * P.C + h * HS;
  for (var i = lane; i < HS; i += G) {
    var num = 0.0;
    var den = 0.0;
    for (var t = 0u; t < G; t++) {
      let w = exp(pm[first + t] - mx);
      num += pacc[(first + t) * HS + i] * w;
      den += pl[first + t] * w;
    }
    out[o + i] = select(0.0, num / den, live);
  }
`
}}`,
  };
}

function attentionCachedOnCpu(
  be: CpuBackend,
  out: Tensor,
  kCache: Tensor,
  vCache: Tensor,
  qkv: Tensor,
  start: Tensor,
  len: Tensor,
  s: CachedAttentionShape,
): void {
  check(s, out, kCache, vCache, qkv, start, len);
  attentionCachedRef(
    be.f32Of(out),
    be.f32Of(kCache),
    be.f32Of(vCache),
    be.f32Of(qkv),
    be.i32Of(start),
    be.i32Of(len),
    s,
  );
}

function attentionCachedOnGpu(
  be: WebGpuBackend,
  out: Tensor,
  kCache: Tensor,
  vCache: Tensor,
  qkv: Tensor,
  start: Tensor,
  len: Tensor,
  s: CachedAttentionShape,
): void {
  check(s, out, kCache, vCache, qkv, start, len);
  const { B, S, maxT, C, H } = s;
  const f16 = s.cache === 'f16';
  const u = [u32(B), u32(S), u32(maxT), u32(C), u32(H), f32(1 / Math.sqrt(C / H))];
  be.dispatch(f16 ? WRITE_F16 : WRITE, [kCache, vCache, qkv, start, len], u, grid1d((B * S * C) / (f16 ? 2 : 1), 256));
  const hs = C / H;
  const lanes = rowReduceMode(be) === 'thread' ? 1 : attendLanes(maxT, hs);
  be.dispatch(
    attendKernel(hs, lanes, f16),
    [out, kCache, vCache, qkv, start, len],
    u,
    grid1d(B * S * H * lanes, attendThreads(hs)),
  );
}

/** The registry's entries for these ops (./registry.ts). */
export const kvAttentionOps = {
  attentionCached: { cpu: attentionCachedOnCpu, webgpu: attentionCachedOnGpu },
} satisfies OpEntries;
