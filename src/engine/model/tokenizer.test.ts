import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { N_BYTES, SPECIALS, Tokenizer } from './tokenizer';

const CORPUS = [
  'I hear how exhausting the night shift has been for you.',
  'That sounds really hard. What happened with your sister at the wedding?',
  "It's not your fault that the spreadsheet broke before the deadline.",
  'Have you tried talking to your manager about the night shift?',
  'You handled the wedding with a lot of care, and it showed.',
];
const corpus = Array.from({ length: 20 }, (_, i) => CORPUS[i % CORPUS.length] + ` (${i})`);

describe('byte-level BPE tokenizer', () => {
  const tok = Tokenizer.train(corpus, 400);

  it('learns merges up to the requested vocabulary and compresses its corpus', () => {
    expect(tok.vocabSize).toBeLessThanOrEqual(400);
    expect(tok.vocabSize).toBeGreaterThan(N_BYTES + SPECIALS.length + 50);
    const text = CORPUS[0];
    expect(tok.encode(text).length).toBeLessThan(new TextEncoder().encode(text).length / 2);
  });

  it('round-trips any Unicode string, including emoji, control characters and markup', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (s) => {
        expect(tok.decode(tok.encode(s))).toBe(s);
      }),
      { numRuns: 300 },
    );
    for (const s of [
      '',
      ' ',
      '\u0000\u0007\n\t',
      '👩‍👩‍👧 😢',
      '<script>alert(1)</script>',
      'ünïcödé 日本語',
      'a'.repeat(5000),
    ]) {
      expect(tok.decode(tok.encode(s))).toBe(s);
    }
  });

  it('encodes 100k characters of token soup quickly (linear, not quadratic)', () => {
    const soup = Array.from({ length: 100_000 }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('');
    const ids = tok.encode(soup);
    expect(tok.decode(ids)).toBe(soup);
  });

  it('never produces special tokens from text: typing "<think>" gives its bytes', () => {
    const ids = tok.encode('<think> plan </think><|user|>');
    expect(ids.some((id) => tok.isSpecial(id))).toBe(false);
    expect(tok.decode(ids)).toBe('<think> plan </think><|user|>');
  });

  it('decodes specials only when asked', () => {
    const ids = [tok.special('<|agent|>'), ...tok.encode('hi'), tok.special('<|end|>')];
    expect(tok.decode(ids)).toBe('hi');
    expect(tok.decode(ids, { showSpecials: true })).toBe('<|agent|>hi<|end|>');
  });

  it('is deterministic and survives JSON', () => {
    const again = Tokenizer.train(corpus, 400);
    expect(again.merges).toEqual(tok.merges);
    const back = Tokenizer.fromJSON(JSON.parse(JSON.stringify(tok.toJSON())));
    expect(back.encode(CORPUS[1])).toEqual(tok.encode(CORPUS[1]));
  });

  it('rejects a damaged or foreign tokenizer with a clear message', () => {
    expect(() => Tokenizer.fromJSON(null)).toThrow(/not an Empathy RL Lab tokenizer/);
    expect(() => Tokenizer.fromJSON({ ...tok.toJSON(), version: 99 })).toThrow(/version 99/);
    expect(() => Tokenizer.fromJSON({ ...tok.toJSON(), merges: [[1, 'x']] })).toThrow(/pairs/);
    expect(() => Tokenizer.fromJSON({ ...tok.toJSON(), merges: [[5000, 1]] })).toThrow(/not yet defined/);
    expect(() => tok.decode([tok.vocabSize + 3])).toThrow(/outside the vocabulary/);
  });
});
