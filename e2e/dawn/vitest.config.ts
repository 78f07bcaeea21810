/**
 * The kernel tests on a second WebGPU implementation: Dawn for Node (the `webgpu` package) on
 * whatever Vulkan driver the machine has; in CI that is Mesa's lavapipe (a CPU Vulkan driver whose
 * adapter has `shader-f16` and `subgroups`, which the SwiftShader adapter of headless Chromium lacks).
 * `npm run test:dawn`. Tests run one after another in one process (one device).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['e2e/dawn/**/*.test.ts'],
    environment: 'node',
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
