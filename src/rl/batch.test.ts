import { describe, expect, it } from 'vitest';
import type { TurnResult } from '../persona/user';
import { buildSequences } from './batch';
import type { AgentTurnSample, DialogueRollout } from './rollout';

const turn = (prompt: number[], response: number[]): AgentTurnSample => ({
  prompt,
  response,
  reply: '',
  think: null,
  wellFormed: true,
  truncated: false,
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
});

describe('training sequences from dialogues', () => {
  it('merges turns whose prompt extends the previous turn, and splits where the window slid', () => {
    const d = dialogue([
      turn([1, 2, 9], [20, 21, 8]), // prompt ends with <agent> = 9, response ends with <end> = 8
      turn([1, 2, 9, 20, 21, 8, 30, 9], [22, 8]), // extends: one sequence
      turn([1, 30, 9, 22, 8, 31, 9], [23, 24, 8]), // the window slid: a new sequence
    ]);
    const { sequences, stream } = buildSequences([d]);
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
    const { sequences, stream } = buildSequences([a, b]);
    expect(Array.from(stream.offsets)).toEqual([0, 2, 7]);
    expect(stream.N).toBe(7);
    expect(stream.turnEnds).toEqual([[1], [4, 6]]);
    expect(sequences.flatMap((s) => s.stream)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
