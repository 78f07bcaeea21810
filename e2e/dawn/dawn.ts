/**
 * WebGPU in Node through Dawn (the `webgpu` package): the adapter the kernel tests run on outside the
 * browser. No adapter, or one without the features asked for, is a failure with a message saying
 * how to get one, never a skip.
 */
import { create, globals } from 'webgpu';
import { acquireGpu, adapterLine } from '../../src/engine/gpu/context';
import { WebGpuBackend } from '../../src/engine/gpu/backend';
import { CpuBackend } from '../../src/engine/cpu/backend';
import type { GpuTestEnv } from '../../src/engine/testing/gpu-test';

export const HOW_TO_GET_AN_ADAPTER = [
  'Dawn for Node found no usable WebGPU adapter. Do one of:',
  '  - Debian 12: add bookworm-backports and `apt-get install -t bookworm-backports mesa-vulkan-drivers`',
  "    (Mesa 25's lavapipe; bookworm's own Mesa 22 is too old for Dawn). CI does this in .ci/run.",
  '  - Debian 13 / Ubuntu 24.04+: `apt-get install mesa-vulkan-drivers`',
  '  - run on a machine with a GPU and its Vulkan, Metal or D3D12 driver',
].join('\n');

let env: Promise<GpuTestEnv & { adapter: string; features: string[] }> | null = null;
/** Dawn's instance: held for the whole run (the device dies with it if it is garbage-collected). */
let instance: GPU | null = null;

/** Dawn's GPU object once dawnEnv() has made it (for another library on the same instance, e.g. TensorFlow.js). */
export function dawnInstance(): GPU | null {
  return instance;
}

/** Both backends over Dawn's device (one device for the whole run). */
export function dawnEnv(): Promise<GpuTestEnv & { adapter: string; features: string[] }> {
  env ??= (async () => {
    Object.assign(globalThis, globals);
    // Timestamps unrounded: Dawn quantises them by default (as Chrome does) to blunt timing attacks; only the profiles read them.
    instance = create(['disable-dawn-features=timestamp_quantization']);
    const acq = await acquireGpu(instance);
    if (!acq.ok) throw new Error(`${acq.failure.message}\n${HOW_TO_GET_AN_ADAPTER}`);
    return {
      cpu: new CpuBackend(),
      gpu: new WebGpuBackend(acq.ctx),
      adapter: adapterLine(acq.ctx.summary),
      features: [...acq.ctx.device.features].map(String),
    };
  })();
  return env;
}
