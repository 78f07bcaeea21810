/** STUB: softmax — forward/backward CPU reference, WGSL kernel and dispatch wrapper go here. */
import type { Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';

export function softmaxOnCpu(_be: CpuBackend, ..._args: [out: Tensor, x: Tensor]): void {
  throw new Error('softmax (cpu): not implemented');
}

export function softmaxOnGpu(_be: WebGpuBackend, ..._args: [out: Tensor, x: Tensor]): void {
  throw new Error('softmax (webgpu): not implemented');
}

export function softmaxBackwardOnCpu(_be: CpuBackend, ..._args: [dx: Tensor, y: Tensor, dy: Tensor]): void {
  throw new Error('softmaxBackward (cpu): not implemented');
}

export function softmaxBackwardOnGpu(_be: WebGpuBackend, ..._args: [dx: Tensor, y: Tensor, dy: Tensor]): void {
  throw new Error('softmaxBackward (webgpu): not implemented');
}

export function logSoftmaxOnCpu(_be: CpuBackend, ..._args: [out: Tensor, x: Tensor]): void {
  throw new Error('logSoftmax (cpu): not implemented');
}

export function logSoftmaxOnGpu(_be: WebGpuBackend, ..._args: [out: Tensor, x: Tensor]): void {
  throw new Error('logSoftmax (webgpu): not implemented');
}

export function logSoftmaxBackwardOnCpu(_be: CpuBackend, ..._args: [dx: Tensor, y: Tensor, dy: Tensor]): void {
  throw new Error('logSoftmaxBackward (cpu): not implemented');
}

export function logSoftmaxBackwardOnGpu(_be: WebGpuBackend, ..._args: [dx: Tensor, y: Tensor, dy: Tensor]): void {
  throw new Error('logSoftmaxBackward (webgpu): not implemented');
}
