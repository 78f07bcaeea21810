import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import type { TurnResult } from '../persona/user';
import { computeCredit, dialogueRewards, explained, type CreditOptions } from './advantages';
import { buildSequences } from './batch';
import type { AgentTurnSample, DialogueRollout } from './rollout';

const be = new CpuBackend();
/** A dialogue of turns with the given (response length, emotion change) pairs, starting at 30. */
function dialogue(turns: [number, number][], wellFormed = true): DialogueRollout {
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
  zeroRewardOnBrokenThink: true,
  gamma: 1,
  lambda: 1,
  normalizeAdvantages: false,
};

async function credit(ds: DialogueRollout[], o: Partial<CreditOptions>, values?: Float32Array) {
  const { stream } = buildSequences(ds);
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

  it('GRPO turn: each token gets the sum of the normalised rewards of its turn and the later ones', async () => {
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
    const r = [0.1, -0.05, 0, 0.05];
    const mean = r.reduce((a, b) => a + b) / 4;
    const std = Math.sqrt(r.reduce((s, x) => s + (x - mean) ** 2, 0) / 3);
    const n = r.map((x) => (x - mean) / (std + 1e-6));
    const expected = [n[0] + n[1], n[0] + n[1], n[1], n[1], n[2] + n[3], n[3]];
    expect(Array.from(c.advantages).map((x) => +x.toFixed(5))).toEqual(expected.map((x) => +x.toFixed(5)));
    const both = await credit(ds, { reward: 'both' });
    const fin = await credit(ds, { reward: 'final' });
    for (let i = 0; i < 6; i++) expect(both.c.advantages[i]).toBeCloseTo(c.advantages[i] + fin.c.advantages[i], 5);
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

  it('a broken think block: the dialogue earns 0 and a broken turn no positive credit', () => {
    const d = dialogue(
      [
        [2, 10],
        [2, -5],
      ],
      false,
    );
    const on = dialogueRewards([d], { think: true, zeroRewardOnBrokenThink: true });
    expect(on.final[0]).toBe(0);
    expect(on.turns[0]).toEqual([0, -0.05]);
    const off = dialogueRewards([d], { think: true, zeroRewardOnBrokenThink: false });
    expect(off.final[0]).toBeCloseTo(0.35, 6);
    expect(off.turns[0]).toEqual([0.1, -0.05]);
  });

  it('one-turn dialogues and groups of one get finite advantages (zero for a lone dialogue)', async () => {
    const { c } = await credit([dialogue([[1, 5]])], { groupSize: 1 });
    expect(Array.from(c.advantages)).toEqual([0]);
  });
});
