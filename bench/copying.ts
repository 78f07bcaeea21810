/**
 * `npx tsx bench/copying.ts --checkpoint A.bin[,B.bin...] [--window W] [--json]`: can a checkpoint copy? Scores
 * the copying probe (src/engine/model/copying.ts: 64 rows of random tokens whose spans are each said
 * again after a gap) and prints the perplexity of the repeats, beside the uniform guess (the vocabulary size).
 * A model with an induction head reads a repeat off its first copy (perplexity near 1); one without
 * guesses it like any token (near or above the vocabulary size, since a language model is sure of
 * the wrong tokens). The warm start's `--eval-every` prints the same figure as it trains. The wasm
 * backend on one thread, whose bits do not depend on the machine.
 */
import { readFileSync } from 'node:fs';
import { commandFlags } from '../src/cli/args';
import { WasmBackend } from '../src/engine/wasm/backend';
import { loadCheckpoint } from '../src/engine/model/checkpoint';
import { copyProbe, copyTask } from '../src/engine/model/copying';
import { perplexity } from '../src/engine/model/sft';
import { Transformer } from '../src/engine/model/transformer';

const f = commandFlags(
  'npx tsx bench/copying.ts',
  {
    checkpoint: { type: 'string', help: 'comma-separated checkpoint files' },
    window: {
      type: 'number',
      help: "tokens per probe row, 16.. (default: the model's context and one more, as the warm start's probe)",
    },
    json: { type: 'boolean', help: 'print the figures as JSON' },
    help: { type: 'boolean', help: 'this message' },
  },
  ['checkpoint'],
);

if (f.window !== undefined && !(Number.isInteger(f.window) && f.window >= 16)) {
  console.error('--window must be a whole number of at least 16');
  process.exit(2);
}
const be = await WasmBackend.create({ threads: 1 });
const rows: {
  checkpoint: string;
  window: number;
  copyPerplexity: number;
  uniformPerplexity: number;
  steps?: number;
}[] = [];
for (const file of f.checkpoint.split(',').filter(Boolean)) {
  const ck = loadCheckpoint(new Uint8Array(readFileSync(file)));
  const model = new Transformer(be, ck.config, ck.weights, { frozen: true });
  // Rows of the whole context and one token more, as the `micro` warm start's training windows.
  const window = Math.min(f.window ?? Infinity, ck.config.contextLength + 1);
  const probe = copyProbe(copyTask(window, ck.config.vocabSize));
  const copyPerplexity = await perplexity(model, probe, { batchSize: 8, seqLen: window - 1, lossOn: 'agent' });
  model.release();
  const steps = typeof ck.meta?.steps === 'number' ? ck.meta.steps : undefined;
  rows.push({ checkpoint: file, window, copyPerplexity, uniformPerplexity: ck.config.vocabSize, steps });
  if (!f.json)
    console.log(
      `${file}: copy perplexity ${copyPerplexity.toFixed(1)} in rows of ${window} tokens (uniform ${ck.config.vocabSize}${steps ? `; ${steps} steps` : ''})`,
    );
}
be.dispose();
if (f.json) console.log(JSON.stringify(rows, null, 2));
