import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import type { TurnResult } from '../persona/user';
import { computeCredit, dialogueRewards, explained, type CreditOptions } from './advantages';
import { buildSequences } from './batch';
import { checkRewardHacking } from './hacking';
import type { AgentTurnSample, DialogueRollout } from './rollout';

const be = new CpuBackend();
/** An appraisal in which no detector the hacking report reads fired. */
const QUIET = [
  { id: 'scorer', score: 0, reason: '' },
  { id: 'nonLanguage', score: 0, reason: '' },
];
/** A dialogue of turns with the given (response length, emotion change) pairs, starting at 30. */
function dialogue(turns: [number, number][], wellFormed = true, truncated = false): DialogueRollout {
  let emotion = 30;
  let prompt = [1, 9];
  const ts: AgentTurnSample[] = turns.map(([len, change]) => {
    emotion += change;
    const response = [...Array.from({ length: len - 1 }, () => 5), 8];
    const t: AgentTurnSample = {
      prompt,
      response,
      reply: 'x',
      think: null,
      wellFormed,
      truncated,
      logprobs: response.map(() => 0),
      result: { change, emotion } as unknown as TurnResult,
    };
    prompt = [...prompt, ...response, 7, 9];
    return t;
  });
  return {
    profileId: 'p',
    opening: '',
    turns: ts,
    finalEmotion: emotion,
    reward: Math.max(0, emotion / 100),
    endReason: 'cap',
    transcript: [],
    window: { slides: 0, hidden: [] },
  };
}
const OPTS: CreditOptions = {
  algo: 'grpo',
  reward: 'final',
  groupSize: 2,
  think: false,
  zeroRewardOnBrokenThink: false,
  thinkFormatPenalty: 0,
  truncationPenalty: 0,
  repeatPenalty: 0,
  gamma: 1,
  lambda: 1,
  normalizeAdvantages: false,
};

async function credit(ds: DialogueRollout[], o: Partial<CreditOptions>, values?: Float32Array) {
  const { stream } = buildSequences(ds, 16);
  return { stream, c: await computeCredit(be, ds, stream, values ?? new Float32Array(stream.N), { ...OPTS, ...o }) };
}

describe('rewards and advantages', () => {
  it('GRPO final: the group-normalised final reward on every agent token of the dialogue', async () => {
    const ds = [
      dialogue([
        [2, 10],
        [3, 10],
      ]),
      dialogue([[2, -10]]),
      dialogue([[1, 5]]),
      dialogue([[2, 5]]),
    ];
    const { stream, c } = await credit(ds, {});
    // Group 1: rewards 0.5 and 0.2 → ±1/√2 · … : (r − mean)/(std + 1e-6) with the unbiased std = 0.2121.
    const a = (0.5 - 0.35) / (Math.sqrt(2 * 0.15 ** 2) + 1e-6);
    for (let i = stream.offsets[0]; i < stream.offsets[1]; i++) expect(c.advantages[i]).toBeCloseTo(a, 5);
    for (let i = stream.offsets[1]; i < stream.offsets[2]; i++) expect(c.advantages[i]).toBeCloseTo(-a, 5);
    // Group 2: equal rewards (0.35, 0.35) → exactly 0.
    for (let i = stream.offsets[2]; i < stream.N; i++) expect(c.advantages[i]).toBe(0);
  });

  it('GRPO turn: reward-to-go against the mean of the group at the same turn, over its pooled std', async () => {
    const ds = [
      dialogue([
        [2, 10],
        [2, -5],
      ]),
      dialogue([
        [1, 0],
        [1, 5],
      ]),
    ];
    const { c } = await credit(ds, { reward: 'turn' });
    // Reward-to-go: dialogue 0: 0.05, −0.05; dialogue 1: 0.05, 0.05. Turn 0 means 0.05 (residuals 0, 0),
    // turn 1 means 0 (residuals −0.05, 0.05); pooled std = √(0.005 / 2) = 0.05.
    const n = 0.05 / (0.05 + 1e-6);
    const expected = [0, 0, -n, -n, 0, n];
    expect(Array.from(c.advantages).map((x) => +x.toFixed(5))).toEqual(expected.map((x) => +x.toFixed(5)));
    const rloo = await credit(ds, { reward: 'turn', algo: 'rloo' });
    // Leave-one-out at turn 1: −0.05 − 0.05 and 0.05 − (−0.05).
    expect(Array.from(rloo.c.advantages).map((x) => +x.toFixed(5))).toEqual([0, 0, -0.1, -0.1, 0, 0.1]);
  });

  it('turn credit has no stalling bias: two dialogues that end alike get equal advantages', async () => {
    // One group, both from 30 to 0 (a total change of −30): in 6 turns and in 8 (two more at 0).
    const six = dialogue(Array.from({ length: 6 }, () => [2, -5] as [number, number]));
    const eight = dialogue([...Array.from({ length: 6 }, () => [2, -5] as [number, number]), [2, 0], [2, 0]]);
    // The estimator this replaced: z-score each turn's reward over the group's turns, then sum the
    // turn's and the later ones'. It pays the longer dialogue for the two turns it survived.
    const rewards = [...Array.from({ length: 12 }, () => -0.05), 0, 0];
    const mean = rewards.reduce((a, b) => a + b) / rewards.length;
    const std = Math.sqrt(rewards.reduce((q, x) => q + (x - mean) ** 2, 0) / (rewards.length - 1));
    const z = (x: number) => (x - mean) / (std + 1e-6);
    expect(6 * z(-0.05)).toBeCloseTo(-2.36, 2);
    expect(6 * z(-0.05) + 2 * z(0)).toBeCloseTo(2.36, 2);
    for (const algo of ['grpo', 'rloo'] as const) {
      const { stream, c } = await credit([six, eight], { reward: 'turn', algo });
      const first = (d: number) => c.advantages[stream.offsets[d]];
      expect(first(0)).toBe(first(1));
      // Every turn they share has the same credit, and the two extra turns have no peer: 0.
      for (let i = 0; i < 12; i++) expect(c.advantages[stream.offsets[1] + i]).toBe(c.advantages[i]);
      for (let i = 12; i < 16; i++) expect(c.advantages[stream.offsets[1] + i]).toBe(0);
    }
    // The same two under both: equal too (the final rewards are equal as well).
    const { stream, c } = await credit([six, eight], { reward: 'both' });
    expect(c.advantages[stream.offsets[0]]).toBe(c.advantages[stream.offsets[1]]);
  });

  it('groupAt turn: each reply against its siblings at the same turn, by its own change, not the reward-to-go', async () => {
    // Two sibling rows of one dialogue (same prompts): replies that moved the user +10 / −5 at turn 0
    // and 0 / +5 at turn 1. Reward-to-go would give row 0 the larger turn-0 figure for the later turn too.
    const ds = [
      dialogue([
        [2, 10],
        [2, 0],
      ]),
      dialogue([
        [1, -5],
        [1, 5],
      ]),
    ];
    const { c } = await credit(ds, { reward: 'turn', groupAt: 'turn' });
    // Turn 0: 0.1 and −0.05 (mean 0.025, residuals ±0.075); turn 1: 0 and 0.05 (residuals ∓0.025);
    // pooled std = √((2·0.075² + 2·0.025²) / 2).
    const std = Math.sqrt(0.075 ** 2 + 0.025 ** 2);
    const a = (x: number) => +(x / (std + 1e-6)).toFixed(5);
    expect(Array.from(c.advantages).map((x) => +x.toFixed(5))).toEqual([
      a(0.075),
      a(0.075),
      a(-0.025),
      a(-0.025),
      a(-0.075),
      a(0.025),
    ]);
    const toGo = await credit(ds, { reward: 'turn' });
    expect(toGo.c.advantages[0]).not.toBeCloseTo(c.advantages[0], 3);
    // Whole dialogues at γ = 0 compare the same cells the same way.
    const own = await credit(ds, { reward: 'turn', gamma: 0 });
    expect(Array.from(own.c.advantages)).toEqual(Array.from(c.advantages));
    // γ = 0.5: turn 0's reward-to-go is 0.1 + 0.5·0 and −0.05 + 0.5·0.05 (residuals ±0.0625).
    const half = await credit(ds, { reward: 'turn', gamma: 0.5 });
    const hs = Math.sqrt(0.0625 ** 2 + 0.025 ** 2);
    expect(half.c.advantages[0]).toBeCloseTo(0.0625 / (hs + 1e-6), 5);
  });

  it('both: final and turn credit added, scaled to unit RMS over the agent tokens', async () => {
    const ds = [
      dialogue([
        [2, 10],
        [3, 10],
      ]),
      dialogue([[2, -10]]),
      dialogue([
        [1, 5],
        [2, -5],
      ]),
      dialogue([[2, 5]]),
    ];
    const both = await credit(ds, { reward: 'both' });
    const fin = await credit(ds, { reward: 'final' });
    const turn = await credit(ds, { reward: 'turn' });
    const sum = Array.from(fin.c.advantages, (a, i) => a + turn.c.advantages[i]);
    const rms = Math.sqrt(sum.reduce((s, x) => s + x * x, 0) / sum.length);
    expect(rms).toBeGreaterThan(1.1); // unscaled, the sum weighs more than PPO's whitened advantage
    for (let i = 0; i < sum.length; i++) expect(both.c.advantages[i]).toBeCloseTo(sum[i] / rms, 5);
    const scaled = Math.sqrt(both.c.advantages.reduce((s, x) => s + x * x, 0) / both.c.advantages.length);
    expect(scaled).toBeCloseTo(1, 5);
  });

  it('PPO: GAE with the old values, γ = λ = 1 gives R − V; returns are the value targets', async () => {
    const ds = [
      dialogue([
        [2, 10],
        [2, 10],
      ]),
    ]; // final 50 → 0.5 on the last token
    const values = Float32Array.from([0.1, 0.2, 0.3, 0.4]);
    const { c } = await credit(ds, { algo: 'ppo', groupSize: 1 }, values);
    expect(Array.from(c.advantages).map((x) => +x.toFixed(5))).toEqual([0.4, 0.3, 0.2, 0.1]);
    expect(Array.from(c.returns).map((x) => +x.toFixed(5))).toEqual([0.5, 0.5, 0.5, 0.5]);
    const turn = await credit(ds, { algo: 'ppo', groupSize: 1, reward: 'turn' }, values);
    // Turn rewards 0.1 at tokens 1 and 3: returns 0.2, 0.2, 0.1, 0.1.
    expect(Array.from(turn.c.returns).map((x) => +x.toFixed(5))).toEqual([0.2, 0.2, 0.1, 0.1]);
    const whitened = await credit(ds, { algo: 'ppo', groupSize: 1, normalizeAdvantages: true }, values);
    const m = whitened.c.advantages.reduce((a, b) => a + b) / 4;
    expect(m).toBeCloseTo(0, 6);
    expect(c.explainedVariance).toBeNaN(); // the returns do not vary
    expect(explained([1, 2, 3], [1, 2, 3])).toBe(1);
  });

  it('PPO: γ and λ discount per turn, not per token; every token of a reply keeps its credit', async () => {
    const ds = [
      dialogue([
        [3, 10],
        [2, -5],
        [4, 20],
      ]),
      dialogue([
        [1, 5],
        [3, 5],
      ]),
    ];
    const { stream } = buildSequences(ds, 16);
    const values = Float32Array.from({ length: stream.N }, (_, i) => 0.05 * ((i * 7) % 5) - 0.1);
    // The spec: the per-token recursion with γ_t = γ and λ_t = λ on a turn's last token, 1 elsewhere.
    const spec = (gamma: number, lambda: number) => {
      const rewards = new Float64Array(stream.N);
      const ends = new Set(stream.turnEnds.flat());
      ds.forEach((d, di) => {
        rewards[stream.offsets[di + 1] - 1] += d.reward;
        stream.turnEnds[di].forEach((at, k) => (rewards[at] += d.turns[k].result.change / 100));
      });
      const adv: number[] = new Array<number>(stream.N).fill(0);
      for (let d = 0; d < ds.length; d++) {
        let next = 0;
        let last = 0;
        for (let t = stream.offsets[d + 1] - 1; t >= stream.offsets[d]; t--) {
          const g = ends.has(t) ? gamma : 1;
          const l = ends.has(t) ? lambda : 1;
          last = rewards[t] + g * next - values[t] + g * l * last;
          next = values[t];
          adv[t] = last;
        }
      }
      return adv;
    };
    for (const [gamma, lambda] of [
      [0.7, 0.9],
      [0, 1],
      [1, 1],
      [0.5, 0],
    ]) {
      const { c } = await credit(ds, { algo: 'ppo', groupSize: 1, reward: 'both', gamma, lambda }, values);
      const want = spec(gamma, lambda);
      for (let i = 0; i < stream.N; i++) {
        expect(c.advantages[i]).toBeCloseTo(want[i], 5);
        expect(c.returns[i]).toBeCloseTo(want[i] + values[i], 5);
      }
    }
    // γ = 0: a reply's every token is credited with that turn's own reward (here turn 1: +0.1).
    const { c } = await credit(ds, { algo: 'ppo', groupSize: 1, reward: 'turn', gamma: 0 }, values);
    for (let i = 0; i < 3; i++) expect(c.returns[i]).toBeCloseTo(0.1, 6);
    expect(c.returns[3]).toBeCloseTo(-0.05, 6);
  });

  it('a broken think block costs its own turn the format penalty; the legacy rule zeroes the dialogue', async () => {
    const broken = dialogue(
      [
        [2, 10],
        [2, -5],
      ],
      false,
    );
    const on = dialogueRewards([broken], {
      think: true,
      zeroRewardOnBrokenThink: true,
      thinkFormatPenalty: 0,
      truncationPenalty: 0,
      repeatPenalty: 0,
    });
    expect(on.emotion[0]).toBe(0);
    expect(on.changes[0]).toEqual([0, -0.05]);
    const penalty = dialogueRewards([broken], {
      think: true,
      zeroRewardOnBrokenThink: false,
      thinkFormatPenalty: 0.1,
      truncationPenalty: 0,
      repeatPenalty: 0,
    });
    expect(penalty.emotion[0]).toBeCloseTo(0.35, 6);
    expect(penalty.changes[0]).toEqual([0.1, -0.05]);
    expect(penalty.penalties[0]).toEqual([-0.1, -0.1]);
    // Outside think mode a think block is not asked for: no penalty.
    const plain = dialogueRewards([broken], {
      think: false,
      zeroRewardOnBrokenThink: false,
      thinkFormatPenalty: 0.1,
      truncationPenalty: 0,
      repeatPenalty: 0,
    });
    expect(plain.penalties[0]).toEqual([0, 0]);
    // Final credit only: the penalties come off the dialogue's reward; so a group of a well-formed and
    // a broken dialogue that end alike ranks the well-formed one first.
    const fine = dialogue([
      [2, 10],
      [2, -5],
    ]);
    const { stream, c } = await credit([fine, broken], { think: true, thinkFormatPenalty: 0.1 });
    expect(c.dialogueRewards[1]).toBeCloseTo(0.35 - 0.2, 6);
    expect(c.advantages[stream.offsets[0]]).toBeGreaterThan(0);
    expect(c.advantages[stream.offsets[1]]).toBeLessThan(0);
    // Turn credit: each broken turn's reward carries its penalty.
    const t = await credit([fine, broken], { think: true, thinkFormatPenalty: 0.1, reward: 'turn' });
    expect(t.c.turnRewards[1].map((x) => +x.toFixed(5))).toEqual([0, -0.15]);
  });

  it('a cut reply costs the truncation penalty; PPO puts every penalty on its turn', async () => {
    const cut = dialogue(
      [
        [2, 10],
        [2, 10],
      ],
      true,
      true,
    );
    const r = dialogueRewards([cut], {
      think: false,
      zeroRewardOnBrokenThink: false,
      thinkFormatPenalty: 0.1,
      truncationPenalty: 0.05,
      repeatPenalty: 0,
    });
    expect(r.penalties[0]).toEqual([-0.05, -0.05]);
    const values = new Float32Array(4);
    const { c } = await credit([cut], { algo: 'ppo', groupSize: 1, truncationPenalty: 0.05 }, values);
    // Rewards: −0.05 on token 1, 0.5 − 0.05 on token 3: returns 0.4, 0.4, 0.45, 0.45.
    expect(Array.from(c.returns).map((x) => +x.toFixed(5))).toEqual([0.4, 0.4, 0.45, 0.45]);
  });

  it('a reply that repeats an earlier one of its dialogue costs the repeat penalty, as the hacking report counts it', async () => {
    const d = dialogue([
      [2, 5],
      [2, 5],
      [2, 0],
      [2, -5],
      [2, 0],
    ]);
    const replies = [
      'That sounds really hard, and it makes sense you feel hurt.',
      'What part of it weighs on you the most right now?',
      'That sounds really hard, and it makes sense you feel so hurt.',
      '',
      'What part of it weighs on you most right now?',
    ];
    d.turns.forEach((t, k) => (t.reply = replies[k]));
    const o = { think: false, zeroRewardOnBrokenThink: false, thinkFormatPenalty: 0, truncationPenalty: 0 };
    expect(dialogueRewards([d], { ...o, repeatPenalty: 0.1 }).penalties[0]).toEqual([0, 0, -0.1, 0, -0.1]);
    expect(dialogueRewards([d], { ...o, repeatPenalty: 0 }).penalties[0]).toEqual([0, 0, 0, 0, 0]);
    // Found whether or not they cost anything (the trainer's dialogue/repeats reads them).
    const flags = [false, false, true, false, true];
    expect(dialogueRewards([d], { ...o, repeatPenalty: 0 }).repeats[0]).toEqual(flags);
    const report = checkRewardHacking([
      { profileId: 'p', turns: d.turns.map((t) => ({ reply: t.reply, result: { appraisal: { detectors: QUIET } } })) },
    ] as unknown as Parameters<typeof checkRewardHacking>[0]);
    expect(report.repeats).toBe(2);
    // Turn credit at γ = 0: each repeat's own reward carries it.
    const { c } = await credit([d], { algo: 'ppo', groupSize: 1, reward: 'turn', gamma: 0, repeatPenalty: 0.1 });
    expect(c.turnRewards[0].map((x) => +x.toFixed(5))).toEqual([0.05, 0.05, -0.1, -0.05, -0.1]);
    expect(c.repeats[0]).toEqual(flags);
  });

  it('one-turn dialogues and groups of one get finite advantages (zero for a lone dialogue)', async () => {
    const { c } = await credit([dialogue([[1, 5]])], { groupSize: 1 });
    expect(Array.from(c.advantages)).toEqual([0]);
  });
});
