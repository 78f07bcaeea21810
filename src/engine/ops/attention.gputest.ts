/** GPU tests for attention: each kernel against its CPU reference (see testing/gpu-test.ts). */
import type { GpuTest } from '../testing/gpu-test';

export const attentionGpuTests: GpuTest[] = [];
