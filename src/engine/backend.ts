/**
 * The op contract: one interface, two backends (`cpu`: Float32Array reference and fallback;
 * `webgpu`: the product). Every model, optimiser and RL computation is written once against
 * `Backend` and runs on either.
 *
 * Conventions (llm.c style):
 * - Outputs first, then inputs, then options. Shapes are row-major; the last dim is contiguous.
 * - Forward ops OVERWRITE their outputs. Backward ops ACCUMULATE (`+=`) into every gradient they
 *   produce, so the caller zeroes gradients once per step and residual branches just add up.
 * - An op never aliases an output with one of its inputs unless its doc says "in place".
 * - Work may be queued (webgpu): only `read` waits for results. `write` orders itself after all
 *   previously queued work.
 * - No atomics in reductions: the same inputs on the same device give bit-identical outputs.
 *
 * Shape legend: B batch, T tokens, C channels, H heads, V vocab, N rows (B*T), M/K/N matmul dims.
 * Pure TypeScript: no DOM, no React.
 *
 * Longer than ~400 lines on purpose: it is the whole contract in one place. Each op's doc comment
 * is its specification, and a reader (or a new backend) needs them together, with the option types
 * beside the methods that take them.
 */

export type DType = 'f32' | 'i32';
export type BackendName = 'cpu' | 'webgpu' | 'wasm';

export interface Tensor {
  readonly shape: readonly number[];
  /** Number of elements (product of shape). */
  readonly size: number;
  readonly dtype: DType;
}

export interface MatmulOptions {
  /** Use Aᵀ: `a` is stored (…, K, M). */
  transA?: boolean;
  /** Use Bᵀ: `b` is stored (…, N, K). */
  transB?: boolean;
  /** out += result instead of out = result (gradient accumulation). */
  accumulate?: boolean;
  /** Kernel choice on webgpu (`rows`: at most 8 rows of op(a)); `auto` picks by shape. Ignored on cpu. */
  variant?: 'auto' | 'naive' | 'tiled' | 'regs' | 'regs8' | 'rows';
  /**
   * Epilogue: add bias (N), broadcast over rows, after the product (and after `accumulate`'s add):
   * the same numbers as matmul then addBias(out, out, bias), in one pass.
   */
  bias?: Tensor;
  /**
   * Epilogue: also write geluOut (shape of out) = gelu(out), out keeping the pre-activation that
   * geluBackward needs: the same numbers as a following gelu(geluOut, out).
   */
  geluOut?: Tensor;
  /**
   * Epilogue for the backward through GELU: the product is multiplied elementwise by
   * gelu'(geluGradOf) (shape of out, the saved pre-activation) before `accumulate` adds it: the same
   * numbers as the product into a scratch then geluBackward(out, geluGradOf, scratch).
   */
  geluGradOf?: Tensor;
  /**
   * `b` holds IEEE halves packed two to a 32-bit word along its contiguous (last) dim (`packHalf`):
   * its shape is op(b)'s stored shape with the last dim halved (that dim must be even). The values
   * are read as f32 and the arithmetic is f32, so the result has the bits of the f32 matmul on b's
   * halves, with half the bytes of b read.
   */
  bHalf?: boolean;
  /**
   * Epilogue for a residual connection: out = residual + (product (+ bias)), `residual` of out's size,
   * or out itself to add in place (x += proj(y)): the same numbers as the product (and bias) into a
   * scratch then addInto(residual, scratch), without the scratch and the extra pass. Not with
   * `accumulate`, `geluOut` or `geluGradOf`.
   */
  residual?: Tensor;
  /**
   * The product's arithmetic. 'f32' (default). 'f16', with `bHalf` and not `transA`: half arithmetic
   * (WebGPU: needs `shader-f16`): op(a)'s values rounded to halves (clamped to ±65504 first), and
   * for each output every run of 4 consecutive k (0–3, 4–7, …) multiplied and summed in f16, left
   * to right, the runs added into an f32 sum in k order; the epilogue stays f32. A device may fuse
   * the multiply-adds of a run (FMA), so the result is held to the CPU backend's (which rounds each
   * product and each add to half, left to right) by an error bound, not bit for bit. A product
   * beyond ±65504 overflows to ±Infinity. Every kernel has an f16 version, all giving the same
   * bits, so `auto` chooses as for f32 (rows for M ≤ 8, naive below one tile, else the kernel
   * `tuneMatmuls` timed fastest for the shape) without the choice moving a result.
   */
  math?: 'f32' | 'f16';
}

export interface AttentionShape {
  B: number;
  T: number;
  C: number;
  /** Number of heads; C % H === 0. */
  H: number;
}

/**
 * `n` rounded up to a coarse ladder of sizes: multiples of 64 up to 4,096, then 8 steps an octave
 * (at most 12.5% more). For memory whose size changes from call to call (scratch, the grow-only
 * buffers of work done per minibatch): released and taken again at a nearby size, it is the same
 * size, so the pool, keyed by exact size, can serve it.
 */
export function ladderSize(n: number): number {
  if (n <= 4096) return Math.max(64, Math.ceil(n / 64) * 64);
  const step = 2 ** (Math.floor(Math.log2(n)) - 3);
  return Math.ceil(n / step) * step;
}

/**
 * How many probabilities attention saves: the causal lower triangle of each (b, h), row t holding
 * t + 1 of them, B·H·T(T+1)/2 in all (the entries above the diagonal, always 0, are not stored).
 * Probability (b, h, t, t2 ≤ t) is at (b·H + h)·T(T+1)/2 + t(t+1)/2 + t2.
 */
export function attentionSize({ B, H, T }: Pick<AttentionShape, 'B' | 'H' | 'T'>): number {
  return (B * H * T * (T + 1)) / 2;
}

export interface CachedAttentionShape {
  B: number;
  /** New tokens per sequence in this call. */
  S: number;
  /** Cache length (the model's context). */
  maxT: number;
  C: number;
  H: number;
  /**
   * How the caches store k and v: 'f32' (default; B·maxT·C values each) or 'f16': B·maxT·C / 2
   * 32-bit words, two IEEE halves each (WGSL's core pack2x16float, no shader-f16 needed; the head
   * size must be even). New k and v are rounded to half (clamped to ±65504); the arithmetic stays f32.
   */
  cache?: 'f32' | 'f16';
}

export interface AdamWOptions {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** 1-based step count, for bias correction. */
  step: number;
  /**
   * The step guard: where given (one value, usually filled by flagNonFinite), the step is skipped
   * entirely (param, m and v untouched) when its value is not 0. The check runs on the device, so a
   * trainer can queue the step without reading the loss or the gradient norm back first.
   */
  skipIf?: Tensor;
}

/** PPO/GRPO policy-loss settings (ops/policyloss.ts; equations in docs/ALGORITHMS.md). */
export interface PolicyLossOptions {
  /** ε_low: the ratio is clipped below at 1 − clipLow (RLVER: 0.2). */
  clipLow: number;
  /** ε_high: the ratio is clipped above at 1 + clipHigh (RLVER: 0.2; DAPO's clip-higher: 0.28). */
  clipHigh: number;
  /** c_H: the loss subtracts entropyCoef · entropy (RLVER: 0.001). */
  entropyCoef: number;
  /** c_KL: the loss adds klCoef · KL(π_θ ‖ π_ref) (RLVER: 0, no KL). Non-zero needs refLogprobs. */
  klCoef: number;
  /** The per-token KL estimator: k1 = log π_θ − log π_ref, k3 = verl's "low_var_kl". */
  klEstimator: 'k1' | 'k3';
  /** Weight of every masked token: 1 / (masked tokens in the batch) gives the token-mean. */
  lossScale: number;
}

/** PPO's clipped value loss (ops/policyloss.ts). */
export interface ValueLossOptions {
  /** c: the new value is clipped to oldValue ± clip (RLVER: 0.5); null: no clipping. */
  clip: number | null;
  /** Weight of every masked token: 1 / (masked tokens in the batch) gives the token-mean. */
  lossScale: number;
}

/** Generalised advantage estimation (ops/advantage.ts). */
export interface GaeOptions {
  /** γ, the discount per response token (RLVER: 1). */
  gamma: number;
  /** λ, the GAE trace decay (RLVER: 1). */
  lambda: number;
}

/** Group-relative advantages over dialogues that share a prompt (ops/advantage.ts). */
export interface GroupAdvantageOptions {
  /** grpo: (r − group mean) / (group std + 1e-6); rloo: r − mean of the others in the group. */
  estimator: 'grpo' | 'rloo';
  /** grpo only; false drops the division by the std (Dr. GRPO). Default true. */
  scaleByStd?: boolean;
}

export interface Backend extends BackendOps {
  readonly name: BackendName;
  /** Human-readable description of where the math runs ("CPU (JavaScript)", "NVIDIA … via WebGPU"). */
  readonly description: string;
  /**
   * The KV caches' default storage (KvSession): 'f16' on a GPU whose adapter offers `shader-f16`
   * (hardware with native half conversions, where a decoding step reads the caches from memory),
   * 'f32' elsewhere (the CPU reference, software adapters: there a step is compute-bound and
   * unpacking only adds work). Either can be asked for anywhere.
   */
  readonly defaultKvCache: 'f32' | 'f16';
  /**
   * The decoding steps' default matmul weights (KvSession `weights`): half copies of the f32
   * masters where the KV caches default to f16 (at a small batch a step mostly reads weights from
   * memory), f32 elsewhere, for the same reasons.
   */
  readonly defaultDecodeWeights: 'f32' | 'f16';
  /**
   * Whether `math: 'f16'` (MatmulOptions, KvSession) can run here: the CPU backend always (emulated,
   * for tests), WebGPU with `shader-f16`. It is opt-in everywhere until a real GPU times it faster
   * than f32 (the peers benchmark has rows for it); on Mesa's lavapipe, a CPU with no half
   * arithmetic, it is about half as fast as f32 from batch 32 (`npm run bench:dawn`).
   */
  readonly hasF16Math: boolean;

  // ---- memory -------------------------------------------------------------------------------
  /** A zero-filled tensor (from the pool where possible). */
  zeros(shape: readonly number[], dtype?: DType): Tensor;
  /**
   * A tensor with undefined contents (pooled memory, not cleared), for an output every element of
   * which is written before it is read; the CPU backend gives zeros.
   */
  scratch(shape: readonly number[], dtype?: DType): Tensor;
  /** A tensor holding a copy of `data` (Float32Array -> f32, Int32Array -> i32). */
  fromArray(data: Float32Array | Int32Array, shape: readonly number[]): Tensor;
  /** Overwrite a tensor's contents from the host; ordered after all queued work. */
  write(t: Tensor, data: Float32Array | Int32Array): void;
  /** Copy a tensor to the host, after all queued work. */
  read(t: Tensor): Promise<Float32Array>;
  readInt(t: Tensor): Promise<Int32Array>;
  /** Give the tensor's memory back to the pool; the handle must not be used again. */
  release(t: Tensor): void;
  /**
   * A tensor sharing `base`'s memory from element `offset` on (for parameter, gradient and Adam
   * arenas with named offsets). On webgpu the offset must be a multiple of VIEW_ALIGN elements.
   * Releasing a view is a no-op; the base owns the memory.
   */
  view(base: Tensor, offset: number, shape: readonly number[]): Tensor;
  /** Wait until all queued work is done. */
  sync(): Promise<void>;
}

/**
 * The ops of the contract: every method here has one implementation per backend in
 * ops/registry.ts, and each backend's class routes it there (no backend writes an op method).
 */
export interface BackendOps {
  // ---- elementwise --------------------------------------------------------------------------
  fill(t: Tensor, value: number): void;
  /**
   * t.flat[index[i]] = value for every i, in place; entries of index (i32) outside [0, t.size)
   * are skipped. Sets banned logits before a softmax (constrained decoding's mask).
   */
  fillAt(t: Tensor, index: Tensor, value: number): void;
  /** dst = src (same size). */
  copy(dst: Tensor, src: Tensor): void;
  /** out = a + b (same size; the residual add). Backward: both grads += dOut (use addInto). */
  add(out: Tensor, a: Tensor, b: Tensor): void;
  /** dst += alpha * src (same size). */
  addInto(dst: Tensor, src: Tensor, alpha?: number): void;
  /** t *= s, in place. */
  scale(t: Tensor, s: number): void;
  /**
   * out = x's values as IEEE halves packed two to a 32-bit word (element 2i in the low half), out an
   * f32 tensor of ⌈x.size / 2⌉ words (an odd size leaves the last word's high half 0); values beyond
   * ±65504 are clamped to it first. For `MatmulOptions.bHalf` (half copies of f32 master weights)
   * and the attention probabilities a training step saves in halves.
   */
  packHalf(out: Tensor, x: Tensor): void;

  // ---- linear algebra -----------------------------------------------------------------------
  /**
   * out (…, M, N) = op(a) · op(b). Leading (batch) dims of `a` and `out` must match; `b` either has
   * the same batch dims or is 2-D and broadcast over the batch (only with transA = false).
   * Backward (see ops/matmul/backward.ts `matmulBackward`): dA += dOut·op(b)ᵀ, dB += op(a)ᵀ·dOut, written
   * with the transposed variants, so no explicit transpose is ever materialised.
   */
  matmul(out: Tensor, a: Tensor, b: Tensor, opts?: MatmulOptions): void;
  /** out (N, C) = x (N, C) + bias (C), broadcast over rows. `out` may be `x` (in place). */
  addBias(out: Tensor, x: Tensor, bias: Tensor): void;
  /** dBias (C) += Σ_rows dOut (N, C). */
  biasBackward(dBias: Tensor, dOut: Tensor): void;

  // ---- embedding ----------------------------------------------------------------------------
  /** out (N, C) = table (V, C) [ids (N)]. Ids outside [0, V) give a zero row. */
  embedding(out: Tensor, table: Tensor, ids: Tensor): void;
  /** dTable (V, C) += scatter of dOut (N, C) by ids (N), summed in position order (no atomics). */
  embeddingBackward(dTable: Tensor, dOut: Tensor, ids: Tensor): void;

  // ---- normalisation and activations ----------------------------------------------------------
  /** LayerNorm over the last dim: out (N, C), mean (N), rstd (N) from x (N, C), weight (C), bias (C). */
  layerNorm(out: Tensor, mean: Tensor, rstd: Tensor, x: Tensor, weight: Tensor, bias: Tensor, eps?: number): void;
  /** dx (N, C) +=, dWeight (C) +=, dBias (C) += from dOut (N, C) and the saved mean and rstd. */
  layerNormBackward(
    dx: Tensor,
    dWeight: Tensor,
    dBias: Tensor,
    dOut: Tensor,
    x: Tensor,
    mean: Tensor,
    rstd: Tensor,
    weight: Tensor,
  ): void;
  /** out = GELU(x), tanh approximation (as GPT-2). */
  gelu(out: Tensor, x: Tensor): void;
  /** dx += GELU'(x) * dOut. */
  geluBackward(dx: Tensor, x: Tensor, dOut: Tensor): void;

  // ---- attention --------------------------------------------------------------------------------
  /**
   * Causal multi-head self-attention. qkv (B, T, 3C) holds q, k, v side by side per token;
   * out (B, T, C); att (attentionSize(shape) values) receives the softmax probabilities, saved for
   * backward: each (b, h)'s causal lower triangle, row by row. Scale 1/sqrt(C/H).
   */
  attention(out: Tensor, att: Tensor, qkv: Tensor, shape: AttentionShape): void;
  /**
   * dqkv (B, T, 3C) += from dOut (B, T, C), the saved qkv and att: att as the forward wrote it, or
   * with `attHalf` its `packHalf` copy (⌈attentionSize / 2⌉ words; the backward then uses those rounded
   * probabilities, for half the memory saved per layer).
   */
  attentionBackward(
    dqkv: Tensor,
    dOut: Tensor,
    qkv: Tensor,
    att: Tensor,
    shape: AttentionShape,
    opts?: { attHalf?: boolean },
  ): void;

  /**
   * Attention with a KV cache, for sampling. qkv (B, S, 3C) holds S new tokens per sequence; sequence
   * b's new tokens sit at positions start[b] .. start[b] + len[b] − 1 (i32 tensors of B; tokens at
   * s >= len[b] are padding). Their k and v are written into kCache / vCache (B, maxT, C) at those
   * positions, then each new query attends causally over positions 0 .. its own. out (B, S, C);
   * padding rows are 0. S = 1 is one decoding step; start = 0, S = T is a prefill. Forward only.
   */
  attentionCached(
    out: Tensor,
    kCache: Tensor,
    vCache: Tensor,
    qkv: Tensor,
    start: Tensor,
    len: Tensor,
    shape: CachedAttentionShape,
  ): void;

  // ---- softmax family -----------------------------------------------------------------------------
  /** Row softmax over the last dim: out (N, V) from x (N, V). */
  softmax(out: Tensor, x: Tensor): void;
  /** dx += y ⊙ (dy − Σ dy⊙y), y = softmax output. */
  softmaxBackward(dx: Tensor, y: Tensor, dy: Tensor): void;
  /** Row log-softmax: out (N, V) from x (N, V). */
  logSoftmax(out: Tensor, x: Tensor): void;
  /** dx += dy − softmax ⊙ Σ dy, from y = log-softmax output. */
  logSoftmaxBackward(dx: Tensor, y: Tensor, dy: Tensor): void;
  /** losses (N) = −log softmax(logits)[n, targets[n]]; a target < 0 or >= V gives loss 0 (ignored row). */
  crossEntropy(losses: Tensor, logits: Tensor, targets: Tensor): void;
  /** dLogits (N, V) += (softmax(logits) − onehot(target)) * dLosses[n]; ignored rows add 0. */
  crossEntropyBackward(dLogits: Tensor, logits: Tensor, targets: Tensor, dLosses: Tensor): void;

  // ---- optimisation ---------------------------------------------------------------------------------
  /** One AdamW step in place on param, m, v (decoupled weight decay, bias-corrected moments). */
  adamw(param: Tensor, grad: Tensor, m: Tensor, v: Tensor, opts: AdamWOptions): void;
  /**
   * flag[0] += the number of elements of x that are NaN or ±∞ (tested on the bits, which no
   * fast-math assumption can fold away): AdamW's step guard (opts.skipIf). Zero the flag first.
   */
  flagNonFinite(flag: Tensor, x: Tensor): void;
  /**
   * Global gradient-norm clipping in place: norm = ‖grad‖₂ (a fixed-order, atomic-free reduction),
   * grad *= min(1, maxNorm / (norm + 1e-6)). Writes the pre-clip norm into `norm` (shape [1]) on the
   * device, so no readback is needed mid-step.
   */
  clipGradNorm(norm: Tensor, grad: Tensor, maxNorm: number): void;

  // ---- reinforcement learning (ops/policyloss.ts, ops/advantage.ts) --------------------------------
  /**
   * logprobs (N) = log softmax(logits)[n, actions[n]] (0 where the action is outside [0, V));
   * entropy (N) = −Σ p log p of every row. From logits (N, V), actions (N, i32). Forward only.
   */
  tokenLogprobs(logprobs: Tensor, entropy: Tensor, logits: Tensor, actions: Tensor): void;
  /**
   * The fused PPO policy loss. stats (N, POLICY_STATS) is OVERWRITTEN with per-row diagnostics
   * (columns POLICY_STAT: logprob, entropy, ratio, clippedLow, clippedHigh, approxKl, refKl, pgLoss;
   * all 0 on inactive rows); dLogits (N, V) ACCUMULATES the gradient of
   * L = Σ_rows mask·lossScale·(pgLoss − entropyCoef·entropy + klCoef·refKl). A row is active when
   * responseMask > 0 and its action is in [0, V). refLogprobs may be null when klCoef = 0.
   */
  policyLoss(
    dLogits: Tensor,
    stats: Tensor,
    logits: Tensor,
    actions: Tensor,
    oldLogprobs: Tensor,
    advantages: Tensor,
    responseMask: Tensor,
    refLogprobs: Tensor | null,
    opts: PolicyLossOptions,
  ): void;
  /**
   * PPO's clipped value loss: valueStats (N, VALUE_STATS) OVERWRITTEN with [½ max((v−R)², (v_clip−R)²),
   * clipped] (0 on masked rows); dValues (N) ACCUMULATES mask·lossScale·∂/∂v.
   */
  valueLoss(
    valueStats: Tensor,
    dValues: Tensor,
    values: Tensor,
    oldValues: Tensor,
    returns: Tensor,
    responseMask: Tensor,
    opts: ValueLossOptions,
  ): void;
  /**
   * GAE by a reverse scan per dialogue: advantages, returns (N) OVERWRITTEN on the rows of every
   * dialogue (offsets (D + 1, i32) tile [0, N)); response tokens only, masked tokens are skipped
   * and get 0.
   */
  gae(
    advantages: Tensor,
    returns: Tensor,
    rewards: Tensor,
    values: Tensor,
    responseMask: Tensor,
    offsets: Tensor,
    opts: GaeOptions,
  ): void;
  /**
   * advantages (D) OVERWRITTEN from rewards (D) and group ids (D, i32): GRPO or RLOO. Non-finite
   * rewards are left out of their group and get 0; a group of one or of equal rewards gives 0.
   */
  groupAdvantages(advantages: Tensor, rewards: Tensor, groups: Tensor, opts: GroupAdvantageOptions): void;
}

/** The name of an op of the contract. */
export type OpName = keyof BackendOps;

/**
 * Every op name at run time, for the registry's completeness test; `satisfies` makes the compiler
 * reject a name missing here or one that is not in BackendOps.
 */
export const OP_NAMES = Object.keys({
  fill: true,
  fillAt: true,
  copy: true,
  add: true,
  addInto: true,
  scale: true,
  packHalf: true,
  matmul: true,
  addBias: true,
  biasBackward: true,
  embedding: true,
  embeddingBackward: true,
  layerNorm: true,
  layerNormBackward: true,
  gelu: true,
  geluBackward: true,
  attention: true,
  attentionBackward: true,
  attentionCached: true,
  softmax: true,
  softmaxBackward: true,
  logSoftmax: true,
  logSoftmaxBackward: true,
  crossEntropy: true,
  crossEntropyBackward: true,
  adamw: true,
  flagNonFinite: true,
  clipGradNorm: true,
  tokenLogprobs: true,
  policyLoss: true,
  valueLoss: true,
  gae: true,
  groupAdvantages: true,
} satisfies Record<OpName, true>) as OpName[];

/**
 * Element alignment of views (256 bytes: WebGPU's minStorageBufferOffsetAlignment on every adapter
 * is at most 256). Arena layouts round each offset up to this.
 */
export const VIEW_ALIGN = 64;

export function sizeOf(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) {
    if (!Number.isInteger(d) || d < 0)
      throw new Error(`bad shape [${shape.join(', ')}]: dims must be non-negative integers`);
    n *= d;
  }
  return n;
}

export function assertSize(t: Tensor, size: number, what: string): void {
  if (t.size !== size)
    throw new Error(`${what}: expected ${size} elements, got ${t.size} (shape [${t.shape.join(', ')}])`);
}
