/**
 * Seeded profile generator: assembles believable simulated users from the hand-written building
 * blocks in ./blocks (scenario templates per life domain, name and life pools, voice fragments).
 *
 * It is: a pure function of an Rng (same seed, same profiles, in every JS engine), balanced by
 * construction (intentions, intention families, personality types and domains are dealt out in
 * equal shares, then shuffled), and strict about its own output (a slot left unfilled throws).
 * It is not: the turn engine (appraiser/actor), the validator (./validate.ts) or the fixed sets
 * (./sets.ts). No browser or Node APIs.
 */
import { Rng } from '../engine/rng.ts';
import {
  INTENTIONS,
  INTENTION_IDS,
  PERSONALITY_TYPES,
  PROFILE_SCHEMA_VERSION,
  TRAIT_POOLS,
  DOMAINS,
  type Domain,
  type IntentionId,
  type PersonalityType,
  type Profile,
} from './profile.ts';
import { TEMPLATES } from './blocks/index.ts';
import {
  FEMALE_NAMES,
  GENERAL_FACTS,
  MALE_NAMES,
  NEUTRAL_NAMES,
  THEY_SHARE,
  occupationPoolForAge,
} from './blocks/people.ts';
import { OPENING_FRAMES, TRAIT_VOICE, TYPE_VOICE } from './blocks/voice.ts';
import type { Band, Gender, ScenarioTemplate } from './blocks/types.ts';

export type Split = 'train' | 'benchmark';

export interface GenerateOptions {
  id: string;
  split: Split;
  /** Fix any of these to steer the draw; unset ones are drawn from rng. */
  domain?: Domain;
  intention?: IntentionId;
  type?: PersonalityType;
  templateId?: string;
}

export interface SetOptions {
  seed: number | string;
  count: number;
  split: Split;
}

/** Templates of one split (and optionally one domain), in file order. */
export function templatesFor(split: Split, domain?: Domain): ScenarioTemplate[] {
  return TEMPLATES.filter((t) => t.split === split && (domain === undefined || t.domain === domain));
}

/** A person in the story once drawn: name, relation noun and gender (for pronouns). */
interface Cast {
  name: string;
  rel: string;
  gender: Gender;
}

export interface SlotContext {
  name: string;
  roles: Record<string, Cast>;
  vars: Record<string, string>;
  detail?: string;
  rel?: string;
}

const PRONOUNS: Record<Gender, { he: string; him: string; his: string }> = {
  f: { he: 'she', him: 'her', his: 'her' },
  m: { he: 'he', him: 'him', his: 'his' },
};
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Fill every {slot} in text; throws on an unknown slot, so a template typo cannot ship. */
export function fillSlots(text: string, ctx: SlotContext): string {
  return text.replace(/\{([$\w.]+)\}/g, (whole, slot: string) => {
    if (slot === 'name') return ctx.name;
    if (slot === 'detail' && ctx.detail !== undefined) return ctx.detail;
    if (slot === 'rel' && ctx.rel !== undefined) return ctx.rel;
    if (slot.startsWith('$')) {
      const value = ctx.vars[slot.slice(1)];
      if (value === undefined) throw new Error(`fillSlots: unknown variable ${whole} in "${text}"`);
      return value;
    }
    const [key, field] = slot.split('.');
    const who = ctx.roles[key];
    if (who === undefined) throw new Error(`fillSlots: unknown role ${whole} in "${text}"`);
    if (field === undefined) return who.name;
    if (field === 'rel') return who.rel;
    const p = PRONOUNS[who.gender];
    const lower = field.toLowerCase() as keyof typeof p;
    if (!(lower in p)) throw new Error(`fillSlots: unknown field ${whole} in "${text}"`);
    return field === lower ? p[lower] : cap(p[lower]);
  });
}

const NAMES_BY_GENDER: Record<Gender, readonly string[]> = { f: FEMALE_NAMES, m: MALE_NAMES };

function pickName(rng: Rng, pool: readonly string[], taken: Set<string>): string {
  for (let tries = 0; tries < 50; tries++) {
    const n = rng.pick(pool);
    if (!taken.has(n)) {
      taken.add(n);
      return n;
    }
  }
  throw new Error('pickName: pool exhausted');
}

/** Short-reply traits pull the length taste down, talkative ones up. */
const SHORT_TRAITS = new Set(['taciturn', 'aloof', 'irritable', 'lazy', 'blunt', 'evasive', 'introverted', 'angry']);
const LONG_TRAITS = new Set(['anxious', 'patient', 'sensitive', 'insecure', 'erratic', 'optimistic']);

function lengthTaste(rng: Rng, traits: readonly string[], intention: IntentionId): Profile['lengthTaste'] {
  let score = 0;
  for (const t of traits) score += SHORT_TRAITS.has(t) ? -1 : LONG_TRAITS.has(t) ? 1 : 0;
  if (intention === 'critical-analysis' || intention === 'practical-advice' || intention === 'deep-empathy') score += 1;
  if (rng.next() < 0.2) return rng.pick(['short', 'medium', 'long'] as const); // people are not formulas
  return score <= -1 ? 'short' : score >= 2 ? 'long' : 'medium';
}

/** First words that must keep their capital when a hook follows "but ...": I, names, family titles. */
const KEEP_CAPITAL = new Set<string>([
  'I',
  "I'm",
  "I've",
  "I'd",
  "I'll",
  'Mum',
  'Dad',
  'Mom',
  'Gran',
  'Grandad',
  ...FEMALE_NAMES,
  ...MALE_NAMES,
  ...NEUTRAL_NAMES,
]);
export function lowerHook(hook: string): string {
  const first = hook.split(/[\s,]/)[0];
  return /^[A-Z][a-z]/.test(first) && !KEEP_CAPITAL.has(first) ? hook.charAt(0).toLowerCase() + hook.slice(1) : hook;
}

function buildVoice(
  rng: Rng,
  type: PersonalityType,
  traits: readonly string[],
  ctx: SlotContext,
  details: readonly string[],
): Profile['voice'] {
  const band = (b: Band) => {
    const base = TYPE_VOICE[type][b];
    const clauses = traits.map((t) => TRAIT_VOICE[t][b].desc);
    const description = `${base.desc} ${cap(clauses.join('; '))}.`;
    const local = { ...ctx, detail: rng.pick(details) };
    const phrases = [...rng.sample(base.phrases, 2), ...traits.flatMap((t) => TRAIT_VOICE[t][b].phrases)].map((p) =>
      fillSlots(p, local),
    );
    return { description, phrases: [...new Set(phrases)] };
  };
  return { high: band('high'), medium: band('medium'), low: band('low') };
}

/** One profile. Everything not fixed in opts is drawn from rng. */
export function generateProfile(rng: Rng, opts: GenerateOptions): Profile {
  const domain = opts.domain ?? rng.pick(DOMAINS);
  const pool = templatesFor(opts.split, domain);
  const template = opts.templateId !== undefined ? pool.find((t) => t.id === opts.templateId) : rng.pick(pool);
  if (template === undefined)
    throw new Error(`generateProfile: no ${opts.split} template "${opts.templateId}" in ${domain}`);
  const intention = opts.intention ?? rng.pick(INTENTION_IDS);
  const type = opts.type ?? rng.pick(PERSONALITY_TYPES);

  // Who the user is.
  const they = rng.next() < THEY_SHARE;
  const gender: Gender = rng.next() < 0.5 ? 'f' : 'm';
  const taken = new Set<string>();
  const name = pickName(rng, they ? NEUTRAL_NAMES : NAMES_BY_GENDER[gender], taken);
  const pronouns: Profile['pronouns'] = they ? 'they/them' : gender === 'f' ? 'she/her' : 'he/him';
  const age = rng.int(template.ages[0], template.ages[1]);
  const occupation = rng.pick(template.occupations ?? occupationPoolForAge(age));

  // Who else is in the story, and the story's variables.
  const roles: Record<string, Cast> = {};
  for (const spec of template.people) {
    const g: Gender = spec.gender ?? (rng.next() < 0.5 ? 'f' : 'm');
    const rel = typeof spec.relation === 'string' ? spec.relation : spec.relation[g];
    roles[spec.key] = { name: pickName(rng, NAMES_BY_GENDER[g], taken), rel, gender: g };
  }
  const vars: Record<string, string> = {};
  for (const [k, options] of Object.entries(template.vars ?? {})) vars[k] = rng.pick(options);
  const first = roles[template.people[0]?.key ?? ''];
  const ctx: SlotContext = { name, roles, vars, rel: first?.rel };
  const fill = (s: string) => fillSlots(s, ctx);

  const details = template.details.map(fill);
  const facts = [...(template.facts ?? []).map(fill), ...rng.sample(GENERAL_FACTS, 2).map(fill)];
  const traits = rng.sample(TRAIT_POOLS[type], 3);

  const profile: Profile = {
    schemaVersion: PROFILE_SCHEMA_VERSION,
    id: opts.id,
    name,
    age,
    pronouns,
    occupation,
    facts,
    personality: { type, traits },
    scenario: {
      domain,
      templateId: template.id,
      event: fill(template.event),
      people: template.people.map((s) => ({ name: roles[s.key].name, relation: roles[s.key].rel })),
      tried: template.tried.map(fill),
      problem: fill(template.problem),
      details,
      feelings: [...template.feelings],
      accomplishment: fill(template.accomplishment),
    },
    intention,
    voice: buildVoice(rng, type, traits, ctx, details),
    lengthTaste: lengthTaste(rng, traits, intention),
  };
  if (opts.split === 'benchmark') {
    const hook = fill(rng.pick(template.hooks));
    profile.openingLine = rng.pick(OPENING_FRAMES[type]).replace('{hook_lc}', lowerHook(hook)).replace('{hook}', hook);
  }
  const leftover = JSON.stringify(profile).match(/\{[$\w.]*\}/);
  if (leftover) throw new Error(`generateProfile: unfilled slot ${leftover[0]} in template ${template.id}`);
  return profile;
}

/** count items from `items` in shares that differ by at most one; which items get the extra is drawn. */
export function balancedDeal<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const base = Math.floor(count / items.length);
  const extra = new Set(
    rng.sample(
      items.map((_, i) => i),
      count - base * items.length,
    ),
  );
  return items.flatMap((item, i) => Array<T>(base + (extra.has(i) ? 1 : 0)).fill(item));
}

/** Intentions dealt so the families split 50/50 (to one) and intentions within a family to one. */
function dealIntentions(rng: Rng, count: number): IntentionId[] {
  const [nRational, nEmotional] = balancedDeal(rng, [0, 1], count).reduce((acc, f) => (acc[f]++, acc), [0, 0]);
  const fam = (f: 'rational' | 'emotional') => INTENTION_IDS.filter((id) => INTENTIONS[id].family === f);
  return [...balancedDeal(rng, fam('rational'), nRational), ...balancedDeal(rng, fam('emotional'), nEmotional)];
}

/** A balanced, shuffled set of `count` profiles with ids `train-0001` / `bench-001`. */
export function generateProfileSet({ seed, count, split }: SetOptions): Profile[] {
  const rng = new Rng(seed);
  const intentions = rng.shuffle(dealIntentions(rng, count));
  const types = rng.shuffle(balancedDeal(rng, PERSONALITY_TYPES, count));
  const domains = rng.shuffle(balancedDeal(rng, DOMAINS, count));
  // Within a domain, cycle through its templates in a shuffled order so each is used evenly.
  const cursor = new Map<Domain, { order: ScenarioTemplate[]; next: number }>();
  for (const d of DOMAINS) cursor.set(d, { order: rng.shuffle(templatesFor(split, d)), next: 0 });
  const prefix = split === 'train' ? 'train' : 'bench';
  const width = split === 'train' ? 4 : 3;
  return domains.map((domain, i) => {
    const c = cursor.get(domain)!;
    if (c.order.length === 0) throw new Error(`generateProfileSet: no ${split} templates for ${domain}`);
    const template = c.order[c.next++ % c.order.length];
    return generateProfile(rng.fork(i), {
      id: `${prefix}-${String(i + 1).padStart(width, '0')}`,
      split,
      domain,
      intention: intentions[i],
      type: types[i],
      templateId: template.id,
    });
  });
}
