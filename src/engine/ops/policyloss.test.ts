/**
 * Policy loss CPU references: known values, per-side clipping, the log-ratio clamp, k1/k3,
 * finite-difference gradients (f64) of the total loss with every term on, masked and invalid rows,
 * accumulation, the step metrics, and shape errors on the cpu backend.
 */
import { describe, expect, it } from 'vitest';
import type { PolicyLossOptions } from '../backend';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { gradCheck, randn64 } from '../testing/gradcheck';
import {
  LOG_RATIO_CLAMP,
  POLICY_STAT,
  POLICY_STATS,
  policyLossMetrics,
  policyLossRef,
  policyRowRef,
  tokenLogprobsRef,
} from './policyloss';

const RLVER: PolicyLossOptions = {
  clipLow: 0.2,
  clipHigh: 0.2,
  entropyCoef: 0.001,
  klCoef: 0,
  klEstimator: 'k3',
  lossScale: 1,
};

describe('tokenLogprobs reference', () => {
  it('uniform logits: logp = −log V, H = log V; an invalid action gives logp 0', () => {
    const V = 5;
    const logits = new Float64Array(3 * V).fill(2.5);
    logits[2 * V + 1] = 50; // row 2: nearly one-hot
    const lp = new Float64Array(3);
    const h = new Float64Array(3);
    tokenLogprobsRef(lp, h, logits, Int32Array.of(3, -1, 1), 3, V);
    expect(lp[0]).toBeCloseTo(-Math.log(V), 12);
    expect(h[0]).toBeCloseTo(Math.log(V), 12);
    expect(lp[1]).toBe(0);
    expect(h[1]).toBeCloseTo(Math.log(V), 12);
    expect(lp[2]).toBeCloseTo(0, 12);
    expect(h[2]).toBeCloseTo(0, 12);
  });
});

describe('policy loss: one row', () => {
  it('unclipped, clipped on each side, and the side that does not bind', () => {
    const at = (ratio: number, adv: number): ReturnType<typeof policyRowRef> =>
      policyRowRef(Math.log(ratio), 0, adv, null, RLVER);
    const hi = at(1.5, 2); // A > 0, ρ > 1 + ε: clipped high, constant
    expect([hi.clippedHigh, hi.clippedLow, hi.g]).toEqual([1, 0, 0]);
    expect(hi.pg).toBeCloseTo(-2 * 1.2, 12);
    const lo = at(0.5, -2); // A < 0, ρ < 1 − ε: clipped low
    expect([lo.clippedHigh, lo.clippedLow, lo.g]).toEqual([0, 1, 0]);
    expect(lo.pg).toBeCloseTo(2 * 0.8, 12);
    const free = at(1.5, -2); // A < 0, ρ > 1 + ε: the unclipped term is larger, gradient flows
    expect([free.clippedHigh, free.clippedLow]).toEqual([0, 0]);
    expect(free.pg).toBeCloseTo(3, 12);
    expect(free.g).toBeCloseTo(2 * 1.5, 12); // ∂(−Aρ)/∂logp = −Aρ
    const inside = at(1.1, 0.5);
    expect(inside.g).toBeCloseTo(-0.55, 12);
    expect(inside.approxKl).toBeCloseTo(0.1 - Math.log(1.1), 12); // (ρ − 1) − log ρ
  });

  it(`clamps the log-ratio at ±${LOG_RATIO_CLAMP} before exp, with no gradient through the clamp`, () => {
    const r = policyRowRef(0, -1000, -1, null, RLVER);
    expect(r.ratio).toBeCloseTo(Math.exp(LOG_RATIO_CLAMP), 0);
    expect(Number.isFinite(r.pg)).toBe(true);
    expect(r.g).toBe(0);
  });

  it('k1 and k3 to the reference', () => {
    const o = { ...RLVER, klCoef: 1 };
    const k1 = policyRowRef(-1, -1, 0, -1.5, { ...o, klEstimator: 'k1' });
    expect(k1.refKl).toBeCloseTo(0.5, 12);
    expect(k1.g).toBeCloseTo(1, 12);
    const k3 = policyRowRef(-1, -1, 0, -1.5, o);
    expect(k3.refKl).toBeCloseTo(Math.exp(-0.5) + 0.5 - 1, 12); // e^δ − δ − 1, δ = ref − logp
    expect(k3.g).toBeCloseTo(1 - Math.exp(-0.5), 12);
    expect(policyRowRef(-1, -1, 0, -1, o).refKl).toBe(0);
  });
});

/** N = 8 rows covering every case; see `offsets`. */
function fixture(V: number, seed: string) {
  const N = 8;
  const rng = new Rng(seed);
  const logits = randn64(rng, N * V, 1.5);
  const actions = Int32Array.from({ length: N }, () => rng.int(0, V - 1));
  actions[5] = -1; // invalid action on a response token: ignored
  const logp = new Float64Array(N);
  tokenLogprobsRef(logp, new Float64Array(N), logits, actions, N, V);
  // old − logp per row: ratio e^{−off}. Rows: unclipped, clipped high, clipped low, free side,
  // masked, invalid action, clamped log-ratio, unclipped below 1.
  const offsets = [0.05, -0.5, 0.6, -0.5, 0.1, 0, 25, 0.4];
  const advantages = Float64Array.of(1, 0.7, -0.9, -1.2, 1, 1, 0.8, 0.5);
  const oldLogprobs = Float64Array.from(offsets, (off, n) => logp[n] + off);
  const refLogprobs = Float64Array.from(logp, (l) => l + 0.3 * rng.normal());
  const responseMask = Float64Array.of(1, 1, 1, 1, 0, 1, 1, 1);
  return { N, logits, actions, oldLogprobs, refLogprobs, advantages, responseMask };
}

function totalLoss(stats: ArrayLike<number>, mask: ArrayLike<number>, o: PolicyLossOptions): number {
  let L = 0;
  for (let n = 0; n < mask.length; n++) {
    const s = (k: number): number => stats[n * POLICY_STATS + k];
    L +=
      mask[n] *
      o.lossScale *
      (s(POLICY_STAT.pgLoss) - o.entropyCoef * s(POLICY_STAT.entropy) + o.klCoef * s(POLICY_STAT.refKl));
  }
  return L;
}

describe('policy loss: gradient w.r.t. the logits', () => {
  for (const klEstimator of ['k1', 'k3'] as const) {
    for (const V of [1, 6, 33]) {
      it(`matches central differences with every term on, ${klEstimator}, V=${V}`, () => {
        const f = fixture(V, `pl ${klEstimator} ${V}`);
        const o: PolicyLossOptions = {
          clipLow: 0.2,
          clipHigh: 0.28,
          entropyCoef: 0.05,
          klCoef: 0.3,
          klEstimator,
          lossScale: 1 / 6,
        };
        const stats = new Float64Array(f.N * POLICY_STATS);
        const run = (d: Float64Array): void =>
          policyLossRef(
            d,
            stats,
            f.logits,
            f.actions,
            f.oldLogprobs,
            f.advantages,
            f.responseMask,
            f.refLogprobs,
            o,
            f.N,
            V,
          );
        const loss = (): number => {
          run(new Float64Array(f.N * V));
          return totalLoss(stats, f.responseMask, o);
        };
        const d = new Float64Array(f.N * V);
        run(d);
        if (V > 1) {
          const col = (k: number): number[] => Array.from({ length: f.N }, (_, n) => stats[n * POLICY_STATS + k]);
          expect(col(POLICY_STAT.clippedHigh)).toEqual([0, 1, 0, 0, 0, 0, 0, 0]);
          expect(col(POLICY_STAT.clippedLow)).toEqual([0, 0, 1, 0, 0, 0, 0, 0]);
        }
        for (const n of [4, 5])
          expect(stats.subarray(n * POLICY_STATS, (n + 1) * POLICY_STATS).every((x) => x === 0)).toBe(true);
        const r = gradCheck('dLogits', loss, f.logits, d);
        expect(r.ok, r.summary).toBe(true);
        for (const n of [4, 5]) expect(d.subarray(n * V, (n + 1) * V).every((x) => x === 0)).toBe(true);
      });
    }
  }

  it('the entropy term alone: dH/dz_i = −p_i (log p_i + H)', () => {
    const f = fixture(9, 'entropy only');
    const o: PolicyLossOptions = { ...RLVER, entropyCoef: 1, lossScale: 1 };
    const zeros = new Float64Array(f.N);
    const stats = new Float64Array(f.N * POLICY_STATS);
    const run = (d: Float64Array): void =>
      policyLossRef(d, stats, f.logits, f.actions, f.oldLogprobs, zeros, f.responseMask, null, o, f.N, 9);
    const d = new Float64Array(f.N * 9);
    run(d);
    const r = gradCheck(
      'dLogits (entropy)',
      () => (run(new Float64Array(f.N * 9)), totalLoss(stats, f.responseMask, o)),
      f.logits,
      d,
    );
    expect(r.ok, r.summary).toBe(true);
  });
});

describe('policy loss on the cpu backend', () => {
  const be = new CpuBackend();
  const V = 5;
  const f = fixture(V, 'pl backend');
  const t = (x: Float64Array): ReturnType<CpuBackend['fromArray']> => be.fromArray(Float32Array.from(x), [x.length]);

  it('accumulates into dLogits and reduces its stats to step metrics', async () => {
    const logits = be.fromArray(Float32Array.from(f.logits), [f.N, V]);
    const actions = be.fromArray(f.actions, [f.N]);
    const stats = be.zeros([f.N, POLICY_STATS]);
    const once = be.zeros([f.N, V]);
    const twice = be.zeros([f.N, V]);
    const args = [logits, actions, t(f.oldLogprobs), t(f.advantages), t(f.responseMask), t(f.refLogprobs)] as const;
    const o = { ...RLVER, klCoef: 0.1 };
    be.policyLoss(once, stats, ...args, o);
    be.policyLoss(twice, stats, ...args, o);
    be.policyLoss(twice, stats, ...args, o);
    expect(Array.from(await be.read(twice))).toEqual(Array.from(await be.read(once)).map((v) => 2 * v));
    const mask = Float32Array.from(f.responseMask);
    mask[5] = 0; // the invalid-action row is not a token
    const m = policyLossMetrics(await be.read(stats), mask);
    expect(m.tokens).toBe(6);
    expect(m['losses/clipfrac_high']).toBeCloseTo(1 / 6, 12);
    expect(m['losses/clipfrac_low']).toBeCloseTo(1 / 6, 12);
    expect(m['losses/clipfrac']).toBeCloseTo(2 / 6, 12);
    expect(m['losses/entropy']).toBeGreaterThan(0);
    expect(policyLossMetrics(new Float32Array(POLICY_STATS * 2), new Float32Array(2))['losses/policy_loss']).toBe(0);
  });

  it('names the tensor with a bad shape or a missing reference', () => {
    const logits = be.zeros([3, V]);
    const a = be.zeros([3], 'i32');
    const r = be.zeros([3]);
    expect(() => be.policyLoss(be.zeros([3, V]), be.zeros([3, 7]), logits, a, r, r, r, null, RLVER)).toThrow(/stats/);
    expect(() =>
      be.policyLoss(be.zeros([3, V]), be.zeros([3, POLICY_STATS]), logits, be.zeros([3]), r, r, r, null, RLVER),
    ).toThrow(/actions must be i32/);
    expect(() =>
      be.policyLoss(be.zeros([3, V]), be.zeros([3, POLICY_STATS]), logits, a, r, be.zeros([2]), r, null, RLVER),
    ).toThrow(/advantages/);
    expect(() =>
      be.policyLoss(be.zeros([3, V]), be.zeros([3, POLICY_STATS]), logits, a, r, r, r, null, { ...RLVER, klCoef: 1 }),
    ).toThrow(/refLogprobs/);
  });
});
