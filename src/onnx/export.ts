/**
 * ONNX export of a policy checkpoint: the same decoder-only, pre-norm GPT-2 transformer that
 * src/engine/model/transformer.ts computes, written as a standard ONNX graph (default domain,
 * opset 17, IR version 8) with the checkpoint's weights as initializers. Pure TS: Node and browser.
 *
 *   x = wte[input_ids] + wpe[past_len + t]  (+ wte[the token before] · wprev with config.previousToken)
 *   per block l:  x = x + proj(attn(LayerNorm1(x)));  x = x + proj(gelu_tanh(fc(LayerNorm2(x))))
 *   h = LayerNormF(x);  logits = h · wteᵀ (tied);  values = h · value.w + value.b
 *
 * Inputs:   input_ids int64 [batch, seq]
 *           with kvCache: past_key_l / past_value_l float32 [batch, H, past_seq, hs] for each layer l
 *           (past_seq may be 0 for the first call)
 *           with kvCache and config.previousToken: previous_id int64 [batch, 1], the token before
 *           input_ids[:, 0] (the last one fed), -1 where there is none (an empty past); without the
 *           cache a sequence starts at input_ids[:, 0], which has none
 * Outputs:  logits float32 [batch, seq, V]; values float32 [batch, seq, 1] (unless values: false);
 *           with kvCache: present_key_l / present_value_l [batch, H, past_seq + seq, hs]
 *
 * Ops used: Gather, Add, Mul, MatMul, LayerNormalization (eps 1e-5, as the engine), Split, Reshape,
 * Transpose, Concat, Softmax, Where, LessOrEqual, Range, Shape, Squeeze, Unsqueeze, Tanh (GELU's
 * tanh form, decomposed: the engine's GELU is not the erf one); with config.previousToken also
 * Slice, Sub, GreaterOrEqual and Cast. The causal mask is built from
 * positions (key position ≤ query position), so one graph serves any length up to the context.
 * A sequence longer than the context fails in Gather on wpe, as the engine refuses it.
 *
 * Metadata props: empathy_lab.config (ModelConfig JSON), empathy_lab.tokenizer (TokenizerJSON),
 * empathy_lab.meta (the checkpoint's meta), empathy_lab.kv_cache ("1" or "0").
 */
import { paramLayout, validateConfig, type ModelConfig } from '../engine/model/config';
import { LAYER_NORM_EPS } from '../engine/ops/layernorm';
import type { TokenizerJSON } from '../engine/model/tokenizer';
import { DataType, encodeModel, type AttrValue, type NodeSpec, type TensorInit, type ValueInfo } from './proto';

const ONNX_OPSET = 17;
const ONNX_IR_VERSION = 8;
/** Masked attention scores: float32's lowest finite value (no infinities in the graph). */
const MASKED = -3.4028234663852886e38;

export interface ExportOptions {
  /** Add past_key_l/past_value_l inputs and present_key_l/present_value_l outputs (incremental decoding). */
  kvCache?: boolean;
  /** Output the value head (default true). */
  values?: boolean;
  /** Graph name (default "empathy_lab_policy"). */
  name?: string;
}

/** What the exporter needs of a checkpoint (a loadCheckpoint() result fits). */
export interface ExportableCheckpoint {
  config: ModelConfig;
  weights: Float32Array;
  tokenizer?: TokenizerJSON;
  meta?: Record<string, unknown>;
}

export class OnnxExportError extends Error {
  override name = 'OnnxExportError';
}

/** Names of the graph's inputs and outputs for a config and options (the runtime side uses these). */
export function onnxIoNames(config: ModelConfig, options: ExportOptions = {}): { inputs: string[]; outputs: string[] } {
  const inputs = ['input_ids'];
  if (options.kvCache && config.previousToken) inputs.push('previous_id');
  const outputs = ['logits'];
  if (options.values !== false) outputs.push('values');
  if (options.kvCache) {
    for (let l = 0; l < config.layers; l++) inputs.push(`past_key_${l}`, `past_value_${l}`);
    for (let l = 0; l < config.layers; l++) outputs.push(`present_key_${l}`, `present_value_${l}`);
  }
  return { inputs, outputs };
}

const littleEndian = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

function f32Bytes(a: Float32Array): Uint8Array {
  if (littleEndian) return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const out = new Uint8Array(a.length * 4);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < a.length; i++) dv.setFloat32(i * 4, a[i], true);
  return out;
}

function i64Bytes(vs: readonly number[]): Uint8Array {
  const out = new Uint8Array(vs.length * 8);
  const dv = new DataView(out.buffer);
  vs.forEach((v, i) => dv.setBigInt64(i * 8, BigInt(v), true));
  return out;
}

/** Builds the node list with unique names. */
class GraphBuilder {
  readonly nodes: NodeSpec[] = [];
  readonly initializers: TensorInit[] = [];
  private n = 0;

  node(op: string, inputs: string[], attrs?: Record<string, AttrValue>, outputs?: string[]): string {
    const id = this.n++;
    const outs = outputs ?? [`${op.toLowerCase()}_${id}`];
    this.nodes.push({ op, inputs, outputs: outs, name: `${op}_${id}`, attrs });
    return outs[0];
  }

  /** int64 constant initializer (dims [] for a scalar). */
  i64(name: string, values: number[], dims: number[] = [values.length]): string {
    this.initializers.push({ name, dataType: DataType.INT64, dims, raw: i64Bytes(values) });
    return name;
  }

  f32(name: string, values: Float32Array, dims: number[]): string {
    this.initializers.push({ name, dataType: DataType.FLOAT, dims, raw: f32Bytes(values) });
    return name;
  }
}

/**
 * The checkpoint as an ONNX model (ModelProto bytes). Throws OnnxExportError with a message naming
 * the problem when the config is invalid or the weights do not fit it.
 */
export function exportOnnx(checkpoint: ExportableCheckpoint, options: ExportOptions = {}): Uint8Array {
  const { config, weights } = checkpoint;
  if (!config || typeof config !== 'object')
    throw new OnnxExportError('cannot export: the checkpoint has no model config');
  const configErrors = validateConfig(config);
  if (configErrors.length > 0)
    throw new OnnxExportError(`cannot export: invalid model config: ${configErrors.join('; ')}`);
  const layout = paramLayout(config);
  if (!(weights instanceof Float32Array))
    throw new OnnxExportError('cannot export: the checkpoint weights are not a Float32Array');
  if (weights.length !== layout.total) {
    throw new OnnxExportError(
      `cannot export: the checkpoint has ${weights.length} weights; its config needs ${layout.total}`,
    );
  }
  for (let i = 0; i < weights.length; i++) {
    if (!Number.isFinite(weights[i])) {
      const e = layout.entries.find((x) => i >= x.offset && i < x.offset + x.size);
      throw new OnnxExportError(
        `cannot export: weight ${i}${e ? ` (${e.name})` : ''} is ${weights[i]}, not a finite number`,
      );
    }
  }

  const { vocabSize: V, channels: C, heads: H, layers: L, contextLength: T } = config;
  const hs = C / H;
  const kv = options.kvCache === true;
  const withValues = options.values !== false;
  const g = new GraphBuilder();

  // Parameters, by their checkpoint names.
  for (const e of layout.entries) g.f32(e.name, weights.subarray(e.offset, e.offset + e.size), e.shape);

  // Constants.
  const zero = g.i64('const_zero', [0], []);
  const one = g.i64('const_one', [1], []);
  const axis0 = g.i64('const_axes0', [0]);
  const axis1 = g.i64('const_axes1', [1]);
  const split3 = g.i64('const_split_qkv', [C, C, C]);
  const toHeads = g.i64('const_shape_heads', [0, 0, H, hs]);
  const fromHeads = g.i64('const_shape_merge', [0, 0, C]);
  const scale = g.f32('const_attn_scale', Float32Array.of(1 / Math.sqrt(hs)), []);
  const masked = g.f32('const_masked', Float32Array.of(MASKED), []);
  const half = g.f32('const_half', Float32Array.of(0.5), []);
  const fOne = g.f32('const_f_one', Float32Array.of(1), []);
  const geluScale = g.f32('const_gelu_scale', Float32Array.of(Math.sqrt(2 / Math.PI)), []);
  const geluCubic = g.f32('const_gelu_cubic', Float32Array.of(0.044715), []);

  // Lengths: seq (new tokens), past (cached tokens), total = past + seq.
  const seqLen = g.node('Squeeze', [
    g.node('Shape', ['input_ids'], { start: { kind: 'int', v: 1 }, end: { kind: 'int', v: 2 } }),
    axis0,
  ]);
  const pastLen = kv
    ? g.node('Squeeze', [
        g.node('Shape', ['past_key_0'], { start: { kind: 'int', v: 2 }, end: { kind: 'int', v: 3 } }),
        axis0,
      ])
    : zero;
  const totalLen = kv ? g.node('Add', [pastLen, seqLen]) : seqLen;
  const qPos = g.node('Range', [pastLen, totalLen, one]); // (seq) absolute positions of the new tokens
  const kPos = kv ? g.node('Range', [zero, totalLen, one]) : qPos; // (total)
  const causal = g.node('LessOrEqual', [kPos, g.node('Unsqueeze', [qPos, axis1])]); // (seq, total): key ≤ query

  // Embeddings.
  let x = g.node('Add', [
    g.node('Gather', ['wte', 'input_ids'], { axis: { kind: 'int', v: 0 } }),
    g.node('Gather', ['wpe', qPos], { axis: { kind: 'int', v: 0 } }),
  ]);
  if (config.previousToken) {
    // The token before each input: previous_id (or -1), then input_ids but its last; -1 gives a
    // zero row, as the engine's gather outside the table does (ONNX Gather would wrap it).
    const sliceCols = (from: number, to: number, tag: string) =>
      g.node('Slice', [
        'input_ids',
        g.i64(`const_prev_from_${tag}`, [from]),
        g.i64(`const_prev_to_${tag}`, [to]),
        axis1,
      ]);
    const first = kv ? 'previous_id' : g.node('Sub', [g.node('Mul', [sliceCols(0, 1, 'first'), zero]), one]); // (batch, 1) of -1
    const prevIds = g.node('Concat', [first, sliceCols(0, -1, 'rest')], { axis: { kind: 'int', v: 1 } });
    const has = g.node('GreaterOrEqual', [prevIds, zero]);
    const emb = g.node('Gather', ['wte', g.node('Where', [has, prevIds, zero])], { axis: { kind: 'int', v: 0 } });
    const kept = g.node('Mul', [
      emb,
      g.node('Unsqueeze', [
        g.node('Cast', [has], { to: { kind: 'int', v: DataType.FLOAT } }),
        g.i64('const_axes_last', [-1]),
      ]),
    ]);
    x = g.node('Add', [x, g.node('MatMul', [kept, 'wprev'])]);
  }

  const layerNorm = (input: string, w: string, b: string) =>
    g.node('LayerNormalization', [input, w, b], {
      axis: { kind: 'int', v: -1 },
      epsilon: { kind: 'float', v: LAYER_NORM_EPS },
    });
  const linear = (input: string, w: string, b: string) => g.node('Add', [g.node('MatMul', [input, w]), b]);
  const perm = (p: number[]): Record<string, AttrValue> => ({ perm: { kind: 'ints', v: p } });

  for (let l = 0; l < L; l++) {
    const q = (n: string) => `h${l}.${n}`;
    // Attention.
    const qkv = linear(layerNorm(x, q('ln1.w'), q('ln1.b')), q('attn.qkv.w'), q('attn.qkv.b')); // (B, S, 3C)
    const sq = `attn${l}_q`,
      sk = `attn${l}_k`,
      sv = `attn${l}_v`;
    g.node('Split', [qkv, split3], { axis: { kind: 'int', v: -1 } }, [sq, sk, sv]);
    const heads = (t: string) => g.node('Transpose', [g.node('Reshape', [t, toHeads])], perm([0, 2, 1, 3])); // (B, H, S, hs)
    const qh = heads(sq);
    let kh = heads(sk);
    let vh = heads(sv);
    if (kv) {
      kh = g.node('Concat', [`past_key_${l}`, kh], { axis: { kind: 'int', v: 2 } }, [`present_key_${l}`]);
      vh = g.node('Concat', [`past_value_${l}`, vh], { axis: { kind: 'int', v: 2 } }, [`present_value_${l}`]);
    }
    const scores = g.node('Mul', [g.node('MatMul', [qh, g.node('Transpose', [kh], perm([0, 1, 3, 2]))]), scale]); // (B, H, S, total)
    const att = g.node('Softmax', [g.node('Where', [causal, scores, masked])], { axis: { kind: 'int', v: -1 } });
    const y = g.node('Reshape', [g.node('Transpose', [g.node('MatMul', [att, vh])], perm([0, 2, 1, 3])), fromHeads]); // (B, S, C)
    x = g.node('Add', [x, linear(y, q('attn.proj.w'), q('attn.proj.b'))]);
    // MLP with GELU, tanh form: ½ u (1 + tanh(√(2/π) (u + 0.044715 u³))).
    const fc = linear(layerNorm(x, q('ln2.w'), q('ln2.b')), q('mlp.fc.w'), q('mlp.fc.b'));
    const cube = g.node('Mul', [g.node('Mul', [fc, fc]), fc]);
    const inner = g.node('Mul', [g.node('Add', [fc, g.node('Mul', [cube, geluCubic])]), geluScale]);
    const gelu = g.node('Mul', [g.node('Mul', [fc, half]), g.node('Add', [g.node('Tanh', [inner]), fOne])]);
    x = g.node('Add', [x, linear(gelu, q('mlp.proj.w'), q('mlp.proj.b'))]);
  }

  const h = layerNorm(x, 'lnf.w', 'lnf.b');
  g.node('MatMul', [h, g.node('Transpose', ['wte'], perm([1, 0]))], undefined, ['logits']); // tied embeddings
  if (withValues) g.node('Add', [g.node('MatMul', [h, 'value.w']), 'value.b'], undefined, ['values']);

  const inputs: ValueInfo[] = [{ name: 'input_ids', dataType: DataType.INT64, dims: ['batch', 'seq'] }];
  if (kv && config.previousToken) inputs.push({ name: 'previous_id', dataType: DataType.INT64, dims: ['batch', 1] });
  const outputs: ValueInfo[] = [{ name: 'logits', dataType: DataType.FLOAT, dims: ['batch', 'seq', V] }];
  if (withValues) outputs.push({ name: 'values', dataType: DataType.FLOAT, dims: ['batch', 'seq', 1] });
  if (kv) {
    for (let l = 0; l < L; l++) {
      inputs.push({ name: `past_key_${l}`, dataType: DataType.FLOAT, dims: ['batch', H, 'past_seq', hs] });
      inputs.push({ name: `past_value_${l}`, dataType: DataType.FLOAT, dims: ['batch', H, 'past_seq', hs] });
    }
    for (let l = 0; l < L; l++) {
      outputs.push({ name: `present_key_${l}`, dataType: DataType.FLOAT, dims: ['batch', H, 'total_seq', hs] });
      outputs.push({ name: `present_value_${l}`, dataType: DataType.FLOAT, dims: ['batch', H, 'total_seq', hs] });
    }
  }

  const metadata: Record<string, string> = {
    'empathy_lab.config': JSON.stringify(config),
    'empathy_lab.kv_cache': kv ? '1' : '0',
    'empathy_lab.context_length': String(T),
  };
  if (checkpoint.tokenizer) metadata['empathy_lab.tokenizer'] = JSON.stringify(checkpoint.tokenizer);
  if (checkpoint.meta) metadata['empathy_lab.meta'] = JSON.stringify(checkpoint.meta);

  return encodeModel({
    irVersion: ONNX_IR_VERSION,
    opset: ONNX_OPSET,
    producerName: 'empathy-rl-lab',
    producerVersion: '0.1.0',
    docString: `Empathy RL Lab policy: GPT-2-style transformer, V=${V} T=${T} C=${C} L=${L} H=${H}; logits${withValues ? ', values' : ''}${kv ? ', KV cache' : ''}`,
    graph: {
      name: options.name ?? 'empathy_lab_policy',
      nodes: g.nodes,
      initializers: g.initializers,
      inputs,
      outputs,
    },
    metadata,
  });
}
