import { describe, expect, it } from 'vitest';
import { benchmarkProfiles, challengeProfiles } from '../../persona/sets';
import { checkForm, formOf, storedForm } from './profileForm';

describe('profile form', () => {
  it("keeps a challenge user's push-back through an edit", () => {
    const p = challengeProfiles().find((x) => x.challenge?.wrongdoing !== undefined);
    if (!p?.challenge) throw new Error('no challenge user with a wrongdoing');
    const r = checkForm(formOf(p), new Set());
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.profile.challenge).toEqual(p.challenge);
    expect({ ...r.profile, id: p.id, scenario: { ...r.profile.scenario, templateId: p.scenario.templateId } }).toEqual(
      p,
    );
  });

  it('gives an ordinary user no challenge block', () => {
    const r = checkForm(formOf(benchmarkProfiles()[0]), new Set());
    expect(r.ok && r.profile.challenge).toBe(undefined);
  });

  it('names the field of a bad behaviour and of a missing wrongdoing', () => {
    const f = formOf(benchmarkProfiles()[0]);
    const bad = checkForm({ ...f, 'challenge.behaviours': 'sulks' }, new Set());
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors['challenge.behaviours']).toMatch(/line 1/);
    const missing = checkForm({ ...f, 'challenge.behaviours': 'seeks-agreement' }, new Set());
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(Object.keys(missing.errors)).toContain('challenge.wrongdoing');
  });

  it('reads a stored form back whole, the two challenge fields included; junk is no form', () => {
    const f = { ...formOf(challengeProfiles()[0]), name: 'Half-typed <b>' };
    expect(storedForm(JSON.parse(JSON.stringify(f)))).toEqual(f);
    // A form stored before the challenge fields existed: they come back empty, nothing else lost.
    const { 'challenge.behaviours': _b, 'challenge.wrongdoing': _w, ...older } = f;
    expect(storedForm(older)).toEqual({ ...f, 'challenge.behaviours': '', 'challenge.wrongdoing': '' });
    expect(storedForm({ ...f, age: 36 })?.age).toBe('');
    for (const junk of [null, 'x', [], { other: 'y' }]) expect(storedForm(junk)).toBeNull();
  });
});
