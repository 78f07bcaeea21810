/** STUB: embedding — forward/backward CPU reference, WGSL kernel and dispatch wrapper go here. */
import type { Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';

export function embeddingOnCpu(_be: CpuBackend, ..._args: [out: Tensor, table: Tensor, ids: Tensor]): void {
  throw new Error('embedding (cpu): not implemented');
}

export function embeddingOnGpu(_be: WebGpuBackend, ..._args: [out: Tensor, table: Tensor, ids: Tensor]): void {
  throw new Error('embedding (webgpu): not implemented');
}

export function embeddingBackwardOnCpu(_be: CpuBackend, ..._args: [dTable: Tensor, dOut: Tensor, ids: Tensor]): void {
  throw new Error('embeddingBackward (cpu): not implemented');
}

export function embeddingBackwardOnGpu(_be: WebGpuBackend, ..._args: [dTable: Tensor, dOut: Tensor, ids: Tensor]): void {
  throw new Error('embeddingBackward (webgpu): not implemented');
}
