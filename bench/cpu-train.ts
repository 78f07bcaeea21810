/**
 * `npm run bench:cpu [-- --json]`: one supervised training step (forward, backward, clipping,
 * AdamW) of the ci and micro presets on the CPU backend in Node, in ms per step and tokens per
 * second: what `npm run pretrain` and the CPU fallback cost. Median of a few steps after a warm-up.
 */
import { CpuBackend } from '../src/engine/cpu/backend';
import { PRESETS, paramLayout, type PresetName } from '../src/engine/model/config';
import { SFT_DEFAULTS, SftTrainer } from '../src/engine/model/sft';
import { Transformer } from '../src/engine/model/transformer';

const CASES: { preset: PresetName; B: number; T: number; steps: number }[] = [
  { preset: 'ci', B: 8, T: 128, steps: 5 },
  { preset: 'micro', B: 8, T: 256, steps: 3 },
];

const json = process.argv.includes('--json');
const rows = [];
for (const c of CASES) {
  const model = Transformer.create(new CpuBackend(), PRESETS[c.preset], 1);
  const data = Array.from({ length: 4 * c.B }, (_, i) => ({
    ids: Array.from({ length: c.T + 1 }, (_, j) => (i * 7 + j * 13) % PRESETS[c.preset].vocabSize),
    agentMask: new Array<number>(c.T + 1).fill(1),
  }));
  const trainer = new SftTrainer(model, data, { ...SFT_DEFAULTS, batchSize: c.B, seqLen: c.T, steps: 100 });
  await trainer.trainStep(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < c.steps; i++) {
    const t0 = performance.now();
    await trainer.trainStep();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const ms = times[Math.floor(times.length / 2)];
  const row = {
    preset: c.preset,
    params: paramLayout(PRESETS[c.preset]).count,
    batch: c.B,
    tokens: c.T,
    msPerStep: Math.round(ms),
    tokensPerSecond: Math.round((c.B * c.T * 1000) / ms),
  };
  rows.push(row);
  if (!json)
    console.log(
      `${row.preset.padEnd(6)} ${String(row.params).padStart(8)} params  B=${c.B} T=${c.T}  ${String(row.msPerStep).padStart(6)} ms/step  ${String(row.tokensPerSecond).padStart(6)} tokens/s  (CPU backend, Node ${process.version})`,
    );
}
if (json) console.log(JSON.stringify({ backend: 'cpu', node: process.version, rows }, null, 2));
