/**
 * `npm run pretrain` as a person uses it (real spawns of the entry point): a corpus share outside
 * 0..1, a --fresh-replies or --names other than on/off, a --vocab outside 300..16384, a bad copy share or copy
 * window, a --from that is not a checkpoint, or --from with --first-phase, is refused with a message
 * naming the flag, before any corpus is built or file written; a --vocab in range sizes the tokenizer.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../engine/model/checkpoint';

const pretrain = (...args: string[]) =>
  spawnSync('npx', ['tsx', 'src/cli/pretrain.ts', ...args], { encoding: 'utf8', timeout: 120_000 });

describe('npm run pretrain: the corpus mix flags', () => {
  it.each([
    ['--need-share', '1.5'],
    ['--pair-share', '-0.2'],
  ])('refuses %s %s with exit 2 and writes nothing', (flag, value) => {
    const out = join(mkdtempSync(join(tmpdir(), 'pretrain-')), 'w.bin');
    const r = pretrain('--preset', 'ci', flag, value, '--out', out, '--steps', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${flag} must be between 0 and 1`);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    ['--copy-share', '2', '--copy-share must be between 0 and 0.9'],
    ['--copy-window', '8', '--copy-window must be a whole number of at least 16'],
  ])('refuses %s %s with exit 2 and writes nothing', (flag, value, message) => {
    const out = join(mkdtempSync(join(tmpdir(), 'pretrain-')), 'w.bin');
    const r = pretrain('--preset', 'ci', flag, value, '--out', out, '--steps', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses --from a file that is not a checkpoint, one of another preset or one that does not read the previous token asked for, with exit 2, and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pretrain-'));
    const bad = join(dir, 'not-a-checkpoint.bin');
    writeFileSync(bad, 'hello');
    const out = join(dir, 'w.bin');
    const r = pretrain('--preset', 'ci', '--from', bad, '--out', out, '--steps', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`--from ${bad}:`);
    expect(existsSync(out)).toBe(false);
    // A checkpoint of another preset's shape: the ci warm start under the default micro preset.
    const other = pretrain('--from', 'public/warmstart-ci.bin', '--out', out, '--steps', '1');
    expect(other.status).toBe(2);
    expect(other.stderr).toContain("its model is not of the micro preset's shape");
    expect(existsSync(out)).toBe(false);
    // --previous-token on a model that does not read it: the shipped ci warm start.
    const prev = pretrain('--preset', 'ci', '--from', 'public/warmstart-ci.bin', '--previous-token', '--out', out);
    expect(prev.status).toBe(2);
    expect(prev.stderr).toContain(
      '--from public/warmstart-ci.bin: its model does not read the previous token, and the options ask for one that does',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('refuses --first-phase with --from (a run from a checkpoint is one phase already), with exit 2, and writes nothing', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pretrain-')), 'w.bin');
    const r = pretrain('--from', 'public/warmstart-micro.bin', '--first-phase', '--out', out, '--steps', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--first-phase and --from');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses --fresh-replies other than on or off with exit 2 and writes nothing', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pretrain-')), 'w.bin');
    const r = pretrain('--preset', 'ci', '--fresh-replies', 'yes', '--out', out, '--steps', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--fresh-replies must be on or off, got "yes"');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses --names other than on or off with exit 2 and writes nothing', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pretrain-')), 'w.bin');
    const r = pretrain('--preset', 'ci', '--names', 'no', '--out', out, '--steps', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--names must be on or off, got "no"');
    expect(existsSync(out)).toBe(false);
  });

  it.each(['100', '20000', '1000.5'])('refuses --vocab %s with exit 2 and writes nothing', (value) => {
    const out = join(mkdtempSync(join(tmpdir(), 'pretrain-')), 'w.bin');
    const r = pretrain('--preset', 'ci', '--vocab', value, '--out', out, '--steps', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--vocab must be a whole number from 300 to 16384');
    expect(existsSync(out)).toBe(false);
  });

  it('trains the tokenizer to --vocab tokens', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pretrain-')), 'w.bin');
    const r = pretrain(
      '--preset',
      'ci',
      '--vocab',
      '400',
      '--dialogues',
      '60',
      '--steps',
      '1',
      '--backend',
      'cpu',
      '--out',
      out,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(loadCheckpoint(readFileSync(out)).config.vocabSize).toBe(400);
  });

  it('lists the flags in --help', () => {
    const r = pretrain('--help');
    expect(r.status).toBe(0);
    expect(r.stdout + r.stderr).toMatch(
      /--vocab[\s\S]*--pair-share[\s\S]*--need-share[\s\S]*--fresh-replies[\s\S]*--names/,
    );
  });
});
