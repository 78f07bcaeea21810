/**
 * `npx tsx bench/need-reach.ts [--checkpoint F] [--replies G] [--per N] [--seed S] [--json]
 * [--backend B] [--threads T]`: what RL can find. GRPO can only raise a reply the policy already
 * samples now and then, so this measures, for each hidden intention, how often the policy's own
 * replies meet the user's need: N benchmark users of each intention (the first N of the 100), each
 * played as a benchmark dialogue (moderate, users seeded 0, temperature 0.7 / top-p 0.9) in which,
 * at every turn, the policy writes G replies to the same history, each read by a copy of the user
 * (rollout's `siblings`; the dialogue goes on with the first). Per intention it prints the share of
 * replies that meet the need (the appraisal's `needMet`), the share the user rewards at all (a
 * positive change), and the share of histories where at least one of the G replies meets the need:
 * the chance that a GRPO group of G replies holds the one its advantage should raise. The share is
 * split by the line the policy answers: one that carries a cue to the need (the user's `cue`) or
 * another; a policy that reads the cue meets the need more often after it. Nothing here is a test.
 */
import { commandFlags, die, readCheckpointFile } from '../src/cli/args';
import { BACKEND_FLAGS, chooseBackend } from '../src/cli/backend';
import { Tokenizer } from '../src/engine/model/tokenizer';
import { Transformer } from '../src/engine/model/transformer';
import { Rng } from '../src/engine/rng';
import type { Profile } from '../src/persona/profile';
import { benchmarkProfiles } from '../src/persona/sets';
import { BENCHMARK_SAMPLING, rollout, type DialogueRollout } from '../src/rl/rollout';

const f = commandFlags('npx tsx bench/need-reach.ts', {
  checkpoint: { type: 'string', help: 'checkpoint file (default public/warmstart-micro.bin)' },
  replies: { type: 'number', help: 'replies the policy writes to each history (default 8)' },
  per: { type: 'number', help: 'benchmark users of each hidden intention, the first ones (default 3)' },
  seed: { type: 'number', help: 'sampling seed (default 0)' },
  ...BACKEND_FLAGS,
  json: { type: 'boolean', help: 'print the figures as JSON' },
  help: { type: 'boolean', help: 'this message' },
});
const whole = (name: 'replies' | 'per', fallback: number): number => {
  const v = f[name] ?? fallback;
  if (!(Number.isInteger(v) && v >= 1)) die(`--${name} must be a whole number ≥ 1, got ${v}`, 2);
  return v;
};
const checkpoint = f.checkpoint ?? 'public/warmstart-micro.bin';
const G = whole('replies', 8);
const per = whole('per', 3);
const seed = f.seed ?? 0;

const ck = readCheckpointFile(checkpoint);
const chosen = await chooseBackend(f);
console.error(chosen.line);
const tok = Tokenizer.fromJSON(ck.tokenizer);
const model = new Transformer(chosen.be, ck.config, ck.weights, { frozen: true });
const byIntention = new Map<string, Profile[]>();
for (const p of benchmarkProfiles()) {
  const list = byIntention.get(p.intention) ?? [];
  if (list.length < per) list.push(p);
  byIntention.set(p.intention, list);
}
const profiles = [...byIntention.values()].flat();
const t0 = performance.now();
// About 64 rows a batch (G per user): a prompt read into the cache makes logits at every position.
const CHUNK = Math.max(1, Math.floor(64 / G));
const rows: DialogueRollout[] = [];
for (let at = 0; at < profiles.length; at += CHUNK) {
  const part = await rollout(
    model,
    tok,
    profiles.slice(at, at + CHUNK),
    {
      mode: 'benchmark',
      difficulty: 'moderate',
      userSeed: 0,
      think: false,
      sampling: BENCHMARK_SAMPLING,
      maxTurnTokens: 64,
      siblings: G,
    },
    new Rng(`${seed}:${at}`),
  );
  rows.push(...part);
}
chosen.close();

/**
 * Per intention: users, replies, replies that met the need or were rewarded, histories, histories
 * with a reply that met it, and the replies to a line with a cue (and how many of them met it).
 */
const FIELDS = ['users', 'replies', 'met', 'rewarded', 'histories', 'reached', 'cued', 'cuedMet'] as const;
type Reach = Record<(typeof FIELDS)[number], number>;
const none = (): Reach => Object.fromEntries(FIELDS.map((k) => [k, 0])) as Reach;
const table = new Map<string, Reach>();
profiles.forEach((p, i) => {
  const r = table.get(p.intention) ?? none();
  r.users++;
  const turns = rows[i * G].turns;
  for (let t = 0; t < turns.length; t++) {
    const results = Array.from({ length: G }, (_, j) => rows[i * G + j].turns[t].result);
    const met = results.filter((x) => x.appraisal.needMet).length;
    r.histories++;
    r.replies += G;
    r.met += met;
    // The line the policy answers is the first row's previous reaction (the dialogue goes on with it).
    if (t > 0 && turns[t - 1].result.cue) {
      r.cued += G;
      r.cuedMet += met;
    }
    r.rewarded += results.filter((x) => x.change > 0).length;
    if (met > 0) r.reached++;
  }
  table.set(p.intention, r);
});
const total = none();
for (const r of table.values()) for (const k of FIELDS) total[k] += r[k];
const pct = (a: number, b: number) => Math.round((1000 * a) / Math.max(1, b)) / 10;
const line = (r: Reach) => ({
  users: r.users,
  replies: r.replies,
  needMet: pct(r.met, r.replies),
  rewarded: pct(r.rewarded, r.replies),
  reached: pct(r.reached, r.histories),
  histories: r.histories,
  afterCue: pct(r.cuedMet, r.cued),
  afterOther: pct(r.met - r.cuedMet, r.replies - r.cued),
});
const out = {
  checkpoint,
  repliesPerHistory: G,
  seconds: Math.round((performance.now() - t0) / 1000),
  intentions: Object.fromEntries([...table].map(([k, r]) => [k, line(r)])),
  all: line(total),
};
if (f.json) console.log(JSON.stringify(out, null, 1));
else {
  console.log(`${checkpoint}: ${G} replies to each history, ${per} users per intention, ${out.seconds} s`);
  console.log(
    `| hidden intention | replies | meet the need | after a line with a cue | after other lines | rewarded | histories with a reply that meets it |`,
  );
  console.log(`|---|---:|---:|---:|---:|---:|---:|`);
  for (const [k, r] of [...table, ['all', total] as const]) {
    const l = line(r);
    console.log(
      `| ${k} | ${l.replies} | ${l.needMet}% | ${l.afterCue}% | ${l.afterOther}% | ${l.rewarded}% | ${l.reached}% of ${l.histories} |`,
    );
  }
}
