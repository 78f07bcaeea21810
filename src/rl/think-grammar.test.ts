/**
 * The think-mode grammar: `<think>` forced first, no `<|end|>` or second `<think>` inside the plan,
 * the plan closed when a quarter of the turn is left, nothing of the format after `</think>`; and a
 * benchmark played under it with an untrained model (which writes any token) keeps the format in
 * every turn, while free sampling does not.
 */
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { banLogits, thinkGrammar } from './think-grammar';
import { playBenchmark } from './rollout';
import { benchmarkProfiles } from '../persona/sets';

const profiles = benchmarkProfiles().slice(0, 3);
const tok = Tokenizer.train(
  profiles.flatMap((p) => [p.scenario.event, p.scenario.problem, ...p.scenario.details]),
  400,
);
const [open, close, end] = (['<think>', '</think>', '<|end|>'] as const).map((s) => tok.special(s));

describe('think grammar', () => {
  it('forces <think>, bans the format breakers, closes the plan on budget', () => {
    const g = thinkGrammar(tok, 16); // reserve 4: close from position 11
    expect(g.next([])).toEqual({ force: open });
    expect(g.next([open, 5])).toEqual({ banned: [end, open] });
    expect(g.next([open, ...Array(10).fill(5)])).toEqual({ force: close });
    expect(g.next([open, 5, close])).toEqual({ banned: [open, close] });
    expect(g.next([open, ...Array(12).fill(5), close, 5])).toEqual({ banned: [open, close] });
  });

  it('banLogits copies and sets only the banned entries', () => {
    const z = Float32Array.of(1, 2, 3);
    const b = banLogits(z, [1, 7]);
    expect(Array.from(b)).toEqual([1, -1e9, 3]);
    expect(Array.from(z)).toEqual([1, 2, 3]);
  });

  it('an untrained model keeps the format under the grammar, and breaks it sampling freely', async () => {
    const config = { vocabSize: tok.vocabSize, contextLength: 256, channels: 16, layers: 1, heads: 2 };
    const model = Transformer.create(new CpuBackend(), config, 5);
    const o = { think: true, maxTurnTokens: 12, maxAgentTurns: 3, sampling: { temperature: 1, topK: 0, topP: 1 } };
    const ruled = await playBenchmark(model, tok, profiles, { ...o, thinkGrammar: true });
    const free = await playBenchmark(model, tok, profiles, { ...o, thinkGrammar: false });
    const turns = (ds: typeof ruled) => ds.flatMap((d) => d.turns);
    expect(turns(ruled).length).toBeGreaterThan(3);
    expect(turns(ruled).every((t) => t.wellFormed && t.response[0] === open)).toBe(true);
    expect(turns(free).some((t) => !t.wellFormed)).toBe(true);
  });
});
