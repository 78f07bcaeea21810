/**
 * The kernel-test harness contract: a GPU test runs the same computation on the `cpu` backend (the
 * reference) and the `webgpu` backend from the same host inputs and compares every output with
 * the tolerance rule of compare.ts. Tests are plain objects so they run in the browser
 * (e2e/harness/gpu.ts, driven by e2e/kernels.spec.ts) and their names are known to Playwright.
 */
import type { Backend, Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { Rng } from '../rng';
import { compare, F32_TOL, type CompareReport, type Tolerance } from './compare';

export interface GpuTestEnv {
  cpu: CpuBackend;
  gpu: WebGpuBackend;
}

export interface GpuTest {
  /** Unique, e.g. "matmul forward, transB, awkward shapes". */
  name: string;
  run(env: GpuTestEnv): Promise<CompareReport[]>;
}

/** Awkward sizes every kernel must handle: 1, primes, and just off the workgroup size. */
export const AWKWARD = [1, 3, 7, 13, 31, 63, 65, 127] as const;

/** Random f32 values, normal(0, scale), from a seeded generator. */
export function randn(rng: Rng, n: number, scale = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.normal() * scale;
  return out;
}

/**
 * Run `build` on both backends and compare the tensors it returns, in order, under `labels`.
 * `build` creates its inputs from host arrays captured in its closure, so both runs see the same
 * data; outputs are read back after the backend finishes.
 */
export async function sameOnBoth(
  env: GpuTestEnv,
  labels: readonly string[],
  build: (be: Backend) => Tensor[],
  tol: Tolerance = F32_TOL,
): Promise<CompareReport[]> {
  const want = build(env.cpu);
  const got = build(env.gpu);
  if (want.length !== labels.length || got.length !== labels.length) {
    throw new Error(`sameOnBoth: ${labels.length} labels for ${want.length}/${got.length} outputs`);
  }
  const reports: CompareReport[] = [];
  for (let i = 0; i < labels.length; i++) {
    const w = want[i].dtype === 'i32' ? await env.cpu.readInt(want[i]) : await env.cpu.read(want[i]);
    const g = got[i].dtype === 'i32' ? await env.gpu.readInt(got[i]) : await env.gpu.read(got[i]);
    reports.push(compare(labels[i], g, w, tol));
  }
  for (const t of got) env.gpu.release(t);
  return reports;
}
