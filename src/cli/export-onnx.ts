/**
 * `npm run export-onnx -- --checkpoint FILE --out FILE [--kv-cache] [--no-values] [--verify]`:
 * writes a checkpoint as an ONNX model (src/onnx/export.ts: opset 17, input_ids int64 [batch, seq]
 * -> logits [batch, seq, V] and values [batch, seq, 1]; with --kv-cache also past/present K/V per
 * layer). --verify then runs the file in onnxruntime-web (wasm, in Node) on random ids and compares
 * the logits with the engine's CPU forward (fails above 1e-4). Exit 2 on bad flags, 1 on a bad file.
 */
import { writeFileSync } from 'node:fs';
import { exportOnnx, OnnxExportError } from '../onnx/export';
import { engineForward, maxAbsDiff, randomIds } from '../onnx/parity';
import { createPolicySession, runLogits } from '../onnx/session';
import { commandFlags, die, readCheckpointFile } from './args';

const SPEC = {
  checkpoint: { type: 'string', help: 'checkpoint file (required)' },
  out: { type: 'string', help: 'ONNX file to write (required)' },
  'kv-cache': {
    type: 'boolean',
    help: 'add past_key_l/past_value_l inputs and present_* outputs (incremental decoding)',
  },
  'no-values': { type: 'boolean', help: 'leave out the value head output' },
  verify: {
    type: 'boolean',
    help: 'run the exported file in onnxruntime-web (wasm) and compare logits with the engine',
  },
  help: { type: 'boolean', help: 'this message' },
} as const;

const COMMAND = 'npm run export-onnx --';
const TOLERANCE = 1e-4;

async function main(): Promise<void> {
  const f = commandFlags(COMMAND, SPEC, ['checkpoint', 'out']);
  const ck = readCheckpointFile(f.checkpoint);
  const options = { kvCache: f['kv-cache'] === true, values: f['no-values'] !== true };
  let model: Uint8Array;
  try {
    model = exportOnnx(ck, options);
  } catch (e) {
    if (e instanceof OnnxExportError) die(`${f.checkpoint}: ${e.message}`);
    throw e;
  }
  try {
    writeFileSync(f.out, model);
  } catch (e) {
    die(`cannot write ${f.out}: ${(e as Error).message}`);
  }
  const c = ck.config;
  console.log(
    `wrote ${f.out}: ${(model.length / 1e6).toFixed(2)} MB, opset 17, V=${c.vocabSize} T=${c.contextLength} C=${c.channels} L=${c.layers} H=${c.heads}` +
      `${options.kvCache ? ', KV cache' : ''}${options.values ? ', value head' : ''}`,
  );

  if (f.verify) {
    const ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    const B = 2;
    const T = Math.min(16, c.contextLength);
    const ids = randomIds(c.vocabSize, B * T, 1);
    const ref = await engineForward(c, ck.weights, ids, B, T);
    const ps = await createPolicySession(ort, model, ['wasm']);
    let logits: Float32Array;
    if (options.kvCache) logits = await runLogits(ort, ps, c, ids, B, T, [T]);
    else {
      const out = await ps.session.run({ input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [B, T]) });
      logits = out.logits.data as Float32Array;
    }
    const diff = maxAbsDiff(logits, ref.logits);
    const ok = diff <= TOLERANCE;
    console.log(
      `verify (onnxruntime-web ${ort.env.versions?.web ?? ''}, ${ps.ep}, ${B}x${T} random ids): max |logit difference| ${diff.toExponential(2)} ${ok ? '<=' : '>'} ${TOLERANCE}`,
    );
    await ps.session.release();
    if (!ok) process.exit(1);
  }
}

main().catch((e) => die(e instanceof Error ? (e.stack ?? e.message) : String(e)));
