/**
 * GPU tests for cached attention: the kernel against its CPU reference in every row-reduction mode
 * (split-K lanes; one lane in `thread` mode), and the cache against full attention.
 */
import { attentionSize, type CachedAttentionShape } from '../backend';
import { Rng } from '../rng';
import { compare, type CompareReport } from '../testing/compare';
import { randn, sameOnBoth, type GpuTest, type GpuTestEnv } from '../testing/gpu-test';
import { BITWISE, eachRowReduceMode } from '../testing/twice';
import { halfBits, isHalfRounding } from './half';
import { kvAttendRef, kvWriteRef } from './kvattention';

/** Random finite halves packed two to a word, as f32 bits (the initial contents of an f16 cache). */
function randomHalfWords(rng: Rng, n: number): Float32Array {
  const w = new Uint32Array(n);
  for (let i = 0; i < n; i++) w[i] = (halfBits(rng.normal()) | (halfBits(rng.normal()) << 16)) >>> 0;
  return new Float32Array(w.buffer);
}

/**
 * One f16-cache call on the GPU, checked without assuming the device's rounding (WGSL leaves it
 * open): every half the call wrote is a rounding of its k or v value (the nearest half or the one
 * on the other side), every other half is untouched; the output equals the CPU reference's
 * attention over the very cache the GPU wrote. Also counts halves that differ from round-to-nearest-even.
 */
async function f16Case(
  env: GpuTestEnv,
  s: CachedAttentionShape,
  qkv: Float32Array,
  k0: Float32Array,
  v0: Float32Array,
  start: Int32Array,
  len: Int32Array,
  label: string,
): Promise<CompareReport[]> {
  const { B, S, maxT, C } = s;
  const gpu = env.gpu;
  const out = gpu.zeros([B, S, C]);
  const kc = gpu.fromArray(k0, [(B * maxT * C) / 2]);
  const vc = gpu.fromArray(v0, [(B * maxT * C) / 2]);
  gpu.attentionCached(
    out,
    kc,
    vc,
    gpu.fromArray(qkv, [B, S, 3 * C]),
    gpu.fromArray(start, [B]),
    gpu.fromArray(len, [B]),
    { ...s, cache: 'f16' },
  );
  const [o, kw, vw] = [await gpu.read(out), await gpu.read(kc), await gpu.read(vc)];
  // What each half should hold: the k / v value written there (the f32 reference's write into NaN
  // caches), or, where that left NaN, the initial half.
  const wrote = new Float32Array(B * maxT * C * 2).fill(NaN); // [k | v] per element
  kvWriteRef(wrote.subarray(0, B * maxT * C), wrote.subarray(B * maxT * C), qkv, start, len, { ...s, cache: 'f32' });
  const ok = new Float64Array(B * maxT * C * 2);
  let notNearest = 0;
  [
    [kw, k0],
    [vw, v0],
  ].forEach(([got, init], which) => {
    const g = new Uint32Array(got.buffer, got.byteOffset, got.length);
    const i0 = new Uint32Array(init.buffer, init.byteOffset, init.length);
    for (let i = 0; i < B * maxT * C; i++) {
      const half = (w: Uint32Array) => (i & 1 ? w[i >> 1] >>> 16 : w[i >> 1] & 0xffff);
      const x = wrote[which * B * maxT * C + i];
      const h = half(g);
      if (Number.isNaN(x)) ok[which * B * maxT * C + i] = h === half(i0) ? 1 : 0;
      else {
        ok[which * B * maxT * C + i] = isHalfRounding(h, x) ? 1 : 0;
        if (h !== halfBits(x)) notNearest++;
      }
    }
  });
  const want = new Float32Array(B * S * C);
  kvAttendRef(want, kw, vw, qkv, start, len, { ...s, cache: 'f16' });
  return [
    compare(
      `f16 cache ${label}: every half a rounding of its value or untouched (${notNearest} not nearest-even)`,
      ok,
      new Float64Array(ok.length).fill(1),
      BITWISE,
    ),
    compare(`f16 cache ${label}: out vs the reference over the GPU's cache`, o, want),
  ];
}

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
    run: (env) =>
      eachRowReduceMode(env, async () => {
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
              be.attentionCached(
                out,
                kc,
                vc,
                be.fromArray(qkv, [B, S, 3 * C]),
                be.fromArray(start, [B]),
                be.fromArray(len, [B]),
                s,
              );
              return [out, kc, vc];
            })),
          );
        }
        return reports;
      }),
  },
  {
    name: 'attentionCached with an f16 cache: halves written and read as the CPU reference, every mode',
    run: (env) =>
      eachRowReduceMode(env, async () => {
        const rng = new Rng('kvattention-f16');
        const reports: CompareReport[] = [];
        for (const s of CASES) {
          const { B, S, maxT, C } = s;
          const qkv = Float32Array.from(randn(rng, B * S * 3 * C), (x, i) => (i % 29 === 0 ? x * 1e5 : x)); // some past ±65504
          const start = Int32Array.from({ length: B }, () => rng.int(0, Math.max(0, maxT - S)));
          const len = Int32Array.from({ length: B }, (_, b) => (b === 0 ? S : rng.int(0, S)));
          const label = `B${B} S${S} maxT${maxT} C${C} H${s.H}`;
          reports.push(
            ...(await f16Case(
              env,
              s,
              qkv,
              randomHalfWords(rng, (B * maxT * C) / 2),
              randomHalfWords(rng, (B * maxT * C) / 2),
              start,
              len,
              label,
            )),
          );
        }
        return reports;
      }),
  },
  {
    name: 'attentionCached: a prefill equals full causal attention on the GPU',
    async run(env) {
      const rng = new Rng('kv-vs-full');
      const B = 2,
        T = 9,
        C = 8,
        H = 2;
      const qkv = randn(rng, B * T * 3 * C);
      const gpu = env.gpu;
      const full = gpu.zeros([B, T, C]);
      gpu.attention(full, gpu.zeros([attentionSize({ B, H, T })]), gpu.fromArray(qkv, [B, T, 3 * C]), { B, T, C, H });
      const cached = gpu.zeros([B, T, C]);
      gpu.attentionCached(
        cached,
        gpu.zeros([B, T, C]),
        gpu.zeros([B, T, C]),
        gpu.fromArray(qkv, [B, T, 3 * C]),
        gpu.fromArray(new Int32Array(B), [B]),
        gpu.fromArray(new Int32Array(B).fill(T), [B]),
        { B, S: T, maxT: T, C, H },
      );
      return [compare('cached prefill vs full attention', await gpu.read(cached), await gpu.read(full))];
    },
  },
];
