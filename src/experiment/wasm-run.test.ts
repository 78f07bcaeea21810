/**
 * A short warm start and a short RL run on the wasm backend, pinned: the same bytes on 1 and on 4
 * threads and from run to run, a checkpoint that loads on the CPU backend and computes the same
 * logits there (to rounding), and digests that any change to a wasm kernel moves (update them on
 * purpose only). The kernels' bits do not depend on the machine: wasm arithmetic is IEEE without
 * fused multiply-adds, and the kernels' exp, log and tanh are AssemblyScript's own.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Backend } from '../engine/backend';
import { CpuBackend } from '../engine/cpu/backend';
import { loadCheckpoint } from '../engine/model/checkpoint';
import { Transformer } from '../engine/model/transformer';
import { digest } from '../engine/rng';
import { wasmBackends } from '../engine/wasm/testing/same';
import { trainingProfiles } from '../persona/sets';
import { defaultRunConfig, type RunConfig } from '../rl/config';
import { Trainer } from '../rl/trainer';
import { runWarmStart, WARM_START_DEFAULTS, type WarmStartOptions } from './warmstart';

const base: WarmStartOptions = { preset: 'ci', seed: 1, ...WARM_START_DEFAULTS.ci, steps: 4, dialogues: 300 };
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex').slice(0, 16);

const RL: RunConfig = {
  ...defaultRunConfig('ci'),
  seed: 3,
  profilesPerStep: 2,
  groupSize: 2,
  maxTurnTokens: 6,
  maxAgentTurns: 2,
  minibatchSize: 4,
  lrWarmupSteps: 0,
};

let warm: Promise<Uint8Array> | null = null;
const warmStart = async () => (warm ??= runWarmStart((await wasmBackends()).many, base).then((r) => r.checkpoint));

describe('a short warm start and RL run on the wasm backend', () => {
  it('warm start: the same bytes on 1 and 4 threads, pinned; the checkpoint computes the same logits on the CPU', async () => {
    const { one } = await wasmBackends();
    const many = await warmStart();
    const single = (await runWarmStart(one, base)).checkpoint;
    expect(sha(single)).toBe(sha(many));
    expect(sha(many)).toMatchInlineSnapshot(`"7372a1698fb23d6b"`);

    const ck = loadCheckpoint(many);
    expect(ck.meta).toMatchObject({ kind: 'warm-start', backend: 'wasm' });
    const logits = async (be: Backend) => {
      const model = new Transformer(be, ck.config, ck.weights, { frozen: true });
      const T = 24;
      const ids = be.fromArray(
        Int32Array.from({ length: 2 * T }, (_, i) => (i * 31) % ck.config.vocabSize),
        [2, T],
      );
      const out = await be.read(model.forward(ids, 2, T).logits);
      model.release();
      return out;
    };
    const [want, got] = [await logits(new CpuBackend()), await logits(one)];
    let worst = 0;
    for (let i = 0; i < want.length; i++)
      worst = Math.max(worst, Math.abs(got[i] - want[i]) / (1e-4 + Math.abs(want[i])));
    expect(worst).toBeLessThan(1e-2);
  }, 300_000);

  it('RL from it: the same metrics and weights on 1 and 4 threads, pinned', async () => {
    const ck = loadCheckpoint(await warmStart());
    const { one, many } = await wasmBackends();
    const run = async (be: Backend) => {
      const t = new Trainer(be, { config: RL, start: ck, trainProfiles: trainingProfiles().slice(0, 8) });
      const out: string[][] = [];
      for (let k = 0; k < 2; k++) {
        const m = (await t.step()).metrics;
        out.push([m['reward/mean'], m['losses/policy_loss'], m['train/grad_norm']].map((x) => x.toFixed(6)));
      }
      const weights = digest(Array.from(await t.model.readParams()).join(','));
      t.release();
      return { out, weights };
    };
    const a = await run(many);
    expect(await run(one)).toEqual(a);
    expect(a).toMatchInlineSnapshot(`
      {
        "out": [
          [
            "0.175000",
            "-0.077598",
            "2.853484",
          ],
          [
            "0.150000",
            "-0.038661",
            "3.210098",
          ],
        ],
        "weights": "bf85659199418a17",
      }
    `);
  }, 300_000);
});
