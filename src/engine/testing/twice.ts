/**
 * Determinism check for GPU tests: run the same computation twice on the webgpu backend and
 * require bit-identical outputs (tolerance 0). Holds the "no atomics, fixed reduction order"
 * promise of backend.ts; it says nothing about agreement with the CPU (sameOnBoth does that).
 */
import type { Backend, Tensor } from '../backend';
import { compare, type CompareReport } from './compare';
import type { GpuTestEnv } from './gpu-test';

export const BITWISE = { abs: 0, rel: 0 } as const;

export async function sameTwiceOnGpu(
  env: GpuTestEnv,
  labels: readonly string[],
  build: (be: Backend) => Tensor[],
): Promise<CompareReport[]> {
  const first = build(env.gpu);
  const second = build(env.gpu);
  if (first.length !== labels.length) throw new Error(`sameTwiceOnGpu: ${labels.length} labels for ${first.length} outputs`);
  const reports: CompareReport[] = [];
  for (let i = 0; i < labels.length; i++) {
    const a = await env.gpu.read(first[i]);
    const b = await env.gpu.read(second[i]);
    reports.push(compare(`${labels[i]} (twice, bit-identical)`, b, a, BITWISE));
  }
  for (const t of [...first, ...second]) env.gpu.release(t);
  return reports;
}
