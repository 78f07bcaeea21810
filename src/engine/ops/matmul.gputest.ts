/** GPU tests for matmul: each kernel against its CPU reference (see testing/gpu-test.ts). */
import type { GpuTest } from '../testing/gpu-test';

export const matmulGpuTests: GpuTest[] = [];
