/** STUB: bias add and its backward — CPU reference, WGSL kernel and dispatch wrapper go here. */
import type { Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';

export function addBiasOnCpu(_be: CpuBackend, ..._args: [out: Tensor, x: Tensor, bias: Tensor]): void {
  throw new Error('addBias (cpu): not implemented');
}
export function addBiasOnGpu(_be: WebGpuBackend, ..._args: [out: Tensor, x: Tensor, bias: Tensor]): void {
  throw new Error('addBias (webgpu): not implemented');
}
export function biasBackwardOnCpu(_be: CpuBackend, ..._args: [dBias: Tensor, dOut: Tensor]): void {
  throw new Error('biasBackward (cpu): not implemented');
}
export function biasBackwardOnGpu(_be: WebGpuBackend, ..._args: [dBias: Tensor, dOut: Tensor]): void {
  throw new Error('biasBackward (webgpu): not implemented');
}
