/**
 * `npm run -s bench:dawn -- --rl-memory [--preset ci|micro] [--rl-steps N]` (from the repository root): the lab's RL run (the
 * Trainer, from the shipped warm start of the preset, the preset's default run config but for a
 * smaller batch) step by step on one device, printing the device memory it holds. RL minibatches
 * are dialogues of varying length, so every step meets new tensor shapes: the figures show whether
 * the memory the backend holds stays bounded (its pool gives released buffers back beyond
 * `maxFreeBytes`) and how many buffers each step still creates.
 */
import { readFileSync } from 'node:fs';
import type { WebGpuBackend } from '../src/engine/gpu/backend';
import { loadCheckpoint } from '../src/engine/model/checkpoint';
import { defaultRunConfig } from '../src/rl/config';
import { Trainer } from '../src/rl/trainer';
import { trainingProfiles } from '../src/persona/sets';

export interface RlMemoryRow {
  step: number;
  /** Storage memory held from the device after the step (live tensors and the pool), and its peak so far. */
  heldMiB: number;
  peakMiB: number;
  /** Of the held memory, what the pool keeps for reuse. */
  pooledMiB: number;
  /** Buffers created and given back to the device during the step. */
  created: number;
  destroyed: number;
  seconds: number;
}

export async function rlMemory(
  be: WebGpuBackend,
  preset: 'ci' | 'micro',
  steps: number,
  log: (m: string) => void,
): Promise<RlMemoryRow[]> {
  const ck = loadCheckpoint(new Uint8Array(readFileSync(`public/warmstart-${preset}.bin`)));
  const config = { ...defaultRunConfig(preset), profilesPerStep: 2, groupSize: 4, minibatchSize: 4 };
  const trainer = new Trainer(be, {
    config,
    start: { config: ck.config, tokenizer: ck.tokenizer, weights: ck.weights, meta: ck.meta },
    trainProfiles: trainingProfiles(),
  });
  const mib = (b: number): number => b / 2 ** 20;
  const rows: RlMemoryRow[] = [];
  try {
    for (let k = 0; k < steps; k++) {
      const before = { ...be.stats };
      const r = await trainer.step();
      const row = {
        step: r.step,
        heldMiB: mib(be.bytesHeld),
        peakMiB: mib(be.stats.peakBytesHeld),
        pooledMiB: mib(be.pooledBytes),
        created: be.stats.buffersCreated - before.buffersCreated,
        destroyed: be.stats.buffersDestroyed - before.buffersDestroyed,
        seconds: r.metrics['speed/step_seconds'],
      };
      rows.push(row);
      log(
        `step ${row.step}: held ${row.heldMiB.toFixed(1)} MiB (peak ${row.peakMiB.toFixed(1)}, pooled ${row.pooledMiB.toFixed(1)}), ${row.created} buffers created, ${row.destroyed} given back, ${row.seconds.toFixed(1)} s`,
      );
    }
  } finally {
    trainer.release();
  }
  return rows;
}

export function rlMemoryText(rows: readonly RlMemoryRow[], preset: string, adapter: string): string {
  return [
    `Adapter: ${adapter}`,
    `RL run, ${preset} (shipped warm start), 2 users × 4 dialogues a step, minibatches of 4:`,
    '',
    '| step | held MiB | peak MiB | of which pooled MiB | buffers created | given back | s |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.step} | ${r.heldMiB.toFixed(1)} | ${r.peakMiB.toFixed(1)} | ${r.pooledMiB.toFixed(1)} | ${r.created} | ${r.destroyed} | ${r.seconds.toFixed(1)} |`,
    ),
    '',
  ].join('\n');
}
