import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { WasmBackend } from '../engine/wasm/backend';
import { TrackingBackend } from '../engine/testing/tracking';
import { crc32, loadCheckpoint } from '../engine/model/checkpoint';
import {
  runPresetWarmStart,
  runWarmStart,
  WARM_START_DEFAULTS,
  type WarmStartOptions,
  type WarmStartRecipe,
} from './warmstart';

const base: WarmStartOptions = { preset: 'ci', seed: 1, ...WARM_START_DEFAULTS.ci, steps: 4, dialogues: 300 };
/**
 * The backend the shipped warm starts are made on (one thread: its bits do not depend on the count).
 * Its kernels are held to the CPU reference in src/engine/wasm; here it is the trainer that is tested.
 */
const wasm = () => WasmBackend.create({ threads: 1 });
/** Fewer dialogues and shorter windows than the base, for runs on the slow CPU reference. */
const small: WarmStartOptions = { ...base, dialogues: 120, sft: { ...base.sft, seqLen: 64 } };
let plainRun: ReturnType<typeof runWarmStart> | undefined;
/** The base run, made once for the tests that compare with it. */
const plain = () => (plainRun ??= wasm().then((be) => runWarmStart(be, base)));

describe('warm start (ci preset, wasm backend)', () => {
  it('reproduces its checkpoint byte for byte, on wasm and on the CPU reference', async () => {
    const a = await plain();
    // The hook (the worker's matmul tuning on WebGPU) runs once, after the first step, and moves no number.
    const seen: number[] = [];
    const b = await runWarmStart(
      await wasm(),
      base,
      (p) => {
        if (p.step) seen.push(p.step.step);
      },
      async () => {
        seen.push(-1);
      },
    );
    expect(seen).toEqual([1, -1, 2, 3, 4]);
    expect(b.checkpoint).toEqual(a.checkpoint);
    const ck = loadCheckpoint(a.checkpoint);
    expect(ck.meta).toMatchObject({ kind: 'warm-start', preset: 'ci', seed: 1, steps: 4 });
    expect(ck.config.vocabSize).toBe(ck.tokenizer.merges.length + 256 + 8);
    // The CPU reference (`--backend cpu`) reproduces its own checkpoint too.
    const [c1, c2] = [await runWarmStart(new CpuBackend(), small), await runWarmStart(new CpuBackend(), small)];
    expect(c2.checkpoint).toEqual(c1.checkpoint);
    expect(c1.checkpoint).not.toEqual(a.checkpoint);
  }, 120_000);

  it('gives back every tensor it took, also when it fails', async () => {
    const be = new TrackingBackend();
    // On the small run: neither the dialogues nor the window matters to what is held.
    await runWarmStart(be, { ...small, steps: 2 });
    expect(be.live.size, `still held:\n${be.report()}`).toBe(0);
    // A learning rate that makes the loss non-finite stops the warm start with a message; the memory still comes back.
    const bad = { ...small, steps: 6, sft: { ...small.sft, lr: 1e30, warmupSteps: 0 } };
    await expect(runWarmStart(be, bad)).rejects.toThrow(
      /the loss became (NaN|Infinity|-Infinity) at step \d; try a lower learning rate/,
    );
    expect(be.live.size, `still held after the failure:\n${be.report()}`).toBe(0);
    expect(be.doubleReleases).toBe(0);
  }, 120_000);

  it('mixes in the copying task when asked, records it, and probes copying on the way', async () => {
    await expect(runWarmStart(await wasm(), { ...base, copyShare: 1 })).rejects.toThrow(
      /copyShare must be in \[0, 1\)/,
    );
    const { checkpoint } = await plain();
    const probes: { step: number; perplexity: number; copyPerplexity: number }[] = [];
    const copy = await runWarmStart(await wasm(), { ...base, copyShare: 0.5, evalEvery: 2 }, (p) => {
      if (p.heldOut) probes.push(p.heldOut);
    });
    expect(copy.checkpoint).not.toEqual(checkpoint);
    expect(loadCheckpoint(copy.checkpoint).meta).toMatchObject({ copyShare: 0.5 });
    expect(loadCheckpoint(checkpoint).meta).not.toHaveProperty('copyShare');
    // An untrained model cannot copy: the repeats are about as unlikely as any token.
    expect(probes).toHaveLength(1);
    expect(probes[0].step).toBe(2);
    expect(probes[0].copyPerplexity).toBeGreaterThan(copy.uniformPerplexity / 4);
  }, 120_000);

  it('shortens the copying rows when asked (a curriculum), records it, and refuses rows under 16 tokens', async () => {
    await expect(runWarmStart(await wasm(), { ...base, copyShare: 0.5, copyWindow: 8 })).rejects.toThrow(
      /copyWindow must be a whole number of at least 16 tokens, got 8/,
    );
    const whole = await runWarmStart(await wasm(), { ...base, steps: 2, copyShare: 0.5 });
    const short = await runWarmStart(await wasm(), { ...base, steps: 2, copyShare: 0.5, copyWindow: 32 });
    expect(loadCheckpoint(short.checkpoint).meta).toMatchObject({ copyShare: 0.5, copyWindow: 32 });
    expect(loadCheckpoint(whole.checkpoint).meta).not.toHaveProperty('copyWindow');
    expect(short.checkpoint).not.toEqual(whole.checkpoint);
  }, 120_000);

  it('makes a model that reads the previous token when asked, and its config says so', async () => {
    const { checkpoint } = await plain();
    const prev = await runWarmStart(await wasm(), { ...base, steps: 2, previousToken: true });
    const ck = loadCheckpoint(prev.checkpoint);
    expect(ck.config.previousToken).toBe(true);
    expect(loadCheckpoint(checkpoint).config).not.toHaveProperty('previousToken');
    expect(ck.weights.length).toBeGreaterThan(loadCheckpoint(checkpoint).weights.length);
    expect(prev.perplexityAfter).toBeLessThan(prev.perplexityBefore);
  }, 120_000);

  it('goes on from a checkpoint: its model and tokenizer, recorded in the meta; a contradicting option is refused', async () => {
    const first = loadCheckpoint((await plain()).checkpoint);
    const from = { checkpoint: first, label: 'first.bin', crc32: 1234 };
    await expect(runWarmStart(await wasm(), { ...base, steps: 2, from, previousToken: true })).rejects.toThrow(
      /the checkpoint gone on from: its model does not read the previous token, and the options ask for one that does/,
    );
    await expect(runWarmStart(await wasm(), { ...base, preset: 'micro', steps: 2, from })).rejects.toThrow(
      /the checkpoint gone on from: its model is not of the micro preset's shape/,
    );
    const second = await runWarmStart(await wasm(), { ...base, steps: 2, from });
    const ck = loadCheckpoint(second.checkpoint);
    expect(ck.config).toEqual(first.config);
    expect(ck.tokenizer).toEqual(first.tokenizer);
    expect(ck.meta).toMatchObject({ from: { label: 'first.bin', crc32: 1234, meta: { steps: 4 } } });
    // It starts where the first phase ended, not from fresh weights.
    expect(second.perplexityBefore).toBeCloseTo(first.meta.perplexityAfter as number, 6);
    expect(ck.weights).not.toEqual(first.weights);
  }, 120_000);

  it("runs a recipe's two phases: the first, then the second from its bytes, as --from that file would; phases: 1 stops after the first", async () => {
    const corpus = { pairShare: 0.5, needShare: 0.3 };
    const recipe: WarmStartRecipe = { ...base, then: { steps: 2, dialogues: 200, corpus } };
    const seen: string[] = [];
    const hook: number[] = [];
    const both = await runPresetWarmStart(
      await wasm(),
      { preset: 'ci', seed: 1, recipe },
      (p) => {
        if (p.step) seen.push(`${p.stage?.index}/${p.stage?.count}:${p.step.step}`);
      },
      async () => void hook.push(seen.length),
    );
    expect(seen).toEqual(['1/2:1', '1/2:2', '1/2:3', '1/2:4', '2/2:1', '2/2:2']);
    expect(hook).toEqual([1]); // after the first step of the first phase only
    const one = await plain();
    const two = await runWarmStart(await wasm(), {
      ...base,
      steps: 2,
      dialogues: 200,
      corpus,
      from: { checkpoint: loadCheckpoint(one.checkpoint), label: 'warmstart-ci.bin', crc32: crc32(one.checkpoint) },
    });
    expect(both.checkpoint).toEqual(two.checkpoint);
    expect(both.losses).toEqual([...one.losses, ...two.losses]);
    expect(both.trainTokens).toBe(one.trainTokens + two.trainTokens);
    expect(both.phases).toEqual([
      { steps: 4, perplexityBefore: one.perplexityBefore, perplexityAfter: one.perplexityAfter },
      { steps: 2, perplexityBefore: two.perplexityBefore, perplexityAfter: two.perplexityAfter },
    ]);
    expect(loadCheckpoint(both.checkpoint).meta).toMatchObject({
      steps: 2,
      dialogues: 200,
      corpus,
      from: { label: 'warmstart-ci.bin', crc32: crc32(one.checkpoint), meta: { steps: 4, dialogues: 300 } },
    });
    const first = await runPresetWarmStart(await wasm(), { preset: 'ci', seed: 1, recipe, phases: 1 });
    expect(first.checkpoint).toEqual(one.checkpoint);
    expect(first.phases).toHaveLength(1);
    // The first phase's options can be overridden (the lab's steps and dialogues); the second keeps its own.
    const shorter = await runPresetWarmStart(await wasm(), { preset: 'ci', seed: 1, recipe, first: { steps: 3 } });
    expect(shorter.phases.map((p) => p.steps)).toEqual([3, 2]);
    expect(loadCheckpoint(shorter.checkpoint).meta).toMatchObject({ steps: 2, from: { meta: { steps: 3 } } });
  }, 240_000);

  it('learns: held-out perplexity falls far below the uniform baseline', async () => {
    const r = await runWarmStart(await wasm(), { ...base, steps: 60, dialogues: 1000 });
    expect(r.perplexityBefore).toBeGreaterThan(r.uniformPerplexity * 0.5);
    expect(r.perplexityAfter).toBeLessThan(r.uniformPerplexity / 4); // measured ~9x in 60 steps on 1,000 dialogues
    console.log(
      `ci warm start, 60 steps: held-out perplexity ${r.perplexityBefore.toFixed(0)} -> ${r.perplexityAfter.toFixed(1)} (uniform ${r.uniformPerplexity})`,
    );
  }, 300_000);
});
