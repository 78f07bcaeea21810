/** STUB: crossentropy — forward/backward CPU reference, WGSL kernel and dispatch wrapper go here. */
import type { Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';

export function crossEntropyOnCpu(_be: CpuBackend, ..._args: [losses: Tensor, logits: Tensor, targets: Tensor]): void {
  throw new Error('crossEntropy (cpu): not implemented');
}

export function crossEntropyOnGpu(_be: WebGpuBackend, ..._args: [losses: Tensor, logits: Tensor, targets: Tensor]): void {
  throw new Error('crossEntropy (webgpu): not implemented');
}

export function crossEntropyBackwardOnCpu(_be: CpuBackend, ..._args: [dLogits: Tensor, logits: Tensor, targets: Tensor, dLosses: Tensor]): void {
  throw new Error('crossEntropyBackward (cpu): not implemented');
}

export function crossEntropyBackwardOnGpu(_be: WebGpuBackend, ..._args: [dLogits: Tensor, logits: Tensor, targets: Tensor, dLosses: Tensor]): void {
  throw new Error('crossEntropyBackward (webgpu): not implemented');
}
