/** STUB: layernorm — forward/backward CPU reference, WGSL kernel and dispatch wrapper go here. */
import type { Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';

export function layerNormOnCpu(_be: CpuBackend, ..._args: [out: Tensor, mean: Tensor, rstd: Tensor, x: Tensor, weight: Tensor, bias: Tensor, eps: number]): void {
  throw new Error('layerNorm (cpu): not implemented');
}

export function layerNormOnGpu(_be: WebGpuBackend, ..._args: [out: Tensor, mean: Tensor, rstd: Tensor, x: Tensor, weight: Tensor, bias: Tensor, eps: number]): void {
  throw new Error('layerNorm (webgpu): not implemented');
}

export function layerNormBackwardOnCpu(_be: CpuBackend, ..._args: [dx: Tensor, dWeight: Tensor, dBias: Tensor, dOut: Tensor, x: Tensor, mean: Tensor, rstd: Tensor, weight: Tensor]): void {
  throw new Error('layerNormBackward (cpu): not implemented');
}

export function layerNormBackwardOnGpu(_be: WebGpuBackend, ..._args: [dx: Tensor, dWeight: Tensor, dBias: Tensor, dOut: Tensor, x: Tensor, mean: Tensor, rstd: Tensor, weight: Tensor]): void {
  throw new Error('layerNormBackward (webgpu): not implemented');
}
