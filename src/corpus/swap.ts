/**
 * Story details swapped between dialogues, so that a model trained on the corpus has to copy a
 * detail from the user's lines instead of recalling it from the story it belongs to.
 *
 * Each training profile tells one story, and every dialogue with it names the same details ("the
 * night shift", "Ravi"). A model trained on the plain corpus can lower its loss by learning which
 * details go with which story, and it does: on the benchmark users, whose stories it never saw, the
 * shipped warm starts name other stories' details (the users' `foreignDetail`), and almost never
 * the user's own. In a swapped dialogue every one of the profile's details and people's names is
 * replaced, in every line (user, agent, plan), by a detail or a name of another training story, the
 * same replacement throughout the dialogue; the only way to predict the detail an agent's reply
 * names is then to read it in the user's lines. The benchmark's stories are never drawn from.
 *
 * Pure TypeScript and seeded: the same dialogue, profile and generator state give the same text.
 */
import { Rng } from '../engine/rng.ts';
import type { Turn } from '../engine/model/format.ts';
import { FEMALE_NAMES, MALE_NAMES, NEUTRAL_NAMES } from '../persona/blocks/people.ts';
import { escapeRegExp } from '../persona/detectors/text.ts';
import type { Profile } from '../persona/profile.ts';
import { trainingProfiles } from '../persona/sets.ts';
import type { Corpus, CorpusDialogue } from './build.ts';

/** A determiner or possessive in front of a detail: the detail's core is what follows it. */
const DETERMINER = /^(?:the|my|our|a|an|his|her|their|your)\s+/i;

/** What a swap may draw from: detail cores (no determiner) and given names, each list distinct. */
export interface SwapPool {
  details: string[];
  /** Given names by the pool they come from, so a swapped name keeps its pronouns' gender. */
  names: { female: string[]; male: string[]; neutral: string[] };
}

/** A detail's core: the text after a leading determiner, trimmed; '' when nothing is left. */
export function detailCore(detail: string): string {
  return detail.replace(DETERMINER, '').trim();
}

/**
 * Whether a detail's core is swapped: several words ("night shift"), or one word that is a name or
 * an amount ("Lisbon", "£450"). A single lowercase word ("seven", "fine", "cake") is left alone:
 * replaced everywhere it would rewrite the dialogue's ordinary words ("I'm fine") as well.
 */
function swappable(core: string): boolean {
  if (core.length < 3 || /["“”]/.test(core)) return false;
  return /\s/.test(core) || /^[\p{Lu}$£€]/u.test(core);
}

/** The swappable cores of every detail of the given (training) profiles, sorted, each once. */
export function swapPool(profiles: readonly Profile[]): SwapPool {
  const details = new Set<string>();
  for (const p of profiles)
    for (const d of p.scenario.details) {
      const core = detailCore(d);
      if (swappable(core)) details.add(core);
    }
  return {
    details: [...details].sort(),
    names: { female: [...FEMALE_NAMES], male: [...MALE_NAMES], neutral: [...NEUTRAL_NAMES] },
  };
}

function nameList(pool: SwapPool, name: string): string[] {
  if ((FEMALE_NAMES as readonly string[]).includes(name)) return pool.names.female;
  if ((MALE_NAMES as readonly string[]).includes(name)) return pool.names.male;
  return pool.names.neutral;
}

/** One expression matching any of the phrases as whole words (no letter or digit either side). */
export function wholeWords(phrases: readonly string[], flags: string): RegExp {
  const alt = phrases.map(escapeRegExp).join('|');
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alt})(?![\\p{L}\\p{N}])`, flags);
}

/**
 * The replacements for one profile: each detail core and each person's name to a different one of
 * the pool's, none of them one of this profile's own, no two alike. Longest first, so "the night
 * shift manager" is read before "the night shift".
 */
export function swapPlan(profile: Profile, pool: SwapPool, rng: Rng): [string, string][] {
  const own = new Set<string>();
  const sources: { from: string; list: string[] }[] = [];
  for (const d of profile.scenario.details) {
    const core = detailCore(d);
    own.add(core.toLowerCase());
    if (!swappable(core)) continue;
    sources.push({ from: core, list: pool.details });
  }
  for (const person of profile.scenario.people) {
    own.add(person.name.toLowerCase());
    sources.push({ from: person.name, list: nameList(pool, person.name) });
  }
  const used = new Set(own);
  const plan: [string, string][] = [];
  const seen = new Set<string>();
  for (const { from, list } of sources) {
    if (seen.has(from.toLowerCase())) continue;
    seen.add(from.toLowerCase());
    const free = list.filter((x) => !used.has(x.toLowerCase()));
    if (free.length === 0) continue;
    const to = free[Math.floor(rng.next() * free.length)];
    used.add(to.toLowerCase());
    plan.push([from, to]);
  }
  return plan.sort((a, b) => b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1));
}

/** Apply a plan to one text: whole words, any case, in one pass (a replacement is never read again). */
export function applySwap(text: string, plan: readonly [string, string][]): string {
  if (plan.length === 0) return text;
  const to = new Map(plan.map(([a, b]) => [a.toLowerCase(), b]));
  return text.replace(
    wholeWords(
      plan.map(([a]) => a),
      'giu',
    ),
    (m) => {
      const r = to.get(m.toLowerCase()) ?? m;
      // Keep a capital where the text had one (a sentence that opens on the detail).
      return m[0] !== m[0].toLowerCase() && r[0] === r[0].toLowerCase() ? r[0].toUpperCase() + r.slice(1) : r;
    },
  );
}

/** The dialogue with the plan applied to every line and plan; the other fields as they were. */
function swapDialogue(d: CorpusDialogue, plan: readonly [string, string][]): CorpusDialogue {
  const turns: Turn[] = d.turns.map((t) => ({
    ...t,
    text: applySwap(t.text, plan),
    ...(t.think !== undefined ? { think: applySwap(t.think, plan) } : {}),
  }));
  return { ...d, turns };
}

/**
 * The corpus with `share` of its training dialogues swapped (each drawn, and each swap planned,
 * by a generator of the seed and the dialogue's index, so the result does not depend on anything
 * else); the corpus itself when the share is 0.
 */
export function swapCorpus(corpus: Corpus, seed: number, share: number): Corpus {
  if (!(share >= 0 && share <= 1)) throw new Error(`swapShare must be between 0 and 1, got ${share}`);
  if (share === 0) return corpus;
  const profiles = trainingProfiles();
  const byId = new Map(profiles.map((p) => [p.id, p]));
  const pool = swapPool(profiles);
  const train = corpus.train.map((d, i) => {
    const profile = byId.get(d.profileId);
    if (!profile) throw new Error(`swapCorpus: ${d.profileId} is not a training profile`);
    const plan = dialoguePlan(profile, pool, seed, i, share);
    return plan ? swapDialogue(d, plan) : d;
  });
  return { train, heldOut: corpus.heldOut };
}

/**
 * The plan swapCorpus applies to training dialogue `index` of `profile`, or null when that
 * dialogue is not among the `share` swapped: drawn by a generator of the seed and the index alone.
 */
export function dialoguePlan(
  profile: Profile,
  pool: SwapPool,
  seed: number,
  index: number,
  share: number,
): [string, string][] | null {
  const rng = new Rng(`swap|${seed >>> 0}|${index}`);
  return rng.next() < share ? swapPlan(profile, pool, rng) : null;
}
