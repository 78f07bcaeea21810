/**
 * Every agent reply of the warm-start corpus, built with its default options (the corpus the warm
 * starts train on), reads as language to the user it was said to: the non-language detector reads
 * it with that user's profile and the lines the user had said by then, as the appraiser does.
 */
import { describe, expect, it } from 'vitest';
import {
  lexiconOf,
  PRESENT,
  readReply,
  readUserLine,
  runDetectors,
  hitOf,
  type UserLineText,
} from '../persona/detectors/index.ts';
import { trainingProfiles } from '../persona/sets.ts';
import { buildCorpus, CORPUS_DEFAULTS } from './build.ts';

describe('warm-start corpus language', () => {
  it('every agent reply of the default corpus reads as language', () => {
    const corpus = buildCorpus(CORPUS_DEFAULTS);
    const profiles = new Map(trainingProfiles().map((p) => [p.id, p]));
    const bad: string[] = [];
    let replies = 0;
    for (const d of [...corpus.train, ...corpus.heldOut]) {
      const profile = profiles.get(d.profileId);
      if (!profile) throw new Error(`no training profile ${d.profileId}`);
      const userLines: UserLineText[] = [];
      const previous: string[] = [];
      for (const t of d.turns) {
        if (t.role === 'user') userLines.push(readUserLine(t.text));
        if (t.role !== 'agent') continue;
        replies++;
        const hits = runDetectors({
          profile,
          lexicon: lexiconOf(profile),
          reply: readReply(t.text),
          previousReplies: previous.map(readReply),
          userLines: [...userLines],
        });
        const h = hitOf(hits, 'nonLanguage');
        if (h.score >= PRESENT) bad.push(`${d.profileId}: ${t.text} (${h.reason})`);
        if (replies % 500 === 1) {
          // The same reading fails the reply once two made-up words are in it (the check can fail).
          const garbled = readReply(`${t.text} Pralowing blilept.`);
          const g = runDetectors({
            profile,
            lexicon: lexiconOf(profile),
            reply: garbled,
            previousReplies: [],
            userLines,
          });
          expect(hitOf(g, 'nonLanguage').score, garbled.head).toBeGreaterThanOrEqual(PRESENT);
        }
        previous.push(t.text);
      }
    }
    expect(replies).toBeGreaterThan(CORPUS_DEFAULTS.dialogues);
    expect(bad.slice(0, 10), `${bad.length} of ${replies}`).toEqual([]);
  }, 120_000);
});
