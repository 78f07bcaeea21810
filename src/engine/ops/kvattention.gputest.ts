/**
 * GPU tests for cached attention: the kernel against its CPU reference in every row-reduction mode
 * (split-K lanes; one lane in `thread` mode), and the cache against full attention.
 */
import { Rng } from '../rng';
import { compare } from '../testing/compare';
import { randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { eachRowReduceMode } from '../testing/twice';

const CASES = [
  { B: 1, S: 1, maxT: 1, C: 4, H: 1 },
  { B: 3, S: 1, maxT: 13, C: 12, H: 3 },
  { B: 2, S: 5, maxT: 17, C: 8, H: 2 },
  { B: 4, S: 7, maxT: 70, C: 20, H: 5 },
  // Long caches (several positions per thread of the split-K kernel) and head sizes 32 and 64
  // (64 threads and 32 threads a workgroup).
  { B: 3, S: 1, maxT: 300, C: 64, H: 2 },
  { B: 2, S: 2, maxT: 200, C: 128, H: 2 },
];

export const kvattentionGpuTests: GpuTest[] = [
  {
    name: 'attentionCached: decode steps and ragged chunks, output and cache contents',
    run: (env) => eachRowReduceMode(env, async () => {
      const rng = new Rng('kvattention');
      const reports = [];
      for (const s of CASES) {
        const { B, S, maxT, C } = s;
        const qkv = randn(rng, B * S * 3 * C);
        const k0 = randn(rng, B * maxT * C);
        const v0 = randn(rng, B * maxT * C);
        const start = Int32Array.from({ length: B }, () => rng.int(0, Math.max(0, maxT - S)));
        const len = Int32Array.from({ length: B }, (_, b) => (b === 0 ? S : rng.int(0, S)));
        const label = `B${B} S${S} maxT${maxT} C${C} H${s.H}`;
        reports.push(
          ...(await sameOnBoth(env, [`out ${label}`, `kCache ${label}`, `vCache ${label}`], (be) => {
            const out = be.zeros([B, S, C]);
            const kc = be.fromArray(k0, [B, maxT, C]);
            const vc = be.fromArray(v0, [B, maxT, C]);
            be.attentionCached(out, kc, vc, be.fromArray(qkv, [B, S, 3 * C]), be.fromArray(start, [B]), be.fromArray(len, [B]), s);
            return [out, kc, vc];
          })),
        );
      }
      return reports;
    }),
  },
  {
    name: 'attentionCached: a prefill equals full causal attention on the GPU',
    async run(env) {
      const rng = new Rng('kv-vs-full');
      const B = 2, T = 9, C = 8, H = 2;
      const qkv = randn(rng, B * T * 3 * C);
      const gpu = env.gpu;
      const full = gpu.zeros([B, T, C]);
      gpu.attention(full, gpu.zeros([B, H, T, T]), gpu.fromArray(qkv, [B, T, 3 * C]), { B, T, C, H });
      const cached = gpu.zeros([B, T, C]);
      gpu.attentionCached(cached, gpu.zeros([B, T, C]), gpu.zeros([B, T, C]), gpu.fromArray(qkv, [B, T, 3 * C]),
        gpu.fromArray(new Int32Array(B), [B]), gpu.fromArray(new Int32Array(B).fill(T), [B]), { B, S: T, maxT: T, C, H });
      return [compare('cached prefill vs full attention', await gpu.read(cached), await gpu.read(full))];
    },
  },
];
