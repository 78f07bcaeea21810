/** STUB: adamw — forward/backward CPU reference, WGSL kernel and dispatch wrapper go here. */
import type { AdamWOptions, Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';

export function adamwOnCpu(_be: CpuBackend, ..._args: [param: Tensor, grad: Tensor, m: Tensor, v: Tensor, opts: AdamWOptions]): void {
  throw new Error('adamw (cpu): not implemented');
}

export function adamwOnGpu(_be: WebGpuBackend, ..._args: [param: Tensor, grad: Tensor, m: Tensor, v: Tensor, opts: AdamWOptions]): void {
  throw new Error('adamw (webgpu): not implemented');
}
