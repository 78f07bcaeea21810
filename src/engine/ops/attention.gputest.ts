/**
 * GPU tests for causal attention: out, att (forward) and dqkv (backward, accumulated onto a
 * non-zero gradient) against the CPU reference on awkward shapes: T = 1, H = 1, H = C (head size 1),
 * odd head sizes, T above the row workgroup (64). Plus a bit-identical repeat.
 */
import type { AttentionShape, Backend, Tensor } from '../backend';
import { Rng } from '../rng';
import { randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
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
  const { B, T, C, H } = s;
  const rng = new Rng(seed);
  const qkv = randn(rng, B * T * 3 * C);
  const dOut = randn(rng, B * T * C);
  const d0 = randn(rng, B * T * 3 * C);
  return (be) => {
    const tqkv = be.fromArray(qkv, [B, T, 3 * C]);
    const out = be.zeros([B, T, C]);
    const att = be.zeros([B, H, T, T]);
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
        for (const s of SHAPES) reports.push(...(await sameOnBoth(env, labels(s), build(s, `attn ${s.B} ${s.T} ${s.C} ${s.H}`))));
        return reports;
      }),
  },
  {
    name: 'attention: bit-identical when run twice',
    run: (env) => eachRowReduceMode(env, () => sameTwiceOnGpu(env, labels(SHAPES[3]), build(SHAPES[3], 'attn twice'))),
  },
];
