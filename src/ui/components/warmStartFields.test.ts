/**
 * The Warm start panel's fields: each preset's recipe is a value the panel accepts (it opens on
 * them), and bad values get their reason.
 */
import { describe, expect, it } from 'vitest';
import { WARM_START_DEFAULTS } from '../../experiment/warmstart';
import { checkWarmStartField } from './warmStartFields';

describe('the Warm start panel fields', () => {
  it.each(Object.keys(WARM_START_DEFAULTS) as (keyof typeof WARM_START_DEFAULTS)[])(
    "accept the %s preset's own steps and dialogues",
    (preset) => {
      const d = WARM_START_DEFAULTS[preset];
      expect(checkWarmStartField('steps', String(d.steps))).toBeNull();
      expect(checkWarmStartField('dialogues', String(d.dialogues))).toBeNull();
    },
  );

  it('refuse what is not a whole number in range, saying why', () => {
    expect(checkWarmStartField('steps', '0')).toBe('steps must be between 1 and 100000');
    expect(checkWarmStartField('steps', '2.5')).toBe('steps must be a whole number');
    expect(checkWarmStartField('dialogues', '')).toBe('dialogues must be a whole number');
    expect(checkWarmStartField('seed', '-1')).toBe('seed must be between 0 and 2147483647');
    expect(checkWarmStartField('seed', '7')).toBeNull();
  });
});
