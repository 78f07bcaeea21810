/**
 * The CLI as a person uses it: JSON outputs have the promised keys, replies from a file play
 * without a prompt, bad profile files name their bad fields, unknown commands and flags exit 2.
 */
import { spawnSync } from 'node:child_process';
import { runCli } from './cli.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_BENCHMARK_PROFILES } from './fixtures.ts';

/** In process (a spawn costs seconds); one real spawn below checks the entry point and exit code. */
async function cli(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await runCli(args, { out: (s) => (stdout += s + '\n'), err: (s) => (stderr += s + '\n') });
  return { status, stdout, stderr };
}

describe('personas CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'personas-'));
  const profiles = join(dir, 'profiles.json');
  writeFileSync(profiles, JSON.stringify(FIXTURE_BENCHMARK_PROFILES.slice(0, 3)));

  it('benchmark --json prints the summary', async () => {
    const r = await cli('benchmark', '--policy', 'reflective', '--profiles', profiles, '--json');
    expect(r.status).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout)).sort()).toEqual(['dialogues', 'failure', 'meanTurns', 'score', 'success']);
  });

  it('play --replies --json plays a file of replies and prints the transcript', async () => {
    const replies = join(dir, 'replies.txt');
    writeFileSync(replies, "That sounds exhausting. What's been the hardest part?\nasdf qwer\n");
    const one = join(dir, 'one.json');
    writeFileSync(one, JSON.stringify(FIXTURE_BENCHMARK_PROFILES[0]));
    const r = await cli('play', '--profile', one, '--replies', replies, '--json', '--seed', '4');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.turns).toHaveLength(2);
    expect(out.transcript).toHaveLength(5);
    expect(out.turns[1].result.change).toBeLessThan(0);
  });

  it('bad files name the bad fields; unknown commands and flags exit 2 with usage', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ ...FIXTURE_BENCHMARK_PROFILES[0], age: 7 }]));
    const r = await cli('calibrate', '--profiles', bad);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/age/);
    for (const args of [['dance'], ['benchmark', '--policy', 'oracle', '--fast'], []]) {
      const u = await cli(...args);
      expect(u.status).toBe(2);
      expect(u.stderr).toMatch(/usage/);
    }
  });

  it('benchmark and calibrate take a set name for --profiles', async () => {
    const r = await cli('benchmark', '--policy', 'generic', '--profiles', 'challenge', '--json');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).dialogues).toBe(60);
    const u = await cli('benchmark', '--policy', 'generic', '--profiles', 'no-such-set');
    expect(u.status).toBe(2);
    expect(u.stderr).toMatch(/no such set or file \(sets: train, benchmark, challenge\)/);
  });

  it('probe prints the changes per line and every positive change; --json ends with one object', async () => {
    const replies = join(dir, 'hostile.txt');
    writeFileSync(replies, "That sounds exhausting. What's been the hardest part?\n\nasdf qwer zxcv\n");
    const r = await cli('probe', '--replies', replies, '--profiles', profiles);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/2 lines x 3 users/);
    expect(r.stdout).toMatch(/first reply: -10: \d+, -5: \d+, 0: \d+, \+5: \d+, \+10: \d+/);
    expect(r.stdout).toMatch(/\+(5|10) \S+ turn 1 \(-> \d+\): .*reflection/);
    const j = await cli('probe', '--replies', replies, '--profiles', profiles, '--json', '--difficulty', 'strict');
    expect(j.status).toBe(0);
    const last = JSON.parse(j.stdout.trim().split('\n').pop()!);
    expect(last.lines).toHaveLength(2);
    expect(last.lines[1].first['+5'] + last.lines[1].first['+10']).toBe(0);
    expect(last.positives).toBeGreaterThan(0);
    expect(last.worst[0].line).toMatch(/exhausting/);
    expect(last.worst[0].positives[0]).toHaveProperty('reasons');
  });

  it('probe: bad replies files exit 1 with a message, bad flags exit 2 with the usage', async () => {
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '\n  \n');
    const binary = join(dir, 'binary.bin');
    writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0xff]));
    for (const [file, msg] of [
      [join(dir, 'missing.txt'), /no such replies file/],
      [empty, /has no replies/],
      [binary, /is not a text file/],
      [dir, /is not a file/],
    ] as const) {
      const r = await cli('probe', '--replies', file);
      expect(r.status, file).toBe(1);
      expect(r.stderr).toMatch(msg);
    }
    for (const args of [
      ['probe'],
      ['probe', '--replies'],
      ['probe', '--replies', empty, '--loud'],
      ['probe', '--replies', empty, '--difficulty', 'hard'],
    ]) {
      const u = await cli(...args);
      expect(u.status, args.join(' ')).toBe(2);
      expect(u.stderr).toMatch(/usage: .*\n[\s\S]*probe --replies FILE/);
    }
  });

  it('runs as a program: npm run personas entry point, exit status 2 on a bad flag', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/persona/cli.ts', 'calibrate', '--nope'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown flag/);
  });
});
