/** STUB: matmul — forward/backward CPU reference, WGSL kernel and dispatch wrapper go here. */
import type { MatmulOptions, Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';

export function matmulOnCpu(_be: CpuBackend, ..._args: [out: Tensor, a: Tensor, b: Tensor, opts: MatmulOptions]): void {
  throw new Error('matmul (cpu): not implemented');
}

export function matmulOnGpu(_be: WebGpuBackend, ..._args: [out: Tensor, a: Tensor, b: Tensor, opts: MatmulOptions]): void {
  throw new Error('matmul (webgpu): not implemented');
}
