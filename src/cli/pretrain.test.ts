/**
 * `npm run pretrain` as a person uses it (real spawns of the entry point): a corpus share outside
 * 0..1, or a --fresh-replies other than on/off, is refused with a message naming the flag, before any corpus is built or file written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

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

  it('refuses --fresh-replies other than on or off with exit 2 and writes nothing', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pretrain-')), 'w.bin');
    const r = pretrain('--preset', 'ci', '--fresh-replies', 'yes', '--out', out, '--steps', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--fresh-replies must be on or off, got "yes"');
    expect(existsSync(out)).toBe(false);
  });

  it('lists the flags in --help', () => {
    const r = pretrain('--help');
    expect(r.status).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/--pair-share[\s\S]*--need-share[\s\S]*--fresh-replies/);
  });
});
