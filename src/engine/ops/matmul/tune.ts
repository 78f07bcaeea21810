/**
 * The start-up choice between the big-matmul kernels (tiled, regs, regs8): `tuneMatmuls` times them
 * per shape on the device and fills a MatmulChooser, which `auto` consults.
 */
import { type MatmulOptions } from '../../backend';
import { type WebGpuBackend } from '../../gpu/backend';
import { median } from '../../gpu/timing';
import { type MatmulDims } from './dims';

// ---- start-up choice between tiled, regs and regs8 ------------------------------------------------

/** The kernels `auto` chooses between for a big matmul (same bits: the choice is speed only). */
export type BigMatmulKernel = 'tiled' | 'regs' | 'regs8';
const BIG_MATMUL_KERNELS: readonly BigMatmulKernel[] = ['tiled', 'regs', 'regs8'];

/** One shape's timing from `tuneMatmuls`. */
export interface MatmulTuneRow {
  shape: string;
  /** How often this shape was dispatched before tuning (the most used are tuned first). */
  calls: number;
  tiledMs: number;
  regsMs: number;
  regs8Ms: number;
  choice: BigMatmulKernel;
  /** What timed it: the GPU's timestamps (`timestamp-query`) or the wall clock around a submit and wait. */
  timer: 'gpu' | 'wall';
}

const shapeKey = (d: MatmulDims, half: boolean, f16: boolean): string =>
  `${d.batch > 1 ? `${d.batch}×` : ''}(${d.M}×${d.K})·(${d.K}×${d.N})${d.transA ? ' tA' : ''}${d.transB ? ' tB' : ''}${d.bBatched ? ' batched' : ''}${half ? ' half b' : ''}${f16 ? ' f16' : ''}`;

/**
 * Per backend: which big-matmul kernel (tiled, regs, regs8) `auto` runs for each shape (and b as
 * f32 or packed halves, with f32 or f16 arithmetic: different kernels). `tiled` until `tuneMatmuls`
 * has timed them on that shape. For one kind of arithmetic they give the same bits (kernel tests
 * hold them to it), so the choice, and any noise in the timing behind it, never changes a number.
 */
export class MatmulChooser {
  private readonly calls = new Map<string, { d: MatmulDims; half: boolean; f16: boolean; n: number }>();
  private readonly chosen = new Map<string, BigMatmulKernel>();
  /** Shapes remembered for tuning at most (rollouts see many prompt lengths). */
  static readonly MAX_SEEN = 512;

  pick(d: MatmulDims, half = false, f16 = false): BigMatmulKernel {
    const k = shapeKey(d, half, f16);
    const c = this.calls.get(k);
    if (c) c.n++;
    else if (this.calls.size < MatmulChooser.MAX_SEEN) this.calls.set(k, { d, half, f16, n: 1 });
    return this.chosen.get(k) ?? 'tiled';
  }

  /** The untuned shapes seen so far, most dispatched first. */
  untuned(): { key: string; d: MatmulDims; half: boolean; f16: boolean; n: number }[] {
    return [...this.calls]
      .filter(([k]) => !this.chosen.has(k))
      .map(([key, v]) => ({ key, ...v }))
      .sort((x, y) => y.n - x.n);
  }

  set(key: string, choice: BigMatmulKernel): void {
    this.chosen.set(key, choice);
  }

  /** Every shape seen runs `choice` (tests: the choice must not change results). */
  force(choice: BigMatmulKernel): void {
    for (const k of this.calls.keys()) this.chosen.set(k, choice);
  }
}

/** The lab's tuning pause (after the first step of a run or warm start): the 8 most used shapes, 2 samples each. */
export const LAB_MATMUL_TUNING = { maxShapes: 8, samples: 2 } as const;

/** With timestamps, a timing repeats the call until the GPU time reaches this (browsers round timestamps to 100 µs). */
const TUNE_MIN_GPU_MS = 2;
const TUNE_MAX_REPS = 64;

/**
 * Time `tiled`, `regs` and `regs8` on the most dispatched shapes `auto` has sent to the tiled
 * kernel and not yet tuned (at most `maxShapes`), and keep the fastest per shape; a register
 * kernel must beat `tiled` by `margin` (default 10%) to be chosen. Each shape: one warm-up call of
 * each (pipeline compilation), then `samples` rounds of one timing of each; medians. A timing is
 * the GPU's own time where the device has `timestamp-query` (the call repeated in one compute pass
 * until that passes TUNE_MIN_GPU_MS, at most 64 times, per call: on a GPU a single matmul takes
 * microseconds and a submit and wait far longer, which would decide the choice), else the wall
 * clock around one call and its submit and wait. Call between steps, never while a step is being
 * recorded (it submits and waits).
 */
export async function tuneMatmuls(
  be: WebGpuBackend,
  o: { maxShapes?: number; samples?: number; margin?: number } = {},
): Promise<MatmulTuneRow[]> {
  await be.sync();
  const samples = Math.max(1, o.samples ?? 3);
  const margin = o.margin ?? 0.1;
  const timer = be.device.features.has('timestamp-query') ? 'gpu' : 'wall';
  const rows: MatmulTuneRow[] = [];
  for (const { key, d, half, f16, n } of be.matmulChooser.untuned().slice(0, o.maxShapes ?? 16)) {
    const lead = d.batch > 1 ? [d.batch] : [];
    const a = be.zeros([...lead, ...(d.transA ? [d.K, d.M] : [d.M, d.K])]);
    const bDims = d.transB ? [d.N, d.K] : [d.K, d.N];
    if (half) bDims[1] /= 2; // packed halves: two a word along the contiguous dim
    const b = be.zeros([...(d.bBatched ? lead : []), ...bDims]);
    const out = be.zeros([...lead, d.M, d.N]);
    const opts: MatmulOptions = {
      transA: d.transA,
      transB: d.transB,
      accumulate: d.accumulate,
      bHalf: half,
      math: f16 ? 'f16' : 'f32',
    };
    const call = (variant: BigMatmulKernel) => be.matmul(out, a, b, { ...opts, variant });
    const time = async (variant: BigMatmulKernel): Promise<number> => {
      if (timer === 'gpu') {
        for (let reps = 1; ;) {
          const ms = (await be.gpuPassTime(() => {
            for (let r = 0; r < reps; r++) call(variant);
          }))!;
          if (ms >= TUNE_MIN_GPU_MS || reps >= TUNE_MAX_REPS) return ms / reps;
          reps = Math.min(TUNE_MAX_REPS, reps * Math.max(2, Math.ceil(TUNE_MIN_GPU_MS / Math.max(ms, 1e-3))));
        }
      }
      const t0 = performance.now();
      call(variant);
      await be.sync();
      return performance.now() - t0;
    };
    for (const k of BIG_MATMUL_KERNELS) await time(k);
    const t: Record<BigMatmulKernel, number[]> = { tiled: [], regs: [], regs8: [] };
    for (let i = 0; i < samples; i++) for (const k of BIG_MATMUL_KERNELS) t[k].push(await time(k));
    const [tiledMs, regsMs, regs8Ms] = BIG_MATMUL_KERNELS.map((k) => median(t[k]));
    const best = regs8Ms < regsMs ? 'regs8' : 'regs';
    const choice = Math.min(regsMs, regs8Ms) < tiledMs * (1 - margin) ? best : 'tiled';
    be.matmulChooser.set(key, choice);
    rows.push({ shape: key, calls: n, tiledMs, regsMs, regs8Ms, choice, timer });
    for (const x of [a, b, out]) be.release(x);
  }
  return rows;
}
