/**
 * `npm run experiment` as a person uses it (real spawns of the entry point): a bad config names the
 * bad field and exits 2, as do a bad backend and threads where they do not apply; a tiny ci run
 * (on wasm, the default without a hardware GPU) writes the five files and prints its JSON summary last.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const run = (...args: string[]) =>
  spawnSync('npx', ['tsx', 'src/cli/experiment.ts', ...args], { encoding: 'utf8', timeout: 240_000 });

describe('npm run experiment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'experiment-'));

  it('refuses a bad config, naming the field, and a bad flag with the usage', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ preset: 'ci', lr: -1, algo: 'dpo' }));
    const r = run('--config', bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('lr:');
    expect(r.stderr).toContain('algo:');
    const f = run('--reward', 'vibes');
    expect(f.status).toBe(2);
    expect(f.stderr).toContain('reward:');
    const u = run('--colour', 'red');
    expect(u.status).toBe(2);
    expect(u.stderr).toContain('usage: npm run experiment');
    const b = run('--backend', 'vibes');
    expect(b.status).toBe(2);
    expect(b.stderr).toContain('--backend must be wasm, cpu or webgpu, got "vibes"');
    const t = run('--backend', 'cpu', '--threads', '2');
    expect(t.status).toBe(2);
    expect(t.stderr).toContain('--threads is for --backend wasm');
  }, 240_000);

  it('trains a tiny ci run and writes config, metrics, transcripts and the checkpoint', () => {
    const cfg = join(dir, 'tiny.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        preset: 'ci',
        profilesPerStep: 1,
        groupSize: 2,
        maxAgentTurns: 2,
        maxTurnTokens: 8,
        minibatchSize: 4,
      }),
    );
    const out = join(dir, 'run');
    const r = run('--config', cfg, '--steps', '2', '--seed', '3', '--no-eval', '--out', out, '--json');
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(summary).toMatchObject({ steps: 2, backend: 'wasm', before: null, after: null });
    expect(summary.threads).toBeGreaterThanOrEqual(1);
    for (const f of ['config.json', 'metrics.csv', 'metrics.json', 'transcripts.jsonl', 'checkpoint.bin'])
      expect(existsSync(join(out, f)), f).toBe(true);
    const config = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ preset: 'ci', seed: 3, steps: 2, profilesPerStep: 1 });
    const metrics = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'));
    expect(metrics.map((m: { step: number }) => m.step)).toEqual([1, 2]);
    expect(readFileSync(join(out, 'metrics.csv'), 'utf8').split('\n')[0]).toMatch(/^step,reward\/mean,/);
    const transcripts = readFileSync(join(out, 'transcripts.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(transcripts).toHaveLength(4);
    expect(transcripts[0]).toMatchObject({ phase: 'train', step: 1 });
    // No hardware GPU here: the default is the wasm backend on every core.
    expect(r.stderr).toMatch(/backend: CPU \(WebAssembly SIMD, \d+ threads?\)/);
  }, 240_000);

  it('plays the benchmark before and after with the fluency figures of npm run evaluate', () => {
    const cfg = join(dir, 'tiny-eval.json');
    writeFileSync(
      cfg,
      JSON.stringify({ preset: 'ci', profilesPerStep: 1, groupSize: 2, maxAgentTurns: 1, maxTurnTokens: 8 }),
    );
    const out = join(dir, 'run-eval');
    const r = run('--config', cfg, '--steps', '1', '--bench-limit', '2', '--out', out, '--json');
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!);
    for (const phase of ['before', 'after'] as const) {
      const b = summary[phase];
      expect(Object.keys(b).sort(), phase).toEqual(
        [
          'score',
          'success',
          'failure',
          'realWords',
          'hacking',
          'surprisal',
          'surprisalCorpus',
          'oov',
          'distinct2',
          'meanReplyWords',
          'meanReplyTokens',
        ].sort(),
      );
      expect(Object.keys(b.hacking).sort()).toEqual(['byKind', 'flagged', 'replies', 'share']);
      expect(b.realWords).toBeGreaterThanOrEqual(0);
      expect(b.realWords).toBeLessThanOrEqual(1);
      // Bits per word under the shipped reference model, read against the corpus's own replies: the
      // warm start writes corpus sentences, below stock lines (generic 6.1) and word soup (random 11.2).
      expect(b.surprisal).toBeGreaterThan(0);
      expect(b.surprisal).toBeLessThan(6);
      expect(b.surprisalCorpus).toBeCloseTo(1.689, 3);
    }
    expect(r.stderr).toMatch(/benchmark after: .*real words \d+%, flagged [\d.]+%, surprisal [\d.]+ bits\/word/);
  }, 240_000);

  it('keeps every finished step in the metrics when the run is killed part way', async () => {
    const cfg = join(dir, 'tiny-killed.json');
    writeFileSync(
      cfg,
      JSON.stringify({ preset: 'ci', profilesPerStep: 1, groupSize: 2, maxAgentTurns: 2, maxTurnTokens: 8 }),
    );
    const out = join(dir, 'run-killed');
    // Its own process group, so the kill reaches the node process that trains, not only a launcher.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/experiment.ts', '--config', cfg, '--steps', '500', '--no-eval', '--out', out],
      { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    const finished = await new Promise<boolean>((resolve) => {
      child.stderr.on('data', (b: Buffer) => {
        stderr += b.toString();
        if (/step 3\/500/.test(stderr)) {
          process.kill(-child.pid!, 'SIGKILL');
          resolve(false);
        }
      });
      child.on('exit', () => resolve(true));
    });
    expect(finished, stderr).toBe(false);
    await new Promise((r) => child.on('close', r));
    const metrics = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'));
    const steps = metrics.map((m: { step: number }) => m.step);
    expect(steps.slice(0, 3)).toEqual([1, 2, 3]);
    expect(steps.length).toBeLessThan(500);
    const csv = readFileSync(join(out, 'metrics.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toMatch(/^step,reward\/mean,/);
    expect(csv).toHaveLength(steps.length + 1);
  }, 240_000);
});
