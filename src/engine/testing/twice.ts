/**
 * Determinism check for GPU tests: run the same computation twice on the webgpu backend and
 * require bit-identical outputs (tolerance 0). Holds the "no atomics, fixed reduction order"
 * promise of backend.ts; it says nothing about agreement with the CPU (sameOnBoth does that).
 * Also `eachRowReduceMode`: run a test body once per row-reduction mode the device offers
 * (workgroup tree always, subgroups where present), so both are held to the reference.
 */
import type { Backend, Tensor } from '../backend';
import { compare, type CompareReport } from './compare';
import type { GpuTestEnv } from './gpu-test';
import { availableRowReduceModes, pinRowReduceMode, type RowReduceMode } from '../ops/rowreduce';

export const BITWISE = { abs: 0, rel: 0 } as const;

export async function sameTwiceOnGpu(
  env: GpuTestEnv,
  labels: readonly string[],
  build: (be: Backend) => Tensor[],
): Promise<CompareReport[]> {
  const first = build(env.gpu);
  const second = build(env.gpu);
  if (first.length !== labels.length)
    throw new Error(`sameTwiceOnGpu: ${labels.length} labels for ${first.length} outputs`);
  const reports: CompareReport[] = [];
  for (let i = 0; i < labels.length; i++) {
    const a = await env.gpu.read(first[i]);
    const b = await env.gpu.read(second[i]);
    reports.push(compare(`${labels[i]} (twice, bit-identical)`, b, a, BITWISE));
  }
  for (const t of [...first, ...second]) env.gpu.release(t);
  return reports;
}

export async function eachRowReduceMode(
  env: GpuTestEnv,
  body: (mode: RowReduceMode) => Promise<CompareReport[]>,
): Promise<CompareReport[]> {
  const reports: CompareReport[] = [];
  try {
    for (const mode of availableRowReduceModes(env.gpu)) {
      pinRowReduceMode(env.gpu, mode);
      for (const r of await body(mode)) {
        const label = `[${mode}] ${r.label}`;
        reports.push({ ...r, label, summary: `[${mode}] ${r.summary}` });
      }
    }
  } finally {
    pinRowReduceMode(env.gpu, null);
  }
  return reports;
}
