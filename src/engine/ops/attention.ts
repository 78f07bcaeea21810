/**
 * Causal multi-head self-attention, forward and backward: CPU references (llm.c
 * `attention_forward` / `attention_backward`, the spec), WGSL kernels and backend entry points.
 * Not a FlashAttention: the probabilities are materialised (saved for backward), which is cheap at
 * this lab's context lengths (T ≤ 512). Only the causal lower triangle is stored: each (b, h)'s rows
 * t = 0 … T−1 one after another, row t holding t2 = 0 … t (`attentionSize`: B·H·T(T+1)/2 values,
 * where a (B, H, T, T) square would hold B·H·T², half of them zeros). Derivation of the backward:
 * docs/KERNELS.md.
 *
 * Layout: qkv (B, T, 3C) holds q = [0, C), k = [C, 2C), v = [2C, 3C) per token; head h owns channels
 * [h·hs, (h+1)·hs) of each, hs = C / H. Scores scale 1/√hs; entries above the diagonal are 0.
 *
 * GPU kernels:
 *   forward  `attention_fwd_fused`: one workgroup per query row (b, h, t) (one invocation per row in
 *            rowreduce.ts's `thread` mode): scores, causal mask, max, exp, normalise (two row
 *            reductions) and out = att·v, all in one dispatch.
 *   backward `attention_bwd_dpreatt`: one workgroup (or invocation) per row: datt = dOut·vᵀ and the softmax
 *            backward fused, into a pooled triangle-sized scratch; then `attention_bwd_dqkv`: one
 *            thread per (b, t, c) sums dq, dk, dv in a fixed order and adds them to dqkv. No atomics.
 *
 * Saved in halves: the backward can read att as IEEE halves packed two to a word (`packHalf` of the
 * forward's att, `attHalf`), which halves the memory a training step keeps per layer for it; the
 * forward itself stays f32 (training saves the packed copy, see transformer.ts `savedAttention`).
 * Packing and unpacking are core WGSL (pack2x16float / unpack2x16float): no `shader-f16` needed.
 *
 * Shape legend: B batch, T tokens, C channels, H heads, hs = C/H head size.
 */
import { assertSize, attentionSize, type AttentionShape, type Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { f32, grid1d, u32, WGSL_LINEAR_INDEX, type Kernel, type Uniform } from '../gpu/kernel';
import { dispatchRows, ROW_WG, WGSL_NEG_MAX, wgslRowReduce } from './rowreduce';
import { unpackHalves } from './half';
import type { Vec } from './types';
import type { OpEntries } from './registry';

// ---- CPU references -------------------------------------------------------------------------------

/** Where row (b, h, t) of the saved probabilities starts (the causal triangles, see the header). */
export function attRowStart(b: number, h: number, t: number, H: number, T: number): number {
  return (b * H + h) * ((T * (T + 1)) / 2) + (t * (t + 1)) / 2;
}

/** out (B, T, C) and att (attentionSize: the causal triangles) from qkv (B, T, 3C). */
export function attentionRef(out: Vec, att: Vec, qkv: Vec, { B, T, C, H }: AttentionShape): void {
  const hs = C / H;
  const scale = 1 / Math.sqrt(hs);
  const C3 = 3 * C;
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      for (let h = 0; h < H; h++) {
        const q = b * T * C3 + t * C3 + h * hs;
        const a = attRowStart(b, h, t, H, T); // att row (b, h, t, 0 … t)
        let max = -Infinity;
        for (let t2 = 0; t2 <= t; t2++) {
          const k = b * T * C3 + t2 * C3 + C + h * hs;
          let s = 0;
          for (let i = 0; i < hs; i++) s += qkv[q + i] * qkv[k + i];
          s *= scale; // q·k / √hs
          att[a + t2] = s;
          max = Math.max(max, s);
        }
        let sum = 0;
        for (let t2 = 0; t2 <= t; t2++) {
          const e = Math.exp(att[a + t2] - max);
          att[a + t2] = e;
          sum += e;
        }
        for (let t2 = 0; t2 <= t; t2++) att[a + t2] /= sum;
        const o = b * T * C + t * C + h * hs;
        for (let i = 0; i < hs; i++) {
          let acc = 0;
          for (let t2 = 0; t2 <= t; t2++) acc += att[a + t2] * qkv[b * T * C3 + t2 * C3 + 2 * C + h * hs + i];
          out[o + i] = acc; // Σ att · v
        }
      }
    }
  }
}

/** dqkv (B, T, 3C) += from dOut (B, T, C), the saved qkv and att. */
export function attentionBackwardRef(dqkv: Vec, dOut: Vec, qkv: Vec, att: Vec, { B, T, C, H }: AttentionShape): void {
  const hs = C / H;
  const scale = 1 / Math.sqrt(hs);
  const C3 = 3 * C;
  const datt = new Float64Array(T);
  const dpre = new Float64Array(T);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      for (let h = 0; h < H; h++) {
        const q = b * T * C3 + t * C3 + h * hs;
        const a = attRowStart(b, h, t, H, T);
        const o = b * T * C + t * C + h * hs;
        // out = att · v
        for (let t2 = 0; t2 <= t; t2++) {
          const v = b * T * C3 + t2 * C3 + 2 * C + h * hs;
          let d = 0;
          for (let i = 0; i < hs; i++) {
            d += qkv[v + i] * dOut[o + i];
            dqkv[v + i] += att[a + t2] * dOut[o + i]; // dv
          }
          datt[t2] = d;
        }
        // att = softmax(pre): dpre = att ⊙ (datt − Σ att⊙datt)
        let dot = 0;
        for (let t2 = 0; t2 <= t; t2++) dot += att[a + t2] * datt[t2];
        for (let t2 = 0; t2 <= t; t2++) dpre[t2] = att[a + t2] * (datt[t2] - dot);
        // pre = q·k · scale
        for (let t2 = 0; t2 <= t; t2++) {
          const k = b * T * C3 + t2 * C3 + C + h * hs;
          for (let i = 0; i < hs; i++) {
            dqkv[q + i] += qkv[k + i] * dpre[t2] * scale; // dq
            dqkv[k + i] += qkv[q + i] * dpre[t2] * scale; // dk
          }
        }
      }
    }
  }
}

// ---- WGSL -------------------------------------------------------------------------------------------

const WG = ROW_WG;
const ELEM_WG = 64;

const params = /* wgsl */ `
struct Params { b: u32, t: u32, c: u32, h: u32, hs: u32, scale: f32 }
@group(0) @binding(0) var<uniform> P: Params;`;

/** Row r = (b·H + h)·T + t of att; q/k/v offsets of token t' of that (b, h) inside qkv. */
const rowHelpers = /* wgsl */ `
struct Row { b: u32, h: u32, t: u32 }
fn split_row(r: u32) -> Row { let bh = r / P.t; return Row(bh / P.h, bh % P.h, r % P.t); }
fn qkv_at(b: u32, t: u32, part: u32, h: u32) -> u32 { return (b * P.t + t) * 3u * P.c + part * P.c + h * P.hs; }
// First saved probability of row t of head bh = b·H + h: the causal triangles, as attRowStart.
fn att_row(bh: u32, t: u32) -> u32 { return bh * (P.t * (P.t + 1u) / 2u) + t * (t + 1u) / 2u; }`;

/** Fused and row-parallel: see the file header. */
const ATTN_FWD_FUSED: Kernel = {
  name: 'attention_fwd_fused',
  code: /* wgsl */ `${params}
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> att: array<f32>;
@group(0) @binding(3) var<storage, read> qkv: array<f32>;
${wgslRowReduce(WG)}
${rowHelpers}
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = row_index(wid, nwg);
  if (r >= P.b * P.h * P.t) { return; }
  let rw = split_row(r);
  let q = qkv_at(rw.b, rw.t, 0u, rw.h);
  let a = att_row(r / P.t, rw.t);
  var m = ${WGSL_NEG_MAX};
  for (var t2 = lid; t2 <= rw.t; t2 += ROW_STRIDE) {
    let k = qkv_at(rw.b, t2, 1u, rw.h);
    var s = 0.0;
    for (var i = 0u; i < P.hs; i++) { s += qkv[q + i] * qkv[k + i]; }
    s *= P.scale;
    m = max(m, s);
    att[a + t2] = s;
  }
  m = wg_max(m, lid);
  var sum = 0.0;
  for (var t2 = lid; t2 <= rw.t; t2 += ROW_STRIDE) {
    let e = exp(att[a + t2] - m);
    att[a + t2] = e;
    sum += e;
  }
  let inv = 1.0 / wg_sum(sum, lid);
  for (var t2 = lid; t2 <= rw.t; t2 += ROW_STRIDE) { att[a + t2] = att[a + t2] * inv; }
  row_sync(); // out below reads probabilities written by other threads
  let o = (rw.b * P.t + rw.t) * P.c + rw.h * P.hs;
  for (var i = lid; i < P.hs; i += ROW_STRIDE) {
    var acc = 0.0;
    for (var t2 = 0u; t2 <= rw.t; t2++) { acc += att[a + t2] * qkv[qkv_at(rw.b, t2, 2u, rw.h) + i]; }
    out[o + i] = acc;
  }
}`,
};

/**
 * The backward kernels' binding of the saved probabilities and `att_at(i)`, element i of att as f32:
 * f32 storage, or halves packed two to a word (element 2j in the low half of word j).
 */
function attBinding(binding: number, half: boolean): string {
  return half
    ? /* wgsl */ `@group(0) @binding(${binding}) var<storage, read> att: array<u32>;
fn att_at(i: u32) -> f32 { let p = unpack2x16float(att[i >> 1u]); return select(p.x, p.y, (i & 1u) == 1u); }`
    : /* wgsl */ `@group(0) @binding(${binding}) var<storage, read> att: array<f32>;
fn att_at(i: u32) -> f32 { return att[i]; }`;
}

/** dp[r, t2] = att ⊙ (datt − Σ att⊙datt), datt[t2] = dOut[b, t, h]·v[b, t2, h], for t2 <= t. */
const attnBwdDpreatt = (half: boolean): Kernel => ({
  name: `attention_bwd_dpreatt${half ? '_h' : ''}`,
  code: /* wgsl */ `${params}
@group(0) @binding(1) var<storage, read_write> dp: array<f32>;
@group(0) @binding(2) var<storage, read> dout: array<f32>;
@group(0) @binding(3) var<storage, read> qkv: array<f32>;
${attBinding(4, half)}
${wgslRowReduce(WG)}
${rowHelpers}
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = row_index(wid, nwg);
  if (r >= P.b * P.h * P.t) { return; }
  let rw = split_row(r);
  let o = (rw.b * P.t + rw.t) * P.c + rw.h * P.hs;
  let a = att_row(r / P.t, rw.t);
  var dot = 0.0;
  for (var t2 = lid; t2 <= rw.t; t2 += ROW_STRIDE) {
    let v = qkv_at(rw.b, t2, 2u, rw.h);
    var d = 0.0;
    for (var i = 0u; i < P.hs; i++) { d += dout[o + i] * qkv[v + i]; }
    dp[a + t2] = d; // datt, overwritten in place below by the same thread
    dot += att_at(a + t2) * d;
  }
  dot = wg_sum(dot, lid);
  for (var t2 = lid; t2 <= rw.t; t2 += ROW_STRIDE) { dp[a + t2] = att_at(a + t2) * (dp[a + t2] - dot); }
}`,
});
const ATTN_BWD_DPREATT = [attnBwdDpreatt(false), attnBwdDpreatt(true)];

/** One thread per (b, t, c): dq, dk, dv of that token and channel, each a fixed-order sum over tokens. */
const attnBwdDqkv = (half: boolean): Kernel => ({
  name: `attention_bwd_dqkv${half ? '_h' : ''}`,
  code: /* wgsl */ `${params}
@group(0) @binding(1) var<storage, read_write> dqkv: array<f32>;
@group(0) @binding(2) var<storage, read> dp: array<f32>;
@group(0) @binding(3) var<storage, read> dout: array<f32>;
@group(0) @binding(4) var<storage, read> qkv: array<f32>;
${attBinding(5, half)}
${WGSL_LINEAR_INDEX}
${rowHelpers}
@compute @workgroup_size(${ELEM_WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let j = linear_index(gid, nwg, ${ELEM_WG}u);
  if (j >= P.b * P.t * P.c) { return; }
  let c = j % P.c;
  let bt = j / P.c;
  let t = bt % P.t;
  let b = bt / P.t;
  let h = c / P.hs;
  let i = c % P.hs;
  let row = att_row(b * P.h + h, t); // row t of (b, h)
  var dq = 0.0;
  for (var t2 = 0u; t2 <= t; t2++) { dq += dp[row + t2] * qkv[qkv_at(b, t2, 1u, h) + i]; }
  var dk = 0.0;
  var dv = 0.0;
  var at = row + t; // entry (t1, t), column t of rows t1 = t, t + 1, …: row t1 + 1 starts t1 + 1 later
  for (var t1 = t; t1 < P.t; t1++) {
    dk += dp[at] * qkv[qkv_at(b, t1, 0u, h) + i];
    dv += att_at(at) * dout[(b * P.t + t1) * P.c + c];
    at += t1 + 1u;
  }
  let base = bt * 3u * P.c + c;
  dqkv[base] = dqkv[base] + dq * P.scale;
  dqkv[base + P.c] = dqkv[base + P.c] + dk * P.scale;
  dqkv[base + 2u * P.c] = dqkv[base + 2u * P.c] + dv;
}`,
});
const ATTN_BWD_DQKV = [attnBwdDqkv(false), attnBwdDqkv(true)];

// ---- entry points ------------------------------------------------------------------------------------

function checkShape(s: AttentionShape, what: string): void {
  const { B, T, C, H } = s;
  for (const [k, v] of Object.entries({ B, T, C, H })) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`${what}: ${k} must be a positive integer, got ${v}`);
  }
  if (C % H !== 0) throw new Error(`${what}: C (${C}) must be a multiple of H (${H})`);
}

/** Options of attentionBackward. */
interface AttentionBackwardOptions {
  /** att holds the probabilities as packed halves (`packHalf` of the forward's att: ⌈attentionSize / 2⌉ words). */
  attHalf?: boolean;
}

/** The shape, and the sizes of qkv, the output (forward) or its gradient (backward) and att, named for `what`. */
function checkTensors(
  what: 'attention' | 'attentionBackward',
  out: Tensor,
  att: Tensor,
  qkv: Tensor,
  s: AttentionShape,
  attHalf = false,
): void {
  checkShape(s, what);
  const { B, T, C, H } = s;
  assertSize(qkv, B * T * 3 * C, `${what} qkv (B=${B}, T=${T}, 3C=${3 * C})`);
  assertSize(out, B * T * C, `${what} ${what === 'attention' ? 'out' : 'dOut'} (B=${B}, T=${T}, C=${C})`);
  const n = attentionSize(s);
  if (attHalf)
    assertSize(
      att,
      Math.ceil(n / 2),
      `${what} att as packed halves (⌈B·H·T(T+1)/2 / 2⌉ words, B=${B}, H=${H}, T=${T})`,
    );
  else assertSize(att, n, `${what} att (the causal triangles: B·H·T(T+1)/2 values, B=${B}, H=${H}, T=${T})`);
}

function backwardChecks(
  dqkv: Tensor,
  dOut: Tensor,
  qkv: Tensor,
  att: Tensor,
  s: AttentionShape,
  o: AttentionBackwardOptions,
): void {
  checkTensors('attentionBackward', dOut, att, qkv, s, o.attHalf);
  assertSize(dqkv, qkv.size, 'attentionBackward dqkv (like qkv)');
}

function uniforms({ B, T, C, H }: AttentionShape): Uniform[] {
  return [u32(B), u32(T), u32(C), u32(H), u32(C / H), f32(1 / Math.sqrt(C / H))];
}

function attentionOnCpu(be: CpuBackend, out: Tensor, att: Tensor, qkv: Tensor, s: AttentionShape): void {
  checkTensors('attention', out, att, qkv, s);
  attentionRef(be.f32Of(out), be.f32Of(att), be.f32Of(qkv), s);
}
function attentionOnGpu(be: WebGpuBackend, out: Tensor, att: Tensor, qkv: Tensor, s: AttentionShape): void {
  checkTensors('attention', out, att, qkv, s);
  dispatchRows(be, ATTN_FWD_FUSED, [out, att, qkv], uniforms(s), s.B * s.H * s.T);
}

function attentionBackwardOnCpu(
  be: CpuBackend,
  dqkv: Tensor,
  dOut: Tensor,
  qkv: Tensor,
  att: Tensor,
  s: AttentionShape,
  o: AttentionBackwardOptions = {},
): void {
  backwardChecks(dqkv, dOut, qkv, att, s, o);
  const probs = o.attHalf ? unpackHalves(be.f32Of(att)) : be.f32Of(att); // halves are exact in f32
  attentionBackwardRef(be.f32Of(dqkv), be.f32Of(dOut), be.f32Of(qkv), probs, s);
}
function attentionBackwardOnGpu(
  be: WebGpuBackend,
  dqkv: Tensor,
  dOut: Tensor,
  qkv: Tensor,
  att: Tensor,
  s: AttentionShape,
  o: AttentionBackwardOptions = {},
): void {
  backwardChecks(dqkv, dOut, qkv, att, s, o);
  const half = o.attHalf ? 1 : 0;
  const { B, T, C, H } = s;
  const dp = be.scratch([attentionSize(s)]); // dpreatt, laid out like att
  dispatchRows(be, ATTN_BWD_DPREATT[half], [dp, dOut, qkv, att], uniforms(s), B * H * T);
  be.dispatch(ATTN_BWD_DQKV[half], [dqkv, dp, dOut, qkv, att], uniforms(s), grid1d(B * T * C, ELEM_WG));
  be.release(dp);
}

/** The registry's entries for these ops (./registry.ts). */
export const attentionOps = {
  attention: { cpu: attentionOnCpu, webgpu: attentionOnGpu },
  attentionBackward: { cpu: attentionBackwardOnCpu, webgpu: attentionBackwardOnGpu },
} satisfies OpEntries;
