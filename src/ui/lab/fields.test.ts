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
    expect(checkDraft({ ...d, steps: 'ten' }).fieldErrors.steps).toBe('must be a number');
    expect(checkDraft({ ...d, steps: '' }).config).toBeNull();
    const big = checkDraft({ ...d, steps: '0' });
    expect(big.config).toBeNull();
    expect(big.fieldErrors.steps).toMatch(/>=\s*1|at least|too small/i);
    const group = checkDraft({ ...d, groupSize: '1' });
    expect(group.fieldErrors.groupSize).toMatch(/groups of at least 2/);
    expect(checkDraft({ ...d, maxTurnTokens: '200' }).fieldErrors.maxTurnTokens).toMatch(/half the ci context/);
  });
});
