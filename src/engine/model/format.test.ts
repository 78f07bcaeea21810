import { describe, expect, it } from 'vitest';
import { encodeDialogue, parseAgentTurn, visibleHistory, type Turn } from './format';
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
});
