/** GPU tests for embedding: each kernel against its CPU reference (see testing/gpu-test.ts). */
import type { GpuTest } from '../testing/gpu-test';

export const embeddingGpuTests: GpuTest[] = [];
