import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { loadCheckpoint } from '../engine/model/checkpoint';
import { runWarmStart, WARM_START_DEFAULTS, type WarmStartOptions } from './warmstart';

const base: WarmStartOptions = { preset: 'ci', seed: 1, ...WARM_START_DEFAULTS.ci, steps: 4, dialogues: 300 };

describe('warm start (ci preset, CPU backend)', () => {
  it('reproduces its checkpoint byte for byte', async () => {
    const a = await runWarmStart(new CpuBackend(), base);
    // The hook (the worker's matmul tuning on WebGPU) runs once, after the first step, and moves no number.
    const seen: number[] = [];
    const b = await runWarmStart(new CpuBackend(), base, (p) => { if (p.step) seen.push(p.step.step); }, async () => { seen.push(-1); });
    expect(seen).toEqual([1, -1, 2, 3, 4]);
    expect(b.checkpoint).toEqual(a.checkpoint);
    const ck = loadCheckpoint(a.checkpoint);
    expect(ck.meta).toMatchObject({ kind: 'warm-start', preset: 'ci', seed: 1, steps: 4 });
    expect(ck.config.vocabSize).toBe(ck.tokenizer.merges.length + 256 + 8);
  }, 120_000);

  it('learns: held-out perplexity falls far below the uniform baseline', async () => {
    const r = await runWarmStart(new CpuBackend(), { ...base, steps: 60, dialogues: 1000 });
    expect(r.perplexityBefore).toBeGreaterThan(r.uniformPerplexity * 0.5);
    expect(r.perplexityAfter).toBeLessThan(r.uniformPerplexity / 4); // measured ~5x in 60 steps, ~17x in the default 200
    console.log(`ci warm start, 60 steps: held-out perplexity ${r.perplexityBefore.toFixed(0)} -> ${r.perplexityAfter.toFixed(1)} (uniform ${r.uniformPerplexity})`);
  }, 300_000);
});
