/**
 * The whole training loop on both backends: the tiny network's losses and gradient norms agree to
 * 1e-4 relative over its steps, and the WebGPU backend allocates no buffer and compiles no
 * pipeline after the first step.
 */
import type { WebGpuBackend } from '../gpu/backend';
import { compare } from './compare';
import type { GpuTest } from './gpu-test';
import { TINY_NET, trainTinyNet } from './tiny-net';

export const tinyNetGpuTests: GpuTest[] = [
  {
    name: 'tiny two-layer network: same losses on both backends (1e-4 rel), no allocation after step 1',
    async run(env) {
      const want = await trainTinyNet(env.cpu);
      const gpu: WebGpuBackend = env.gpu;
      let afterFirst = { buffers: 0, pipelines: 0 };
      const got = await trainTinyNet(gpu, TINY_NET, (step) => {
        if (step === 1) afterFirst = { buffers: gpu.stats.buffersCreated, pipelines: gpu.stats.pipelinesCreated };
      });
      return [
        compare('losses per step', got.losses, want.losses, { abs: 0, rel: 1e-4 }),
        compare('gradient norms per step', got.gradNorms, want.gradNorms, { abs: 0, rel: 1e-4 }),
        compare('buffers created after step 1', [gpu.stats.buffersCreated], [afterFirst.buffers], { abs: 0, rel: 0 }),
        compare('pipelines compiled after step 1', [gpu.stats.pipelinesCreated], [afterFirst.pipelines], {
          abs: 0,
          rel: 0,
        }),
      ];
    },
  },
];
