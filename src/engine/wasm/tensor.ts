/** The wasm backend's tensor: `size` elements at byte address `ptr` of the backend's memory. */
import type { DType, Tensor } from '../backend';

export class WasmTensor implements Tensor {
  readonly size: number;
  constructor(
    readonly shape: readonly number[],
    readonly dtype: DType,
    size: number,
    /** Byte address in the backend's memory (a multiple of 4; of 256 for a tensor the heap gave). */
    readonly ptr: number,
    /** The heap block's size in bytes, or 0 for a view (which owns nothing). */
    readonly block: number,
    /** For a view: the tensor that owns the memory (kept reachable while the view is). */
    readonly base: WasmTensor | null,
  ) {
    this.size = size;
  }
}
