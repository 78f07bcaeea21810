import { describe, expect, it } from 'vitest';
import { parseFlags, readCommandArgs, usage, UsageError } from './args';

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
  it("reads a command's arguments: flags, --help, a missing required flag or a mistake with the usage", () => {
    const spec = { ...SPEC, help: { type: 'boolean', help: 'this message' } } as const;
    const text = usage('cmd', spec);
    expect(readCommandArgs('cmd', spec, ['--out', 'x', '--steps=3'], ['out'])).toEqual({
      kind: 'flags',
      flags: { out: 'x', steps: 3 },
    });
    expect(readCommandArgs('cmd', spec, ['--help'], ['out'])).toEqual({ kind: 'help', text });
    expect(readCommandArgs('cmd', spec, ['--steps', '3'], ['out'])).toEqual({
      kind: 'error',
      message: `--out is required\n${text}`,
    });
    expect(readCommandArgs('cmd', spec, ['--nope'])).toEqual({
      kind: 'error',
      message: `unknown flag --nope\n${text}`,
    });
    expect(readCommandArgs('cmd', spec, ['--steps', 'ten'])).toEqual({
      kind: 'error',
      message: `--steps must be a number, got "ten"\n${text}`,
    });
    // Notes (what the output means) follow the flags in --help, not in a usage error.
    const noted = readCommandArgs('cmd', spec, ['--help'], [], 'score: the mean final emotion');
    expect(noted).toEqual({ kind: 'help', text: `${text}\n\nscore: the mean final emotion` });
    expect(readCommandArgs('cmd', spec, ['--nope'], [], 'score: ...')).toEqual({
      kind: 'error',
      message: `unknown flag --nope\n${text}`,
    });
    // Without a help flag in the spec, --help is an unknown flag like any other.
    expect(readCommandArgs('cmd', SPEC, ['--help'])).toMatchObject({ kind: 'error', message: /unknown flag --help/ });
  });
});
