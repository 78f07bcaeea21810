import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/backend';
import { Rng } from '../rng';
import type { ModelConfig } from './config';
import { encodeDialogue, type Turn } from './format';
import { learningRate, makeBatch, perplexity, SFT_DEFAULTS, SftTrainer } from './sft';
import { Tokenizer } from './tokenizer';
import { Transformer } from './transformer';

/** A toy corpus with structure a model can learn: the agent echoes a detail of the user's line. */
function toyCorpus(n: number, seed: string): Turn[][] {
  const rng = new Rng(seed);
  const things = ['the exam', 'my sister', 'the night shift', 'the rent', 'my dog', 'the move'];
  const feelings = ['tired', 'hurt', 'scared', 'lost'];
  return Array.from({ length: n }, () => {
    const t = rng.pick(things);
    const f = rng.pick(feelings);
    return [
      { role: 'user', text: `I am ${f} about ${t}.` },
      { role: 'agent', text: `You feel ${f} about ${t}.` },
    ];
  });
}

describe('supervised warm start', () => {
  it('schedule: linear warm-up, cosine to the floor', () => {
    const o = { lr: 1, warmupSteps: 10, steps: 110, minLrFraction: 0.1 };
    expect(learningRate(0, o)).toBeCloseTo(0.1);
    expect(learningRate(9, o)).toBeCloseTo(1);
    expect(learningRate(60, o)).toBeCloseTo(0.55);
    expect(learningRate(110, o)).toBeCloseTo(0.1);
  });

  it('batches: agent-only targets skip user and system tokens; padding is ignored', () => {
    const tok = Tokenizer.train(['hi there'], 280);
    const ex = encodeDialogue(tok, [
      { role: 'user', text: 'hi' },
      { role: 'agent', text: 'there' },
    ]);
    const agent = makeBatch([ex], 20, 'agent');
    const all = makeBatch([ex], 20, 'all');
    expect(all.count).toBe(ex.ids.length - 1);
    expect(agent.count).toBe(ex.agentMask.slice(1).filter((m) => m === 1).length);
    expect(Array.from(agent.targets.subarray(ex.ids.length))).toEqual(new Array(20 - ex.ids.length).fill(-1));
  });

  it('batches: nothing before scoredFrom is scored, whatever the loss is on', () => {
    const tok = Tokenizer.train(['hi there'], 280);
    const ex = {
      ...encodeDialogue(tok, [
        { role: 'user', text: 'hi' },
        { role: 'agent', text: 'there' },
      ]),
      scoredFrom: 4,
    };
    for (const lossOn of ['all', 'agent'] as const) {
      const b = makeBatch([ex], 20, lossOn);
      // Target t is token t + 1: none scored below index 3.
      expect(Array.from(b.targets.subarray(0, 3))).toEqual([-1, -1, -1]);
      expect(b.count).toBe(lossOn === 'all' ? ex.ids.length - 4 : ex.agentMask.slice(4).filter((m) => m === 1).length);
    }
  });

  it('trains: held-out perplexity of agent tokens falls far below the uniform baseline', async () => {
    const train = toyCorpus(64, 'train');
    const heldOut = toyCorpus(16, 'held-out');
    const tok = Tokenizer.train(
      train.flat().map((t) => t.text),
      300,
    );
    const config: ModelConfig = { vocabSize: tok.vocabSize, contextLength: 32, channels: 32, layers: 2, heads: 4 };
    const model = Transformer.create(new CpuBackend(), config, 3);
    const enc = (d: Turn[][]) => d.map((x) => encodeDialogue(tok, x));
    const opts = { ...SFT_DEFAULTS, steps: 60, batchSize: 8, seqLen: 32, warmupSteps: 5, lossOn: 'agent' as const };
    const before = await perplexity(model, enc(heldOut), opts);
    const trainer = new SftTrainer(model, enc(train), opts);
    const losses: number[] = [];
    for (let i = 0; i < opts.steps; i++) losses.push((await trainer.trainStep()).loss);
    const after = await perplexity(model, enc(heldOut), opts);
    expect(before).toBeGreaterThan(config.vocabSize / 3); // near uniform at init
    expect(after).toBeLessThan(config.vocabSize / 20); // far below uniform: the reply is nearly determined by the user line
    expect(losses[losses.length - 1]).toBeLessThan(losses[0] / 2.5);
  });

  it('is deterministic: same seed, same losses', async () => {
    const train = toyCorpus(16, 'det');
    const tok = Tokenizer.train(
      train.flat().map((t) => t.text),
      280,
    );
    const config: ModelConfig = { vocabSize: tok.vocabSize, contextLength: 24, channels: 16, layers: 1, heads: 2 };
    const run = async () => {
      const t = new SftTrainer(
        Transformer.create(new CpuBackend(), config, 1),
        train.map((d) => encodeDialogue(tok, d)),
        {
          ...SFT_DEFAULTS,
          steps: 5,
          batchSize: 4,
          seqLen: 24,
        },
      );
      const out: number[] = [];
      for (let i = 0; i < 5; i++) out.push((await t.trainStep()).loss);
      return out;
    };
    expect(await run()).toEqual(await run());
  });

  it('a step with a non-finite loss is skipped on the device: the weights and AdamW moments stay as they were', async () => {
    const corpus = toyCorpus(8, 'nan');
    const tok = Tokenizer.train(
      corpus.flat().map((t) => t.text),
      280,
    );
    const config: ModelConfig = { vocabSize: tok.vocabSize, contextLength: 32, channels: 16, layers: 1, heads: 2 };
    const data = corpus.map((d) => encodeDialogue(tok, d));
    const opts = { ...SFT_DEFAULTS, steps: 4, batchSize: 2, seqLen: 32, warmupSteps: 1 };
    const model = Transformer.create(new CpuBackend(), config, 5);
    const trainer = new SftTrainer(model, data, opts);
    expect(Number.isFinite((await trainer.trainStep()).loss)).toBe(true);
    const good = await model.readParams();
    expect(good).not.toEqual(await Transformer.create(new CpuBackend(), config, 5).readParams()); // the good step moved them
    const lnf = model.layout.entries.find((e) => e.name === 'lnf.w');
    if (!lnf) throw new Error('no lnf.w');
    const be = model.be as CpuBackend;
    be.f32Of(model.params)[lnf.offset] = NaN; // every logit of every row becomes NaN
    const poisoned = await model.readParams();
    const [m, v] = [Float32Array.from(be.f32Of(model.adamM)), Float32Array.from(be.f32Of(model.adamV))];
    const s = await trainer.trainStep();
    expect(s.loss).toBeNaN();
    expect(await model.readParams()).toEqual(poisoned);
    expect(be.f32Of(model.adamM)).toEqual(m);
    expect(be.f32Of(model.adamV)).toEqual(v);
  });
});
