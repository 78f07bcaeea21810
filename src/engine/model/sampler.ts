/**
 * Batched sampling with a KV cache: many dialogues at once, each with its own length. A call to
 * `step` appends S new tokens per sequence (a prompt chunk, or one sampled token) and returns the
 * logits at each sequence's last new token. Sampling itself (temperature, top-k, top-p) runs on the
 * host with the run's seeded generator, on the B × V logits read back per step.
 *
 * Shape legend: B sequences, S new tokens per call, maxT cache length (the model's context),
 * C channels, V vocab.
 */
import type { Backend, Tensor } from '../backend';
import type { Rng } from '../rng';
import { Slabs } from './slabs';
import { linear, mlp, type Transformer, type WeightRead } from './transformer';

export interface SamplingOptions {
  /** 0 = greedy (argmax). */
  temperature: number;
  /** Keep only the k most likely tokens; 0 = all. */
  topK: number;
  /** Keep the smallest set of tokens whose probability reaches p; 1 = all. */
  topP: number;
}

export const GREEDY: SamplingOptions = { temperature: 0, topK: 0, topP: 1 };

/** The candidates' order, the spec: by logit, largest first, ties by id (so never by the sort's stability). */
export function candidateOrderRef(logits: ArrayLike<number>): number[] {
  return Array.from({ length: logits.length }, (_, i) => i).sort((a, b) => logits[b] - logits[a] || a - b);
}

const keyF32 = new Float32Array(1);
const keyU32 = new Uint32Array(keyF32.buffer);
// Scratch of the radix sort and of sampleToken, grown on demand (one sampling at a time per thread).
let keysA = new Uint32Array(0);
let keysB = new Uint32Array(0);
let orderA = new Uint32Array(0);
let orderB = new Uint32Array(0);
let probs = new Float64Array(0);
const counts = new Uint32Array(256);

/**
 * candidateOrderRef's order for f32 logits (what every backend and onnxruntime hand back), into
 * shared scratch that the next call overwrites. Each logit's bits become one 32-bit key that is
 * smaller for a larger logit (±0 one key, as 0 − (−0) = 0 ties in the comparator; a NaN the largest,
 * so last), and an LSD radix sort of the ids 0..V−1 by their keys, a byte a pass and stable, keeps
 * ties in id order: the comparator's order exactly, in O(V) without a comparison. A pass whose byte
 * is the same for every key moves nothing and is skipped.
 */
function candidateOrderF32(logits: Float32Array): Uint32Array {
  const V = logits.length;
  if (keysA.length < V) {
    keysA = new Uint32Array(V);
    keysB = new Uint32Array(V);
    orderA = new Uint32Array(V);
    orderB = new Uint32Array(V);
  }
  let k = keysA;
  let o = orderA;
  let k2 = keysB;
  let o2 = orderB;
  for (let i = 0; i < V; i++) {
    const x = logits[i];
    if (Number.isNaN(x)) k[i] = 0xffffffff;
    else {
      keyF32[0] = x + 0; // −0 → +0
      const b = keyU32[0];
      const asc = b & 0x80000000 ? ~b >>> 0 : (b | 0x80000000) >>> 0; // increasing with the value
      k[i] = 0xfffffffe - asc; // decreasing with the value, below the NaN key
    }
    o[i] = i;
  }
  for (let shift = 0; shift < 32; shift += 8) {
    counts.fill(0);
    for (let i = 0; i < V; i++) counts[(k[i] >>> shift) & 255]++;
    if (counts[(k[0] >>> shift) & 255] === V) continue;
    let at = 0;
    for (let d = 0; d < 256; d++) {
      const c = counts[d];
      counts[d] = at;
      at += c;
    }
    for (let i = 0; i < V; i++) {
      const key = k[i];
      const to = counts[(key >>> shift) & 255]++;
      k2[to] = key;
      o2[to] = o[i];
    }
    [k, k2] = [k2, k];
    [o, o2] = [o2, o];
  }
  return o.subarray(0, V);
}

/** candidateOrderRef's order, fast for f32 logits (candidateOrderF32); other arrays take the spec's path. */
export function candidateOrder(logits: ArrayLike<number>): number[] {
  if (!(logits instanceof Float32Array)) return candidateOrderRef(logits);
  return Array.from(candidateOrderF32(logits));
}

/** One token from one row of logits. Deterministic given the generator's state. */
export function sampleToken(logits: ArrayLike<number>, opts: SamplingOptions, rng: Rng): number {
  const V = logits.length;
  if (opts.temperature <= 0) {
    let best = 0;
    for (let i = 1; i < V; i++) if (logits[i] > logits[best]) best = i;
    return best;
  }
  // The candidates by logit, largest first; their weights summed in that order, then walked.
  const idx: ArrayLike<number> = logits instanceof Float32Array ? candidateOrderF32(logits) : candidateOrderRef(logits);
  let n = opts.topK > 0 && opts.topK < V ? opts.topK : V;
  if (probs.length < n) probs = new Float64Array(Math.max(n, V));
  const max = logits[idx[0]];
  let total = 0;
  for (let k = 0; k < n; k++) total += probs[k] = Math.exp((logits[idx[k]] - max) / opts.temperature);
  if (opts.topP < 1) {
    let acc = 0;
    let keep = 0;
    while (keep < n && acc < opts.topP * total) acc += probs[keep++];
    n = Math.max(1, keep);
    total = 0;
    for (let k = 0; k < n; k++) total += probs[k];
  }
  let r = rng.next() * total;
  for (let k = 0; k < n; k++) {
    r -= probs[k];
    if (r < 0) return idx[k];
  }
  return idx[n - 1];
}

/** How a decoding session stores its caches and reads and multiplies its weights (each by default as the backend prefers; `math`: 'f32'). */
export interface DecodePrecision {
  cache?: 'f32' | 'f16';
  weights?: 'f32' | 'f16';
  math?: 'f32' | 'f16';
}

/** The weights a decoding step reads through a matmul (the rest, embeddings and norms, stay f32). */
function matmulWeightNames(layers: number): string[] {
  const per = ['attn.qkv.w', 'attn.proj.w', 'mlp.fc.w', 'mlp.proj.w'];
  return ['wte', ...Array.from({ length: layers }, (_, l) => per.map((n) => `h${l}.${n}`)).flat()];
}

/**
 * Per-layer K and V caches for B sequences plus the activations of one cached step. The caches are
 * f32, or f16 (packed halves: half the memory and the bytes a step reads; k and v rounded to half,
 * the arithmetic f32); by default what the backend prefers (Backend.defaultKvCache). The matmul
 * weights are read as f32, or (`weights: 'f16'`) from half copies of the f32 master weights made
 * when the session starts (half the bytes of every weight read; the arithmetic f32), by default as
 * Backend.defaultDecodeWeights says. A session sees the weights as they were when it started.
 * With half weights, `math: 'f16'` also computes the matmuls in half arithmetic (MatmulOptions.math:
 * activations rounded to halves, runs of 4 products summed in f16, f32 sums; needs `shader-f16` on
 * WebGPU; opt-in); everything else stays f32.
 */
export class KvSession {
  readonly k: Tensor[];
  readonly v: Tensor[];
  readonly cache: 'f32' | 'f16';
  readonly weights: 'f32' | 'f16';
  readonly math: 'f32' | 'f16';
  /** The parameters a step reads: the model's, with the matmul weights swapped for half copies under `weights: 'f16'`. */
  private readonly params: Record<string, Tensor>;
  private halfCopies: Tensor[];
  /** How every matmul of a step reads its weight. */
  private readonly read: WeightRead;
  /** Tokens already in each sequence's cache. */
  readonly lengths: Int32Array;
  /** config.previousToken: each sequence's tokens so far (a step reads the one before its first). */
  private readonly history: Int32Array[] | null;
  private stepActs: { S: number; t: Record<string, Tensor> } | null = null;
  /** The steps' activations: grow-only buffers (a prefill's S differs from a decoding step's). */
  private readonly slabs: Slabs;
  private readonly be: Backend;

  constructor(
    readonly model: Transformer,
    readonly B: number,
    opts: DecodePrecision = {},
  ) {
    this.be = model.be;
    const { layers, contextLength: T, channels: C, heads: H } = model.config;
    const oddHead = (C / H) % 2 !== 0; // packed halves need an even head size
    if (opts.cache === 'f16' && oddHead)
      throw new Error(`an f16 KV cache needs an even head size; this model's is ${C / H}`);
    this.cache = oddHead ? 'f32' : (opts.cache ?? this.be.defaultKvCache);
    // Half copies pack each weight's rows (all of width C, 3C or 4C) two values a word: C must be even.
    if (opts.weights === 'f16' && C % 2 !== 0)
      throw new Error(`f16 decoding weights need an even channel count; this model has ${C}`);
    this.weights = C % 2 !== 0 ? 'f32' : (opts.weights ?? this.be.defaultDecodeWeights);
    if (opts.math === 'f16') {
      if (this.weights !== 'f16')
        throw new Error(
          `f16 arithmetic reads half copies of the weights: ask for weights 'f16' too${C % 2 !== 0 ? ` (this model's channel count ${C} is odd, so it has none)` : ''}`,
        );
      if (!this.be.hasF16Math)
        throw new Error(`f16 arithmetic needs a GPU with the shader-f16 feature; ${this.be.description} has none`);
    }
    this.math = opts.math ?? 'f32';
    this.read = { bHalf: this.weights === 'f16', math: this.math };
    const halves =
      this.weights === 'f16'
        ? matmulWeightNames(layers).map((name) => {
            const w = model.p[name];
            const half = this.be.zeros([...w.shape.slice(0, -1), w.shape[w.shape.length - 1] / 2]);
            this.be.packHalf(half, w);
            return [name, half] as const;
          })
        : [];
    this.halfCopies = halves.map(([, t]) => t);
    this.params = { ...model.p, ...Object.fromEntries(halves) };
    const shape = this.cache === 'f16' ? [B, T, C / 2] : [B, T, C];
    this.k = Array.from({ length: layers }, () => this.be.zeros(shape));
    this.v = Array.from({ length: layers }, () => this.be.zeros(shape));
    this.lengths = new Int32Array(B);
    this.history = model.config.previousToken ? Array.from({ length: B }, () => new Int32Array(T)) : null;
    this.slabs = new Slabs(this.be, { ladder: true });
  }

  private acts(S: number): Record<string, Tensor> {
    if (this.stepActs?.S === S) return this.stepActs.t;
    const { channels: C, vocabSize: V } = this.model.config;
    const N = this.B * S;
    const z = (key: string, shape: number[], dtype: 'f32' | 'i32' = 'f32') => this.slabs.take(key, shape, dtype);
    const t = {
      ids: z('ids', [N], 'i32'),
      pos: z('pos', [N], 'i32'),
      start: z('start', [this.B], 'i32'),
      len: z('len', [this.B], 'i32'),
      tok: z('tok', [N, C]),
      posEmb: z('posEmb', [N, C]),
      x: z('x', [N, C]),
      ln: z('ln', [N, C]),
      mean: z('mean', [N]),
      rstd: z('rstd', [N]),
      qkv: z('qkv', [N, 3 * C]),
      atty: z('atty', [N, C]),
      fc: z('fc', [N, 4 * C]),
      fcGelu: z('fcGelu', [N, 4 * C]),
      last: z('last', [this.B], 'i32'),
      ...(this.history ? { prevIds: z('prevIds', [N], 'i32'), prevEmb: z('prevEmb', [N, C]) } : {}),
      lnLast: z('lnLast', [this.B, C]),
      logits: z('logits', [this.B, V]),
    };
    this.stepActs = { S, t };
    return t;
  }

  /**
   * Append tokens[b] (at most S of them, S = the longest) to each sequence; return, for each b, the
   * logits (V) after its last appended token (a zero row where tokens[b] is empty).
   */
  async step(tokens: readonly (readonly number[])[]): Promise<Float32Array[]> {
    const be = this.be;
    const m = this.model;
    const { channels: C, heads: H, contextLength: maxT, vocabSize: V } = m.config;
    if (tokens.length !== this.B) throw new Error(`step: ${tokens.length} sequences for a session of ${this.B}`);
    const S = Math.max(1, ...tokens.map((t) => t.length));
    const a = this.acts(S);
    const ids = new Int32Array(this.B * S);
    const pos = new Int32Array(this.B * S);
    const len = new Int32Array(this.B);
    // The row of each sequence's last appended token; -1 (a zero row) where it appends nothing.
    const last = new Int32Array(this.B);
    // config.previousToken: the token before each appended one (-1, a zero row, before the first).
    const prevIds = this.history ? new Int32Array(this.B * S).fill(-1) : null;
    for (let b = 0; b < this.B; b++) {
      if (this.lengths[b] + tokens[b].length > maxT) {
        throw new Error(
          `sequence ${b} would reach ${this.lengths[b] + tokens[b].length} tokens; the context holds ${maxT}`,
        );
      }
      len[b] = tokens[b].length;
      last[b] = len[b] > 0 ? b * S + len[b] - 1 : -1;
      for (let s = 0; s < S; s++) {
        ids[b * S + s] = s < len[b] ? tokens[b][s] : 0;
        pos[b * S + s] = Math.min(this.lengths[b] + s, maxT - 1);
      }
      if (prevIds && this.history) {
        const h = this.history[b];
        for (let s = 0; s < len[b]; s++) {
          const at = this.lengths[b] + s;
          if (at > 0) prevIds[b * S + s] = s > 0 ? tokens[b][s - 1] : h[at - 1];
          h[at] = tokens[b][s];
        }
      }
    }
    be.write(a.ids, ids);
    be.write(a.pos, pos);
    be.write(a.start, this.lengths);
    be.write(a.len, len);
    be.write(a.last, last);
    const p = this.params;
    const read = this.read;
    be.embedding(a.tok, m.p.wte, a.ids); // the f32 table: p.wte may be the LM head's half copy
    be.embedding(a.posEmb, p.wpe, a.pos);
    be.add(a.x, a.tok, a.posEmb);
    if (prevIds) {
      // As the training forward: x += wte[previous token] · wprev (f32 tables, residual epilogue).
      be.write(a.prevIds, prevIds);
      be.embedding(a.prevEmb, m.p.wte, a.prevIds);
      be.matmul(a.x, a.prevEmb, m.p.wprev, { residual: a.x });
    }
    for (let l = 0; l < m.config.layers; l++) {
      const param = (n: string) => p[`h${l}.${n}`]; // layer l's parameter n
      be.layerNorm(a.ln, a.mean, a.rstd, a.x, param('ln1.w'), param('ln1.b'));
      linear(be, a.qkv, a.ln, param('attn.qkv.w'), param('attn.qkv.b'), undefined, read);
      be.attentionCached(a.atty, this.k[l], this.v[l], a.qkv, a.start, a.len, {
        B: this.B,
        S,
        maxT,
        C,
        H,
        cache: this.cache,
      });
      linear(be, a.x, a.atty, param('attn.proj.w'), param('attn.proj.b'), a.x, read); // x += proj(atty), in place
      be.layerNorm(a.ln, a.mean, a.rstd, a.x, param('ln2.w'), param('ln2.b'));
      mlp(be, p, l, a.x, a.fc, a.fcGelu, a.ln, a.x, read);
    }
    be.layerNorm(a.ln, a.mean, a.rstd, a.x, p['lnf.w'], p['lnf.b']);
    // Only the last appended position of each sequence is sampled from: project those B rows, not
    // all B·S (a prefill of 100 windows of 512 tokens would otherwise hold 100·512·V logits).
    be.embedding(a.lnLast, a.ln, a.last);
    be.matmul(a.logits, a.lnLast, p.wte, { transB: true, ...read }); // logits: (B, V)
    const all = await be.read(a.logits);
    const out: Float32Array[] = [];
    for (let b = 0; b < this.B; b++) {
      this.lengths[b] += len[b];
      out.push(len[b] > 0 ? all.slice(b * V, (b + 1) * V) : new Float32Array(V));
    }
    return out;
  }

  /**
   * Cut sequence b back to its first `length` tokens: its next step appends at `length`, over what
   * followed (cache rows past a sequence's length are never read).
   */
  rewind(b: number, length: number): void {
    if (!(Number.isInteger(length) && length >= 0 && length <= this.lengths[b]))
      throw new Error(`rewind: sequence ${b} holds ${this.lengths[b]} tokens; it cannot be cut back to ${length}`);
    this.lengths[b] = length;
  }

  /** Forget sequence b: its next step starts again at position 0 (old cache rows are never read). */
  reset(b: number): void {
    this.lengths[b] = 0;
  }

  release(): void {
    for (const t of [...this.k, ...this.v, ...this.halfCopies]) this.be.release(t);
    this.halfCopies = [];
    this.slabs.release();
    this.stepActs = null;
  }
}

/**
 * Continue each prompt with up to maxNewTokens sampled tokens, stopping a sequence at a stop token
 * (included in its output) or at the context's end. Returns the new tokens per sequence.
 */
export async function generate(
  model: Transformer,
  prompts: readonly (readonly number[])[],
  opts: { maxNewTokens: number; stop: readonly number[]; sampling: SamplingOptions; rng: Rng } & DecodePrecision,
): Promise<number[][]> {
  const session = new KvSession(model, prompts.length, opts);
  try {
    const out = prompts.map(() => [] as number[]);
    const done = prompts.map(() => false);
    let logits = await session.step(prompts);
    for (let n = 0; n < opts.maxNewTokens; n++) {
      const next = prompts.map((_, b) => {
        if (done[b]) return [];
        const tok = sampleToken(logits[b], opts.sampling, opts.rng);
        out[b].push(tok);
        if (opts.stop.includes(tok) || session.lengths[b] + 1 >= model.config.contextLength) done[b] = true;
        return done[b] ? [] : [tok];
      });
      if (done.every(Boolean)) break;
      logits = await session.step(next);
    }
    return out;
  } finally {
    session.release();
  }
}
