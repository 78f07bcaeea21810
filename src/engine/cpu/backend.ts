/**
 * The `cpu` backend: tensors are typed arrays and every op is its plain-loop reference from
 * ../ops/<op>.ts. It is the oracle the WebGPU kernels are tested against and the fallback where
 * WebGPU is missing (shown to the user as such). Work runs eagerly; `read` resolves at once.
 */
import type {
  AdamWOptions,
  AttentionShape,
  Backend,
  CachedAttentionShape,
  DType,
  GaeOptions,
  GroupAdvantageOptions,
  MatmulOptions,
  PolicyLossOptions,
  Tensor,
  ValueLossOptions,
} from '../backend';
import { sizeOf } from '../backend';
import * as ops from '../ops';

export class CpuTensor implements Tensor {
  readonly size: number;
  constructor(
    readonly shape: readonly number[],
    readonly dtype: DType,
    readonly data: Float32Array | Int32Array,
  ) {
    this.size = data.length;
  }
}

export class CpuBackend implements Backend {
  readonly name = 'cpu' as const;
  readonly description = 'CPU (JavaScript reference backend)';
  readonly defaultKvCache = 'f32' as const;
  readonly defaultDecodeWeights = 'f32' as const;
  readonly hasF16Math = true;

  /** The f32 storage of a tensor. */
  f(t: Tensor): Float32Array {
    if (!(t instanceof CpuTensor)) throw new Error('cpu backend was given a tensor from another backend');
    if (!(t.data instanceof Float32Array))
      throw new Error(`expected an f32 tensor, got ${t.dtype} [${t.shape.join(', ')}]`);
    return t.data;
  }

  /** The i32 storage of a tensor. */
  i(t: Tensor): Int32Array {
    if (!(t instanceof CpuTensor)) throw new Error('cpu backend was given a tensor from another backend');
    if (!(t.data instanceof Int32Array))
      throw new Error(`expected an i32 tensor, got ${t.dtype} [${t.shape.join(', ')}]`);
    return t.data;
  }

  scratch(shape: readonly number[], dtype: DType = 'f32'): Tensor {
    return this.zeros(shape, dtype);
  }

  zeros(shape: readonly number[], dtype: DType = 'f32'): Tensor {
    const n = sizeOf(shape);
    return new CpuTensor(shape, dtype, dtype === 'i32' ? new Int32Array(n) : new Float32Array(n));
  }

  fromArray(data: Float32Array | Int32Array, shape: readonly number[]): Tensor {
    if (sizeOf(shape) !== data.length)
      throw new Error(`fromArray: ${data.length} values for shape [${shape.join(', ')}]`);
    return new CpuTensor(shape, data instanceof Int32Array ? 'i32' : 'f32', data.slice());
  }

  write(t: Tensor, data: Float32Array | Int32Array): void {
    if (data.length !== t.size) throw new Error(`write: ${data.length} values for a tensor of ${t.size}`);
    (t as CpuTensor).data.set(data);
  }

  async read(t: Tensor): Promise<Float32Array> {
    return Float32Array.from((t as CpuTensor).data);
  }

  async readInt(t: Tensor): Promise<Int32Array> {
    return Int32Array.from((t as CpuTensor).data);
  }

  release(_t: Tensor): void {
    // Garbage-collected.
  }

  view(base: Tensor, offset: number, shape: readonly number[]): Tensor {
    const n = sizeOf(shape);
    const b = base as CpuTensor;
    if (offset < 0 || offset + n > b.size)
      throw new Error(`view [${offset}, ${offset + n}) outside a tensor of ${b.size}`);
    return new CpuTensor(shape, b.dtype, b.data.subarray(offset, offset + n));
  }

  async sync(): Promise<void> {}

  fill(t: Tensor, value: number): void {
    ops.fillOnCpu(this, t, value);
  }
  copy(dst: Tensor, src: Tensor): void {
    ops.copyOnCpu(this, dst, src);
  }
  add(out: Tensor, a: Tensor, b: Tensor): void {
    ops.addOnCpu(this, out, a, b);
  }
  addInto(dst: Tensor, src: Tensor, alpha = 1): void {
    ops.addIntoOnCpu(this, dst, src, alpha);
  }
  scale(t: Tensor, s: number): void {
    ops.scaleOnCpu(this, t, s);
  }
  packHalf(out: Tensor, x: Tensor): void {
    ops.packHalfOnCpu(this, out, x);
  }
  matmul(out: Tensor, a: Tensor, b: Tensor, opts: MatmulOptions = {}): void {
    ops.matmulOnCpu(this, out, a, b, opts);
  }
  addBias(out: Tensor, x: Tensor, bias: Tensor): void {
    ops.addBiasOnCpu(this, out, x, bias);
  }
  biasBackward(dBias: Tensor, dOut: Tensor): void {
    ops.biasBackwardOnCpu(this, dBias, dOut);
  }
  embedding(out: Tensor, table: Tensor, ids: Tensor): void {
    ops.embeddingOnCpu(this, out, table, ids);
  }
  embeddingBackward(dTable: Tensor, dOut: Tensor, ids: Tensor): void {
    ops.embeddingBackwardOnCpu(this, dTable, dOut, ids);
  }
  layerNorm(out: Tensor, mean: Tensor, rstd: Tensor, x: Tensor, w: Tensor, b: Tensor, eps = 1e-5): void {
    ops.layerNormOnCpu(this, out, mean, rstd, x, w, b, eps);
  }
  layerNormBackward(
    dx: Tensor,
    dw: Tensor,
    db: Tensor,
    dOut: Tensor,
    x: Tensor,
    mean: Tensor,
    rstd: Tensor,
    w: Tensor,
  ): void {
    ops.layerNormBackwardOnCpu(this, dx, dw, db, dOut, x, mean, rstd, w);
  }
  gelu(out: Tensor, x: Tensor): void {
    ops.geluOnCpu(this, out, x);
  }
  geluBackward(dx: Tensor, x: Tensor, dOut: Tensor): void {
    ops.geluBackwardOnCpu(this, dx, x, dOut);
  }
  attention(out: Tensor, att: Tensor, qkv: Tensor, s: AttentionShape): void {
    ops.attentionOnCpu(this, out, att, qkv, s);
  }
  attentionBackward(
    dqkv: Tensor,
    dOut: Tensor,
    qkv: Tensor,
    att: Tensor,
    s: AttentionShape,
    opts?: { attHalf?: boolean },
  ): void {
    ops.attentionBackwardOnCpu(this, dqkv, dOut, qkv, att, s, opts);
  }
  attentionCached(
    out: Tensor,
    kCache: Tensor,
    vCache: Tensor,
    qkv: Tensor,
    start: Tensor,
    len: Tensor,
    s: CachedAttentionShape,
  ): void {
    ops.attentionCachedOnCpu(this, out, kCache, vCache, qkv, start, len, s);
  }
  softmax(out: Tensor, x: Tensor): void {
    ops.softmaxOnCpu(this, out, x);
  }
  softmaxBackward(dx: Tensor, y: Tensor, dy: Tensor): void {
    ops.softmaxBackwardOnCpu(this, dx, y, dy);
  }
  logSoftmax(out: Tensor, x: Tensor): void {
    ops.logSoftmaxOnCpu(this, out, x);
  }
  logSoftmaxBackward(dx: Tensor, y: Tensor, dy: Tensor): void {
    ops.logSoftmaxBackwardOnCpu(this, dx, y, dy);
  }
  crossEntropy(losses: Tensor, logits: Tensor, targets: Tensor): void {
    ops.crossEntropyOnCpu(this, losses, logits, targets);
  }
  crossEntropyBackward(dLogits: Tensor, logits: Tensor, targets: Tensor, dLosses: Tensor): void {
    ops.crossEntropyBackwardOnCpu(this, dLogits, logits, targets, dLosses);
  }
  adamw(p: Tensor, g: Tensor, m: Tensor, v: Tensor, o: AdamWOptions): void {
    ops.adamwOnCpu(this, p, g, m, v, o);
  }
  flagNonFinite(flag: Tensor, x: Tensor): void {
    ops.flagNonFiniteOnCpu(this, flag, x);
  }
  clipGradNorm(norm: Tensor, grad: Tensor, maxNorm: number): void {
    ops.clipGradNormOnCpu(this, norm, grad, maxNorm);
  }
  tokenLogprobs(logprobs: Tensor, entropy: Tensor, logits: Tensor, actions: Tensor): void {
    ops.tokenLogprobsOnCpu(this, logprobs, entropy, logits, actions);
  }
  policyLoss(
    dLogits: Tensor,
    stats: Tensor,
    logits: Tensor,
    actions: Tensor,
    oldLogprobs: Tensor,
    advantages: Tensor,
    responseMask: Tensor,
    refLogprobs: Tensor | null,
    o: PolicyLossOptions,
  ): void {
    ops.policyLossOnCpu(this, dLogits, stats, logits, actions, oldLogprobs, advantages, responseMask, refLogprobs, o);
  }
  valueLoss(
    valueStats: Tensor,
    dValues: Tensor,
    values: Tensor,
    oldValues: Tensor,
    returns: Tensor,
    mask: Tensor,
    o: ValueLossOptions,
  ): void {
    ops.valueLossOnCpu(this, valueStats, dValues, values, oldValues, returns, mask, o);
  }
  gae(
    advantages: Tensor,
    returns: Tensor,
    rewards: Tensor,
    values: Tensor,
    mask: Tensor,
    offsets: Tensor,
    o: GaeOptions,
  ): void {
    ops.gaeOnCpu(this, advantages, returns, rewards, values, mask, offsets, o);
  }
  groupAdvantages(advantages: Tensor, rewards: Tensor, groups: Tensor, o: GroupAdvantageOptions): void {
    ops.groupAdvantagesOnCpu(this, advantages, rewards, groups, o);
  }
}
