/**
 * `npm run serve-users` as a process: the first stdout line names a loopback URL, a bad profile
 * file exits 1 naming its field, a bad flag exits 2, and SIGTERM closes the server and exits 0.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/serve/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { child, exited, firstLine, stderr: () => stderr };
}

describe('serve-users cli', () => {
  it('listens on loopback, serves, and exits 0 on SIGTERM', async () => {
    const p = run(['--port', '0']);
    const line = await p.firstLine;
    expect(line).toMatch(/^listening http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.split(' ')[1];
    const started = await (
      await fetch(`${url}/v1/dialogues`, { method: 'POST', body: '{"profileId":"bench-001"}' })
    ).json();
    expect(started.opening.length).toBeGreaterThan(0);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  }, 30_000);

  it('--workers 2: any connection reaches any dialogue; SIGTERM stops the threads and exits 0', async () => {
    const p = run(['--port', '0', '--workers', '2']);
    const url = (await p.firstLine).split(' ')[1];
    const post = async (path: string, body: unknown) =>
      (
        await fetch(`${url}${path}`, { method: 'POST', headers: { connection: 'close' }, body: JSON.stringify(body) })
      ).json();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await post('/v1/dialogues', { profileId: 'bench-001', seed: i })).id);
    for (const id of ids)
      expect((await post(`/v1/dialogues/${id}/reply`, { reply: 'That sounds hard.' })).turns).toBe(1);
    expect(p.stderr()).toContain('2 worker threads');
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  }, 60_000);

  it('refuses a bad profile file (exit 1, field named) and a bad flag (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify([{ schemaVersion: 1, id: 'x', age: 'old' }]));
    const bad = run(['--profiles', file]);
    expect(await bad.exited).toBe(1);
    expect(bad.stderr()).toContain('profiles[0].age');
    const flag = run(['--colour', 'red']);
    expect(await flag.exited).toBe(2);
    expect(flag.stderr()).toContain('unknown flag "--colour"');
  }, 30_000);
});
