/**
 * Attention on the wasm backend (asm/attention.ts): the training forward (threads over query rows),
 * its backward (threads over (b, h) pairs, so every gradient sum has one owner and a fixed order),
 * and the cached decoding step (the cache write unthreaded, the attention threaded over queries),
 * with f32 or packed-half caches and f32 or packed-half saved probabilities.
 */
import { assertSize, attentionSize, type AttentionShape } from '../../backend';
import type { WasmEntries } from './types';

/** The longest cache attentionCached accepts (as the other backends). */
const MAX_CACHED_T = 3072;

function checkShape({ B, T, C, H }: AttentionShape, what: string): void {
  for (const [k, v] of Object.entries({ B, T, C, H }))
    if (!Number.isInteger(v) || v < 1) throw new Error(`${what}: ${k} must be a positive integer, got ${v}`);
  if (C % H !== 0) throw new Error(`${what}: C (${C}) must be a multiple of H (${H})`);
}

export const attentionWasm = {
  attention(be, out, att, qkv, s) {
    checkShape(s, 'attention');
    const { B, T, C, H } = s;
    assertSize(qkv, B * T * 3 * C, `attention qkv (B=${B}, T=${T}, 3C=${3 * C})`);
    assertSize(out, B * T * C, `attention out (B=${B}, T=${T}, C=${C})`);
    assertSize(att, attentionSize(s), `attention att (the causal triangles: B·H·T(T+1)/2 values)`);
    const work = attentionSize(s) * (2 * (C / H) + 8);
    be.par('attn_forward', work, be.ptr(out), be.ptr(att), be.ptr(qkv), B, T, C, H, 1 / Math.sqrt(C / H));
  },

  attentionBackward(be, dqkv, dOut, qkv, att, s, o = {}) {
    checkShape(s, 'attentionBackward');
    const { B, T, C, H } = s;
    const half = o.attHalf === true;
    assertSize(qkv, B * T * 3 * C, `attentionBackward qkv (B=${B}, T=${T}, 3C=${3 * C})`);
    assertSize(dOut, B * T * C, `attentionBackward dOut (B=${B}, T=${T}, C=${C})`);
    const n = attentionSize(s);
    if (half) assertSize(att, Math.ceil(n / 2), 'attentionBackward att as packed halves (⌈B·H·T(T+1)/2 / 2⌉ words)');
    else assertSize(att, n, 'attentionBackward att (the causal triangles: B·H·T(T+1)/2 values)');
    assertSize(dqkv, qkv.size, 'attentionBackward dqkv (like qkv)');
    // per part: the dscores triangle of a (b, h) pair, a row of unpacked probabilities, two columns
    const scratch = be.scratch([be.threads * ((T * (T + 1)) / 2 + 3 * T)]);
    const work = n * (4 * (C / H) + 8);
    be.par(
      'attn_backward',
      work,
      be.ptr(dqkv),
      be.ptr(dOut),
      be.ptr(qkv),
      be.ptr(att),
      be.ptr(scratch),
      B,
      T,
      C,
      H,
      1 / Math.sqrt(C / H),
      half ? 1 : 0,
    );
    be.release(scratch);
  },

  attentionCached(be, out, kCache, vCache, qkv, start, len, s) {
    const { B, S, maxT, C, H } = s;
    if (C % H !== 0) throw new Error(`attentionCached: C (${C}) must be divisible by H (${H})`);
    if (maxT > MAX_CACHED_T) throw new Error(`attentionCached: cache length ${maxT} exceeds ${MAX_CACHED_T}`);
    const f16 = s.cache === 'f16';
    const hs = C / H;
    if (f16 && hs % 2 !== 0) throw new Error(`attentionCached: an f16 cache needs an even head size, got ${hs}`);
    const cacheSize = f16 ? (B * maxT * C) / 2 : B * maxT * C;
    const cacheShape = f16 ? '(B, maxT, C / 2) words' : '(B, maxT, C)';
    for (const [t, n, what] of [
      [out, B * S * C, 'out (B, S, C)'],
      [kCache, cacheSize, `kCache ${cacheShape}`],
      [vCache, cacheSize, `vCache ${cacheShape}`],
      [qkv, B * S * 3 * C, 'qkv (B, S, 3C)'],
      [start, B, 'start (B)'],
      [len, B, 'len (B)'],
    ] as const)
      if (t.size !== n) throw new Error(`attentionCached: ${what} needs ${n} elements, got ${t.size}`);
    if (start.dtype !== 'i32' || len.dtype !== 'i32')
      throw new Error('attentionCached: start and len must be i32 tensors');
    const [pk, pv, pq, ps, pl] = [be.ptr(kCache), be.ptr(vCache), be.ptr(qkv), be.ptr(start), be.ptr(len)];
    be.call('attn_kv_write', pk, pv, pq, ps, pl, B, S, maxT, C, f16 ? 1 : 0);
    // work: the positions each live query attends over (a function of the call's inputs)
    const st = be.i32(start);
    const ln = be.i32(len);
    let positions = 0;
    for (let b = 0; b < B; b++) {
      const n = Math.max(0, Math.min(S, ln[b], maxT - st[b]));
      positions += n * Math.max(0, st[b] + (n + 1) / 2);
    }
    const scores = be.scratch([be.threads * maxT]); // per part: one query's scores
    const work = positions * H * (2 * hs + 8);
    be.par(
      'attn_kv_attend',
      work,
      be.ptr(out),
      pk,
      pv,
      pq,
      ps,
      pl,
      be.ptr(scores),
      B,
      S,
      maxT,
      C,
      H,
      1 / Math.sqrt(hs),
      f16 ? 1 : 0,
    );
    be.release(scores);
  },
} satisfies WasmEntries;
