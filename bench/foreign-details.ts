/**
 * `npx tsx bench/foreign-details.ts --transcripts A.jsonl[,B.jsonl...] [--json]`: how many of a run's
 * benchmark replies (`experiment`'s transcripts, before and after training) name a detail or a
 * person of somebody else's story, as today's users read it (`foreignDetail`,
 * src/persona/detectors/foreign.ts), each reply read with the user's lines up to it. Works on
 * transcripts played by any version of the users: it reads what the policy wrote, not what the
 * users answered. Prints per file and phase the share and the details named most often, and beside
 * it the share that name one of the user's own details or people (a detail of their story without
 * its determiner, or a name, as whole words): what a policy that copies from the user's lines does.
 */
import { die } from '../src/cli/args';
import { inPhase, PHASES, readTranscripts, transcriptFlags } from './transcripts';
import { detectForeignDetail } from '../src/persona/detectors/foreign';
import { lexiconOf, readReply, readUserLine } from '../src/persona/detectors/index';
import { detailCore, wholeWords } from '../src/corpus/swap';
import type { Profile } from '../src/persona/profile';
import { benchmarkProfiles } from '../src/persona/sets';

const { files, json } = transcriptFlags('npx tsx bench/foreign-details.ts');

interface Row {
  phase?: string;
  profileId: string;
  opening: string;
  turns: { reply: string; line: string }[];
}

const profiles = new Map(benchmarkProfiles().map((p) => [p.id, p]));

/** Each user's own details (cores) and names, as one whole-word expression. */
const ownExpr = new Map<string, RegExp>();
function ownDetails(p: Profile): RegExp {
  let re = ownExpr.get(p.id);
  if (!re) {
    const items = [...p.scenario.details.map(detailCore), ...p.scenario.people.map((x) => x.name)].filter(Boolean);
    re = wholeWords(items, 'iu');
    ownExpr.set(p.id, re);
  }
  return re;
}
const out = [];
for (const file of files) {
  const rows = readTranscripts<Row>(file);
  for (const phase of PHASES) {
    let replies = 0;
    let foreign = 0;
    let own = 0;
    const named = new Map<string, number>();
    for (const r of inPhase(rows, phase)) {
      const profile = profiles.get(r.profileId);
      if (!profile) die(`${file}: ${r.profileId} is not a benchmark user`, 1);
      const userLines = [readUserLine(r.opening)];
      for (const t of r.turns) {
        replies++;
        const hit = detectForeignDetail({
          profile,
          lexicon: lexiconOf(profile),
          reply: readReply(t.reply),
          previousReplies: [],
          userLines,
        });
        if (ownDetails(profile).test(t.reply)) own++;
        if (hit.score > 0) {
          foreign++;
          for (const m of hit.reason.matchAll(/"([^"]+)"/g)) named.set(m[1], (named.get(m[1]) ?? 0) + 1);
        }
        userLines.push(readUserLine(t.line));
      }
    }
    if (replies === 0) continue;
    const top = [...named].sort((a, b) => b[1] - a[1]).slice(0, 5);
    const share = (n: number) => Math.round((1000 * n) / replies) / 1000;
    out.push({ file, phase, replies, foreign, share: share(foreign), own, ownShare: share(own), top });
  }
}
if (json) console.log(JSON.stringify(out));
else
  for (const o of out)
    console.log(
      `${o.file} ${o.phase}: ${o.foreign} of ${o.replies} replies (${(100 * o.share).toFixed(1)}%) name somebody else's detail, ${o.own} (${(100 * o.ownShare).toFixed(1)}%) one of the user's own; most foreign: ${o.top.map(([d, n]) => `${d} ${n}`).join(', ')}`,
    );
