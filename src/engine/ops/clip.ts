/** STUB: clip — forward/backward CPU reference, WGSL kernel and dispatch wrapper go here. */
import type { Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';

export function clipGradNormOnCpu(_be: CpuBackend, ..._args: [norm: Tensor, grad: Tensor, maxNorm: number]): void {
  throw new Error('clipGradNorm (cpu): not implemented');
}

export function clipGradNormOnGpu(_be: WebGpuBackend, ..._args: [norm: Tensor, grad: Tensor, maxNorm: number]): void {
  throw new Error('clipGradNorm (webgpu): not implemented');
}
