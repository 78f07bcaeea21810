import { describe, expect, it } from 'vitest';
import { buildCorpus } from '../corpus/build';
import { Tokenizer } from '../engine/model/tokenizer';
import type { Change } from '../persona/dynamics';
import type { TurnResult } from '../persona/user';
import { corpusDemonstrations, DEMO_CORPUS, ImitationMemory, TOP_CHANGE, topRewardedReplies } from './imitation';
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

  describe('demonstrations from the corpus', () => {
    const corpus = buildCorpus({ ...DEMO_CORPUS, thinkShare: 0, dialogues: 60, heldOutShare: 0 });
    const tok = Tokenizer.train(
      corpus.train.flatMap((d) => d.turns.map((t) => t.text)),
      600,
    );
    const agent = tok.special('<|agent|>');
    const end = tok.special('<|end|>');
    const user = tok.special('<|user|>');
    const system = tok.special('<|system|>');
    /** Every reply of the corpus its user rewarded with the top step. */
    const top = new Set<string>();
    for (const d of corpus.train)
      d.turns.filter((t) => t.role === 'agent').forEach((t, k) => d.changes[k] >= TOP_CHANGE && top.add(t.text));

    it('are replies the corpus users rewarded with the top step, under a rollout prompt, only the reply scored', () => {
      expect(top.size).toBeGreaterThan(5);
      const demos = corpusDemonstrations(tok, 12, 256, 48);
      expect(demos).toHaveLength(12);
      expect(corpusDemonstrations(tok, 12, 256, 48)).toEqual(demos); // deterministic
      let firstTurns = 0;
      for (const e of demos) {
        const from = e.scoredFrom!;
        expect(e.ids[0]).toBe(tok.special('<|bos|>'));
        expect(e.ids[from - 1]).toBe(agent); // the prompt ends as a rollout's does
        expect(e.ids.at(-1)).toBe(end);
        expect(e.agentMask).toEqual(e.ids.map((_, i) => (i >= from ? 1 : 0)));
        expect(e.ids.length - from).toBeLessThanOrEqual(48);
        expect(from).toBeLessThanOrEqual(256 - 48); // the window leaves room for a whole reply
        const reply = tok.decode(e.ids.slice(from, -1));
        expect(top.has(reply), reply).toBe(true);
        // The prompt is whole turns, each closed by <|end|>, the last a user line: one more opened than closed.
        const prompt = e.ids.slice(0, from);
        const opened = prompt.filter((x) => x === agent || x === user || x === system).length;
        expect(opened).toBe(prompt.filter((x) => x === end).length + 1);
        expect(prompt.lastIndexOf(user)).toBeGreaterThan(prompt.lastIndexOf(agent, from - 2));
        if (prompt.filter((x) => x === agent).length === 1) firstTurns++;
      }
      expect(firstTurns).toBeLessThan(demos.length); // later turns too, under their history
      expect(corpusDemonstrations(tok, 0, 256, 48)).toEqual([]);
      for (const bad of [-1, 1.5, NaN])
        expect(() => corpusDemonstrations(tok, bad, 256, 48)).toThrow(/imitateDemos must be a whole number/);
    });

    it('a small context slides the history out of view as a rollout does, and a long reply is left out', () => {
      const small = corpusDemonstrations(tok, 12, 96, 24);
      expect(small.length).toBeGreaterThan(0);
      for (const e of small) {
        expect(e.scoredFrom!).toBeLessThanOrEqual(96 - 24);
        expect(e.ids.length - e.scoredFrom!).toBeLessThanOrEqual(24);
      }
    });

    it("start a new memory, which the run's own replies displace; a resumed memory ignores them", () => {
      const demos = corpusDemonstrations(tok, 4, 256, 48);
      const m = new ImitationMemory(3, [], demos);
      expect(m.examples).toEqual(demos.slice(1));
      m.add([dialogue([turn([1], [2], 10), turn([1, 2], [3], 10)])]);
      expect(m.examples[0]).toEqual(demos[3]);
      expect(m.examples.slice(1).map((e) => e.ids.at(-1))).toEqual([2, 3]);
      const saved = [{ ids: [1, 7, 2], scoredFrom: 2 }];
      expect(new ImitationMemory(3, saved, demos).examples.map((e) => e.ids)).toEqual([[1, 7, 2]]);
    });
  });
});
