import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusReplies, REFERENCE_LM_SHA256, ReferenceLm, ReferenceLmError, type LmText } from './reference-lm';

const SHIPPED = readFileSync(new URL('../../public/reference-lm.json', import.meta.url), 'utf8');
const text = (s: string, story: string[] = []): LmText => ({
  words: s.split(' ').filter(Boolean),
  story: new Set(story),
});
/** The tiny model of the hand-worked case: replies "a b" and "a c". */
const tiny = () => ReferenceLm.parse(ReferenceLm.build([text('a b'), text('a c')], [text('a b')], SOURCE));
const SOURCE = { corpus: 'test', seed: 0, dialogues: 2 };

describe('the reference language model', () => {
  it('ships frozen: the bytes every surprisal figure was read against', () => {
    expect(createHash('sha256').update(SHIPPED).digest('hex')).toBe(REFERENCE_LM_SHA256);
    const lm = ReferenceLm.parse(SHIPPED);
    expect(lm.source).toMatchObject({ seed: 1, dialogues: 4000 });
    expect(lm.heldOut.replies).toBeGreaterThan(100);
    expect(lm.heldOut.surprisal).toBeGreaterThan(0.5);
    expect(lm.heldOut.surprisal).toBeLessThan(6);
  });

  it("still describes today's corpus: its held-out replies read as the frozen file's own did", () => {
    // A change to the users or the templates moves some replies; the yardstick stays, as long as
    // the corpus's own replies still read within a tenth of a bit of where they read when frozen.
    const lm = ReferenceLm.parse(SHIPPED);
    const { heldOut } = corpusReplies();
    const today = lm.surprisal(heldOut);
    expect(heldOut.length).toBeGreaterThan(100);
    expect(Math.abs(today.surprisal - lm.heldOut.surprisal)).toBeLessThan(0.1);
    expect(today.oov).toBeLessThan(0.01);
  }, 60_000);

  it('builds the same bytes from the same replies', () => {
    const replies = [text('you sound let down'), text('that is a lot', ['priya']), text('how is priya', ['priya'])];
    const a = ReferenceLm.build(replies, replies.slice(0, 1), SOURCE);
    expect(ReferenceLm.build(replies, replies.slice(0, 1), SOURCE)).toBe(a);
    expect(ReferenceLm.build(replies.slice(1), replies.slice(0, 1), SOURCE)).not.toBe(a);
  });

  it('gives the hand-worked interpolated Kneser-Ney probabilities', () => {
    // Trigrams: (<s> <s> a) 2, (<s> a b), (a b </s>), (<s> a c), (a c </s>) once. Each order has
    // too few counts of counts for three discounts, so each takes one, Y = n1 / (n1 + 2 n2):
    // trigrams 4/6, adjusted bigrams (<s> a: 2 raw, the rest 1) 4/6, unigrams (a 1, b 1, c 1, </s> 2) 3/5.
    const lm = tiny();
    const [s, a, b] = [lm.idOf('<s>')!, lm.idOf('a')!, lm.idOf('b')!];
    const p1 = (1 - 0.6) / 5 + (0.6 * 4) / 5 / 6; // 6 tokens can be predicted: </s> <unk> <story> a b c
    const p2 = (1 - 2 / 3) / 2 + (((2 / 3) * 2) / 2) * p1;
    const p3 = (1 - 2 / 3) / 2 + (((2 / 3) * 2) / 2) * p2;
    expect(lm.prob(b, s, a)).toBeCloseTo(p3, 12);
    expect(lm.prob(b, a, a)).toBeCloseTo(p2, 12); // (a a) never seen: the bigram level
    expect(lm.prob(lm.idOf('<unk>')!, a, a)).toBeCloseTo((((0.6 * 4) / 5 / 6) * ((2 / 3) * 2)) / 2, 12);
  });

  it('sums to one over everything it can predict, in seen and unseen contexts', () => {
    const lm = ReferenceLm.parse(SHIPPED);
    const ids = lm.vocab.map((_, i) => i).filter((i) => i !== lm.idOf('<s>'));
    const id = (w: string) => lm.idOf(w)!;
    const contexts: [number, number][] = [
      [id('<s>'), id('<s>')],
      [id('<s>'), id('that')],
      [id('that'), id('sounds')],
      [id('<unk>'), id('you')],
      [id('<unk>'), id('<unk>')],
      [id('<story>'), id('</s>')],
    ];
    for (const [u, v] of contexts) {
      const sum = ids.reduce((acc, w) => acc + lm.prob(w, u, v), 0);
      expect(sum, `context ${lm.vocab[u]} ${lm.vocab[v]}`).toBeCloseTo(1, 12);
    }
  });

  it("reads a user's story words as one token and a non-word as <unk>", () => {
    const lm = ReferenceLm.parse(SHIPPED);
    const plain = text('that sounds really hard');
    expect(lm.encode(plain)).toEqual(['that', 'sounds', 'really', 'hard', '</s>'].map((w) => lm.idOf(w)));
    expect(lm.encode(text("how is priya's knee", ['priya', 'knee']))).toEqual(
      ['how', 'is', '<story>', '<story>', '</s>'].map((w) => lm.idOf(w)),
    );
    const [said, slip] = [lm.score(text('you sound let down')), lm.score(text('you sound pralowing down'))];
    expect([said.oov, slip.oov]).toEqual([0, 1]);
    expect(slip.bits).toBeGreaterThan(said.bits + 5);
    expect(-Math.log2(lm.prob(lm.idOf('<unk>')!, lm.idOf('you')!, lm.idOf('sound')!))).toBeGreaterThan(11.4);
  });

  it('refuses a damaged or foreign file, saying what is wrong and how to restore it', () => {
    const f = JSON.parse(SHIPPED) as Record<string, unknown>;
    const bad = (patch: Record<string, unknown>) => JSON.stringify({ ...f, ...patch });
    const rows = f.trigrams as number[][];
    expect(() => ReferenceLm.parse('{"format": ')).toThrow(/reference-lm.json is not JSON/);
    expect(() => ReferenceLm.parse(bad({ version: 99 }))).toThrow(/format version 99, this lab reads version 1/);
    expect(() => ReferenceLm.parse(bad({ format: 'x' }))).toThrow(/not a reference model/);
    expect(() => ReferenceLm.parse(bad({ vocab: ['a', 'b'] }))).toThrow(/must start with <s> <\/s> <unk> <story>/);
    expect(() => ReferenceLm.parse(bad({ trigrams: [rows[1], rows[0], ...rows.slice(2)] }))).toThrow(/out of order/);
    expect(() => ReferenceLm.parse(bad({ trigrams: [[0, 0, 4, 0], ...rows.slice(1)] }))).toThrow(/count below 1/);
    expect(() => ReferenceLm.parse(bad({ trigrams: rows.slice(1) }))).toThrow(/the counts hold \d+ tokens/);
    expect(() => ReferenceLm.parse(bad({ heldOut: null }))).toThrow(/"heldOut"/);
    try {
      ReferenceLm.parse(bad({ version: 2 }), 'x.json');
    } catch (e) {
      expect(e).toBeInstanceOf(ReferenceLmError);
      expect((e as Error).message).toMatch(/^x\.json: .*git checkout public\/reference-lm\.json\)$/);
    }
    expect.assertions(10);
  });
});
