/**
 * Tests of the profile generator: determinism, balance, train/benchmark template disjointness,
 * slot filling (no leftover placeholders, pronouns that agree with names and relations) and the
 * opening lines of benchmark users.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../engine/rng.ts';
import { DOMAINS, INTENTIONS, INTENTION_IDS, PERSONALITY_TYPES, type Profile } from './profile.ts';
import { balancedDeal, fillSlots, generateProfile, generateProfileSet, lowerHook, templatesFor } from './generator.ts';
import { TEMPLATES } from './blocks/index.ts';
import { FEMALE_NAMES, MALE_NAMES, NEUTRAL_NAMES } from './blocks/people.ts';
import { TRAIT_VOICE } from './blocks/voice.ts';
import { ALL_TRAITS } from './profile.ts';

const strings = (x: unknown): string[] =>
  typeof x === 'string'
    ? [x]
    : Array.isArray(x)
      ? x.flatMap(strings)
      : x !== null && typeof x === 'object'
        ? Object.values(x).flatMap(strings)
        : [];
const spread = (counts: number[]) => Math.max(...counts) - Math.min(...counts);
const countBy = (ps: Profile[], key: (p: Profile) => string) =>
  ps.reduce<Record<string, number>>((acc, p) => ((acc[key(p)] = (acc[key(p)] ?? 0) + 1), acc), {});

const train = generateProfileSet({ seed: 'test-train', count: 500, split: 'train' });
const bench = generateProfileSet({ seed: 'test-bench', count: 100, split: 'benchmark' });

describe('determinism', () => {
  it('the same seed gives an identical set, a different seed a different one', () => {
    expect(generateProfileSet({ seed: 'test-bench', count: 100, split: 'benchmark' })).toEqual(bench);
    const other = generateProfileSet({ seed: 'test-bench-2', count: 100, split: 'benchmark' });
    expect(other).not.toEqual(bench);
    expect(
      other.filter((p, i) => p.name === bench[i].name && p.scenario.templateId === bench[i].scenario.templateId).length,
    ).toBeLessThan(20);
  });

  it('generateProfile is a pure function of the rng state', () => {
    const a = generateProfile(new Rng(7), { id: 'x', split: 'train' });
    expect(generateProfile(new Rng(7), { id: 'x', split: 'train' })).toEqual(a);
    expect(generateProfile(new Rng(8), { id: 'x', split: 'train' })).not.toEqual(a);
  });
});

describe('balance', () => {
  it.each([
    ['train', train],
    ['benchmark', bench],
  ] as const)(
    '%s: intentions within one of each other, families exactly 50/50, types and domains within one',
    (_, set) => {
      const byIntention = countBy(set, (p) => p.intention);
      expect(Object.keys(byIntention).sort()).toEqual([...INTENTION_IDS].sort());
      expect(spread(Object.values(byIntention))).toBeLessThanOrEqual(1);
      const rational = set.filter((p) => INTENTIONS[p.intention].family === 'rational').length;
      expect(rational).toBe(set.length / 2);
      const byType = countBy(set, (p) => p.personality.type);
      expect(Object.keys(byType).sort()).toEqual([...PERSONALITY_TYPES].sort());
      expect(spread(Object.values(byType))).toBeLessThanOrEqual(1);
      const byDomain = countBy(set, (p) => p.scenario.domain);
      expect(Object.keys(byDomain).sort()).toEqual([...DOMAINS].sort());
      expect(spread(Object.values(byDomain))).toBeLessThanOrEqual(1);
    },
  );

  it('balancedDeal gives shares that differ by at most one and sum to the count', () => {
    const dealt = balancedDeal(new Rng(1), ['a', 'b', 'c'], 10);
    expect(dealt).toHaveLength(10);
    expect(spread(['a', 'b', 'c'].map((x) => dealt.filter((d) => d === x).length))).toBe(1);
  });

  it('every training template of a domain is used, evenly', () => {
    for (const d of DOMAINS) {
      const used = countBy(
        train.filter((p) => p.scenario.domain === d),
        (p) => p.scenario.templateId,
      );
      expect(Object.keys(used).sort()).toEqual(
        templatesFor('train', d)
          .map((t) => t.id)
          .sort(),
      );
      expect(spread(Object.values(used))).toBeLessThanOrEqual(1);
    }
  });
});

describe('templates', () => {
  it('ids are unique and every domain has >= 6 training and >= 2 benchmark templates', () => {
    expect(new Set(TEMPLATES.map((t) => t.id)).size).toBe(TEMPLATES.length);
    for (const d of DOMAINS) {
      expect(templatesFor('train', d).length, d).toBeGreaterThanOrEqual(6);
      expect(templatesFor('benchmark', d).length, d).toBeGreaterThanOrEqual(2);
    }
  });

  it('benchmark templates are disjoint from training ones by id and by event text', () => {
    const trainIds = new Set(templatesFor('train').map((t) => t.id));
    const trainEvents = new Set(templatesFor('train').map((t) => t.event));
    for (const t of templatesFor('benchmark')) {
      expect(trainIds.has(t.id), t.id).toBe(false);
      expect(trainEvents.has(t.event), t.id).toBe(false);
    }
    const trainSetEvents = new Set(train.map((p) => p.scenario.event));
    expect(bench.filter((p) => trainSetEvents.has(p.scenario.event))).toEqual([]);
    const trainTemplateIds = new Set(train.map((p) => p.scenario.templateId));
    expect(bench.filter((p) => trainTemplateIds.has(p.scenario.templateId))).toEqual([]);
  });

  it('literal gendered pronouns appear only where a role of that gender is fixed', () => {
    for (const t of TEMPLATES) {
      const text = strings([t.event, t.tried, t.problem, t.details, t.accomplishment, t.hooks])
        .join(' ')
        .replace(/\{[^}]*\}/g, ' ');
      const fixed = new Set(t.people.map((p) => p.gender));
      if (/\b(he|him|his)\b/i.test(text))
        expect(fixed.has('m'), `${t.id} says he/him/his without a fixed male role`).toBe(true);
      if (/\b(she|her|hers)\b/i.test(text))
        expect(fixed.has('f'), `${t.id} says she/her without a fixed female role`).toBe(true);
    }
  });

  it('every trait of every pool has voice fragments for every band', () => {
    for (const trait of ALL_TRAITS)
      for (const b of ['high', 'medium', 'low'] as const)
        expect(TRAIT_VOICE[trait]?.[b].phrases.length, `${trait} ${b}`).toBeGreaterThan(0);
  });
});

describe('slot filling', () => {
  const ctx = {
    name: 'Amara',
    roles: {
      boss: { name: 'Kenji', rel: 'manager', gender: 'm' as const },
      sis: { name: 'Leila', rel: 'sister', gender: 'f' as const },
    },
    vars: { thing: 'the spreadsheet' },
  };

  it('fills names, relations, pronouns (capitalised on request) and variables', () => {
    expect(
      fillSlots(
        '{boss.He} took {$thing}; my {sis.rel} {sis} said {sis.he} saw {boss.him} with {boss.his} laptop. {name} knew.',
        ctx,
      ),
    ).toBe('He took the spreadsheet; my sister Leila said she saw him with his laptop. Amara knew.');
    expect(fillSlots('{sis.His} car', ctx)).toBe('Her car');
  });

  it('throws on unknown roles, fields and variables instead of leaving a placeholder', () => {
    expect(() => fillSlots('{nobody}', ctx)).toThrow(/unknown role/);
    expect(() => fillSlots('{boss.hers}', ctx)).toThrow(/unknown field/);
    expect(() => fillSlots('{$missing}', ctx)).toThrow(/unknown variable/);
  });

  it('leaves no {placeholder} anywhere in any generated string', () => {
    const leftovers = [...train, ...bench].flatMap(strings).filter((s) => /[{}]/.test(s));
    expect(leftovers).toEqual([]);
  });

  it('names agree with pronouns and with gendered relations', () => {
    const female = new Set<string>(FEMALE_NAMES);
    const male = new Set<string>(MALE_NAMES);
    const FEMALE_REL = /\b(sister|mother|mum|wife|girlfriend|daughter|aunt|grandmother|niece)\b/;
    const MALE_REL = /\b(brother|father|dad|husband|boyfriend|son|uncle|grandfather|nephew)\b/;
    for (const p of [...train, ...bench]) {
      const pool = p.pronouns === 'she/her' ? female : p.pronouns === 'he/him' ? male : new Set<string>(NEUTRAL_NAMES);
      expect(pool.has(p.name), `${p.id} ${p.name} ${p.pronouns}`).toBe(true);
      for (const who of p.scenario.people) {
        if (FEMALE_REL.test(who.relation))
          expect(female.has(who.name), `${p.id}: ${who.name} is a ${who.relation}`).toBe(true);
        if (MALE_REL.test(who.relation))
          expect(male.has(who.name), `${p.id}: ${who.name} is a ${who.relation}`).toBe(true);
      }
      const names = [p.name, ...p.scenario.people.map((x) => x.name)];
      expect(new Set(names).size, `${p.id} reuses a name`).toBe(names.length);
    }
  });

  it('lowerHook lowers only words that read right in mid-sentence', () => {
    expect(lowerHook('My manager took it')).toBe('my manager took it');
    expect(lowerHook("I'm thirty-one")).toBe("I'm thirty-one");
    expect(lowerHook('Kenji said no')).toBe('Kenji said no');
    expect(lowerHook('Dad left the gas on')).toBe('Dad left the gas on');
    expect(lowerHook('"Never visited", she said')).toBe('"Never visited", she said');
    expect(lowerHook('Half a point short')).toBe('half a point short');
  });
});

describe('opening lines', () => {
  const GIVEAWAYS =
    /\b(advice|advise|praise|vent|venting|empath\w*|analy[sz]\w*|my fault|not my fault|reflect\w*|motives?)\b/i;

  it('only benchmark profiles carry one; it names a detail and never states the intention', () => {
    expect(train.every((p) => p.openingLine === undefined)).toBe(true);
    for (const p of bench) {
      const line = p.openingLine ?? '';
      expect(line.length, p.id).toBeGreaterThan(10);
      expect(GIVEAWAYS.test(line), `${p.id}: ${line}`).toBe(false);
      const words = (s: string) => s.toLowerCase().match(/[a-z0-9£$€'-]{4,}/g) ?? [];
      const lineWords = new Set(words(line));
      const echoed = p.scenario.details.some((d) => words(d).some((w) => lineWords.has(w)));
      expect(echoed, `${p.id}: "${line}" names none of ${JSON.stringify(p.scenario.details)}`).toBe(true);
    }
  });
});
