/**
 * A tiny two-layer network written once against the Backend contract, used to show that a whole
 * training loop (forward, backward, clipping, AdamW) gives the same losses on both backends.
 *
 *   ids (N) -> embedding (V, C) -> LayerNorm -> Linear C->F -> GELU -> Linear F->V -> cross-entropy
 *
 * Not the policy model (that is model/): just enough layers to exercise every op's backward in a
 * loop. Everything is allocated before the loop, so a step allocates nothing; the loop reads back
 * only the loss and the gradient norm.
 */
import { sizeOf, VIEW_ALIGN, type Backend, type Tensor } from '../backend';
import { matmulBackward } from '../ops/matmul';
import { Rng } from '../rng';

export interface TinyNetConfig {
  V: number;
  C: number;
  F: number;
  N: number;
  steps: number;
  lr: number;
  /** Global gradient-norm clip; small enough that the first steps are clipped. */
  maxNorm: number;
  seed: string;
}

export const TINY_NET: TinyNetConfig = {
  V: 11,
  C: 8,
  F: 16,
  N: 12,
  steps: 6,
  lr: 0.05,
  maxNorm: 1.0,
  seed: 'tiny-net',
};

export interface TinyNetResult {
  /** Mean cross-entropy before each update. */
  losses: number[];
  /** Pre-clip gradient norm of each step. */
  gradNorms: number[];
}

export async function trainTinyNet(
  be: Backend,
  cfg: TinyNetConfig = TINY_NET,
  onStep?: (step: number) => void,
): Promise<TinyNetResult> {
  const { V, C, F, N } = cfg;
  const rng = new Rng(cfg.seed);
  const init = (n: number, s: number) => Float32Array.from({ length: n }, () => rng.normal() * s);
  const ids = Int32Array.from({ length: N }, () => rng.int(0, V - 1));
  const targets = Int32Array.from(ids, (id, i) => (i === 3 ? -1 : (id * 3 + 1) % V)); // one ignored row

  // Parameters, gradients and Adam moments each in one arena with named, aligned offsets, so
  // clipping and AdamW are one dispatch each over everything.
  const shapes: Record<string, number[]> = {
    wte: [V, C],
    lnw: [C],
    lnb: [C],
    w1: [C, F],
    b1: [F],
    w2: [F, V],
    b2: [V],
  };
  const initial: Record<string, Float32Array> = {
    wte: init(V * C, 0.5),
    lnw: Float32Array.from({ length: C }, () => 1),
    lnb: new Float32Array(C),
    w1: init(C * F, 0.3),
    b1: new Float32Array(F),
    w2: init(F * V, 0.3),
    b2: new Float32Array(V),
  };
  const names = Object.keys(shapes);
  const offsets: Record<string, number> = {};
  let total = 0;
  for (const k of names) {
    offsets[k] = total;
    total += Math.ceil(sizeOf(shapes[k]) / VIEW_ALIGN) * VIEW_ALIGN;
  }
  const hostParams = new Float32Array(total);
  for (const k of names) hostParams.set(initial[k], offsets[k]);
  const params = be.fromArray(hostParams, [total]);
  const gradArena = be.zeros([total]);
  const mArena = be.zeros([total]);
  const vArena = be.zeros([total]);
  const p: Record<string, Tensor> = {};
  const g: Record<string, Tensor> = {};
  for (const k of names) {
    p[k] = be.view(params, offsets[k], shapes[k]);
    g[k] = be.view(gradArena, offsets[k], shapes[k]);
  }
  const tIds = be.fromArray(ids, [N]);
  const tTargets = be.fromArray(targets, [N]);
  // Activations (forward) and their gradients (backward).
  const emb = be.zeros([N, C]); // (N, C)
  const ln = be.zeros([N, C]);
  const mean = be.zeros([N]);
  const rstd = be.zeros([N]);
  const h1 = be.zeros([N, F]); // (N, F) pre-activation
  const a1 = be.zeros([N, F]); // (N, F) after GELU
  const logits = be.zeros([N, V]); // (N, V)
  const losses = be.zeros([N]);
  const dLosses = be.fromArray(
    Float32Array.from(targets, (t) => (t < 0 ? 0 : 1 / N)),
    [N],
  );
  const dLogits = be.zeros([N, V]);
  const dA1 = be.zeros([N, F]);
  const dH1 = be.zeros([N, F]);
  const dLn = be.zeros([N, C]);
  const dEmb = be.zeros([N, C]);
  const norm = be.zeros([1]);
  const grads = [dLogits, dA1, dH1, dLn, dEmb];

  const out: TinyNetResult = { losses: [], gradNorms: [] };
  for (let step = 1; step <= cfg.steps; step++) {
    // forward
    be.embedding(emb, p.wte, tIds);
    be.layerNorm(ln, mean, rstd, emb, p.lnw, p.lnb);
    be.matmul(h1, ln, p.w1);
    be.addBias(h1, h1, p.b1);
    be.gelu(a1, h1);
    be.matmul(logits, a1, p.w2);
    be.addBias(logits, logits, p.b2);
    be.crossEntropy(losses, logits, tTargets);
    // backward (every backward accumulates, so zero first)
    be.fill(gradArena, 0);
    for (const t of grads) be.fill(t, 0);
    be.crossEntropyBackward(dLogits, logits, tTargets, dLosses);
    be.biasBackward(g.b2, dLogits);
    matmulBackward(be, dA1, g.w2, dLogits, a1, p.w2, {});
    be.geluBackward(dH1, h1, dA1);
    be.biasBackward(g.b1, dH1);
    matmulBackward(be, dLn, g.w1, dH1, ln, p.w1, {});
    be.layerNormBackward(dEmb, g.lnw, g.lnb, dLn, emb, mean, rstd, p.lnw);
    be.embeddingBackward(g.wte, dEmb, tIds);
    be.clipGradNorm(norm, gradArena, cfg.maxNorm);
    be.adamw(params, gradArena, mArena, vArena, {
      lr: cfg.lr,
      beta1: 0.9,
      beta2: 0.999,
      eps: 1e-8,
      weightDecay: 0.01,
      step,
    });
    out.gradNorms.push((await be.read(norm))[0]);
    const l = await be.read(losses);
    out.losses.push(l.reduce((s, x) => s + x, 0) / (N - 1));
    onStep?.(step);
  }
  return out;
}
