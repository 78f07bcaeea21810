import * as ort from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CpuBackend } from '../engine/cpu/backend';
import { loadCheckpoint } from '../engine/model/checkpoint';
import { paramLayout, PRESETS, type ModelConfig } from '../engine/model/config';
import { agentTurnPrefix, encodeDialogue, SYSTEM_LINE } from '../engine/model/format';
import { generate, GREEDY } from '../engine/model/sampler';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { Rng } from '../engine/rng';
import { OnnxExportError, exportOnnx, onnxIoNames } from './export';
import { engineForward, maxAbs, maxAbsDiff, randomIds, randomWeights } from './parity';
import { createPolicySession, generateOnnx, runLogits } from './session';

ort.env.wasm.numThreads = 1;

const TINY: ModelConfig = { vocabSize: 40, contextLength: 16, channels: 8, layers: 2, heads: 2 };

// ---- a protobuf reader for the test only (wire types 0, 1, 2, 5) ----------------------------------

type Field = { n: number; wire: number; v: bigint | Uint8Array };

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = () => {
    let r = 0n;
    let s = 0n;
    for (;;) {
      const b = buf[i++];
      r |= BigInt(b & 0x7f) << s;
      if (b < 0x80) return r;
      s += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const n = key >> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ n, wire, v: varint() });
    else if (wire === 2) {
      const len = Number(varint());
      out.push({ n, wire, v: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 5) {
      out.push({ n, wire, v: buf.subarray(i, i + 4) });
      i += 4;
    } else if (wire === 1) {
      out.push({ n, wire, v: buf.subarray(i, i + 8) });
      i += 8;
    } else throw new Error(`wire type ${wire}`);
  }
  return out;
}
const str = (f: Field) => new TextDecoder().decode(f.v as Uint8Array);
const sub = (fs: Field[], n: number) => fs.filter((f) => f.n === n);

function decodeModel(bytes: Uint8Array) {
  const m = fields(bytes);
  const graph = fields(sub(m, 7)[0].v as Uint8Array);
  const opset = fields(sub(m, 8)[0].v as Uint8Array);
  const nodes = sub(graph, 1).map((f) => {
    const n = fields(f.v as Uint8Array);
    return {
      op: str(sub(n, 4)[0]),
      inputs: sub(n, 1).map(str),
      outputs: sub(n, 2).map(str),
      domain: sub(n, 7).map(str)[0] ?? '',
    };
  });
  const initializers = sub(graph, 5).map((f) => {
    const t = fields(f.v as Uint8Array);
    return {
      name: str(sub(t, 8)[0]),
      dims: sub(t, 1).map((d) => Number(d.v)),
      dataType: Number(sub(t, 2)[0].v),
      raw: sub(t, 9)[0]?.v as Uint8Array,
    };
  });
  const valueName = (f: Field) => str(sub(fields(f.v as Uint8Array), 1)[0]);
  const metadata = Object.fromEntries(
    sub(m, 14).map((f) => {
      const e = fields(f.v as Uint8Array);
      return [str(sub(e, 1)[0]), str(sub(e, 2)[0])];
    }),
  );
  return {
    irVersion: Number(sub(m, 1)[0].v),
    opsetDomain: sub(opset, 1).map(str)[0] ?? '',
    opsetVersion: Number(sub(opset, 2)[0].v),
    nodes,
    initializers,
    inputs: sub(graph, 11).map(valueName),
    outputs: sub(graph, 12).map(valueName),
    metadata,
  };
}

const STANDARD_OPS = new Set([
  'Gather',
  'Add',
  'Mul',
  'MatMul',
  'LayerNormalization',
  'Split',
  'Reshape',
  'Transpose',
  'Concat',
  'Softmax',
  'Where',
  'LessOrEqual',
  'Range',
  'Shape',
  'Squeeze',
  'Unsqueeze',
  'Tanh',
]);

describe('exportOnnx: structure', () => {
  it('writes opset 17 in the default domain, only standard ops, every parameter once with its bytes', () => {
    const weights = randomWeights(TINY, 1);
    const m = decodeModel(exportOnnx({ config: TINY, weights, meta: { steps: 3 } }));
    expect(m.irVersion).toBe(8);
    expect(m.opsetDomain).toBe('');
    expect(m.opsetVersion).toBe(17);
    for (const n of m.nodes) {
      expect(n.domain).toBe('');
      expect(STANDARD_OPS.has(n.op), n.op).toBe(true);
    }
    expect(m.nodes.filter((n) => n.op === 'LayerNormalization')).toHaveLength(2 * TINY.layers + 1);
    expect(m.nodes.filter((n) => n.op === 'Softmax')).toHaveLength(TINY.layers);
    expect(m.nodes.filter((n) => n.op === 'Tanh')).toHaveLength(TINY.layers); // one GELU per block
    const layout = paramLayout(TINY);
    for (const e of layout.entries) {
      const init = m.initializers.filter((t) => t.name === e.name);
      expect(init, e.name).toHaveLength(1);
      expect(init[0].dims).toEqual(e.shape);
      expect(init[0].dataType).toBe(1);
      const got = new Float32Array(init[0].raw.slice().buffer);
      expect(Array.from(got)).toEqual(Array.from(weights.subarray(e.offset, e.offset + e.size)));
    }
    // Tied head: the logits read wte through a Transpose; there is no second copy of it.
    expect(m.initializers.filter((t) => t.dims.join() === [TINY.channels, TINY.vocabSize].join())).toHaveLength(0);
    expect(m.inputs).toEqual(['input_ids']);
    expect(m.outputs).toEqual(['logits', 'values']);
    expect(JSON.parse(m.metadata['empathy_lab.config'])).toEqual(TINY);
    expect(JSON.parse(m.metadata['empathy_lab.meta'])).toEqual({ steps: 3 });
    expect(m.metadata['empathy_lab.kv_cache']).toBe('0');
    // Every node input is a graph input, an initializer or an earlier node's output (topological order).
    const known = new Set([...m.inputs, ...m.initializers.map((t) => t.name)]);
    for (const n of m.nodes) {
      for (const i of n.inputs) expect(known.has(i), `${n.op} reads ${i} before it exists`).toBe(true);
      n.outputs.forEach((o) => known.add(o));
    }
  });

  it('with kvCache, declares past_* inputs and present_* outputs per layer; without values, no value head', () => {
    const m = decodeModel(
      exportOnnx({ config: TINY, weights: randomWeights(TINY, 1) }, { kvCache: true, values: false }),
    );
    const io = onnxIoNames(TINY, { kvCache: true, values: false });
    expect(m.inputs).toEqual(io.inputs);
    expect(m.outputs).toEqual(io.outputs);
    expect(m.inputs).toContain('past_value_1');
    expect(m.outputs).toContain('present_key_1');
    expect(m.outputs).not.toContain('values');
    expect(m.metadata['empathy_lab.kv_cache']).toBe('1');
  });

  it('refuses a bad checkpoint with a message that names the problem', () => {
    const weights = randomWeights(TINY, 1);
    expect(() => exportOnnx({ config: TINY, weights: weights.subarray(1) })).toThrow(OnnxExportError);
    expect(() => exportOnnx({ config: TINY, weights: weights.subarray(1) })).toThrow(
      /has \d+ weights; its config needs \d+/,
    );
    expect(() => exportOnnx({ config: { ...TINY, heads: 3 }, weights })).toThrow(
      /heads: channels \(8\) must be divisible by heads \(3\)/,
    );
    const bad = weights.slice();
    bad[paramLayout(TINY).byName['h1.mlp.fc.w'].offset + 2] = NaN;
    expect(() => exportOnnx({ config: TINY, weights: bad })).toThrow(/h1\.mlp\.fc\.w.*not a finite number/);
  });
});

describe('exportOnnx: parity with the engine under onnxruntime-web (wasm, in Node)', () => {
  const cases = [
    ['tiny', TINY, 2, 12],
    ['ci', PRESETS.ci, 2, 12],
    ['micro', PRESETS.micro, 2, 12],
    ['mini', PRESETS.mini, 1, 8],
    ['small', PRESETS.small, 1, 6],
    ['tiny reading the previous token', { ...TINY, previousToken: true }, 2, 12],
    ['micro reading the previous token', { ...PRESETS.micro, previousToken: true }, 2, 12],
  ] as const;
  for (const [name, config, B, T] of cases) {
    it(`${name}: logits and values match the CPU engine to 1e-4, with and without the KV cache`, async () => {
      const weights = randomWeights(config, 11);
      const ids = randomIds(config.vocabSize, B * T, 12);
      const ref = await engineForward(config, weights, ids, B, T);
      expect(maxAbs(ref.logits)).toBeGreaterThan(0.5); // the check is not passing on near-zero logits

      const full = await createPolicySession(ort, exportOnnx({ config, weights }), ['wasm']);
      const out = await full.session.run({
        input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [B, T]),
      });
      expect(out.logits.dims).toEqual([B, T, config.vocabSize]);
      expect(maxAbsDiff(out.logits.data as Float32Array, ref.logits)).toBeLessThan(1e-4);
      expect(maxAbsDiff(out.values.data as Float32Array, ref.values)).toBeLessThan(1e-4);

      // Incremental: a prompt of 5 then one token at a time through past/present K/V.
      const cached = await createPolicySession(ort, exportOnnx({ config, weights }, { kvCache: true }), ['wasm']);
      const logits = await runLogits(ort, cached, config, ids, B, T, [5, ...Array(T - 5).fill(1)]);
      expect(maxAbsDiff(logits, ref.logits)).toBeLessThan(1e-4);
      await full.session.release();
      await cached.session.release();
    });
  }

  it('a different weight changes the exported logits (the check can fail)', async () => {
    const weights = randomWeights(TINY, 11);
    const ids = randomIds(TINY.vocabSize, 8, 3);
    const ref = await engineForward(TINY, weights, ids, 1, 8);
    const moved = weights.slice();
    moved[paramLayout(TINY).byName['h0.ln2.b'].offset] += 0.01;
    const s = await createPolicySession(ort, exportOnnx({ config: TINY, weights: moved }), ['wasm']);
    const out = await s.session.run({ input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, 8]) });
    expect(maxAbsDiff(out.logits.data as Float32Array, ref.logits)).toBeGreaterThan(1e-4);
  });
});

describe('generateOnnx: decoding through the exported model', () => {
  it("greedy decoding of the shipped ci warm start gives the same tokens as the engine's sampler", async () => {
    const ck = loadCheckpoint(readFileSync(new URL('../../public/warmstart-ci.bin', import.meta.url)));
    const tok = Tokenizer.fromJSON(ck.tokenizer);
    const prompt = [
      ...encodeDialogue(tok, [
        { role: 'system', text: SYSTEM_LINE },
        { role: 'user', text: 'I failed my driving test again and I feel stupid.' },
      ]).ids,
      ...agentTurnPrefix(tok),
    ];
    const stop = [tok.special('<|end|>')];
    const [engine] = await generate(new Transformer(new CpuBackend(), ck.config, ck.weights), [prompt], {
      maxNewTokens: 24,
      stop,
      sampling: GREEDY,
      rng: new Rng(0),
    });
    const ps = await createPolicySession(ort, exportOnnx(ck, { kvCache: true, values: false }), ['wasm']);
    const onnx = await generateOnnx(ort, ps, ck.config, prompt, {
      maxNewTokens: 24,
      stop,
      sampling: GREEDY,
      rng: new Rng(0),
    });
    expect(engine.length).toBeGreaterThan(3);
    expect(onnx).toEqual(engine);
    await ps.session.release();
  });

  it("sampled decoding of a model reading the previous token draws the engine sampler's tokens (same seed)", async () => {
    const config = { ...TINY, previousToken: true };
    const weights = randomWeights(config, 5);
    const prompt = Array.from(randomIds(config.vocabSize, 6, 6));
    const opts = { maxNewTokens: 10, stop: [] as number[], sampling: { temperature: 1, topK: 0, topP: 1 } };
    const [engine] = await generate(new Transformer(new CpuBackend(), config, weights), [prompt], {
      ...opts,
      rng: new Rng(0),
    });
    const ps = await createPolicySession(ort, exportOnnx({ config, weights }, { kvCache: true }), ['wasm']);
    const onnx = await generateOnnx(ort, ps, config, prompt, { ...opts, rng: new Rng(0) });
    expect(new Set(engine).size).toBeGreaterThan(2); // not one token over and over
    expect(onnx).toEqual(engine);
    await ps.session.release();
  });
});
