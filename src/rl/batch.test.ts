import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { Rng } from '../engine/rng';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { trainingProfiles } from '../persona/sets';
import type { TurnResult } from '../persona/user';
import { buildSequences } from './batch';
import { rollout, type AgentTurnSample, type DialogueRollout } from './rollout';

const turn = (prompt: number[], response: number[]): AgentTurnSample => ({
  prompt,
  response,
  reply: '',
  think: null,
  wellFormed: true,
  truncated: false,
  logprobs: response.map(() => 0),
  result: { change: 0, emotion: 30 } as unknown as TurnResult,
});
const dialogue = (turns: AgentTurnSample[]): DialogueRollout => ({
  profileId: 'p',
  opening: '',
  turns,
  finalEmotion: 30,
  reward: 0.3,
  endReason: 'cap',
  transcript: [],
  window: { slides: 0, hidden: [] },
});

describe('training sequences from dialogues', () => {
  it('merges turns whose prompt extends the previous turn, and splits where the window slid', () => {
    const d = dialogue([
      turn([1, 2, 9], [20, 21, 8]), // prompt ends with <agent> = 9, response ends with <end> = 8
      turn([1, 2, 9, 20, 21, 8, 30, 9], [22, 8]), // extends: one sequence
      turn([1, 30, 9, 22, 8, 31, 9], [23, 24, 8]), // the window slid: a new sequence
    ]);
    const { sequences, stream } = buildSequences([d], 32);
    expect(sequences).toHaveLength(2);
    expect(sequences[0].ids).toEqual([1, 2, 9, 20, 21, 8, 30, 9, 22, 8]);
    // Row t predicts ids[t + 1]: the policy's tokens sit at 3, 4, 5 and 8, 9.
    expect(sequences[0].rows).toEqual([2, 3, 4, 7, 8]);
    expect(sequences[0].stream).toEqual([0, 1, 2, 3, 4]);
    expect(sequences[1].ids).toEqual([1, 30, 9, 22, 8, 31, 9, 23, 24, 8]);
    expect(sequences[1].rows).toEqual([6, 7, 8]);
    expect(sequences[1].stream).toEqual([5, 6, 7]);
    expect(Array.from(stream.offsets)).toEqual([0, 8]);
    expect(stream.turnEnds).toEqual([[2, 4, 7]]);
    // Every policy row predicts exactly the sampled token: the target at row r (ids[r + 1]) is the
    // response token at that row's stream position (the dialogue's responses, end to end).
    const sampled = d.turns.flatMap((t) => t.response);
    for (const s of sequences) expect(s.rows.map((r) => s.ids[r + 1])).toEqual(s.stream.map((at) => sampled[at]));
  });

  it('gives each dialogue its own stream span, in order', () => {
    const a = dialogue([turn([1, 9], [5, 8])]);
    const b = dialogue([turn([1, 9], [6, 6, 8]), turn([7, 9], [4, 8])]);
    const { sequences, stream } = buildSequences([a, b], 32);
    expect(Array.from(stream.offsets)).toEqual([0, 2, 7]);
    expect(stream.N).toBe(7);
    expect(stream.turnEnds).toEqual([[1], [4, 6]]);
    expect(sequences.flatMap((s) => s.stream)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('scores every response token of real rollouts under exactly its prompt, whatever the window', async () => {
    const profiles = trainingProfiles().slice(0, 3);
    const tok = Tokenizer.train(
      profiles.flatMap((p) => [p.scenario.event, p.scenario.problem, ...p.scenario.details]),
      400,
    );
    const config = { vocabSize: tok.vocabSize, contextLength: 200, channels: 16, layers: 1, heads: 2 };
    const model = Transformer.create(new CpuBackend(), config, 5);
    for (const window of ['pairs', 'replies'] as const) {
      const ds = await rollout(
        model,
        tok,
        profiles,
        {
          mode: 'train',
          difficulty: 'moderate',
          userSeed: 3,
          think: false,
          sampling: { temperature: 1, topK: 0, topP: 1 },
          maxTurnTokens: 6,
          window,
        },
        new Rng(4),
      );
      expect(ds.some((d) => d.window.slides > 0)).toBe(true);
      const { sequences, stream } = buildSequences(ds, tok.vocabSize);
      // Where each stream position sits: its sequence and its row there.
      const at = new Map<number, { s: number; row: number }>();
      sequences.forEach((seq, s) => seq.stream.forEach((p, j) => at.set(p, { s, row: seq.rows[j] })));
      let merged = 0;
      ds.forEach((d, di) => {
        let pos = stream.offsets[di];
        d.turns.forEach((t, k) => {
          const first = at.get(pos)!;
          const ids = sequences[first.s].ids;
          expect(ids.slice(0, first.row + 1)).toEqual(t.prompt);
          t.response.forEach((token, i) => {
            expect(at.get(pos + i)).toEqual({ s: first.s, row: first.row + i });
            expect(ids[first.row + i + 1]).toBe(token);
          });
          if (k > 0 && at.get(pos - 1)!.s === first.s) merged++;
          pos += t.response.length;
        });
      });
      expect(merged).toBeGreaterThan(0);
      expect(sequences.length).toBeLessThan(ds.reduce((s, d) => s + d.turns.length, 0));
    }
  });
});
