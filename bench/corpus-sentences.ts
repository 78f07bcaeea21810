/**
 * `npx tsx bench/corpus-sentences.ts --transcripts A.jsonl[,B.jsonl...] [--json]`: how many of a
 * run's benchmark replies (`experiment`'s transcripts, before and after training) are made only of
 * sentences the corpus's agent says word for word: the default corpus (`buildCorpus({ seed: 1 })`,
 * the one the reference model is built from), both splits, its non-think dialogues. A model that
 * cannot copy says its corpus's sentences or sentences of its own; past the warm start, most of its
 * own are corpus sentences run together in real words ("Looking back, anyone would feel stuck."),
 * which the users' non-word check and the hacking check pass. The share is printed for all replies,
 * for replies 6 to 10 of their dialogue, and for the replies the user rewarded (a positive change):
 * what the users paid for. A sentence of the policy's own is not always garble (a corpus sentence
 * with another user's detail in its slot is one of its own too), so read the replies beside it.
 * Nothing here is a test.
 */
import { buildCorpus, CORPUS_DEFAULTS } from '../src/corpus/build';
import { readReply } from '../src/persona/detectors/index';
import { inPhase, PHASES, readTranscripts, transcriptFlags } from './transcripts';

const { files, json } = transcriptFlags('npx tsx bench/corpus-sentences.ts');

/** A reply's sentences as the users read them (`readReply`: normalised, split at . ! ? and newlines), lower case. */
const sentencesOf = (reply: string): string[] => readReply(reply).sentences.map((s) => s.toLowerCase());

const corpus = buildCorpus({ seed: CORPUS_DEFAULTS.seed });
const known = new Set<string>();
for (const d of [...corpus.train, ...corpus.heldOut])
  if (!d.think) for (const t of d.turns) if (t.role === 'agent') for (const s of sentencesOf(t.text)) known.add(s);

interface Row {
  phase?: string;
  turns: { reply: string; change: number }[];
}

const ofCorpus = (reply: string): boolean => {
  const s = sentencesOf(reply);
  return s.length > 0 && s.every((x) => known.has(x));
};
const pct = (n: number, of: number): string => (of ? `${((100 * n) / of).toFixed(1)}%` : '-');
const out = [];
for (const file of files) {
  const rows = readTranscripts<Row>(file);
  for (const phase of PHASES) {
    const c = { replies: 0, corpus: 0, late: 0, lateCorpus: 0, rewarded: 0, rewardedCorpus: 0 };
    const own = new Map<string, number>();
    for (const r of inPhase(rows, phase)) {
      r.turns.forEach((t, i) => {
        const k = ofCorpus(t.reply);
        c.replies++;
        if (k) c.corpus++;
        else own.set(t.reply, (own.get(t.reply) ?? 0) + 1);
        if (i >= 5) {
          c.late++;
          if (k) c.lateCorpus++;
        }
        if (t.change > 0) {
          c.rewarded++;
          if (k) c.rewardedCorpus++;
        }
      });
    }
    if (!c.replies) continue;
    const top = [...own].sort((a, b) => b[1] - a[1]).slice(0, 3);
    out.push({ file, phase, ...c, ownMostSaid: top.map(([reply, n]) => ({ reply, n })) });
    if (!json)
      console.log(
        `${file} ${phase}: ${pct(c.corpus, c.replies)} of ${c.replies} replies are corpus sentences only; ` +
          `replies 6-10: ${pct(c.lateCorpus, c.late)}; rewarded: ${pct(c.rewardedCorpus, c.rewarded)} of ${c.rewarded}; ` +
          `most said of its own: ${top.map(([r, n]) => `"${r}" ${n}`).join(', ')}`,
      );
  }
}
if (json) console.log(JSON.stringify({ corpusSentences: known.size, files: out }, null, 2));
