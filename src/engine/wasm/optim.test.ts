/**
 * The optimiser and RL kernels of the wasm backend against the CPU reference: AdamW (several steps,
 * weight decay, the step guard set and unset), flagNonFinite (NaN, ±∞ at chunk edges and tails),
 * clipGradNorm (above and below the max, zero and non-finite gradients), tokenLogprobs and
 * policyLoss (V = 1024 and awkward V, invalid actions, masked rows, both clip sides, k1, k3, no
 * reference, entropy; onto a non-zero gradient), valueLoss, GAE and group advantages (the f64
 * kernels: the reference's bits), and the same bits on 1 and 4 threads at sizes that split (off the
 * SIMD width, so the split falls inside a run of four).
 */
import { describe, expect, it } from 'vitest';
import type { AdamWOptions, Backend, PolicyLossOptions, Tensor } from '../backend';
import { fixedGroups } from '../ops/advantage';
import { POLICY_STAT, POLICY_STATS, tokenLogprobsRef } from '../ops/policyloss';
import { VALUE_STATS } from '../ops/valueloss';
import { Rng } from '../rng';
import { F32_TOL, type Tolerance } from '../testing/compare';
import { sameBits, sameOnWasm, wasmBackends } from './testing/same';

const EXACT: Tolerance = { abs: 0, rel: 0 };
const SIZES = [1, 3, 5, 4097, 100003];

function randn(rng: Rng, n: number, scale = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.normal() * scale;
  return out;
}

/** Normal values whose magnitudes span 1e-6 … 1 (small second moments exercise eps). */
function spread(rng: Rng, n: number): Float32Array {
  return Float32Array.from({ length: n }, () => rng.normal() * 10 ** (-6 * rng.next()));
}

/** The first index where two f32 arrays differ in their bits, or -1. */
function firstDiff(a: Float32Array, b: Float32Array): number {
  const [u, v] = [new Int32Array(a.buffer, a.byteOffset, a.length), new Int32Array(b.buffer, b.byteOffset, b.length)];
  if (u.length !== v.length) return 0;
  for (let i = 0; i < u.length; i++) if (u[i] !== v[i]) return i;
  return -1;
}

/** `build` against the CPU on both wasm backends; the failing summaries (expected: none). */
async function failures(labels: string[], build: (be: Backend) => Tensor[], tol: Tolerance = F32_TOL) {
  const { one, many } = await wasmBackends();
  const out: string[] = [];
  for (const be of [one, many])
    out.push(
      ...(await sameOnWasm(be, labels, build, tol)).filter((r) => !r.ok).map((r) => `${be.threads}t ${r.summary}`),
    );
  return out;
}

describe('wasm optimiser and RL kernels', () => {
  // ---- AdamW ----------------------------------------------------------------------------------

  /** `steps` AdamW steps (the guard, unset, on every other one); pScale: the initial parameters' size. */
  function adamwBuild(n: number, weightDecay: number, steps: number, seed: string, pScale = 1) {
    const rng = new Rng(seed);
    const p0 = randn(rng, n, pScale);
    const m0 = randn(rng, n, 0.01);
    const v0 = Float32Array.from(spread(rng, n), (x) => x * x);
    const grads = Array.from({ length: steps }, () => spread(rng, n));
    return (be: Backend) => {
      const [p, m, v] = [be.fromArray(p0, [n]), be.fromArray(m0, [n]), be.fromArray(v0, [n])];
      const guard = be.zeros([1]);
      for (let s = 0; s < steps; s++) {
        const o: AdamWOptions = { lr: 3e-3, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay, step: s + 1 };
        be.adamw(p, be.fromArray(grads[s], [n]), m, v, s % 2 ? { ...o, skipIf: guard } : o);
      }
      return [p, m, v];
    };
  }

  it('adamw: several steps, with and without weight decay, awkward sizes', async () => {
    const bad: string[] = [];
    for (const n of SIZES)
      for (const wd of [0, 0.1])
        bad.push(
          ...(await failures(
            ['param', 'm', 'v'].map((l) => `adamw ${l} n=${n} wd=${wd}`),
            adamwBuild(n, wd, 3, `adamw ${n} ${wd}`),
          )),
        );
    expect(bad).toEqual([]);
  });

  it('adamw: a set guard leaves param, m and v untouched; options are checked first', async () => {
    const { many } = await wasmBackends();
    const rng = new Rng('guard');
    const n = 100003;
    const init = [randn(rng, n), randn(rng, n), Float32Array.from(randn(rng, n), (x) => x * x)];
    const [p, m, v] = init.map((a) => many.fromArray(a, [n]));
    const g = many.fromArray(randn(rng, n), [n]);
    const o = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, step: 1 };
    for (const flag of [1, NaN, -Infinity]) {
      many.adamw(p, g, m, v, { ...o, skipIf: many.fromArray(Float32Array.of(flag), [1]) });
      for (const [k, t] of [p, m, v].entries()) expect(firstDiff(many.f32(t), init[k])).toBe(-1);
    }
    expect(() => many.adamw(p, g, m, v, { ...o, step: 0, skipIf: many.fromArray(Float32Array.of(1), [1]) })).toThrow(
      /step must be an integer >= 1/,
    );
    many.adamw(p, g, m, v, { ...o, skipIf: many.zeros([1]) });
    expect(firstDiff(many.f32(p), init[0])).toBe(0);
  });

  // ---- flagNonFinite --------------------------------------------------------------------------

  it('flagNonFinite: counts NaN and ±∞ (chunk edges, tails), adds to the flag', async () => {
    const bad: string[] = [];
    for (const n of [...SIZES, 8192, 12289]) {
      const rng = new Rng(`flag ${n}`);
      const x = randn(rng, n, 1e30);
      x[0] = 3.4e38; // finite
      x[Math.min(n - 1, 1)] = 1e-45; // denormal, finite
      const hot = [n - 1, 4095, 4096, 4097, 8191, 8192, 2, rng.int(0, n - 1)].filter((i) => i < n);
      const bits = new Int32Array(x.buffer);
      hot.forEach((i, k) => {
        x[i] = [NaN, Infinity, -Infinity][k % 3];
        if (k === 3) bits[i] = 0x7fc00001 | 0x80000000; // a negative NaN with a payload
      });
      for (const x2 of [x, randn(rng, n)])
        bad.push(
          ...(await failures(
            [`flag n=${n}`],
            (be) => {
              const flag = be.fromArray(Float32Array.of(2), [1]);
              be.flagNonFinite(flag, be.fromArray(x2, [n]));
              be.flagNonFinite(flag, be.fromArray(x2, [n]));
              return [flag];
            },
            EXACT,
          )),
        );
    }
    expect(bad).toEqual([]);
    const { many } = await wasmBackends();
    const flag = many.zeros([1]);
    const x = new Float32Array(100003);
    x[100002] = NaN;
    x[5] = Infinity;
    many.flagNonFinite(flag, many.fromArray(x, [x.length]));
    expect(many.f32(flag)[0]).toBe(2);
  });

  // ---- clipGradNorm -----------------------------------------------------------------------------

  it('clipGradNorm: the norm, and the gradient scaled only above the max', async () => {
    const bad: string[] = [];
    for (const n of SIZES) {
      const rng = new Rng(`clip ${n}`);
      const g = randn(rng, n, 0.5);
      const norm = Math.sqrt(g.reduce((s, x) => s + x * x, 0));
      for (const maxNorm of [norm * 0.3, norm * 2, 1e-3])
        bad.push(
          ...(await failures([`clip norm n=${n} max=${maxNorm}`, `clip grad n=${n} max=${maxNorm}`], (be) => {
            const out = be.fromArray(Float32Array.of(-1), [1]);
            const t = be.fromArray(g, [n]);
            be.clipGradNorm(out, t, maxNorm);
            return [out, t];
          })),
        );
      // Below the max the gradient is untouched, bit for bit.
      const { many } = await wasmBackends();
      const t = many.fromArray(g, [n]);
      const out = many.zeros([1]);
      many.clipGradNorm(out, t, norm * 2);
      expect(firstDiff(many.f32(t), g)).toBe(-1);
      expect(many.f32(out)[0]).toBeCloseTo(norm, 3);
    }
    for (const g of [new Float32Array(10), Float32Array.of(1, NaN, 2), Float32Array.of(1, Infinity, 2, 3, 4)])
      bad.push(
        ...(await failures(['clip norm special', 'clip grad special'], (be) => {
          const out = be.zeros([1]);
          const t = be.fromArray(g, [g.length]);
          be.clipGradNorm(out, t, 1);
          return [out, t];
        })),
      );
    expect(bad).toEqual([]);
    const { one } = await wasmBackends();
    expect(() => one.clipGradNorm(one.zeros([1]), one.zeros([3]), 0)).toThrow(/maxNorm must be > 0/);
  });

  // ---- tokenLogprobs and policyLoss ---------------------------------------------------------------

  // (N, V): one row, a prime V, V off the SIMD width, the model's V, many rows of a small V.
  const ROWS: [number, number][] = [
    [1, 1],
    [7, 13],
    [5, 130],
    [3, 1031],
    [40, 1024],
    [70, 9],
  ];
  // old − logp: ratio = e^{−offset}, well away from the clip edges; ±25 hits the log-ratio clamp.
  const OFFSETS = [0, 0.05, -0.1, 0.1, -0.5, 0.5, 25, -25];

  function policyBuild(N: number, V: number, o: PolicyLossOptions, withRef: boolean, seed: string) {
    const rng = new Rng(seed);
    const logits = randn(rng, N * V, 2);
    // A peaked row (entropy near 0) and a row with logits far below its max (e^{z−m} underflows).
    if (N > 2) for (let v = 0; v < V; v++) logits[V + v] *= 15;
    if (N > 2) for (let v = 0; v < V; v += 3) logits[2 * V + v] -= 120;
    const actions = Int32Array.from({ length: N }, (_, n) => (n % 6 === 4 ? -1 : n % 6 === 5 ? V : rng.int(0, V - 1)));
    if (N > 2) logits[V + actions[1]] = Math.max(...logits.subarray(V, 2 * V)) + 40;
    const logp = new Float64Array(N);
    tokenLogprobsRef(logp, new Float64Array(N), logits, actions, N, V);
    const oldLogprobs = Float32Array.from(logp, (l) => l + OFFSETS[rng.int(0, OFFSETS.length - 1)]);
    const refLogprobs = Float32Array.from(logp, (l, n) => l + (n % 7 === 6 ? 30 : 0.5 * rng.normal()));
    const advantages = randn(rng, N);
    const mask = Float32Array.from({ length: N }, (_, n) => (N === 1 || rng.next() < 0.7 ? 0.5 + rng.next() : 0));
    if (N > 3) {
      // Rows 0 and 3 are active and hit the log-ratio clamp from above and below.
      [oldLogprobs[0], oldLogprobs[3], mask[0], mask[3]] = [logp[0] - 25, logp[3] + 25, 1, 1];
    }
    const d0 = randn(rng, N * V, 0.1);
    return (be: Backend) => {
      const tLogits = be.fromArray(logits, [N, V]);
      const tActions = be.fromArray(actions, [N]);
      const logprobs = be.fromArray(Float32Array.of(...new Array<number>(N).fill(7)), [N]);
      const entropy = be.zeros([N]);
      be.tokenLogprobs(logprobs, entropy, tLogits, tActions);
      const stats = be.fromArray(new Float32Array(N * POLICY_STATS).fill(9), [N, POLICY_STATS]);
      const dLogits = be.fromArray(d0, [N, V]);
      const ref = withRef ? be.fromArray(refLogprobs, [N]) : null;
      const args = [be.fromArray(oldLogprobs, [N]), be.fromArray(advantages, [N]), be.fromArray(mask, [N])] as const;
      be.policyLoss(dLogits, stats, tLogits, tActions, ...args, ref, o);
      return [logprobs, entropy, stats, dLogits];
    };
  }

  const CASES: [string, PolicyLossOptions, boolean][] = [
    [
      'no ref',
      { clipLow: 0.2, clipHigh: 0.2, entropyCoef: 0.001, klCoef: 0, klEstimator: 'k3', lossScale: 0.125 },
      false,
    ],
    ['k3', { clipLow: 0.2, clipHigh: 0.28, entropyCoef: 0.01, klCoef: 0.1, klEstimator: 'k3', lossScale: 0.5 }, true],
    ['k1', { clipLow: 0.2, clipHigh: 0.2, entropyCoef: 0.02, klCoef: 0.05, klEstimator: 'k1', lossScale: 1 }, true],
  ];

  it('tokenLogprobs and policyLoss: vs cpu, k1/k3/no ref, masked, clipped and invalid rows', async () => {
    const bad: string[] = [];
    for (const [N, V] of ROWS)
      for (const [c, o, withRef] of CASES) {
        const labels = ['logprobs', 'entropy', 'policy stats', 'dLogits'].map((l) => `${l} N=${N} V=${V} ${c}`);
        bad.push(...(await failures(labels, policyBuild(N, V, o, withRef, `pl ${N} ${V} ${c}`))));
      }
    expect(bad).toEqual([]);
  });

  it('policyLoss: the test rows clip on both sides, clamp, and use both KL estimators', async () => {
    const { many } = await wasmBackends();
    for (const [c, o] of CASES.slice(1)) {
      const [, entropy, stats] = policyBuild(40, 1024, o, true, `pl 40 1024 ${c}`)(many);
      const s = many.f32(stats);
      expect(many.f32(entropy)[1]).toBeGreaterThanOrEqual(0); // the peaked row
      expect(many.f32(entropy)[1]).toBeLessThan(1e-6);
      const col = (k: number) => Array.from({ length: 40 }, (_, n) => s[n * POLICY_STATS + k]);
      expect(col(POLICY_STAT.clippedLow).filter((x) => x === 1).length).toBeGreaterThan(0);
      expect(col(POLICY_STAT.clippedHigh).filter((x) => x === 1).length).toBeGreaterThan(0);
      expect(col(POLICY_STAT.ratio).some((r) => r > 1e8)).toBe(true); // the e^20 clamp
      expect(col(POLICY_STAT.refKl).some((k) => k !== 0)).toBe(true);
      if (c === 'k3') expect(col(POLICY_STAT.refKl).some((k) => k === 10)).toBe(true); // the k3 clamp
    }
  });

  // ---- valueLoss, GAE, group advantages: f64 kernels, the reference's bits -------------------------

  it('valueLoss: clipped and unclipped, masked tokens, onto a non-zero gradient', async () => {
    const bad: string[] = [];
    for (const N of [1, 3, 5, 4097])
      for (const clip of [0.2, null]) {
        const rng = new Rng(`vl ${N} ${clip}`);
        const values = randn(rng, N);
        const old = Float32Array.from(values, (v) => v + 0.5 * rng.normal());
        const returns = randn(rng, N);
        const mask = Float32Array.from({ length: N }, () => (rng.next() < 0.8 ? 0.5 + rng.next() : 0));
        const d0 = randn(rng, N);
        bad.push(
          ...(await failures(
            [`value stats N=${N} clip=${clip}`, `dValues N=${N} clip=${clip}`],
            (be) => {
              const stats = be.fromArray(new Float32Array(N * VALUE_STATS).fill(3), [N, VALUE_STATS]);
              const dv = be.fromArray(d0, [N]);
              const ins = [values, old, returns, mask].map((a) => be.fromArray(a, [N]));
              be.valueLoss(stats, dv, ins[0], ins[1], ins[2], ins[3], { clip, lossScale: 0.01 });
              return [stats, dv];
            },
            EXACT,
          )),
        );
      }
    expect(bad).toEqual([]);
  });

  it('gae: random dialogues and masks, the reference bit for bit', async () => {
    const bad: string[] = [];
    for (const [D, gamma, lambda] of [
      [1, 1, 1],
      [3, 0.99, 0.95],
      [17, 0.9, 0.5],
    ]) {
      const rng = new Rng(`gae ${D}`);
      const lens = Array.from({ length: D }, (_, d) => (d === 1 ? 0 : rng.int(1, 40)));
      const offsets = Int32Array.from([0, ...lens.map((_, d) => lens.slice(0, d + 1).reduce((a, b) => a + b, 0))]);
      const N = offsets[D];
      const rewards = Float32Array.from({ length: N }, () => (rng.next() < 0.2 ? rng.normal() : 0));
      const values = randn(rng, N);
      const mask = Float32Array.from({ length: N }, () => (rng.next() < 0.7 ? 1 : 0));
      bad.push(
        ...(await failures(
          [`gae advantages D=${D}`, `gae returns D=${D}`],
          (be) => {
            const adv = be.fromArray(new Float32Array(N).fill(5), [N]);
            const ret = be.fromArray(new Float32Array(N).fill(5), [N]);
            const ins = [rewards, values, mask].map((a) => be.fromArray(a, [N]));
            be.gae(adv, ret, ins[0], ins[1], ins[2], be.fromArray(offsets, [D + 1]), { gamma, lambda });
            return [adv, ret];
          },
          EXACT,
        )),
      );
    }
    expect(bad).toEqual([]);
  });

  it('groupAdvantages: grpo (with and without the std), rloo, degenerate groups, the reference bit for bit', async () => {
    const bad: string[] = [];
    for (const D of [1, 5, 37]) {
      const rng = new Rng(`group ${D}`);
      const rewards = randn(rng, D);
      if (D > 4) {
        rewards[1] = NaN;
        rewards[2] = Infinity;
        rewards[4] = rewards[5 % D] = rewards[6 % D] = rewards[7 % D] = 0.25; // a group of equal rewards
      }
      const groups = D > 30 ? fixedGroups(D, 4) : Int32Array.from({ length: D }, (_, d) => d % 3);
      for (const o of [
        { estimator: 'grpo' as const },
        { estimator: 'grpo' as const, scaleByStd: false },
        { estimator: 'rloo' as const },
      ])
        bad.push(
          ...(await failures(
            [`group D=${D} ${JSON.stringify(o)}`],
            (be) => {
              const adv = be.fromArray(new Float32Array(D).fill(4), [D]);
              be.groupAdvantages(adv, be.fromArray(rewards, [D]), be.fromArray(groups, [D]), o);
              return [adv];
            },
            EXACT,
          )),
        );
    }
    expect(bad).toEqual([]);
  });

  // ---- 1 thread vs 4 -------------------------------------------------------------------------------

  it('the same bits on 1 and 4 threads at sizes that split', async () => {
    const { one, many } = await wasmBackends();
    const n = 1_000_003;
    const rng = new Rng('bits');
    const g = randn(rng, n);
    g[123457] = NaN;
    g[n - 1] = -Infinity;
    const diffs = [
      // Small parameters: the update's own rounding shows in them.
      await sameBits(one, many, adamwBuild(n, 0.1, 2, 'bits adamw', 1e-4)),
      await sameBits(one, many, (be) => {
        const flag = be.zeros([1]);
        be.flagNonFinite(flag, be.fromArray(g, [n]));
        return [flag];
      }),
      await sameBits(one, many, (be) => {
        const norm = be.zeros([1]);
        const t = be.fromArray(
          g.map((x) => (Number.isFinite(x) ? x : 0)),
          [n],
        );
        be.clipGradNorm(norm, t, 10);
        return [norm, t];
      }),
      await sameBits(one, many, policyBuild(64, 1024, CASES[1][1], true, 'bits policy')),
      await sameBits(one, many, (be) => {
        const N = 20000;
        const stats = be.zeros([N, VALUE_STATS]);
        const dv = be.fromArray(g.subarray(0, N), [N]);
        const ins = [1, 2, 3].map((k) => be.fromArray(g.subarray(k * N, (k + 1) * N), [N]));
        be.valueLoss(stats, dv, ins[0], ins[1], ins[2], be.fromArray(new Float32Array(N).fill(1), [N]), {
          clip: 0.5,
          lossScale: 1 / N,
        });
        return [stats, dv];
      }),
    ];
    expect(diffs).toEqual([null, null, null, null, null]);
  });
});
