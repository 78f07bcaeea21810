/**
 * Advantage references: GAE by hand, against the direct sum Σ (γλ)^l δ_{t+l} over response tokens,
 * RLVER's γ = λ = 1 (Monte Carlo return minus value), one-turn and empty dialogues; group
 * normalisation (GRPO, RLOO) by hand and on every degenerate case; shape errors on the cpu backend.
 */
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import { randn64 } from '../testing/gradcheck';
import { ADV_EPS, fixedGroups, gaeRef, groupAdvantagesRef } from './advantage';

function gae(
  rewards: Float64Array,
  values: Float64Array,
  mask: Float64Array,
  offsets: number[],
  gamma: number,
  lambda: number,
) {
  const N = rewards.length;
  const advantages = new Float64Array(N).fill(NaN);
  const returns = new Float64Array(N).fill(NaN);
  gaeRef(advantages, returns, rewards, values, mask, Int32Array.from(offsets), { gamma, lambda }, N);
  return { advantages, returns };
}

describe('GAE reference', () => {
  it('a small example by hand: user, agent, agent, user, agent', () => {
    const rewards = Float64Array.of(0, 0, 0, 0, 1);
    const values = Float64Array.of(9, 0.5, 0.4, 9, 0.8); // values on user tokens are never read
    const mask = Float64Array.of(0, 1, 1, 0, 1);
    const { advantages, returns } = gae(rewards, values, mask, [0, 5], 0.9, 0.8);
    // t4: δ = 1 − 0.8 = 0.2; t2: δ = 0.9·0.8 − 0.4 = 0.32, Â = 0.32 + 0.72·0.2; t1: δ = 0.9·0.4 − 0.5
    const want = [0, -0.14 + 0.72 * 0.464, 0.464, 0, 0.2];
    want.forEach((w, t) => expect(advantages[t]).toBeCloseTo(w, 12));
    [0, 0.19408 + 0.5, 0.864, 0, 1].forEach((w, t) => expect(returns[t]).toBeCloseTo(w, 12));
  });

  it("equals the direct sum Σ_l (γλ)^l δ_{t+l} over each dialogue's response tokens, random masks", () => {
    const rng = new Rng('gae direct');
    const offsets = [0, 1, 1, 9, 10, 23, 30]; // lengths 1, 0, 8, 1, 13, 7
    const N = 30;
    const rewards = randn64(rng, N);
    const values = randn64(rng, N);
    const mask = Float64Array.from({ length: N }, () => (rng.next() < 0.6 ? 1 : 0));
    mask[9] = 1; // a one-token dialogue
    for (let t = 23; t < 30; t++) mask[t] = 0; // an all-masked dialogue
    const [gamma, lambda] = [0.97, 0.9];
    const { advantages, returns } = gae(rewards, values, mask, offsets, gamma, lambda);
    for (let d = 0; d + 1 < offsets.length; d++) {
      const ts: number[] = [];
      for (let t = offsets[d]; t < offsets[d + 1]; t++) if (mask[t] > 0) ts.push(t);
      const delta = ts.map((t, i) => rewards[t] + gamma * (i + 1 < ts.length ? values[ts[i + 1]] : 0) - values[t]);
      ts.forEach((t, i) => {
        let a = 0;
        for (let l = 0; i + l < ts.length; l++) a += (gamma * lambda) ** l * delta[i + l];
        expect(advantages[t]).toBeCloseTo(a, 10);
        expect(returns[t]).toBeCloseTo(a + values[t], 10);
      });
      for (let t = offsets[d]; t < offsets[d + 1]; t++)
        if (!(mask[t] > 0)) expect([advantages[t], returns[t]]).toEqual([0, 0]);
    }
    expect(advantages[9]).toBeCloseTo(rewards[9] - values[9], 12); // one-turn dialogue: Â = r − V
  });

  it('RLVER (γ = λ = 1): Â_t = final reward − V(s_t) and R_t = the final reward on every agent token', () => {
    const rewards = Float64Array.of(0, 0, 0, 0, 0.7, 0, 0, 0.3);
    const values = Float64Array.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8);
    const mask = Float64Array.of(0, 1, 1, 0, 1, 0, 1, 1);
    const { advantages, returns } = gae(rewards, values, mask, [0, 5, 8], 1, 1);
    for (const t of [1, 2, 4]) {
      expect(returns[t]).toBeCloseTo(0.7, 12);
      expect(advantages[t]).toBeCloseTo(0.7 - values[t], 12);
    }
    for (const t of [6, 7]) expect(returns[t]).toBeCloseTo(0.3, 12);
  });
});

function group(
  rewards: number[],
  groups: number[],
  estimator: 'grpo' | 'rloo' = 'grpo',
  scaleByStd?: boolean,
): number[] {
  const D = rewards.length;
  const out = new Float64Array(D).fill(NaN);
  groupAdvantagesRef(out, Float64Array.from(rewards), Int32Array.from(groups), { estimator, scaleByStd }, D);
  return Array.from(out);
}

describe('group advantages reference', () => {
  it('GRPO by hand: unbiased std, + ADV_EPS', () => {
    const std = Math.sqrt((0.25 + 0.25) / 3);
    const want = [0.5, -0.5, 0, 0].map((x) => x / (std + ADV_EPS));
    group([1, 0, 0.5, 0.5], [0, 0, 0, 0]).forEach((a, i) => expect(a).toBeCloseTo(want[i], 12));
    expect(group([1, 0, 0.5, 0.5], [0, 0, 0, 0], 'grpo', false)).toEqual([0.5, -0.5, 0, 0]);
  });

  it('RLOO by hand: r − mean of the others', () => {
    group([1, 0, 0.5], [3, 3, 3], 'rloo').forEach((a, i) => expect(a).toBeCloseTo([0.75, -0.75, 0][i], 12));
  });

  for (const estimator of ['grpo', 'rloo'] as const) {
    it(`${estimator}: a group of one, zero spread, NaN and ±Infinity rewards, all NaN: exactly 0, never NaN`, () => {
      expect(group([0.7], [0], estimator)).toEqual([0]);
      expect(group([0.1, 0.1, 0.1, 0.1], [0, 0, 0, 0], estimator)).toEqual([0, 0, 0, 0]);
      expect(group([NaN, NaN, NaN], [0, 0, 0], estimator)).toEqual([0, 0, 0]);
      expect(group([NaN, 0.4], [0, 0], estimator)).toEqual([0, 0]); // one valid reward left
      // A NaN or infinite reward is left out: the others get what they would get without it.
      const withBad = group([1, NaN, 0, Infinity, 0.25, -Infinity], [0, 0, 0, 0, 0, 0], estimator);
      const without = group([1, 0, 0.25], [0, 0, 0], estimator);
      expect([withBad[0], withBad[2], withBad[4]]).toEqual(without);
      expect([withBad[1], withBad[3], withBad[5]]).toEqual([0, 0, 0]);
    });

    it(`${estimator}: every group has mean 0; ids need not be contiguous`, () => {
      const rng = new Rng(`group mean ${estimator}`);
      const D = 24;
      const rewards = Array.from({ length: D }, () => rng.next());
      const groups = Array.from({ length: D }, () => [7, -1, 3][rng.int(0, 2)]);
      const adv = group(rewards, groups, estimator);
      for (const g of [7, -1, 3]) {
        const members = adv.filter((_, d) => groups[d] === g);
        expect(members.length).toBeGreaterThan(1);
        expect(Math.abs(members.reduce((s, x) => s + x, 0))).toBeLessThan(1e-9);
        if (estimator === 'grpo') {
          const ss = members.reduce((s, x) => s + x * x, 0) / (members.length - 1);
          expect(Math.sqrt(ss)).toBeCloseTo(1, 4); // unit (unbiased) std, up to ADV_EPS
        }
      }
    });
  }

  it('fixedGroups: consecutive groups of G, the last may be short', () => {
    expect(Array.from(fixedGroups(7, 3))).toEqual([0, 0, 0, 1, 1, 1, 2]);
    expect(() => fixedGroups(4, 0)).toThrow(/G must be/);
  });
});

describe('advantage ops on the cpu backend', () => {
  const be = new CpuBackend();
  it('route to the references and name bad arguments', async () => {
    const adv = be.zeros([4]);
    be.groupAdvantages(adv, be.fromArray(Float32Array.of(1, 0, 0.5, NaN), [4]), be.fromArray(fixedGroups(4, 4), [4]), {
      estimator: 'rloo',
    });
    expect(Array.from(await be.read(adv))).toEqual([0.75, -0.75, 0, 0]);
    expect(() => be.groupAdvantages(adv, be.zeros([4]), be.zeros([4]), { estimator: 'grpo' })).toThrow(
      /groups must be i32/,
    );
    const r = be.zeros([3]);
    expect(() => be.gae(r, r, r, r, r, be.zeros([2]), { gamma: 1, lambda: 1 })).toThrow(/offsets must be i32/);
    expect(() => be.gae(r, r, r, r, r, be.zeros([2], 'i32'), { gamma: 1.5, lambda: 1 })).toThrow(/gamma/);
    expect(() => be.gae(r, be.zeros([2]), r, r, r, be.zeros([2], 'i32'), { gamma: 1, lambda: 1 })).toThrow(
      /gae returns/,
    );
  });
});
