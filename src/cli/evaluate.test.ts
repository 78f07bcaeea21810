/**
 * `npm run evaluate` as a person uses it (real spawns of the entry point), on the reference policies,
 * which need no model: the figures and their keys, the definitions in --help, and the mistakes it
 * refuses. A checkpoint's evaluation runs in the experiment's test (src/cli/experiment.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const run = (...args: string[]) =>
  spawnSync('npx', ['tsx', 'src/cli/evaluate.ts', ...args], { encoding: 'utf8', timeout: 120_000 });

describe('npm run evaluate', () => {
  it("scores reference policies with the fluency figures, every figure's meaning in --help", () => {
    const r = run('--policy', 'all', '--limit', '3', '--json');
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows.map((x) => x.policy)).toEqual(['random', 'generic', 'advisor', 'reflective', 'adaptive', 'oracle']);
    for (const k of ['realWords', 'hacking', 'surprisal', 'surprisalCorpus', 'distinct2', 'meanReplyTokens'])
      expect(rows[3], k).toHaveProperty(k);
    const [random, reflective] = [rows[0], rows[3]] as { surprisal: number; score: number }[];
    expect(random.surprisal).toBeGreaterThan(reflective.surprisal); // word salad is far from the corpus
    const help = run('--help');
    expect(help.status).toBe(0);
    for (const k of ['realWords', 'hacking.share', 'surprisal', 'distinct2', 'meanReplyTokens'])
      expect(help.stdout).toContain(`  ${k}`);
  }, 120_000);

  it('refuses a missing model, an unknown policy and sampling flags on a policy', () => {
    expect(run().stderr).toContain('give one of --checkpoint FILE or --policy NAME');
    const bad = run('--policy', 'kind');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      '--policy must be one of random, generic, advisor, reflective, adaptive, oracle or all',
    );
    expect(run('--policy', 'oracle', '--temperature', '1').stderr).toContain(
      '--temperature applies to a checkpoint, not to --policy',
    );
    expect(run('--policy', 'oracle', '--redraws', '2').stderr).toContain(
      '--redraws applies to a checkpoint, not to --policy',
    );
    const many = run('--checkpoint', 'public/warmstart-ci.bin', '--redraws', '9');
    expect(many.status).toBe(2);
    expect(many.stderr).toContain('--redraws must be a whole number from 0 to 8');
  }, 120_000);
});
