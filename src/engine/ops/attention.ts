/** STUB: attention — forward/backward CPU reference, WGSL kernel and dispatch wrapper go here. */
import type { AttentionShape, Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';

export function attentionOnCpu(_be: CpuBackend, ..._args: [out: Tensor, att: Tensor, qkv: Tensor, s: AttentionShape]): void {
  throw new Error('attention (cpu): not implemented');
}

export function attentionOnGpu(_be: WebGpuBackend, ..._args: [out: Tensor, att: Tensor, qkv: Tensor, s: AttentionShape]): void {
  throw new Error('attention (webgpu): not implemented');
}

export function attentionBackwardOnCpu(_be: CpuBackend, ..._args: [dqkv: Tensor, dOut: Tensor, qkv: Tensor, att: Tensor, s: AttentionShape]): void {
  throw new Error('attentionBackward (cpu): not implemented');
}

export function attentionBackwardOnGpu(_be: WebGpuBackend, ..._args: [dqkv: Tensor, dOut: Tensor, qkv: Tensor, att: Tensor, s: AttentionShape]): void {
  throw new Error('attentionBackward (webgpu): not implemented');
}
