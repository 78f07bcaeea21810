/**
 * `npx tsx bench/wasm-matmul.ts [--json]`: GFLOP/s of square f32 matmuls (128, 256, 512, 1024) on
 * the wasm backend with 1 thread and with all threads, the machine's single-core f32x4 peak and the
 * share of that peak each thread reaches at 512. The peak is the better of two probes in
 * asm/matmul.ts, both f32x4 multiplies and adds with nothing to wait for: `mm_peak_sums` (8 sums of
 * products of operands in L1, the matmul kernel's own instructions) and `mm_peak_chains` (12 chains
 * x = x · m + c in registers). Best of many short timed repeats after a warm-up (the best, not the
 * median: on a busy machine the fastest run is the one least disturbed). The measuring functions
 * are exported for other benches.
 */
import { pathToFileURL } from 'node:url';
import { WasmBackend } from '../src/engine/wasm/backend';

export const MATMUL_SIZES = [128, 256, 512, 1024] as const;

/** Flops of one iteration: `mm_peak_sums` 8 × (4 multiplies + 4 adds), `mm_peak_chains` 12 × 8. */
const SUMS_FLOPS_PER_ITER = 64;
const CHAINS_FLOPS_PER_ITER = 96;

export interface SimdPeak {
  /** The better of the two probes, GFLOP/s. */
  gflops: number;
  sums: number;
  chains: number;
}

/** Single-core f32x4 peak in GFLOP/s: the best of `repeats` runs of each probe, in alternation. */
export function simdPeak(be: WasmBackend, iters = 4e6, repeats = 25): SimdPeak {
  // b_0, b_1, a_0 … a_3 of mm_peak_sums: sums of 4e6 products of about 0.5 stay finite and normal
  const operands = be.fromArray(
    Float32Array.from({ length: 12 }, (_, i) => 0.5 + i / 32),
    [12],
  );
  const p = be.ptr(operands);
  for (let w = 0; w < 2; w++) {
    // warm-up (tier-up)
    be.call('mm_peak_sums', iters / 10, p);
    be.call('mm_peak_chains', iters / 10);
  }
  let sums = Infinity;
  let chains = Infinity;
  for (let r = 0; r < repeats; r++) {
    let t0 = performance.now();
    be.call('mm_peak_sums', iters, p);
    sums = Math.min(sums, performance.now() - t0);
    t0 = performance.now();
    be.call('mm_peak_chains', iters);
    chains = Math.min(chains, performance.now() - t0);
  }
  be.release(operands);
  const g = {
    sums: (SUMS_FLOPS_PER_ITER * iters) / (sums * 1e6),
    chains: (CHAINS_FLOPS_PER_ITER * iters) / (chains * 1e6),
  };
  return { gflops: Math.max(g.sums, g.chains), ...g };
}

/** GFLOP/s of out (n, n) = a (n, n) · b (n, n) on `be`: the best of repeats after a warm-up. */
export function matmulGflops(be: WasmBackend, n: number, minMs = 300): number {
  const a = be.fromArray(
    Float32Array.from({ length: n * n }, (_, i) => ((i * 7919) % 1000) / 1000 - 0.5),
    [n, n],
  );
  const b = be.fromArray(
    Float32Array.from({ length: n * n }, (_, i) => ((i * 104729) % 1000) / 1000 - 0.5),
    [n, n],
  );
  const out = be.zeros([n, n]);
  be.matmul(out, a, b);
  let best = Infinity;
  let spent = 0;
  for (let r = 0; r < 3 || spent < minMs; r++) {
    const t0 = performance.now();
    be.matmul(out, a, b);
    const ms = performance.now() - t0;
    best = Math.min(best, ms);
    spent += ms;
    if (r > 200) break;
  }
  for (const t of [a, b, out]) be.release(t);
  return (2 * n * n * n) / (best * 1e6);
}

export interface MatmulFigures {
  /** Threads of the "all threads" rows. */
  threads: number;
  peakGflops: number;
  /** Each probe's GFLOP/s (peakGflops is the better). */
  peakProbes: { sums: number; chains: number };
  rows: { n: number; gflops1: number; gflopsAll: number }[];
  /** GFLOP/s per thread at 512 as a share of the single-core peak, on 1 thread and on all. */
  ratio512: { one: number; all: number };
}

/** The whole table: square matmuls on 1 and on all threads, the peak and the ratios at 512. */
export async function matmulFigures(sizes: readonly number[] = MATMUL_SIZES): Promise<MatmulFigures> {
  const one = await WasmBackend.create({ threads: 1 });
  const all = await WasmBackend.create();
  try {
    const peak = simdPeak(one);
    const peakGflops = peak.gflops;
    const rows = sizes.map((n) => ({ n, gflops1: matmulGflops(one, n), gflopsAll: matmulGflops(all, n) }));
    const at = rows.find((r) => r.n === 512) ?? { gflops1: matmulGflops(one, 512), gflopsAll: matmulGflops(all, 512) };
    return {
      threads: all.threads,
      peakGflops,
      peakProbes: { sums: peak.sums, chains: peak.chains },
      rows,
      ratio512: { one: at.gflops1 / peakGflops, all: at.gflopsAll / all.threads / peakGflops },
    };
  } finally {
    one.dispose();
    all.dispose();
  }
}

async function main(): Promise<void> {
  const f = await matmulFigures();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(f, null, 2));
    return;
  }
  const r1 = (x: number) => x.toFixed(1).padStart(7);
  console.log(`wasm matmul, f32, square n x n x n (GFLOP/s)`);
  console.log(
    `single-core f32x4 peak: ${f.peakGflops.toFixed(1)} GFLOP/s ` +
      `(probes: sums ${f.peakProbes.sums.toFixed(1)}, chains ${f.peakProbes.chains.toFixed(1)})`,
  );
  console.log(`     n  1 thread  ${f.threads} threads`);
  for (const r of f.rows) console.log(`${String(r.n).padStart(6)}  ${r1(r.gflops1)}  ${r1(r.gflopsAll)}`);
  console.log(
    `at 512: ${(100 * f.ratio512.one).toFixed(0)}% of peak on 1 thread, ` +
      `${(100 * f.ratio512.all).toFixed(0)}% per thread on ${f.threads}`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
