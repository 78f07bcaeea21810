import { describe, expect, it } from 'vitest';
import { defaultRunConfig, fieldHelp, RunConfigSchema } from '../../rl/config';
import { BASIC_FIELDS, changedFields, checkDraft, draftOf, FIELDS, fieldByKey } from './fields';

describe('the configure form fields', () => {
  it('cover every config field but version and preset, each with its schema description as help', () => {
    const keys = Object.keys(RunConfigSchema.shape).filter((k) => k !== 'version' && k !== 'preset');
    expect(FIELDS.map((f) => f.key)).toEqual(keys);
    const help = fieldHelp();
    for (const f of FIELDS) {
      expect(f.help).toBe(help[f.key]);
      expect(f.label.length).toBeGreaterThan(0);
    }
    for (const k of BASIC_FIELDS) expect(keys).toContain(k);
    expect(fieldByKey('algo')).toMatchObject({ kind: 'choice', options: ['grpo', 'ppo', 'rloo'] });
    expect(fieldByKey('think')).toMatchObject({ kind: 'switch' });
    expect(fieldByKey('steps')).toMatchObject({ kind: 'number', min: 1, max: 100000, integer: true });
    expect(fieldByKey('lr')).toMatchObject({ kind: 'number', integer: false });
  });

  it('round-trips a config through the draft', () => {
    const c = { ...defaultRunConfig('ci'), seed: 7, lr: 0.002, think: true };
    expect(checkDraft(draftOf(c))).toEqual({ config: c, fieldErrors: {}, otherErrors: [] });
    expect(changedFields(c)).toEqual(['seed', 'think', 'lr']);
  });

  it('refuses bad values with the reason on the field', () => {
    const d = draftOf(defaultRunConfig('ci'));
    expect(checkDraft({ ...d, steps: 'ten' }).fieldErrors.steps).toBe(
      'Steps must be a whole number from 1 to 100,000.',
    );
    expect(checkDraft({ ...d, steps: '' }).config).toBeNull();
    const big = checkDraft({ ...d, steps: '0' });
    expect(big.config).toBeNull();
    expect(big.fieldErrors.steps).toBe('Steps must be a whole number from 1 to 100,000.');
    expect(checkDraft({ ...d, steps: '2.5' }).fieldErrors.steps).toBe(
      'Steps must be a whole number from 1 to 100,000.',
    );
    expect(checkDraft({ ...d, lr: '2' }).fieldErrors.lr).toBe('Learning rate must be a number from 0.000001 to 0.1.');
    const group = checkDraft({ ...d, groupSize: '1' });
    expect(group.fieldErrors.groupSize).toMatch(/groups of at least 2/);
    expect(checkDraft({ ...d, maxTurnTokens: '200' }).fieldErrors.maxTurnTokens).toMatch(/half the ci context/);
  });

  it('keeps every bad field marked, whatever else is bad: no raw schema words', () => {
    const d = draftOf(defaultRunConfig('ci'));
    // Steps −5, then Learning rate "abc": both stay marked (the Steps error used to vanish).
    const both = checkDraft({ ...d, steps: '-5', lr: 'abc' });
    expect(both.config).toBeNull();
    expect(both.fieldErrors).toEqual({
      steps: 'Steps must be a whole number from 1 to 100,000.',
      lr: 'Learning rate must be a number from 0.000001 to 0.1.',
    });
    // A cross-field check still runs beside a bad number.
    const mixed = checkDraft({ ...d, steps: 'x', groupSize: '1' });
    expect(Object.keys(mixed.fieldErrors).sort()).toEqual(['groupSize', 'steps']);
    for (const f of FIELDS) {
      if (f.kind !== 'number') continue;
      const why = checkDraft({ ...d, [f.key]: 'nope' }).fieldErrors[f.key]!;
      expect(why).toMatch(new RegExp(`^${f.label.replace(/[()]/g, '.')} must be (a|a whole) number`));
      expect(why).not.toMatch(/Invalid input|Too small|Too big|expected/);
    }
  });
});
