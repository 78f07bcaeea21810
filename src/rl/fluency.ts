/**
 * Fluency of a policy's replies on played dialogues: does it speak, beside what it scores? Pure
 * and deterministic; `npm run evaluate`, `npm run experiment`, the lab's worker and the reference
 * policies' rows (src/lab/build-reference.ts) all read replies through this one function.
 *
 * - realWords: the share of replies whose every word is a real word, by the simulated users' own
 *   non-word check (src/persona/detectors/nonLanguage.ts `unknownWords`: English, or a word of the
 *   user's story or of what the user has said so far). A reply with no word at all is not.
 * - hacking: the reward-hacking check (./hacking.ts); its `share` is the share of replies flagged.
 * - surprisal: mean bits per word of the replies (each reply's end counts as a word) under the
 *   frozen reference model of the corpus's replies (./reference-lm.ts), pooled over all words;
 *   `oov`, the share of those words outside its vocabulary. Read it against the corpus's own
 *   held-out replies (`ReferenceLm.heldOut.surprisal`).
 * - distinct2: distinct word bigrams over all bigrams, bigrams taken within each reply, over all
 *   replies [Li et al. 2016, distinct-n]. It falls with repetition, within and across replies.
 * - meanReplyWords: words per reply (the users' reading: readReply).
 *
 * Only the visible replies count (think blocks are never shown to the user).
 */
import { lexiconOf, readReply, readUserLine } from '../persona/detectors/index';
import { unknownWords } from '../persona/detectors/nonLanguage';
import type { DialogueRecord } from '../persona/benchmark';
import type { Profile } from '../persona/profile';
import type { TurnResult } from '../persona/user';
import { checkRewardHacking, type HackingReport } from './hacking';
import { storyWords, type LmText, type ReferenceLm } from './reference-lm';

/** What fluency and the hacking check read of a played dialogue (a DialogueRollout is one). */
export interface PlayedDialogue {
  profileId: string;
  /** The user's first line. */
  opening: string;
  /** Each agent reply with the user's answer to it (`result.line`) and the appraisal. */
  turns: readonly { reply: string; result: TurnResult }[];
}

interface NonWordExample {
  profileId: string;
  /** Agent turn, 1-based. */
  turn: number;
  /** The words the user could not read. */
  words: string[];
  reply: string;
}

export interface FluencyReport {
  replies: number;
  /** Share of replies whose every word is real (NaN with no replies). */
  realWords: number;
  /** The first replies with a word the user could not read, at most `maxExamples`. */
  nonWordExamples: NonWordExample[];
  /** Mean bits per word under the reference model (NaN without one, or with no replies). */
  surprisal: number;
  /** Share of the scored words outside the reference model's vocabulary. */
  oov: number;
  /** Distinct word bigrams / all word bigrams (NaN with no bigram). */
  distinct2: number;
  meanReplyWords: number;
  hacking: HackingReport;
}

/** A reference policy's dialogue (persona/benchmark.ts) in the shape the rollouts have. */
export function playedFromRecord(r: DialogueRecord): PlayedDialogue {
  return {
    profileId: r.profileId,
    opening: r.transcript[0].text,
    turns: r.results.map((result, i) => ({ reply: r.transcript[2 * i + 1].text, result })),
  };
}

export function fluencyOf(
  dialogues: readonly PlayedDialogue[],
  profiles: readonly Profile[],
  lm: ReferenceLm | null,
  opts: { maxExamples?: number } = {},
): FluencyReport {
  const maxExamples = Math.max(0, Math.floor(opts.maxExamples ?? 3));
  const byId = new Map(profiles.map((p) => [p.id, p]));
  const texts: LmText[] = [];
  const nonWordExamples: NonWordExample[] = [];
  const bigrams = new Set<string>();
  let nBigrams = 0;
  let real = 0;
  let words = 0;
  for (const d of dialogues) {
    const profile = byId.get(d.profileId);
    if (!profile) throw new Error(`fluency: dialogue with ${d.profileId}, who is not among the profiles given`);
    const known = lexiconOf(profile).known;
    const story = storyWords(profile);
    const userLines = [readUserLine(d.opening)];
    d.turns.forEach((t, k) => {
      const w = readReply(t.reply).words;
      const unknown = unknownWords(w, known, userLines);
      if (w.length > 0 && unknown.length === 0) real++;
      else if (nonWordExamples.length < maxExamples)
        nonWordExamples.push({ profileId: d.profileId, turn: k + 1, words: unknown, reply: t.reply });
      words += w.length;
      for (let i = 0; i + 1 < w.length; i++) bigrams.add(`${w[i]} ${w[i + 1]}`);
      nBigrams += Math.max(0, w.length - 1);
      texts.push({ words: w, story });
      userLines.push(readUserLine(t.result.line));
    });
  }
  const replies = texts.length;
  const s = lm ? lm.surprisal(texts) : { surprisal: NaN, oov: NaN };
  return {
    replies,
    realWords: replies > 0 ? real / replies : NaN,
    nonWordExamples,
    surprisal: s.surprisal,
    oov: s.oov,
    distinct2: nBigrams > 0 ? bigrams.size / nBigrams : NaN,
    meanReplyWords: replies > 0 ? words / replies : NaN,
    hacking: checkRewardHacking(dialogues, { maxExamples }),
  };
}

const round = (x: number, k: number): number => Math.round(x * 10 ** k) / 10 ** k;

/**
 * The figures on the first n dialogues, for n = 1..dialogues.length (index n - 1), rounded to 3
 * places: what the lab shows for the reference policies beside a run that played its first n users
 * (src/lab/build-reference.ts commits them). Distinct-2 and the hacking check's template rule are
 * not sums over dialogues, so each n is measured whole.
 */
export function fluencyByPrefix(
  dialogues: readonly PlayedDialogue[],
  profiles: readonly Profile[],
  lm: ReferenceLm,
): Record<'realWords' | 'hackingShare' | 'surprisal' | 'distinct2' | 'meanReplyWords', number[]> {
  const out = {
    realWords: [] as number[],
    hackingShare: [] as number[],
    surprisal: [] as number[],
    distinct2: [] as number[],
    meanReplyWords: [] as number[],
  };
  for (let n = 1; n <= dialogues.length; n++) {
    const f = fluencyOf(dialogues.slice(0, n), profiles, lm, { maxExamples: 0 });
    out.realWords.push(round(f.realWords, 3));
    out.hackingShare.push(round(f.hacking.share, 3));
    out.surprisal.push(round(f.surprisal, 3));
    out.distinct2.push(round(f.distinct2, 3));
    out.meanReplyWords.push(round(f.meanReplyWords, 3));
  }
  return out;
}

/**
 * The report as the commands print it in JSON (shares to 3 places, bits to 3; NaN prints as null),
 * with the corpus's own held-out surprisal beside the replies' (`surprisalCorpus`) when there is a model.
 */
export function fluencyJson(f: FluencyReport, lm: ReferenceLm | null) {
  return {
    realWords: round(f.realWords, 3),
    hacking: {
      share: round(f.hacking.share, 3),
      flagged: f.hacking.flagged,
      replies: f.hacking.replies,
      byKind: f.hacking.byKind,
    },
    surprisal: round(f.surprisal, 3),
    surprisalCorpus: lm ? round(lm.heldOut.surprisal, 3) : NaN,
    oov: round(f.oov, 4),
    distinct2: round(f.distinct2, 3),
    meanReplyWords: round(f.meanReplyWords, 1),
  };
}
