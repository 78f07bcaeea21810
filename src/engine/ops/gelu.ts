/** STUB: gelu — forward/backward CPU reference, WGSL kernel and dispatch wrapper go here. */
import type { Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';

export function geluOnCpu(_be: CpuBackend, ..._args: [out: Tensor, x: Tensor]): void {
  throw new Error('gelu (cpu): not implemented');
}

export function geluOnGpu(_be: WebGpuBackend, ..._args: [out: Tensor, x: Tensor]): void {
  throw new Error('gelu (webgpu): not implemented');
}

export function geluBackwardOnCpu(_be: CpuBackend, ..._args: [dx: Tensor, x: Tensor, dOut: Tensor]): void {
  throw new Error('geluBackward (cpu): not implemented');
}

export function geluBackwardOnGpu(_be: WebGpuBackend, ..._args: [dx: Tensor, x: Tensor, dOut: Tensor]): void {
  throw new Error('geluBackward (webgpu): not implemented');
}
