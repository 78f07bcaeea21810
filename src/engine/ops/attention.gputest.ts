/**
 * GPU tests for causal attention: out, att (forward) and dqkv (backward, accumulated onto a
 * non-zero gradient) against the CPU reference on awkward shapes: T = 1, H = 1, H = C (head size 1),
 * odd head sizes, T above the row workgroup (64). Plus a bit-identical repeat, and the backward
 * from probabilities saved as packed halves (attHalf), odd counts included.
 */
import { attentionSize, type AttentionShape, type Backend, type Tensor } from '../backend';
import { Rng } from '../rng';
import { compare, type CompareReport } from '../testing/compare';
import { randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { attentionRef } from './attention';
import { halfAt, halfWords, isHalfRounding, packHalfRef } from './half';
import { eachRowReduceMode, sameTwiceOnGpu } from '../testing/twice';

const SHAPES: AttentionShape[] = [
  { B: 1, T: 1, C: 4, H: 2 },
  { B: 2, T: 3, C: 4, H: 1 },
  { B: 1, T: 5, C: 3, H: 3 },
  { B: 2, T: 7, C: 6, H: 2 },
  { B: 1, T: 13, C: 10, H: 2 },
  { B: 1, T: 67, C: 4, H: 1 },
  { B: 3, T: 29, C: 8, H: 2 }, // 174 rows: three workgroups of rows in `thread` mode
];

function build(s: AttentionShape, seed: string): (be: Backend) => Tensor[] {
  const { B, T, C } = s;
  const rng = new Rng(seed);
  const qkv = randn(rng, B * T * 3 * C);
  const dOut = randn(rng, B * T * C);
  const d0 = randn(rng, B * T * 3 * C);
  return (be) => {
    const tqkv = be.fromArray(qkv, [B, T, 3 * C]);
    const out = be.zeros([B, T, C]);
    const att = be.zeros([attentionSize(s)]);
    be.attention(out, att, tqkv, s);
    const dqkv = be.fromArray(d0, [B, T, 3 * C]);
    be.attentionBackward(dqkv, be.fromArray(dOut, [B, T, C]), tqkv, att, s);
    return [out, att, dqkv];
  };
}

const labels = ({ B, T, C, H }: AttentionShape): string[] =>
  ['out', 'att', 'dqkv'].map((l) => `attention ${l} B=${B} T=${T} C=${C} H=${H}`);

export const attentionGpuTests: GpuTest[] = [
  {
    name: 'attention: forward and backward vs cpu, awkward shapes',
    run: (env) =>
      eachRowReduceMode(env, async () => {
        const reports = [];
        for (const s of SHAPES)
          reports.push(...(await sameOnBoth(env, labels(s), build(s, `attn ${s.B} ${s.T} ${s.C} ${s.H}`))));
        return reports;
      }),
  },
  {
    name: 'attention: bit-identical when run twice',
    run: (env) => eachRowReduceMode(env, () => sameTwiceOnGpu(env, labels(SHAPES[3]), build(SHAPES[3], 'attn twice'))),
  },
  {
    name: 'attention: backward from packed-half probabilities (attHalf) vs cpu; GPU packHalf of the probabilities, odd counts',
    run: (env) =>
      eachRowReduceMode(env, async () => {
        const reports: CompareReport[] = [];
        for (const s of SHAPES) {
          const { B, T, C, H } = s;
          const rng = new Rng(`attn half ${B} ${T} ${C} ${H}`);
          const qkv = randn(rng, B * T * 3 * C, 2);
          const dOut = randn(rng, B * T * C);
          const d0 = randn(rng, B * T * 3 * C);
          // The same packed words on both backends: the kernels' reading of halves, isolated.
          const probs = new Float32Array(attentionSize(s));
          attentionRef(new Float32Array(B * T * C), probs, qkv, s);
          const words = new Float32Array(Math.ceil(probs.length / 2));
          packHalfRef(words, probs);
          const tag = `B=${B} T=${T} C=${C} H=${H}`;
          reports.push(
            ...(await sameOnBoth(env, [`attention dqkv from halves ${tag}`], (be: Backend) => {
              const dqkv = be.fromArray(d0, [B, T, 3 * C]);
              be.attentionBackward(
                dqkv,
                be.fromArray(dOut, [B, T, C]),
                be.fromArray(qkv, [B, T, 3 * C]),
                be.fromArray(words, [words.length]),
                s,
                { attHalf: true },
              );
              return [dqkv];
            })),
          );
          // On the GPU: forward, then packHalf (what training saves): each half a rounding of the
          // GPU's own probability, and an odd count's last high half 0.
          const gpu = env.gpu;
          const att = gpu.zeros([attentionSize(s)]);
          gpu.attention(gpu.zeros([B, T, C]), att, gpu.fromArray(qkv, [B, T, 3 * C]), s);
          const packed = gpu.zeros([words.length]);
          gpu.fill(packed, -1); // stale bits everywhere, the odd high half included
          gpu.packHalf(packed, att);
          const a = await gpu.read(att);
          const w = halfWords(await gpu.read(packed));
          const ok = Float32Array.from({ length: 2 * w.length }, (_, i) =>
            i < a.length ? +isHalfRounding(halfAt(w, i), a[i]) : +(halfAt(w, i) === 0),
          );
          reports.push(
            compare(
              `packHalf of att ${tag} (${a.length} values): roundings, odd tail 0`,
              ok,
              new Float32Array(ok.length).fill(1),
              { abs: 0, rel: 0 },
            ),
          );
        }
        return reports;
      }),
  },
];
