import { describe, expect, it } from 'vitest';
import {
  encodeDialogue,
  encodeTrainingExamples,
  historyChunks,
  parseAgentTurn,
  TRAINING_SLIDE_TO,
  visibleHistory,
  type Turn,
} from './format';
import { Tokenizer } from './tokenizer';

const tok = Tokenizer.train(['I hear you. That sounds hard.', 'My sister missed the wedding.'], 320);

describe('dialogue format', () => {
  const turns: Turn[] = [
    { role: 'system', text: 'Be kind.' },
    { role: 'user', text: 'My sister missed the wedding.' },
    { role: 'agent', text: 'That sounds hard.', think: 'reflect the hurt' },
    { role: 'user', text: 'Yeah.' },
    { role: 'agent', text: 'I hear you.' },
  ];

  it('marks exactly the agent tokens (think block, reply, closing end) for the loss', () => {
    const { ids, agentMask } = encodeDialogue(tok, turns);
    expect(ids.length).toBe(agentMask.length);
    const agentText = tok.decode(
      ids.filter((_, i) => agentMask[i] === 1),
      { showSpecials: true },
    );
    expect(agentText).toBe('<think> reflect the hurt </think>That sounds hard.<|end|>I hear you.<|end|>');
    const context = tok.decode(
      ids.filter((_, i) => agentMask[i] === 0),
      { showSpecials: true },
    );
    expect(context).toBe(
      '<|bos|><|system|>Be kind.<|end|><|user|>My sister missed the wedding.<|end|><|agent|><|user|>Yeah.<|end|><|agent|>',
    );
  });

  it('parses a well-formed think turn and flags a broken one', () => {
    const good = [
      tok.special('<think>'),
      ...tok.encode(' plan '),
      tok.special('</think>'),
      ...tok.encode(' Hello.'),
      tok.special('<|end|>'),
    ];
    expect(parseAgentTurn(tok, good, true)).toEqual({ think: 'plan', reply: 'Hello.', wellFormed: true });
    const unclosed = [tok.special('<think>'), ...tok.encode(' plan Hello.')];
    expect(parseAgentTurn(tok, unclosed, true).wellFormed).toBe(false);
    const plain = tok.encode('Hello.');
    expect(parseAgentTurn(tok, plain, true).wellFormed).toBe(false);
    expect(parseAgentTurn(tok, plain, false)).toEqual({ think: null, reply: 'Hello.', wellFormed: true });
    expect(parseAgentTurn(tok, good, false).reply).toBe('Hello.');
  });

  it('hides earlier thoughts from later turns', () => {
    expect(visibleHistory(turns).some((t) => t.think !== undefined)).toBe(false);
  });

  it('history chunks: bos + system, then one chunk per turn, agent turns without thoughts', () => {
    const c = historyChunks(tok, turns.slice(0, 4));
    expect(c.map((x) => tok.decode(x, { showSpecials: true }))).toEqual([
      '<|bos|><|system|>Be kind.<|end|>',
      '<|user|>My sister missed the wedding.<|end|>',
      '<|agent|>That sounds hard.<|end|>',
      '<|user|>Yeah.<|end|>',
    ]);
    expect(c.flat()).toEqual(encodeDialogue(tok, visibleHistory(turns.slice(0, 4))).ids);
  });

  it('training examples: a dialogue without thoughts that fits is encodeDialogue, whole', () => {
    const plain = visibleHistory(turns);
    const whole = encodeDialogue(tok, plain);
    expect(encodeTrainingExamples(tok, plain, whole.ids.length)).toEqual([whole]);
  });

  it('training examples: a long plain dialogue slides as a rollout does, each token taught once', () => {
    const lines = ['My sister missed the wedding.', 'Yeah.', 'I hear you. That sounds hard.', 'Hard.'];
    const long: Turn[] = [{ role: 'system', text: 'Be kind.' }];
    for (let i = 0; i < 12; i++)
      long.push({ role: 'user', text: lines[i % 4] }, { role: 'agent', text: lines[(i + 2) % 4] });
    long.push({ role: 'user', text: 'Bye.' });
    const whole = encodeDialogue(tok, long);
    const chunks = historyChunks(tok, long);
    const system = chunks[0];
    const max = 90;
    const ex = encodeTrainingExamples(tok, long, max);
    expect(ex.length).toBeGreaterThan(2);
    // What the windows teach, end to end, is the dialogue: every token once, with its own mask.
    expect(ex.flatMap((e) => e.ids.slice(e.scoredFrom ?? 0))).toEqual(whole.ids);
    expect(ex.flatMap((e) => e.agentMask.slice(e.scoredFrom ?? 0))).toEqual(whole.agentMask);
    expect(ex[0].scoredFrom).toBeUndefined();
    const show = (ids: number[]) => tok.decode(ids, { showSpecials: true });
    for (const e of ex) {
      expect(e.ids.length).toBeLessThanOrEqual(max);
      expect(e.ids.slice(0, system.length)).toEqual(system);
      // The window opens on a user line, and every agent turn in it follows the user line it answers.
      const roles = e.ids.filter((t) => t === tok.special('<|user|>') || t === tok.special('<|agent|>'));
      expect(roles.map((t) => (t === tok.special('<|user|>') ? 'u' : 'a')).join('')).toMatch(/^(ua)*u?$/);
    }
    for (const e of ex.slice(1)) {
      // A later window starts after sliding: its history is at most the slide-to share, or one pair.
      const history = e.scoredFrom!;
      expect(history).toBeGreaterThan(system.length);
      expect(history <= TRAINING_SLIDE_TO * max || show(e.ids.slice(history, history + 1)) === '<|agent|>').toBe(true);
    }
  });

  it('training examples: one per turn of a think dialogue, the history thought-free, only the turn scored', () => {
    const thinking: Turn[] = [...turns.slice(0, 4), { role: 'agent', text: 'I hear you.', think: 'stay close' }];
    const ex = encodeTrainingExamples(tok, thinking, 1000);
    expect(ex.length).toBe(2);
    const show = (ids: number[]) => tok.decode(ids, { showSpecials: true });
    expect(show(ex[1].ids)).toBe(
      '<|bos|><|system|>Be kind.<|end|><|user|>My sister missed the wedding.<|end|><|agent|>That sounds hard.<|end|>' +
        '<|user|>Yeah.<|end|><|agent|><think> stay close </think>I hear you.<|end|>',
    );
    ex.forEach((e, k) => {
      const from = e.scoredFrom!;
      expect(show(e.ids.slice(from - 1, from + 1))).toBe('<|agent|><think>');
      expect(e.agentMask).toEqual(e.ids.map((_, i) => (i >= from ? 1 : 0)));
      expect(e.ids.slice(from)).toEqual(encodeDialogue(tok, [thinking[2 + 2 * k]]).ids.slice(2));
    });
  });

  it('training examples: a long history drops whole (user, agent) pairs after the system line, keeping the turn', () => {
    const long: Turn[] = [
      { role: 'system', text: 'Be kind.' },
      { role: 'user', text: 'My sister missed the wedding.' },
      { role: 'agent', text: 'That sounds hard.', think: 'reflect' },
      { role: 'user', text: 'Yeah. I hear you.' },
      { role: 'agent', text: 'I hear you.', think: 'stay' },
      { role: 'user', text: 'Yeah.' },
      { role: 'agent', text: 'That sounds hard.', think: 'name it' },
    ];
    const full = encodeTrainingExamples(tok, long, 1000)[2];
    const system = historyChunks(tok, long.slice(0, 1))[0];
    const turn = encodeDialogue(tok, [long[6]]).ids.slice(2);
    const lastUser = historyChunks(tok, long.slice(5, 6))[0].slice(1);
    // One token short of the whole: the first pair (the opening, the first turn) drops.
    const budget = full.ids.length - 1;
    const cut = encodeTrainingExamples(tok, long, budget)[2];
    expect(cut.ids.length).toBeLessThanOrEqual(budget);
    expect(cut.ids.slice(0, system.length)).toEqual(system);
    expect(tok.decode(cut.ids, { showSpecials: true })).toBe(
      '<|bos|><|system|>Be kind.<|end|><|user|>Yeah. I hear you.<|end|><|agent|>I hear you.<|end|><|user|>Yeah.<|end|><|agent|>' +
        '<think> name it </think>That sounds hard.<|end|>',
    );
    expect(cut.ids.slice(-turn.length)).toEqual(turn);
    expect(cut.scoredFrom).toBe(cut.ids.length - turn.length);
    // Too small for anything but the system line, the user line the turn answers and the turn: that is kept whole.
    const least = encodeTrainingExamples(tok, long, 4)[2];
    expect(least.ids).toEqual([...system, ...lastUser, tok.special('<|agent|>'), ...turn]);
  });
});
