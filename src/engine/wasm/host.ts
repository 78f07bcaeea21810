/**
 * The CPU reference running on the wasm backend's memory: a CpuBackend whose `f32Of`/`i32Of` also
 * accept wasm tensors (as typed-array views of the module's memory, no copy), so an op that has no
 * kernel of its own (ops/index.ts lists them) runs its plain-loop reference in place. Scratch the
 * reference allocates is ordinary JavaScript memory, garbage-collected as on the CPU backend.
 */
import type { Tensor } from '../backend';
import { CpuBackend } from '../cpu/backend';
import type { WasmBackend } from './backend';
import { WasmTensor } from './tensor';

export class HostBackend extends CpuBackend {
  constructor(private readonly wasm: WasmBackend) {
    super();
  }

  override f32Of(t: Tensor): Float32Array {
    return t instanceof WasmTensor ? this.wasm.f32(t) : super.f32Of(t);
  }

  override i32Of(t: Tensor): Int32Array {
    return t instanceof WasmTensor ? this.wasm.i32(t) : super.i32Of(t);
  }

  override view(base: Tensor, offset: number, shape: readonly number[]): Tensor {
    return base instanceof WasmTensor ? this.wasm.view(base, offset, shape) : super.view(base, offset, shape);
  }

  override write(t: Tensor, data: Float32Array | Int32Array): void {
    if (t instanceof WasmTensor) this.wasm.write(t, data);
    else super.write(t, data);
  }

  override read(t: Tensor): Promise<Float32Array> {
    return t instanceof WasmTensor ? this.wasm.read(t) : super.read(t);
  }

  override readInt(t: Tensor): Promise<Int32Array> {
    return t instanceof WasmTensor ? this.wasm.readInt(t) : super.readInt(t);
  }
}
