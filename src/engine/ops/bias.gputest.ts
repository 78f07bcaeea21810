/** GPU tests for bias: each kernel against its CPU reference (see testing/gpu-test.ts). */
import type { GpuTest } from '../testing/gpu-test';

export const biasGpuTests: GpuTest[] = [];
