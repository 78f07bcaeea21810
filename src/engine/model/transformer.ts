/**
 * The policy: a decoder-only, pre-norm transformer with tied embeddings and a scalar value head,
 * written once against the Backend contract (GPT-2 / nanoGPT architecture, llm.c's explicit
 * forward and backward). Parameters, gradients and Adam moments each live in one arena laid out by
 * paramLayout(); every parameter is a view into it.
 *
 *   x = wte[ids] + wpe[pos]  (+ wte[ids shifted by one] · wprev with config.previousToken)
 *   for each block:  x = x + proj(attn(LN1(x)));  x = x + mlp(LN2(x))
 *   h = LNf(x);  logits = h · wteᵀ;  values = h · value.w + value.b
 *
 * Saved attention (TransformerOptions.savedAttention): a layer's attention probabilities, the
 * causal triangles of B·H·T(T+1)/2 values (`attentionSize`), grow with T² and are the largest
 * activation a training step keeps for backward at long contexts. 'f16' keeps them as packed
 * halves: the forward computes them in f32 into one scratch shared by the layers and saves a
 * `packHalf` copy per layer, so the forward's numbers (logits, values, losses) are the f32 ones
 * bit for bit; the backward uses the rounded probabilities (relative error ≤ 2^-11 each), for half
 * that memory.
 *
 * Recomputed, not saved: GELU(fc), (N, 4C) a layer. The forward writes it into one tensor the
 * layers share; the backward recomputes it from the saved fc with the same WGSL function as the
 * fc matmul's epilogue (the same bits: matmul's GPU test holds the fused GELU to the separate op
 * bit for bit), one elementwise pass a layer for (L − 1)·N·4C fewer floats kept.
 *
 * Shape legend: B batch, T tokens, N = B·T rows, C channels, H heads, V vocab.
 * Not here: sampling with a KV cache (sampler.ts), losses (the trainer supplies dLogits, dValues).
 *
 * Longer than ~400 lines on purpose: forward and backward of the one model mirror each other and are
 * read side by side (as in llm.c's train_gpt2.c); activations live in slabs.ts, decoding in sampler.ts.
 */
import { attentionSize, type AdamWOptions, type Backend, type MatmulOptions, type Tensor } from '../backend';
import { matmulBackward } from '../ops/matmul';
import { Rng } from '../rng';
import { paramLayout, type ModelConfig, type ParamLayout } from './config';
import { Slabs } from './slabs';

/** GPT-2 init: N(0, 0.02); residual projections scaled by 1/sqrt(2L); LayerNorm weight 1, biases 0. */
export function initParams(config: ModelConfig, seed: number | string): Float32Array {
  const layout = paramLayout(config);
  const rng = new Rng(seed);
  const out = new Float32Array(layout.total);
  const residualStd = 0.02 / Math.sqrt(2 * config.layers);
  for (const e of layout.entries) {
    const view = out.subarray(e.offset, e.offset + e.size);
    if (/(^|\.)ln(\d|f)\.w$/.test(e.name)) view.fill(1);
    else if (e.name.endsWith('.b')) view.fill(0);
    else {
      const std = /proj\.w$/.test(e.name) ? residualStd : 0.02;
      for (let i = 0; i < e.size; i++) view[i] = rng.normal() * std;
    }
  }
  return out;
}

/** How a forward pass reads its matmul weights: f32, or half copies (`bHalf`) with f32 or f16 arithmetic (decoding). */
export type WeightRead = Pick<MatmulOptions, 'bHalf' | 'math'>;

/** out (N, O) = (residual +) x (N, I) · w (I, O) + b (O): one matmul with the bias (and residual) in its epilogue. */
export function linear(
  be: Backend,
  out: Tensor,
  x: Tensor,
  w: Tensor,
  b: Tensor,
  residual?: Tensor,
  read: WeightRead = {},
): void {
  be.matmul(out, x, w, { bias: b, residual, ...read });
}

/**
 * Block l's MLP: out = residual + proj(GELU(fc(x))); fc and fcGelu (N, 4C) keep the activations for
 * backward. The fc matmul's epilogue adds the bias and writes GELU too, the proj matmul's adds its
 * bias and the residual stream (which may be out itself): two dispatches for the whole MLP and its
 * residual connection.
 */
export function mlp(
  be: Backend,
  p: Record<string, Tensor>,
  l: number,
  out: Tensor,
  fc: Tensor,
  fcGelu: Tensor,
  x: Tensor,
  residual: Tensor,
  read: WeightRead = {},
): void {
  be.matmul(fc, x, p[`h${l}.mlp.fc.w`], { bias: p[`h${l}.mlp.fc.b`], geluOut: fcGelu, ...read });
  linear(be, out, fcGelu, p[`h${l}.mlp.proj.w`], p[`h${l}.mlp.proj.b`], residual, read);
}

/** A forward pass's options. */
export interface ForwardOptions {
  /**
   * false: no backward follows (scoring, evaluation, the KL reference), so nothing is saved for
   * one. With f16 saved attention that spares each layer's packHalf copy; the outputs are the same
   * bits either way, and backward after such a pass throws. Default true.
   */
  grad?: boolean;
}

/** How a training step saves what backward needs: see the file header. */
export interface TransformerOptions {
  /** The attention probabilities kept for backward: f32 (default) or packed halves (half the memory). */
  savedAttention?: 'f32' | 'f16';
  /**
   * Inference only (a frozen reference policy, evaluation, a demo): no gradient or AdamW arenas
   * (3× the parameters' memory spared), and a forward keeps one set of layer activations that the
   * layers share, with no gradient scratch. Every forward is `grad: false`; backward, zeroGrads,
   * optimizerStep and the gradient and moment arenas throw.
   */
  frozen?: boolean;
}

interface LayerActs {
  ln1: Tensor;
  ln1Mean: Tensor;
  ln1Rstd: Tensor; // (N, C), (N), (N)
  qkv: Tensor; // (N, 3C)
  att: Tensor; // attentionSize (the causal triangles), or ⌈attentionSize / 2⌉ words of packed halves
  atty: Tensor; // (N, C) attention output, before the projection
  residMid: Tensor; // (N, C) after the attention residual
  ln2: Tensor;
  ln2Mean: Tensor;
  ln2Rstd: Tensor;
  fc: Tensor; // (N, 4C) before GELU
  residOut: Tensor; // (N, C) after the MLP residual
}

/** The gradient scratch of a backward pass (one set, reused by every layer). */
interface GradScratch {
  dResid: Tensor; // (N, C)
  dLn: Tensor; // (N, C)
  dAtty: Tensor; // (N, C)
  dQkv: Tensor; // (N, 3C)
  dFc: Tensor; // (N, 4C)
}

/** The gradient scratch of activations a backward may use: the last forward saved what it needs. */
function savedFor(a: Activations): GradScratch {
  if (!a.saved || !a.d) throw new Error('backward after a forward with { grad: false }: nothing was saved for it');
  return a.d;
}

/** Activations for one (B, T): views into the model's Slabs, made when the shape changes. */
class Activations {
  readonly posIds: Tensor; // (N) position of each row
  readonly resid0: Tensor; // (N, C) embeddings
  readonly tokEmb: Tensor; // (N, C)
  readonly posEmb: Tensor; // (N, C)
  /** config.previousToken: row n − 1's token embedding at row n (a zero row at t = 0), and the gathers' indices. */
  readonly prev: { emb: Tensor; shift: Tensor; unshift: Tensor } | null;
  readonly layers: LayerActs[];
  readonly lnf: Tensor;
  readonly lnfMean: Tensor;
  readonly lnfRstd: Tensor;
  /**
   * (N, 4C) GELU(fc), shared by the layers: the forward writes each layer's in turn (the MLP
   * projection reads it at once), the backward recomputes it from the layer's saved fc — the same
   * WGSL function as the matmul epilogue, so the same bits — instead of every layer keeping one.
   */
  readonly fcGelu: Tensor;
  readonly logits: Tensor; // (N, V)
  readonly values: Tensor; // (N, 1)
  /** Gradient scratch; null for a frozen model's (inference) activations. */
  readonly d: GradScratch | null;
  /** Whether the last forward saved what backward needs (ForwardOptions.grad). */
  saved = false;

  /**
   * `infer`: a frozen model's: every layer shares one LayerActs (a forward-only pass reads a layer's
   * activations only within that layer, and its input x, the previous residOut, is consumed before
   * the MLP overwrites it) and there is no gradient scratch.
   */
  constructor(
    be: Backend,
    slabs: Slabs,
    c: ModelConfig,
    readonly B: number,
    readonly T: number,
    halfAtt: boolean,
    infer = false,
  ) {
    const N = B * T;
    const C = c.channels;
    const probs = attentionSize({ B, H: c.heads, T });
    const att = [halfAtt ? Math.ceil(probs / 2) : probs];
    this.posIds = slabs.take('posIds', [N], 'i32');
    be.write(
      this.posIds,
      Int32Array.from({ length: N }, (_, n) => n % T),
    );
    const z = (key: string, shape: number[]) => slabs.take(key, shape);
    this.resid0 = z('resid0', [N, C]);
    this.tokEmb = z('tokEmb', [N, C]);
    this.posEmb = z('posEmb', [N, C]);
    if (c.previousToken) {
      // Gathers of rows within each sequence: an index outside [0, N) gives a zero row.
      const shift = slabs.take('prevShift', [N], 'i32');
      be.write(
        shift,
        Int32Array.from({ length: N }, (_, n) => (n % T === 0 ? -1 : n - 1)),
      );
      const unshift = slabs.take('prevUnshift', [N], 'i32');
      be.write(
        unshift,
        Int32Array.from({ length: N }, (_, n) => (n % T === T - 1 ? -1 : n + 1)),
      );
      this.prev = { emb: z('prevEmb', [N, C]), shift, unshift };
    } else this.prev = null;
    const layer = (l: string): LayerActs => ({
      ln1: z(`${l}.ln1`, [N, C]),
      ln1Mean: z(`${l}.ln1Mean`, [N]),
      ln1Rstd: z(`${l}.ln1Rstd`, [N]),
      qkv: z(`${l}.qkv`, [N, 3 * C]),
      att: z(`${l}.att`, att),
      atty: z(`${l}.atty`, [N, C]),
      residMid: z(`${l}.residMid`, [N, C]),
      ln2: z(`${l}.ln2`, [N, C]),
      ln2Mean: z(`${l}.ln2Mean`, [N]),
      ln2Rstd: z(`${l}.ln2Rstd`, [N]),
      fc: z(`${l}.fc`, [N, 4 * C]),
      residOut: z(`${l}.residOut`, [N, C]),
    });
    const shared = infer ? layer('shared') : null;
    this.layers = Array.from({ length: c.layers }, (_, l) => shared ?? layer(`h${l}`));
    this.fcGelu = z('fcGelu', [N, 4 * C]);
    this.lnf = z('lnf', [N, C]);
    this.lnfMean = z('lnfMean', [N]);
    this.lnfRstd = z('lnfRstd', [N]);
    this.logits = z('logits', [N, c.vocabSize]);
    this.values = z('values', [N, 1]);
    this.d = infer
      ? null
      : {
          dResid: z('dResid', [N, C]),
          dLn: z('dLn', [N, C]),
          dAtty: z('dAtty', [N, C]),
          dQkv: z('dQkv', [N, 3 * C]),
          dFc: z('dFc', [N, 4 * C]),
        };
  }
}

export class Transformer {
  readonly layout: ParamLayout;
  /** Parameter, gradient and Adam-moment arenas: (total) each. */
  readonly params: Tensor;
  /**
   * The gradient and AdamW arenas and the step guard of optimizerStep (the NaN and ±∞ counted in the
   * last step's checks, one value); null when frozen.
   */
  private readonly train: { grads: Tensor; adamM: Tensor; adamV: Tensor; guard: Tensor } | null;
  readonly p: Record<string, Tensor> = {};
  /** Views of the gradient arena per parameter (empty when frozen). */
  readonly g: Record<string, Tensor> = {};
  /** Inference only: see TransformerOptions.frozen. */
  readonly frozen: boolean;
  private released = false;
  /** Activation memory (see Slabs) and the current shape's views of it. */
  private readonly slabs: Slabs;
  private acts: Activations | null = null;
  private rowActs: { R: number; lnf: Tensor; logits: Tensor; values: Tensor; dLn: Tensor; rows: Tensor } | null = null;

  /** The attention probabilities saved for backward: 'f32' or packed halves ('f16'). */
  readonly savedAttention: 'f32' | 'f16';

  constructor(
    readonly be: Backend,
    readonly config: ModelConfig,
    weights: Float32Array,
    opts: TransformerOptions = {},
  ) {
    this.savedAttention = opts.savedAttention ?? 'f32';
    if (this.savedAttention !== 'f32' && this.savedAttention !== 'f16')
      throw new Error(`savedAttention must be 'f32' or 'f16', got ${String(this.savedAttention)}`);
    this.frozen = opts.frozen ?? false;
    this.slabs = new Slabs(be);
    if (this.frozen && opts.savedAttention)
      throw new Error('a frozen model saves nothing for a backward: savedAttention does not apply');
    this.layout = paramLayout(config);
    if (weights.length !== this.layout.total)
      throw new Error(`weights have ${weights.length} values; this model needs ${this.layout.total}`);
    const total = this.layout.total;
    this.params = be.fromArray(weights, [total]);
    this.train = this.frozen
      ? null
      : { grads: be.zeros([total]), adamM: be.zeros([total]), adamV: be.zeros([total]), guard: be.zeros([1]) };
    for (const e of this.layout.entries) {
      this.p[e.name] = be.view(this.params, e.offset, e.shape);
      if (this.train) this.g[e.name] = be.view(this.train.grads, e.offset, e.shape);
    }
  }

  private trainable(): NonNullable<Transformer['train']> {
    if (this.released) throw new Error('this model was released');
    if (!this.train) throw new Error('this model is frozen (inference only): it has no gradients or optimizer state');
    return this.train;
  }

  /** The gradient arena (total). */
  get grads(): Tensor {
    return this.trainable().grads;
  }

  /** AdamW's first moments (total). */
  get adamM(): Tensor {
    return this.trainable().adamM;
  }

  /** AdamW's second moments (total). */
  get adamV(): Tensor {
    return this.trainable().adamV;
  }

  /**
   * Give every device buffer back to the backend's pool (weights, arenas, activations), for the
   * next model to reuse; the model is unusable afterwards. Idempotent.
   */
  release(): void {
    if (this.released) return;
    this.slabs.release();
    this.acts = null;
    this.rowActs = null;
    this.released = true;
    this.be.release(this.params);
    if (this.train) for (const t of Object.values(this.train)) this.be.release(t);
  }

  static create(be: Backend, config: ModelConfig, seed: number | string, opts: TransformerOptions = {}): Transformer {
    return new Transformer(be, config, initParams(config, seed), opts);
  }

  private activations(B: number, T: number): Activations {
    if (T > this.config.contextLength)
      throw new Error(`sequence of ${T} tokens is longer than the context (${this.config.contextLength})`);
    if (this.released) throw new Error('this model was released');
    if (!this.acts || this.acts.B !== B || this.acts.T !== T) {
      this.acts = new Activations(this.be, this.slabs, this.config, B, T, this.savedAttention === 'f16', this.frozen);
    }
    return this.acts;
  }

  /**
   * Forward over ids (B·T, i32, row-major (B, T)). Returns logits (N, V) and values (N, 1); they
   * stay valid until the next forward (every shape shares the same memory).
   */
  forward(ids: Tensor, B: number, T: number, o: ForwardOptions = {}): { logits: Tensor; values: Tensor } {
    const a = this.trunk(ids, B, T, !this.frozen && (o.grad ?? true));
    this.head(a.logits, a.values, a.lnf);
    return { logits: a.logits, values: a.values };
  }

  /**
   * Forward over ids (B·T) that keeps only some rows' outputs (the policy rows of RL): the final
   * hidden states at `rows` (R, i32 flat indices into B·T) are gathered and projected, so the
   * logits (R, V) cost R/N of the full head's. Returns logits (R, V), values (R, 1) and the final
   * hidden states the two heads read (`hidden`, LNf's output, (R, C)), valid until the next
   * forwardRows.
   */
  forwardRows(
    ids: Tensor,
    B: number,
    T: number,
    rows: Tensor,
    o: ForwardOptions = {},
  ): { logits: Tensor; values: Tensor; hidden: Tensor } {
    const a = this.trunk(ids, B, T, !this.frozen && (o.grad ?? true));
    const R = rows.shape[0];
    const be = this.be;
    if (!this.rowActs || this.rowActs.R !== R) {
      const C = this.config.channels;
      const z = (key: string, shape: number[]) => this.slabs.take(key, shape);
      this.rowActs = {
        R,
        lnf: z('rows.lnf', [R, C]),
        logits: z('rows.logits', [R, this.config.vocabSize]),
        values: z('rows.values', [R, 1]),
        dLn: z('rows.dLn', [R, C]),
        rows,
      };
    }
    const r = this.rowActs;
    r.rows = rows;
    be.embedding(r.lnf, a.lnf, rows); // gather: lnf rows (R, C)
    this.head(r.logits, r.values, r.lnf);
    return { logits: r.logits, values: r.values, hidden: r.lnf };
  }

  /** Backward after forwardRows with the same ids and rows: dLogits (R, V), dValues (R, 1). ACCUMULATES. */
  backwardRows(ids: Tensor, dLogits: Tensor | null, dValues: Tensor | null): void {
    const a = this.acts;
    const r = this.rowActs;
    if (!a || !r) throw new Error('backwardRows before forwardRows');
    const d = savedFor(a);
    this.be.fill(r.dLn, 0);
    this.headBackward(r.dLn, r.lnf, dLogits, dValues);
    this.be.fill(d.dLn, 0);
    this.be.embeddingBackward(d.dLn, r.dLn, r.rows); // scatter back to the rows
    this.trunkBackward(ids);
  }

  /** logits (N, V) = h · wteᵀ (tied embeddings); values (N, 1) = h · w_v + b_v. */
  private head(logits: Tensor, values: Tensor, h: Tensor): void {
    const be = this.be;
    be.matmul(logits, h, this.p.wte, { transB: true });
    be.matmul(values, h, this.p['value.w'], { bias: this.p['value.b'] });
  }

  /** dH += the head's backward; the head's parameter gradients accumulate. */
  private headBackward(dH: Tensor, h: Tensor, dLogits: Tensor | null, dValues: Tensor | null): void {
    const be = this.be;
    if (dLogits) matmulBackward(be, dH, this.g.wte, dLogits, h, this.p.wte, { transB: true });
    if (dValues) {
      be.biasBackward(this.g['value.b'], dValues);
      matmulBackward(be, dH, this.g['value.w'], dValues, h, this.p['value.w'], {});
    }
  }

  /** Embeddings, blocks and the final LayerNorm; with `grad`, the activations stay for backward. */
  private trunk(ids: Tensor, B: number, T: number, grad: boolean): Activations {
    const be = this.be;
    const { channels: C, heads: H } = this.config;
    const a = this.activations(B, T);
    const p = this.p;
    be.embedding(a.tokEmb, p.wte, ids);
    be.embedding(a.posEmb, p.wpe, a.posIds);
    be.add(a.resid0, a.tokEmb, a.posEmb);
    if (a.prev) {
      be.embedding(a.prev.emb, a.tokEmb, a.prev.shift); // wte[ids[t − 1]], zero at t = 0
      be.matmul(a.resid0, a.prev.emb, p.wprev, { residual: a.resid0 });
    }
    let x = a.resid0;
    // f16 saved attention: the probabilities go to one f32 scratch (the layers take turns; attention
    // writes every entry, so it is not cleared) and each layer keeps its packed copy; the scratch
    // goes back to the pool before backward needs its own. Without grad nothing is packed.
    const att32 =
      this.savedAttention === 'f16' && this.config.layers > 0 ? be.scratch([attentionSize({ B, H, T })]) : null;
    a.saved = false;
    for (let l = 0; l < this.config.layers; l++) {
      const L = a.layers[l];
      const param = (n: string) => p[`h${l}.${n}`]; // layer l's parameter n
      be.layerNorm(L.ln1, L.ln1Mean, L.ln1Rstd, x, param('ln1.w'), param('ln1.b'));
      linear(be, L.qkv, L.ln1, param('attn.qkv.w'), param('attn.qkv.b'));
      be.attention(L.atty, att32 ?? L.att, L.qkv, { B, T, C, H });
      if (att32 && grad) be.packHalf(L.att, att32);
      linear(be, L.residMid, L.atty, param('attn.proj.w'), param('attn.proj.b'), x); // x + proj(atty)
      be.layerNorm(L.ln2, L.ln2Mean, L.ln2Rstd, L.residMid, param('ln2.w'), param('ln2.b'));
      mlp(be, p, l, L.residOut, L.fc, a.fcGelu, L.ln2, L.residMid);
      x = L.residOut;
    }
    if (att32) be.release(att32);
    be.layerNorm(a.lnf, a.lnfMean, a.lnfRstd, x, p['lnf.w'], p['lnf.b']);
    a.saved = grad;
    return a;
  }

  /**
   * Backward from dLogits (N, V) and dValues (N, 1) (either may be null) after a forward with the
   * same ids; ACCUMULATES into the gradient arena (zero it with zeroGrads() once per step).
   */
  backward(ids: Tensor, dLogits: Tensor | null, dValues: Tensor | null): void {
    const be = this.be;
    const a = this.acts;
    if (!a) throw new Error('backward before forward');
    const d = savedFor(a);
    be.fill(d.dLn, 0);
    this.headBackward(d.dLn, a.lnf, dLogits, dValues);
    this.trunkBackward(ids);
  }

  /** Backward from d.dLn (the gradient at the final LayerNorm's output) through the blocks. */
  private trunkBackward(ids: Tensor): void {
    const be = this.be;
    const a = this.acts!;
    const d = savedFor(a);
    const { channels: C, heads: H } = this.config;
    const { B, T } = a;
    const p = this.p;
    const g = this.g;
    const lastX = this.config.layers > 0 ? a.layers[this.config.layers - 1].residOut : a.resid0;
    be.fill(d.dResid, 0);
    be.layerNormBackward(d.dResid, g['lnf.w'], g['lnf.b'], d.dLn, lastX, a.lnfMean, a.lnfRstd, p['lnf.w']);
    for (let l = this.config.layers - 1; l >= 0; l--) {
      const L = a.layers[l];
      const x = l > 0 ? a.layers[l - 1].residOut : a.resid0;
      const param = (n: string) => p[`h${l}.${n}`]; // layer l's parameter n
      const grad = (n: string) => g[`h${l}.${n}`]; // its gradient
      // MLP: residOut = residMid + proj(gelu(fc(LN2(residMid)))); dResid flows through unchanged.
      // dFc = gelu'(fc) ⊙ (dResid · projᵀ) in one matmul epilogue; the dA steps overwrite (no zero fills).
      be.biasBackward(grad('mlp.proj.b'), d.dResid);
      be.gelu(a.fcGelu, L.fc); // recomputed, not saved: see Activations.fcGelu
      matmulBackward(
        be,
        d.dFc,
        grad('mlp.proj.w'),
        d.dResid,
        a.fcGelu,
        param('mlp.proj.w'),
        {},
        { overwrite: true, geluGradOf: L.fc },
      );
      be.biasBackward(grad('mlp.fc.b'), d.dFc);
      matmulBackward(be, d.dLn, grad('mlp.fc.w'), d.dFc, L.ln2, param('mlp.fc.w'), {}, { overwrite: true });
      be.layerNormBackward(
        d.dResid,
        grad('ln2.w'),
        grad('ln2.b'),
        d.dLn,
        L.residMid,
        L.ln2Mean,
        L.ln2Rstd,
        param('ln2.w'),
      );
      // Attention: residMid = x + proj(attn(LN1(x))).
      be.biasBackward(grad('attn.proj.b'), d.dResid);
      matmulBackward(be, d.dAtty, grad('attn.proj.w'), d.dResid, L.atty, param('attn.proj.w'), {}, { overwrite: true });
      be.fill(d.dQkv, 0);
      be.attentionBackward(d.dQkv, d.dAtty, L.qkv, L.att, { B, T, C, H }, { attHalf: this.savedAttention === 'f16' });
      be.biasBackward(grad('attn.qkv.b'), d.dQkv);
      matmulBackward(be, d.dLn, grad('attn.qkv.w'), d.dQkv, L.ln1, param('attn.qkv.w'), {}, { overwrite: true });
      be.layerNormBackward(d.dResid, grad('ln1.w'), grad('ln1.b'), d.dLn, x, L.ln1Mean, L.ln1Rstd, param('ln1.w'));
    }
    be.embeddingBackward(g.wte, d.dResid, ids);
    be.embeddingBackward(g.wpe, d.dResid, a.posIds);
    if (a.prev) {
      // dPrev = dResid0 · wprevᵀ (into dLn), moved back one row (into dAtty), scattered to wte.
      matmulBackward(be, d.dLn, g.wprev, d.dResid, a.prev.emb, p.wprev, {}, { overwrite: true });
      be.embedding(d.dAtty, d.dLn, a.prev.unshift);
      be.embeddingBackward(g.wte, d.dAtty, ids);
    }
  }

  zeroGrads(): void {
    this.be.fill(this.trainable().grads, 0);
  }

  /**
   * One AdamW step on the whole arena, queued behind the backward with no readback: the step guard
   * counts the NaN and ±∞ values of `mustBeFinite` (the gradient norm, the losses) on the device,
   * and AdamW skips itself (weights and moments untouched) when there is any. `stepSkipped()` says
   * afterwards whether it did.
   *
   * `rates` gives the value head (value.w, value.b: the arena's tail) and the rest (the trunk, the
   * policy) their own learning rates, like two optimizer parameter groups: a rate of 0 leaves that
   * part and its moments untouched. Both default to `o.lr` (one AdamW call over the arena).
   */
  optimizerStep(
    o: Omit<AdamWOptions, 'skipIf'>,
    mustBeFinite: readonly Tensor[],
    rates: { trunk?: number; head?: number } = {},
  ): void {
    const be = this.be;
    const { grads, adamM, adamV, guard } = this.trainable();
    be.fill(guard, 0);
    for (const t of mustBeFinite) be.flagNonFinite(guard, t);
    const trunk = rates.trunk ?? o.lr;
    const head = rates.head ?? o.lr;
    if (trunk === head) {
      if (trunk > 0) be.adamw(this.params, grads, adamM, adamV, { ...o, lr: trunk, skipIf: guard });
      return;
    }
    const at = this.layout.byName['value.w'].offset; // the head is the arena's tail, aligned for views
    const part = (from: number, size: number) =>
      [this.params, grads, adamM, adamV].map((t) => be.view(t, from, [size])) as [Tensor, Tensor, Tensor, Tensor];
    for (const [lr, from, size] of [
      [trunk, 0, at],
      [head, at, this.layout.total - at],
    ] as const) {
      if (lr > 0) be.adamw(...part(from, size), { ...o, lr, skipIf: guard });
    }
  }

  /** Whether the last optimizerStep was skipped for a non-finite value (a readback). */
  async stepSkipped(): Promise<boolean> {
    return (await this.be.read(this.trainable().guard))[0] !== 0;
  }

  /** The whole parameter arena on the host (for checkpoints). */
  readParams(): Promise<Float32Array> {
    if (this.released) throw new Error('this model was released');
    return this.be.read(this.params);
  }
}
