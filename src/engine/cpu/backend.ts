/**
 * The `cpu` backend: tensors are typed arrays and every op is its plain-loop reference from
 * ../ops/<op>.ts, reached through the registry (../ops/registry.ts). It is the oracle the WebGPU kernels are tested against and the fallback where
 * WebGPU is missing (shown to the user as such). Work runs eagerly; `read` resolves at once.
 */
import type { Backend, DType, Tensor } from '../backend';
import { sizeOf } from '../backend';
import { routeOps } from '../ops/registry';

class CpuTensor implements Tensor {
  readonly size: number;
  constructor(
    readonly shape: readonly number[],
    readonly dtype: DType,
    readonly data: Float32Array | Int32Array,
  ) {
    this.size = data.length;
  }
}

export class CpuBackend extends routeOps('cpu') implements Backend {
  readonly name = 'cpu' as const;
  readonly description = 'CPU (JavaScript reference backend)';
  readonly defaultKvCache = 'f32' as const;
  readonly defaultDecodeWeights = 'f32' as const;
  readonly hasF16Math = true;

  /** The Float32Array holding an f32 tensor (throws for an i32 tensor or another backend's). */
  f32Of(t: Tensor): Float32Array {
    if (!(t instanceof CpuTensor)) throw new Error('cpu backend was given a tensor from another backend');
    if (!(t.data instanceof Float32Array))
      throw new Error(`expected an f32 tensor, got ${t.dtype} [${t.shape.join(', ')}]`);
    return t.data;
  }

  /** The Int32Array holding an i32 tensor (throws for an f32 tensor or another backend's). */
  i32Of(t: Tensor): Int32Array {
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
}
