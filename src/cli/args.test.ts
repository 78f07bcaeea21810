import { describe, expect, it } from 'vitest';
import { parseFlags, usage, UsageError } from './args';

const SPEC = {
  steps: { type: 'number', help: 'how many' },
  out: { type: 'string', help: 'where' },
  json: { type: 'boolean', help: 'json' },
} as const;

describe('command-line flags', () => {
  it('parses typed values, = forms and booleans', () => {
    expect(parseFlags(['--steps', '5', '--out=x.bin', '--json'], SPEC)).toEqual({ steps: 5, out: 'x.bin', json: true });
  });
  it('refuses unknown flags, missing values, non-numbers and stray words with a reason', () => {
    expect(() => parseFlags(['--nope'], SPEC)).toThrow(new UsageError('unknown flag --nope'));
    expect(() => parseFlags(['--steps'], SPEC)).toThrow('--steps needs a value');
    expect(() => parseFlags(['--steps', 'ten'], SPEC)).toThrow('--steps must be a number, got "ten"');
    expect(() => parseFlags(['extra'], SPEC)).toThrow('unexpected argument "extra"');
  });
  it('lists every flag in the usage text', () => {
    const u = usage('cmd', SPEC);
    for (const k of Object.keys(SPEC)) expect(u).toContain(`--${k}`);
  });
});
