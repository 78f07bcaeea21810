/**
 * Running an exported policy with onnxruntime-web: session creation with an execution-provider
 * fallback (the caller learns which EP it got), incremental decoding through past/present K/V, and
 * text generation with the engine's sampler. Takes the `onnxruntime-web` module as an argument, so
 * the same code runs in Node (tests) and in the browser (where ortBrowser.ts configures it first).
 */
import type * as Ort from 'onnxruntime-web';
import type { ModelConfig } from '../engine/model/config';
import { sampleToken, type SamplingOptions } from '../engine/model/sampler';
import type { Rng } from '../engine/rng';

export type OrtModule = typeof Ort;
export type ExecutionProvider = 'webgpu' | 'wasm';

export interface PolicySession {
  session: Ort.InferenceSession;
  /** The execution provider the session was created with. */
  ep: ExecutionProvider;
  /** Why earlier providers in the list were not used (empty when the first worked). */
  fallbacks: string[];
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A session on the first provider of `eps` that accepts the model. */
export async function createPolicySession(
  ort: OrtModule,
  model: Uint8Array,
  eps: readonly ExecutionProvider[] = ['webgpu', 'wasm'],
): Promise<PolicySession> {
  const fallbacks: string[] = [];
  for (const ep of eps) {
    if (ep === 'webgpu' && (typeof navigator === 'undefined' || !('gpu' in navigator))) {
      fallbacks.push('webgpu: navigator.gpu is not available here');
      continue;
    }
    try {
      const session = await ort.InferenceSession.create(model, {
        executionProviders: [ep],
        graphOptimizationLevel: 'all',
        logSeverityLevel: 3,
      });
      return { session, ep, fallbacks };
    } catch (e) {
      fallbacks.push(`${ep}: ${message(e)}`);
    }
  }
  throw new Error(`onnxruntime-web could not load the model on ${eps.join(' or ')}: ${fallbacks.join('; ')}`);
}

/** Empty past K/V (past_seq = 0) for a fresh KV-cache session. */
function emptyPast(ort: OrtModule, config: ModelConfig, B: number): Record<string, Ort.Tensor> {
  const hs = config.channels / config.heads;
  const feeds: Record<string, Ort.Tensor> = {};
  for (let l = 0; l < config.layers; l++) {
    feeds[`past_key_${l}`] = new ort.Tensor('float32', new Float32Array(0), [B, config.heads, 0, hs]);
    feeds[`past_value_${l}`] = new ort.Tensor('float32', new Float32Array(0), [B, config.heads, 0, hs]);
  }
  return feeds;
}

function presentAsPast(config: ModelConfig, out: Ort.InferenceSession.OnnxValueMapType): Record<string, Ort.Tensor> {
  const feeds: Record<string, Ort.Tensor> = {};
  for (let l = 0; l < config.layers; l++) {
    feeds[`past_key_${l}`] = out[`present_key_${l}`] as Ort.Tensor;
    feeds[`past_value_${l}`] = out[`present_value_${l}`] as Ort.Tensor;
  }
  return feeds;
}

/** config.previousToken: the previous_id input, the token before each row's first new one (-1: none). */
function previousId(ort: OrtModule, config: ModelConfig, before: readonly number[]): Record<string, Ort.Tensor> {
  return config.previousToken ? { previous_id: ids64(ort, before, [before.length, 1]) } : {};
}

const ids64 = (ort: OrtModule, ids: ArrayLike<number>, dims: number[]) =>
  new ort.Tensor(
    'int64',
    BigInt64Array.from(Array.from(ids), (v) => BigInt(v)),
    dims,
  );

/**
 * Logits (B·T·V, row-major (B, T)) of ids (B·T) through a KV-cache model, feeding the tokens in
 * chunks of the given sizes (summing to T): checks the cache path against a one-shot forward.
 */
export async function runLogits(
  ort: OrtModule,
  ps: PolicySession,
  config: ModelConfig,
  ids: Int32Array,
  B: number,
  T: number,
  chunks: number[],
): Promise<Float32Array> {
  if (chunks.reduce((a, b) => a + b, 0) !== T)
    throw new Error(`runLogits: chunks sum to ${chunks.reduce((a, b) => a + b, 0)}, not ${T}`);
  const V = config.vocabSize;
  const all = new Float32Array(B * T * V);
  let past = emptyPast(ort, config, B);
  let pos = 0;
  for (const n of chunks) {
    const chunk = new Int32Array(B * n);
    for (let b = 0; b < B; b++) for (let k = 0; k < n; k++) chunk[b * n + k] = ids[b * T + pos + k];
    const before = Array.from({ length: B }, (_, b) => (pos > 0 ? ids[b * T + pos - 1] : -1));
    const out = await ps.session.run({
      ...past,
      ...previousId(ort, config, before),
      input_ids: ids64(ort, chunk, [B, n]),
    });
    const lg = out.logits.data as Float32Array;
    for (let b = 0; b < B; b++) all.set(lg.subarray(b * n * V, (b + 1) * n * V), (b * T + pos) * V);
    past = presentAsPast(config, out);
    pos += n;
  }
  return all;
}

export interface GenerateOptions {
  maxNewTokens: number;
  stop: readonly number[];
  sampling: SamplingOptions;
  rng: Rng;
}

/**
 * Continue one prompt (batch 1) with a KV-cache model: the prompt in one call, then a token per
 * call, stopping at a stop token (included) or the context's end. The caller keeps the prompt
 * within the context. Returns the new tokens.
 */
export async function generateOnnx(
  ort: OrtModule,
  ps: PolicySession,
  config: ModelConfig,
  prompt: readonly number[],
  opts: GenerateOptions,
): Promise<number[]> {
  if (prompt.length === 0) throw new Error('generateOnnx: empty prompt');
  if (prompt.length >= config.contextLength)
    throw new Error(`the prompt has ${prompt.length} tokens; the context holds ${config.contextLength}`);
  const V = config.vocabSize;
  let out = await ps.session.run({
    ...emptyPast(ort, config, 1),
    ...previousId(ort, config, [-1]),
    input_ids: ids64(ort, prompt, [1, prompt.length]),
  });
  let previous = prompt[prompt.length - 1];
  let length = prompt.length;
  const generated: number[] = [];
  for (let n = 0; n < opts.maxNewTokens; n++) {
    const data = out.logits.data as Float32Array;
    const last = data.subarray(data.length - V);
    const tok = sampleToken(last, opts.sampling, opts.rng);
    generated.push(tok);
    if (opts.stop.includes(tok) || length + 1 >= config.contextLength) break;
    out = await ps.session.run({
      ...presentAsPast(config, out),
      ...previousId(ort, config, [previous]),
      input_ids: ids64(ort, [tok], [1, 1]),
    });
    previous = tok;
    length++;
  }
  return generated;
}
