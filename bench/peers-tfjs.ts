/**
 * The training-step peer of `npm run bench -- --peers`: our transformer (src/engine/model/
 * transformer.ts) written with TensorFlow.js ops on its WebGPU backend, as a person would write it
 * to train in a browser. Same architecture, parameter for parameter (it is built from our
 * parameter arena, so both start from the same weights):
 *
 *   x = wte[ids] + wpe[pos]
 *   per block: x += proj(causalSelfAttention(LN1(x)));  x += proj(GELU_tanh(fc(LN2(x))))
 *   logits = LNf(x) · wteᵀ                    (tied embeddings; LayerNorm: biased variance, eps 1e-5)
 *   loss = mean over rows of −log softmax(logits)[target]    (next-token cross-entropy)
 *
 * and the same update as SftTrainer.trainStep: global gradient-norm clipping (torch's
 * clip_grad_norm_, eps 1e-6), then AdamW exactly as ops/adamw.ts (decoupled decay, bias-corrected
 * moments), written with TFJS ops (TFJS ships Adam but no AdamW). The value head is not used by
 * the loss, so it is not a TFJS variable (our engine's AdamW also decays its two tensors: noise).
 * Bench code only: TFJS is a dev dependency and never reaches the app. The CPU benchmark runs the
 * same class on TFJS's wasm backend (bench/peers-tfjs-wasm.ts starts that backend).
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-backend-webgpu';
import { paramLayout, type ModelConfig } from '../src/engine/model/config';

export interface AdamWSettings {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  maxGradNorm: number;
}

/** Put TFJS on its WebGPU backend; returns the backend's name (throws if WebGPU is not taken). */
export async function tfjsWebGpu(): Promise<string> {
  const ok = await tf.setBackend('webgpu');
  await tf.ready();
  if (!ok || tf.getBackend() !== 'webgpu')
    throw new Error(`TensorFlow.js did not start its WebGPU backend (got ${tf.getBackend()})`);
  return tf.getBackend();
}

let instances = 0;

export class TfjsTransformer {
  readonly vars: Record<string, tf.Variable> = {};
  private readonly m: Record<string, tf.Variable> = {};
  private readonly v: Record<string, tf.Variable> = {};
  private readonly names: string[];
  private step = 0;
  private readonly ids: tf.Tensor1D;
  private readonly pos: tf.Tensor1D;
  private readonly targets: tf.Tensor1D;
  private readonly mask: tf.Tensor2D;
  /** TFJS variable names are global: each instance gets its own prefix. */
  private readonly prefix = `peer${++instances}`;

  /**
   * weights: our parameter arena (paramLayout(config)); ids, targets: (B·T) row-major, every
   * target in [0, V) (the loss is the mean over all rows).
   */
  constructor(
    readonly config: ModelConfig,
    weights: Float32Array,
    readonly B: number,
    readonly T: number,
    ids: Int32Array,
    targets: Int32Array,
  ) {
    const layout = paramLayout(config);
    this.names = layout.entries.map((e) => e.name).filter((n) => !n.startsWith('value.'));
    for (const n of this.names) {
      const e = layout.byName[n];
      const data = weights.slice(e.offset, e.offset + e.size);
      this.vars[n] = tf.variable(tf.tensor(data, e.shape), true, `${this.prefix}.p.${n}`);
      this.m[n] = tf.variable(tf.zeros(e.shape), false, `${this.prefix}.m.${n}`);
      this.v[n] = tf.variable(tf.zeros(e.shape), false, `${this.prefix}.v.${n}`);
    }
    this.ids = tf.tensor1d(ids, 'int32');
    this.pos = tf.tensor1d(
      Int32Array.from({ length: B * T }, (_, n) => n % T),
      'int32',
    );
    this.targets = tf.tensor1d(targets, 'int32');
    // Additive causal mask: 0 on and below the diagonal, −1e9 above (exp gives exactly 0).
    const mask = new Float32Array(T * T);
    for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) mask[i * T + j] = -1e9;
    this.mask = tf.tensor2d(mask, [T, T]);
  }

  private layerNorm(x: tf.Tensor2D, w: tf.Tensor, b: tf.Tensor): tf.Tensor2D {
    const mean = tf.mean(x, -1, true);
    const xc = tf.sub(x, mean);
    const variance = tf.mean(tf.square(xc), -1, true);
    return tf.add(tf.mul(tf.mul(xc, tf.rsqrt(tf.add(variance, 1e-5))), w), b) as tf.Tensor2D;
  }

  private linear(x: tf.Tensor2D, w: tf.Tensor, b: tf.Tensor): tf.Tensor2D {
    return tf.add(tf.matMul(x, w as tf.Tensor2D), b) as tf.Tensor2D;
  }

  private gelu(x: tf.Tensor): tf.Tensor {
    const u = tf.mul(Math.sqrt(2 / Math.PI), tf.add(x, tf.mul(0.044715, tf.pow(x, 3))));
    return tf.mul(tf.mul(0.5, x), tf.add(1, tf.tanh(u)));
  }

  /** (B, T, C) → (B, H, T, hs) for one of q, k, v. */
  private heads(x: tf.Tensor): tf.Tensor4D {
    const { B, T } = this;
    const { channels: C, heads: H } = this.config;
    return tf.transpose(tf.reshape(x, [B, T, H, C / H]), [0, 2, 1, 3]);
  }

  /** Logits (B·T, V) of the current weights. */
  logits(): tf.Tensor2D {
    const p = this.vars;
    const { B, T } = this;
    const { channels: C, heads: H, layers: L } = this.config;
    const N = B * T;
    let x = tf.add(tf.gather(p.wte, this.ids), tf.gather(p.wpe, this.pos)) as tf.Tensor2D;
    for (let l = 0; l < L; l++) {
      const q = (n: string) => p[`h${l}.${n}`];
      const ln1 = this.layerNorm(x, q('ln1.w'), q('ln1.b'));
      const qkv = tf.reshape(this.linear(ln1, q('attn.qkv.w'), q('attn.qkv.b')), [B, T, 3 * C]);
      const [qq, kk, vv] = tf.split(qkv, 3, 2);
      const scores = tf.add(
        tf.mul(tf.matMul(this.heads(qq), this.heads(kk), false, true), 1 / Math.sqrt(C / H)),
        this.mask,
      );
      const y = tf.matMul(tf.softmax(scores), this.heads(vv)); // (B, H, T, hs)
      const atty = tf.reshape(tf.transpose(y, [0, 2, 1, 3]), [N, C]) as tf.Tensor2D;
      x = tf.add(x, this.linear(atty, q('attn.proj.w'), q('attn.proj.b'))) as tf.Tensor2D;
      const ln2 = this.layerNorm(x, q('ln2.w'), q('ln2.b'));
      const h = this.gelu(this.linear(ln2, q('mlp.fc.w'), q('mlp.fc.b'))) as tf.Tensor2D;
      x = tf.add(x, this.linear(h, q('mlp.proj.w'), q('mlp.proj.b'))) as tf.Tensor2D;
    }
    const h = this.layerNorm(x, p['lnf.w'], p['lnf.b']);
    return tf.matMul(h, p.wte as tf.Tensor2D, false, true);
  }

  /** Mean next-token cross-entropy over the B·T rows (a scalar tensor). */
  loss(): tf.Scalar {
    const logp = tf.logSoftmax(this.logits());
    const picked = tf.sum(tf.mul(logp, tf.oneHot(this.targets, this.config.vocabSize)), -1);
    return tf.neg(tf.mean(picked));
  }

  /** The loss at the current weights, read back. */
  async lossValue(): Promise<number> {
    const l = tf.tidy(() => this.loss());
    const [value] = await l.data();
    l.dispose();
    return value;
  }

  /**
   * One training step: forward, backward (TFJS's tape), global-norm clip, AdamW; reads back the
   * step's loss (the loss before the update), as our trainer does.
   */
  async trainStep(o: AdamWSettings): Promise<number> {
    this.step++;
    const t = this.step;
    const bc1 = 1 - o.beta1 ** t;
    const bc2Sqrt = Math.sqrt(1 - o.beta2 ** t);
    const decay = 1 - o.lr * o.weightDecay;
    const stepSize = o.lr / bc1;
    const lossT = tf.tidy(() => {
      const vars = this.names.map((n) => this.vars[n]);
      const { value, grads } = tf.variableGrads(() => this.loss(), vars);
      // Σ‖g‖² by pairwise adds: tf.addN over every tensor binds more storage buffers than a
      // WebGPU shader stage may have (8 by default) and its pipeline fails to build.
      let parts: tf.Tensor[] = this.names.map((n) => tf.sum(tf.square(grads[`${this.prefix}.p.${n}`])));
      while (parts.length > 1)
        parts = parts
          .map((p, i) => (i % 2 === 0 ? (i + 1 < parts.length ? tf.add(p, parts[i + 1]) : p) : null))
          .filter((p): p is tf.Tensor => p !== null);
      const sumSq = parts[0];
      const coef = tf.minimum(1, tf.div(o.maxGradNorm, tf.add(tf.sqrt(sumSq), 1e-6)));
      for (const n of this.names) {
        const g = tf.mul(grads[`${this.prefix}.p.${n}`], coef);
        const m = tf.add(tf.mul(o.beta1, this.m[n]), tf.mul(1 - o.beta1, g));
        const v = tf.add(tf.mul(o.beta2, this.v[n]), tf.mul(1 - o.beta2, tf.square(g)));
        this.m[n].assign(m);
        this.v[n].assign(v);
        const denom = tf.add(tf.div(tf.sqrt(v), bc2Sqrt), o.eps);
        this.vars[n].assign(tf.sub(tf.mul(this.vars[n], decay), tf.div(tf.mul(stepSize, m), denom)));
      }
      return value;
    });
    const [value] = await lossT.data();
    lossT.dispose();
    return value;
  }

  dispose(): void {
    for (const n of this.names) for (const t of [this.vars[n], this.m[n], this.v[n]]) t.dispose();
    for (const t of [this.ids, this.pos, this.targets, this.mask]) t.dispose();
  }
}
