import { describe, expect, it } from 'vitest';
import type { Change } from '../persona/dynamics';
import type { TurnResult } from '../persona/user';
import { ImitationMemory, TOP_CHANGE, topRewardedReplies } from './imitation';
import type { AgentTurnSample, DialogueRollout } from './rollout';

const turn = (prompt: number[], response: number[], change: Change, truncated = false): AgentTurnSample => ({
  prompt,
  response,
  reply: response.join(' '),
  think: null,
  wellFormed: true,
  truncated,
  logprobs: response.map(() => -1),
  result: { change } as TurnResult,
});
const dialogue = (turns: AgentTurnSample[]): DialogueRollout =>
  ({ profileId: 'p', opening: 'o', turns, finalEmotion: 50, reward: 0.5, endReason: 'cap' }) as DialogueRollout;

describe('self-imitation memory', () => {
  it('keeps the replies the user rewarded with the top step, under their prompts, with only the reply scored', () => {
    expect(TOP_CHANGE).toBe(10);
    const d = dialogue([
      turn([1, 2], [3, 4], 5),
      turn([1, 2, 3, 4, 7], [5, 6], 10),
      turn([1, 2, 3, 4, 7, 5, 6, 8], [9, 9], 10, true), // cut at the cap: its <|end|> was forced
      turn([1, 2, 3, 4, 7, 5, 6, 8, 9], [], 10), // empty
      turn([1, 2, 3, 4, 7, 5, 6, 8, 9, 9], [4], -10),
    ]);
    expect(topRewardedReplies([d])).toEqual([
      { ids: [1, 2, 3, 4, 7, 5, 6], agentMask: [0, 0, 0, 0, 0, 1, 1], scoredFrom: 5 },
    ]);
    expect(topRewardedReplies([dialogue([turn([1], [2], 5), turn([1, 2], [3], 0)])])).toEqual([]);
  });

  it('holds the latest imitateKeep of them, oldest dropped first, and refuses a size that is not a whole number ≥ 1', () => {
    const m = new ImitationMemory(3);
    m.add([dialogue([turn([1], [2], 10), turn([1, 2], [3], 10)])]);
    m.add([dialogue([turn([1], [4], 10)]), dialogue([turn([1], [5], 10), turn([1, 5], [6], 5)])]);
    expect(m.examples.map((e) => e.ids.at(-1))).toEqual([3, 4, 5]);
    m.add([]);
    expect(m.examples).toHaveLength(3);
    for (const bad of [0, 1.5, -2, NaN])
      expect(() => new ImitationMemory(bad)).toThrow(/imitateKeep must be a whole number/);
  });

  it('gives its replies as a checkpoint stores them, and a resumed memory holds the same examples (the latest keep of them)', () => {
    const m = new ImitationMemory(3);
    m.add([dialogue([turn([1, 7], [2, 3], 10), turn([1, 7, 2, 3, 8], [4], 10)])]);
    expect(m.records()).toEqual([
      { ids: [1, 7, 2, 3], scoredFrom: 2 },
      { ids: [1, 7, 2, 3, 8, 4], scoredFrom: 5 },
    ]);
    expect(new ImitationMemory(3, m.records()).examples).toEqual(m.examples);
    expect(new ImitationMemory(1, m.records()).examples).toEqual(m.examples.slice(1));
  });
});
