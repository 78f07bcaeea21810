import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCorpus } from '../corpus/build';
import { runBenchmark } from '../persona/benchmark';
import { lexiconOf } from '../persona/detectors/index';
import { isEnglishWord } from '../persona/detectors/lexicon';
import { benchmarkProfiles } from '../persona/sets';
import { Rng } from '../engine/rng';
import { fluencyJson, fluencyOf, playedFromRecord } from './fluency';
import { ReferenceLm } from './reference-lm';
import { playScripted } from './testing/scripted';

const lm = ReferenceLm.parse(readFileSync(new URL('../../public/reference-lm.json', import.meta.url), 'utf8'));
const profiles = benchmarkProfiles();

const CLEAN = [
  'That sounds really painful, and it makes sense that you feel hurt by it.',
  'What was the hardest part of that moment for you?',
  'It was not your fault; anyone in your place would have been shaken.',
  'I can hear how much this has been weighing on you lately.',
];

describe('fluency of played replies', () => {
  it('counts a reply with a non-word, or with no word, as not all real words', () => {
    const clean = fluencyOf([playScripted(profiles[0], CLEAN)], profiles, lm);
    expect(clean).toMatchObject({ replies: 4, realWords: 1, nonWordExamples: [] });
    const slip = "You're not the pralowing for you think.";
    const garbled = fluencyOf([playScripted(profiles[0], [CLEAN[0], slip, CLEAN[2], CLEAN[3]])], profiles, lm);
    expect(garbled.realWords).toBe(0.75);
    expect(garbled.nonWordExamples).toEqual([
      { profileId: profiles[0].id, turn: 2, words: ['pralowing'], reply: slip },
    ]);
    expect(fluencyOf([playScripted(profiles[0], [CLEAN[0], '...'])], profiles, lm).realWords).toBe(0.5);
  });

  it("takes the words of the user's story and lines as real, as the users do", () => {
    const p = profiles.find((x) => lexiconOf(x).names.some((n) => !n.includes(' ') && !isEnglishWord(n)))!;
    const name = lexiconOf(p).names.find((n) => !n.includes(' ') && !isEnglishWord(n))!;
    const r = fluencyOf([playScripted(p, [`How has ${name} been with you since then?`])], profiles, lm);
    expect(r.realWords).toBe(1);
    // The same word with another user, who never spoke of anyone by that name, is not a word.
    const other = profiles.find((x) => !lexiconOf(x).known.has(name))!;
    expect(fluencyOf([playScripted(other, [`How has ${name} been with you?`])], profiles, lm).realWords).toBe(0);
  });

  it('gives repetition a lower distinct-2, within and across replies', () => {
    const varied = fluencyOf([playScripted(profiles[1], CLEAN)], profiles, lm);
    const same = fluencyOf([playScripted(profiles[1], [CLEAN[0], CLEAN[0], CLEAN[0], CLEAN[0]])], profiles, lm);
    const loop = fluencyOf(
      [playScripted(profiles[1], ['I hear you, I hear you, I hear you, I hear you.'])],
      profiles,
      lm,
    );
    expect(varied.distinct2).toBe(1);
    expect(same.distinct2).toBeCloseTo(0.25, 10);
    expect(loop.distinct2).toBeCloseTo(3 / 11, 10); // "i hear", "hear you", "you i": 3 of 11 bigrams
    expect(same.hacking.share).toBe(0.75); // the repeats are what the hacking check flags too
    expect(varied.meanReplyWords).toBeCloseTo(CLEAN.join(' ').split(/\s+/).length / 4, 10);
  });

  it("scores the corpus's replies lower surprisal than the same words shuffled", () => {
    // Replies of a corpus the model never counted (seed 7), played to benchmark users.
    const replies = buildCorpus({ seed: 7, dialogues: 40, thinkShare: 0 }).train.flatMap((d) =>
      d.turns.filter((t) => t.role === 'agent').map((t) => t.text),
    );
    const rng = new Rng('shuffle');
    const shuffled = replies.map((r) => rng.shuffle(r.replace(/[.,;?!]/g, '').split(' ')).join(' '));
    const play = (rs: string[]) => profiles.slice(0, 8).map((p, i) => playScripted(p, rs.slice(i * 6, i * 6 + 6)));
    const corpus = fluencyOf(play(replies), profiles, lm);
    const salad = fluencyOf(play(shuffled), profiles, lm);
    expect(corpus.replies).toBeGreaterThan(10);
    expect(corpus.surprisal).toBeLessThan(lm.heldOut.surprisal * 2);
    expect(salad.surprisal).toBeGreaterThan(corpus.surprisal + 2);
  });

  it("reads a reference policy's dialogues as it reads rollouts", () => {
    const users = profiles.slice(0, 3);
    const { records } = runBenchmark(users, 'reflective', { seed: 0 });
    const replies = records.map((r) => r.transcript.filter((e) => e.role === 'agent').map((e) => e.text));
    const fromRecords = fluencyOf(records.map(playedFromRecord), profiles, lm);
    const replayed = fluencyOf(
      users.map((p, i) => playScripted(p, replies[i])),
      profiles,
      lm,
    );
    expect(fromRecords).toEqual(replayed);
    expect(fromRecords.replies).toBe(records.reduce((s, r) => s + r.turns, 0));
  });

  it('leaves surprisal out without a model, and prints NaN as null', () => {
    const r = fluencyOf([playScripted(profiles[0], CLEAN)], profiles, null);
    expect(r.surprisal).toBeNaN();
    expect(JSON.parse(JSON.stringify(fluencyJson(r, null)))).toMatchObject({
      realWords: 1,
      surprisal: null,
      surprisalCorpus: null,
      oov: null,
    });
    const withLm = fluencyJson(fluencyOf([playScripted(profiles[0], CLEAN)], profiles, lm), lm);
    expect(withLm.surprisalCorpus).toBe(Math.round(lm.heldOut.surprisal * 1000) / 1000);
    expect(withLm.hacking).toEqual({
      share: 0,
      flagged: 0,
      replies: 4,
      byKind: { spam: 0, nonLanguage: 0, scorer: 0 },
    });
    expect(() => fluencyOf([playScripted(profiles[0], CLEAN)], profiles.slice(1), lm)).toThrow(
      /bench-001, who is not among the profiles given/,
    );
  });
});
