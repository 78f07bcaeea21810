/**
 * Think rollouts under the grammar, scored as the update scores them: the log-prob the sampler
 * recorded for every sampled token equals the old log-prob scoreSamples computes from the recorded
 * masks (the banned logits set after the temperature scale), on the CPU and on wasm; scored without
 * the masks they differ. The grammar's forced tokens get mask 0; the trace turns into the flat
 * fillAt indices the scoring uses.
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../engine/backend';
import { CpuBackend } from '../engine/cpu/backend';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { Rng } from '../engine/rng';
import { wasmBackends } from '../engine/wasm/testing/same';
import { trainingProfiles } from '../persona/sets';
import type { TurnResult } from '../persona/user';
import { buildSequences, grammarMask } from './batch';
import { rollout, type DialogueRollout } from './rollout';
import { FORCED } from './think-grammar';
import { scoreSamples } from './update';

const profiles = trainingProfiles().slice(0, 3);
const tok = Tokenizer.train(
  profiles.flatMap((p) => [p.scenario.event, p.scenario.problem, ...p.scenario.details]),
  400,
);
const [open, close, end] = (['<think>', '</think>', '<|end|>'] as const).map((s) => tok.special(s));
const TEMPERATURE = 0.7;

async function thinkRollout(be: Backend): Promise<{ model: Transformer; dialogues: DialogueRollout[] }> {
  const config = { vocabSize: tok.vocabSize, contextLength: 256, channels: 16, layers: 1, heads: 2 };
  const model = Transformer.create(be, config, 5);
  const dialogues = await rollout(
    model,
    tok,
    profiles,
    {
      mode: 'train',
      difficulty: 'moderate',
      userSeed: 3,
      think: true,
      thinkGrammar: true,
      sampling: { temperature: TEMPERATURE, topK: 0, topP: 1 },
      maxTurnTokens: 12,
      maxAgentTurns: 3,
    },
    new Rng(4),
  );
  return { model, dialogues };
}

describe('think rollouts scored under the grammar', () => {
  for (const name of ['cpu', 'wasm'] as const) {
    it(`on ${name}: the sampler's log-probs are the scored old log-probs; without the masks they are not`, async () => {
      const be: Backend = name === 'cpu' ? new CpuBackend() : (await wasmBackends()).one;
      const { model, dialogues } = await thinkRollout(be);
      const turns = dialogues.flatMap((d) => d.turns);
      expect(turns.length).toBeGreaterThan(3);
      expect(turns.every((t) => t.wellFormed && t.grammar?.steps.length === t.response.length)).toBe(true);
      const { sequences, stream } = buildSequences(dialogues, tok.vocabSize);
      const forced = grammarMask(dialogues, stream);
      const sampled = turns.flatMap((t) => t.logprobs);
      expect(sampled).toHaveLength(stream.N);
      const old = await scoreSamples(model, sequences, 4, TEMPERATURE);
      const free = await scoreSamples(
        model,
        sequences.map((s) => ({ ...s, banned: [] })),
        4,
        TEMPERATURE,
      );
      let onPolicy = 0; // largest |sampler − scored| over the sampled tokens, masks applied
      let offPolicy = 0; // the same without the masks
      let compared = 0;
      sequences.forEach((s, i) =>
        s.stream.forEach((at, j) => {
          if (forced[at] === 0) return;
          onPolicy = Math.max(onPolicy, Math.abs(sampled[at] - old.logprobs[i][j]));
          offPolicy = Math.max(offPolicy, Math.abs(sampled[at] - free.logprobs[i][j]));
          compared++;
        }),
      );
      expect(compared).toBeGreaterThan(20);
      expect(onPolicy).toBeLessThan(1e-5); // measured: 2e-7 (cpu), 4e-7 (wasm)
      expect(offPolicy).toBeGreaterThan(1e-3); // measured: 7e-3
      // Every forced token: mask 0 and log-prob 0 (probability 1 under the grammar); the first is <think>.
      const forcedTokens = turns.flatMap((t) => t.response.filter((_, i) => t.grammar!.steps[i] === FORCED));
      expect(forced.filter((x) => x === 0)).toHaveLength(forcedTokens.length);
      expect(turns.every((t) => t.response[0] === open && t.logprobs[0] === 0)).toBe(true);
      expect(forcedTokens.every((x) => x === open || x === close)).toBe(true);
      model.release();
    });
  }

  it('turns a trace into flat fillAt indices (row · V + token) per sequence and a forced-token mask', () => {
    const V = tok.vocabSize;
    const turn = (prompt: number[], response: number[], steps: number[]) => ({
      prompt,
      response,
      reply: '',
      think: null,
      wellFormed: true,
      truncated: false,
      logprobs: response.map(() => 0),
      grammar: {
        steps,
        bans: [
          [end, open],
          [open, close],
        ],
      },
      result: { change: 0, emotion: 30 } as unknown as TurnResult,
    });
    const d: DialogueRollout = {
      profileId: 'p',
      opening: '',
      turns: [
        turn([1, 9], [open, 20, close, 21, end], [FORCED, 0, FORCED, 1, 1]),
        turn([1, 9, open, 20, close, 21, end, 30, 9], [open, close, end], [FORCED, FORCED, 1]),
      ],
      finalEmotion: 30,
      reward: 0.3,
      endReason: 'cap',
      transcript: [],
      window: { slides: 0, hidden: [] },
    };
    const { sequences, stream } = buildSequences([d], V);
    expect(sequences).toHaveLength(1);
    const rows = (j: number, tokens: number[]) => tokens.map((t) => j * V + t);
    expect(sequences[0].banned).toEqual([
      ...rows(1, [end, open]),
      ...rows(3, [open, close]),
      ...rows(4, [open, close]),
      ...rows(7, [open, close]),
    ]);
    expect(Array.from(grammarMask([d], stream))).toEqual([0, 1, 0, 1, 1, 0, 0, 1]);
    const bad = { ...d, turns: [{ ...d.turns[0], grammar: { steps: [FORCED], bans: [] } }] };
    expect(() => buildSequences([bad], V)).toThrow(/a turn of 5 tokens has a grammar trace of 1 steps/);
    const outside = { ...d, turns: [{ ...d.turns[0], grammar: { steps: [0, 0, 0, 0, 0], bans: [[V]] } }] };
    expect(() => buildSequences([outside], V)).toThrow(`bans token ${V}, outside the vocabulary (${V})`);
  });
});
