/**
 * Tests of profile validation: good profiles pass; each kind of bad profile gets exactly one
 * error per bad field, named by its path; JSON syntax errors say where they are.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../engine/rng.ts';
import type { Profile } from './profile.ts';
import { generateProfile } from './generator.ts';
import { formatPath, parseProfile, parseProfiles, parseProfilesJson, profileJsonSchema } from './validate.ts';

const good = (): Profile => generateProfile(new Rng(42), { id: 'hand-01', split: 'benchmark', type: 'avoidant' });
/** A mutable plain-JSON copy, as if read from a file. */
const raw = (
  p: Profile = good(),
): Record<string, unknown> & { personality: { traits: string[] }; scenario: Record<string, unknown> } =>
  JSON.parse(JSON.stringify(p));

describe('parseProfile', () => {
  it('accepts a generated profile and returns it unchanged', () => {
    const r = parseProfile(raw());
    expect(r).toEqual({ ok: true, profile: good() });
  });

  it('missing enum and literal fields say "missing", never "undefined"', () => {
    const p = raw();
    delete p.schemaVersion;
    delete p.intention;
    const r = parseProfile(p);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors).toEqual([
        'profile.schemaVersion: missing (expected 1)',
        expect.stringMatching(/^profile\.intention: missing \(expected one of "critical-analysis", /),
      ]);
      expect(r.errors.join('\n')).not.toContain('undefined');
    }
  });

  it('a trait from the wrong pool: one error at the trait path', () => {
    const p = raw();
    p.personality.traits[0] = 'angry';
    const r = parseProfile(p);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toEqual(['profile.personality.traits[0]: "angry" is not in the avoidant pool']);
  });

  it('an unknown trait word: one error naming the value', () => {
    const p = raw();
    p.personality.traits[2] = 'grumpy';
    const r = parseProfile(p);
    expect(r.ok ? [] : r.errors).toEqual(['profile.personality.traits[2]: "grumpy" is not an allowed value']);
  });

  it('a missing field and an empty string: one error each, by path', () => {
    const p = raw();
    delete p.occupation;
    p.scenario.problem = '   ';
    const r = parseProfile(p);
    expect(r.ok ? [] : r.errors.sort()).toEqual([
      'profile.occupation: missing (expected string)',
      'profile.scenario.problem: must not be empty',
    ]);
  });

  it('extra unknown fields: one error per field, nested ones too', () => {
    const p = raw();
    p.mood = 'grumpy';
    p.scenario.backstory = 'x';
    const r = parseProfile(p);
    expect(r.ok ? [] : r.errors.sort()).toEqual([
      'profile.mood: unknown field (not in the profile schema)',
      'profile.scenario.backstory: unknown field (not in the profile schema)',
    ]);
  });

  it('a bad id, a wrong version and a wrong enum value', () => {
    const p = raw();
    p.id = 'Bad Id!';
    p.schemaVersion = 2;
    p.lengthTaste = 'huge';
    const r = parseProfile(p, 'profiles[3]');
    expect(r.ok ? [] : r.errors.sort()).toEqual([
      'profiles[3].id: "Bad Id!" is not valid (lower-case letters, digits, - and _, at most 64 characters)',
      'profiles[3].lengthTaste: "huge" is not an allowed value: one of "short", "medium", "long"',
      'profiles[3].schemaVersion: expected 1, got number 2',
    ]);
  });

  it('a non-object', () => {
    expect(parseProfile([1, 2])).toEqual({ ok: false, errors: ['profile: expected an object, got an array'] });
    expect(parseProfile('hello')).toEqual({ ok: false, errors: ['profile: expected an object, got "hello"'] });
    expect(parseProfile(null)).toEqual({ ok: false, errors: ['profile: expected an object, got null'] });
  });

  it('a wrong type and too few details', () => {
    const p = raw();
    p.age = '34';
    p.scenario.details = ['only one'];
    const r = parseProfile(p);
    expect(r.ok ? [] : r.errors.map((e) => e.split(':')[0]).sort()).toEqual([
      'profile.age',
      'profile.scenario.details',
    ]);
  });
});

describe('parseProfiles', () => {
  it('accepts a single profile or an array', () => {
    const one = parseProfiles(raw());
    expect(one.ok && one.profiles.length).toBe(1);
    const two = parseProfiles([raw(), { ...raw(), id: 'hand-02' }]);
    expect(two.ok && two.profiles.map((p) => p.id)).toEqual(['hand-01', 'hand-02']);
  });

  it('reports duplicate ids and every bad profile, each with its index', () => {
    const bad = raw();
    bad.personality.traits[1] = 'vain';
    const r = parseProfiles([raw(), { ...raw(), id: 'hand-02' }, raw(), bad]);
    expect(r.ok ? [] : r.errors).toEqual([
      'profiles[2].id: duplicate id "hand-01" (also used by profiles[0])',
      'profiles[3].personality.traits[1]: "vain" is not in the avoidant pool',
      'profiles[3].id: duplicate id "hand-01" (also used by profiles[0])',
    ]);
  });

  it('rejects an empty array', () => {
    expect(parseProfiles([]).ok).toBe(false);
  });
});

describe('parseProfilesJson', () => {
  it('reports a syntax error with line and column', () => {
    const r = parseProfilesJson('[\n  {"id": "a",}\n]');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatch(/^JSON syntax error at line 2, column \d+/);
  });

  it('validates parsed text like parseProfiles', () => {
    expect(parseProfilesJson(JSON.stringify([raw()])).ok).toBe(true);
  });
});

describe('profileJsonSchema', () => {
  it('describes every top-level field, forbids extra ones and requires the mandatory ones', () => {
    const s = profileJsonSchema() as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    // `challenge` is the one optional field the benchmark-style fixture does not carry.
    expect(Object.keys(s.properties).sort()).toEqual([...Object.keys(good()), 'challenge'].sort());
    expect(s.additionalProperties).toBe(false);
    expect(s.required).not.toContain('openingLine');
    expect(s.required).not.toContain('challenge');
    expect(s.required).toContain('intention');
  });

  it('formatPath writes indices in brackets', () => {
    expect(formatPath('profiles[1]', ['scenario', 'people', 0, 'name'])).toBe('profiles[1].scenario.people[0].name');
  });
});
