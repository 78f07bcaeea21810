/**
 * Browser side of the kernel benchmark (bench/run.ts drives it in headless Chromium): acquires
 * WebGPU, builds a WebGpuBackend and exposes `window.__bench.run(opts)`, which times
 *   - matmul naive vs tiled on squares (256, 512, 1024; --quick drops 1024) and their ratio;
 *   - every op once at a model-like shape (the `micro` preset: B=4, T=128, C=128, H=4, V=1024).
 * Timing: a warm-up call (pipeline compile), an untimed probe that sets how many calls go into one
 * sample (small ops are batched so a sample is ≥ ~50 ms of work), then samples of `reps` calls
 * ending with `await be.sync()`, until a sample cap or time budget; the median sample / reps is
 * reported. Ops too big to run twice (1024³ matmul) warm up at 512 and report one sample.
 * An op that throws (not implemented yet, or a kernel error) is reported as n/a with its message.
 * Progress goes to console.log with a "[bench]" prefix. Not a test: nothing here is asserted.
 */
import { attentionSize, type Backend, type Tensor } from '../src/engine/backend';
import { acquireGpu, adapterLine } from '../src/engine/gpu/context';
import { WebGpuBackend } from '../src/engine/gpu/backend';
import { median } from '../src/engine/gpu/timing';
import { embeddingBackwardOnGpu } from '../src/engine/ops/embedding';
import { matmulBackward } from '../src/engine/ops/matmul';
import { Rng } from '../src/engine/rng';

export interface BenchRow {
  op: string;
  shape: string;
  /** Median milliseconds per call; null when the op failed (n/a). */
  ms: number | null;
  /** Floating-point operations per call (2·M·N·K for matmul); null where not meaningful. */
  flops: number | null;
  gflops: number | null;
  /** Samples taken × calls per sample. */
  samples: number;
  reps: number;
  error?: string;
  /** A failure of this row fails the run (the naive-vs-tiled matmul comparison). */
  required: boolean;
}

export interface BenchResult {
  adapter: string;
  isFallback: boolean;
  quick: boolean;
  rows: BenchRow[];
  /** tiled / naive throughput at each square size (> 1: tiled is faster). */
  speedups: {
    size: number;
    naiveMs: number | null;
    tiledMs: number | null;
    regsMs: number | null;
    regs8Ms: number | null;
    speedup: number | null;
  }[];
  totalSeconds: number;
}

const log = (msg: string): void => console.log(`[bench] ${msg}`);

interface TimeOpts {
  /** Most samples to take. */
  maxSamples: number;
  /** Stop taking samples after this long (the first sample is always taken). */
  budgetMs: number;
  /** Warm-up: by default one call of the op itself; big matmuls warm the same kernel on a small shape. */
  warmUp?: () => void;
  /** Calls per sample are chosen so a sample lasts about this long. */
  sampleMs?: number;
}

async function timeOp(
  be: WebGpuBackend,
  fn: () => void,
  o: TimeOpts,
): Promise<{ ms: number; samples: number; reps: number }> {
  (o.warmUp ?? fn)();
  await be.sync();
  // The probe only sizes `reps` (SwiftShader's first dispatch at a new size is slow: not a sample),
  // except for a single-sample op too big to run twice.
  let t0 = performance.now();
  fn();
  await be.sync();
  const probe = performance.now() - t0;
  const reps = Math.max(1, Math.min(50, Math.round((o.sampleMs ?? 50) / Math.max(probe, 1e-3))));
  if (o.maxSamples === 1 && reps === 1) return { ms: probe, samples: 1, reps };
  const samples: number[] = [];
  const start = performance.now();
  while (samples.length < o.maxSamples && (samples.length === 0 || performance.now() - start < o.budgetMs)) {
    t0 = performance.now();
    for (let r = 0; r < reps; r++) fn();
    await be.sync();
    samples.push((performance.now() - t0) / reps);
  }
  return { ms: median(samples), samples: samples.length, reps };
}

/** Random f32 tensor. */
function randT(be: Backend, rng: Rng, shape: number[], scale = 1): Tensor {
  const n = shape.reduce((p, d) => p * d, 1);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = rng.normal() * scale;
  return be.fromArray(data, shape);
}

function idsT(be: Backend, rng: Rng, n: number, V: number): Tensor {
  return be.fromArray(
    Int32Array.from({ length: n }, () => rng.int(0, V - 1)),
    [n],
  );
}

async function run(opts: { quick?: boolean } = {}): Promise<BenchResult> {
  const t0 = performance.now();
  const acq = await acquireGpu();
  if (!acq.ok) throw new Error(`no WebGPU adapter: ${acq.failure.kind}: ${acq.failure.message}`);
  const be = new WebGpuBackend(acq.ctx);
  const adapter = adapterLine(acq.ctx.summary);
  log(adapter);
  const rng = new Rng('bench');
  const rows: BenchRow[] = [];

  /** Time one op; `setup` makes the tensors and returns the call (and what to release after). */
  async function bench(
    op: string,
    shape: string,
    flops: number | null,
    setup: () => { call: () => void; tensors: Tensor[] },
    o: Partial<TimeOpts> & { required?: boolean } = {},
  ): Promise<BenchRow> {
    log(`${op} ${shape} …`);
    let row: BenchRow;
    let tensors: Tensor[] = [];
    try {
      const s = setup();
      tensors = s.tensors;
      const r = await timeOp(be, s.call, {
        maxSamples: o.maxSamples ?? 7,
        budgetMs: o.budgetMs ?? 1500,
        warmUp: o.warmUp,
        sampleMs: o.sampleMs,
      });
      row = {
        op,
        shape,
        ms: r.ms,
        flops,
        gflops: flops === null ? null : flops / (r.ms * 1e6),
        samples: r.samples,
        reps: r.reps,
        required: o.required ?? false,
      };
    } catch (e) {
      const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
      row = {
        op,
        shape,
        ms: null,
        flops,
        gflops: null,
        samples: 0,
        reps: 0,
        error: msg,
        required: o.required ?? false,
      };
      try {
        await be.sync();
      } catch {
        /* errors of the failed op, already reported */
      }
    }
    for (const t of tensors) be.release(t);
    log(`  ${row.ms === null ? `n/a (${row.error})` : `${row.ms.toFixed(3)} ms`}`);
    rows.push(row);
    return row;
  }

  // ---- matmul: naive vs tiled on squares ---------------------------------------------------------
  const sizes = opts.quick ? [256, 512] : [256, 512, 1024];
  const speedups: BenchResult['speedups'] = [];
  for (const n of sizes) {
    const ms: Record<string, number | null> = {};
    for (const variant of ['naive', 'tiled', 'regs', 'regs8'] as const) {
      // 1024 warms the same kernel at 512 (a second 1024 naive run costs ~15 s on SwiftShader).
      const w = n >= 1024 ? 512 : n;
      const small = { a: randT(be, rng, [w, w]), b: randT(be, rng, [w, w]), out: be.zeros([w, w]) };
      const row = await bench(
        `matmul ${variant}`,
        `${n}x${n}x${n}`,
        2 * n ** 3,
        () => {
          const a = randT(be, rng, [n, n]);
          const b = randT(be, rng, [n, n]);
          const out = be.zeros([n, n]);
          return { call: () => be.matmul(out, a, b, { variant }), tensors: [a, b, out] };
        },
        {
          required: true,
          warmUp: () => be.matmul(small.out, small.a, small.b, { variant }),
          maxSamples: n >= 1024 ? 1 : n >= 512 ? 3 : 5,
          budgetMs: 2000,
          sampleMs: 1,
        },
      );
      for (const t of [small.a, small.b, small.out]) be.release(t);
      ms[variant] = row.ms;
    }
    const speedup = ms.naive !== null && ms.tiled !== null ? ms.naive / ms.tiled : null;
    speedups.push({ size: n, naiveMs: ms.naive, tiledMs: ms.tiled, regsMs: ms.regs, regs8Ms: ms.regs8, speedup });
  }

  // ---- every op at a model-like shape (micro preset) ------------------------------------------------
  const [B, T, C, H, V] = [4, 128, 128, 4, 1024];
  const N = B * T;
  const P = 1 << 20; // ≈ the micro preset's parameter count
  /** The three big-matmul kernels on one model shape (the start-up choice picks between them). */
  const mm = async (name: string, M: number, K: number, Nn: number, transA: boolean, transB: boolean) => {
    for (const variant of ['tiled', 'regs', 'regs8'] as const) {
      await bench(
        `matmul ${variant} ${name}`,
        `(${M}x${K})·(${K}x${Nn})${transA ? ' tA' : ''}${transB ? ' tB' : ''}`,
        2 * M * K * Nn,
        () => {
          const a = randT(be, rng, transA ? [K, M] : [M, K]);
          const b = randT(be, rng, transB ? [Nn, K] : [K, Nn]);
          const out = be.zeros([M, Nn]);
          return { call: () => be.matmul(out, a, b, { transA, transB, variant }), tensors: [a, b, out] };
        },
      );
    }
  };
  await mm('qkv', N, C, 3 * C, false, true);
  await mm('mlp up', N, C, 4 * C, false, true);
  await mm('mlp dW', 4 * C, N, C, true, false);
  await mm('lm head', N, C, V, false, true);
  await bench('matmul backward (dA+dB)', `(${N}x${C})·(${C}x${4 * C})ᵀ`, 4 * N * C * 4 * C, () => {
    const x = randT(be, rng, [N, C]);
    const w = randT(be, rng, [4 * C, C]);
    const dOut = randT(be, rng, [N, 4 * C]);
    const dx = be.zeros([N, C]);
    const dw = be.zeros([4 * C, C]);
    return { call: () => matmulBackward(be, dx, dw, dOut, x, w, { transB: true }), tensors: [x, w, dOut, dx, dw] };
  });
  await bench('addBias', `(${N}, ${4 * C})`, N * 4 * C, () => {
    const x = randT(be, rng, [N, 4 * C]);
    const bias = randT(be, rng, [4 * C]);
    const out = be.zeros([N, 4 * C]);
    return { call: () => be.addBias(out, x, bias), tensors: [x, bias, out] };
  });
  await bench('biasBackward', `(${N}, ${4 * C})`, N * 4 * C, () => {
    const d = randT(be, rng, [N, 4 * C]);
    const db = be.zeros([4 * C]);
    return { call: () => be.biasBackward(db, d), tensors: [d, db] };
  });
  await bench('embedding', `N=${N} V=${V} C=${C}`, null, () => {
    const table = randT(be, rng, [V, C]);
    const ids = idsT(be, rng, N, V);
    const out = be.zeros([N, C]);
    return { call: () => be.embedding(out, table, ids), tensors: [table, ids, out] };
  });
  for (const version of ['csr', 'scan'] as const) {
    await bench(`embeddingBackward ${version}`, `N=${N} V=${V} C=${C}`, null, () => {
      const d = randT(be, rng, [N, C]);
      const ids = idsT(be, rng, N, V);
      const dTable = be.zeros([V, C]);
      return { call: () => embeddingBackwardOnGpu(be, dTable, d, ids, version), tensors: [d, ids, dTable] };
    });
  }
  await bench('adamw', `n=${P}`, null, () => {
    const [p, g] = [randT(be, rng, [P]), randT(be, rng, [P])];
    const [m, v] = [be.zeros([P]), be.zeros([P])];
    return {
      call: () => be.adamw(p, g, m, v, { lr: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, step: 1 }),
      tensors: [p, g, m, v],
    };
  });
  await bench('clipGradNorm', `n=${P}`, 3 * P, () => {
    const g = randT(be, rng, [P]);
    const norm = be.zeros([1]);
    return { call: () => be.clipGradNorm(norm, g, 1e9), tensors: [g, norm] };
  });
  await bench('layerNorm', `(${N}, ${C})`, null, () => {
    const [x, w, b] = [randT(be, rng, [N, C]), randT(be, rng, [C]), randT(be, rng, [C])];
    const [out, mean, rstd] = [be.zeros([N, C]), be.zeros([N]), be.zeros([N])];
    return { call: () => be.layerNorm(out, mean, rstd, x, w, b), tensors: [x, w, b, out, mean, rstd] };
  });
  await bench('layerNormBackward', `(${N}, ${C})`, null, () => {
    const [x, w, b, d] = [randT(be, rng, [N, C]), randT(be, rng, [C]), randT(be, rng, [C]), randT(be, rng, [N, C])];
    const [out, mean, rstd] = [be.zeros([N, C]), be.zeros([N]), be.zeros([N])];
    be.layerNorm(out, mean, rstd, x, w, b);
    const [dx, dw, db] = [be.zeros([N, C]), be.zeros([C]), be.zeros([C])];
    return {
      call: () => be.layerNormBackward(dx, dw, db, d, x, mean, rstd, w),
      tensors: [x, w, b, d, out, mean, rstd, dx, dw, db],
    };
  });
  await bench('gelu', `(${N}, ${4 * C})`, null, () => {
    const x = randT(be, rng, [N, 4 * C]);
    const out = be.zeros([N, 4 * C]);
    return { call: () => be.gelu(out, x), tensors: [x, out] };
  });
  await bench('geluBackward', `(${N}, ${4 * C})`, null, () => {
    const [x, d] = [randT(be, rng, [N, 4 * C]), randT(be, rng, [N, 4 * C])];
    const dx = be.zeros([N, 4 * C]);
    return { call: () => be.geluBackward(dx, x, d), tensors: [x, d, dx] };
  });
  const attFlops = 2 * B * T * T * C; // QKᵀ and AV, causal half of 2·2·B·T²·C
  await bench('attention', `B=${B} T=${T} C=${C} H=${H}`, attFlops, () => {
    const qkv = randT(be, rng, [B, T, 3 * C]);
    const [out, att] = [be.zeros([B, T, C]), be.zeros([attentionSize({ B, H, T })])];
    return { call: () => be.attention(out, att, qkv, { B, T, C, H }), tensors: [qkv, out, att] };
  });
  await bench('attentionBackward', `B=${B} T=${T} C=${C} H=${H}`, 2 * attFlops, () => {
    const [qkv, d] = [randT(be, rng, [B, T, 3 * C]), randT(be, rng, [B, T, C])];
    const [out, att, dqkv] = [be.zeros([B, T, C]), be.zeros([attentionSize({ B, H, T })]), be.zeros([B, T, 3 * C])];
    be.attention(out, att, qkv, { B, T, C, H });
    return { call: () => be.attentionBackward(dqkv, d, qkv, att, { B, T, C, H }), tensors: [qkv, d, out, att, dqkv] };
  });
  await bench('softmax', `(${N}, ${V})`, null, () => {
    const x = randT(be, rng, [N, V]);
    const out = be.zeros([N, V]);
    return { call: () => be.softmax(out, x), tensors: [x, out] };
  });
  await bench('crossEntropy', `(${N}, ${V})`, null, () => {
    const logits = randT(be, rng, [N, V]);
    const targets = idsT(be, rng, N, V);
    const losses = be.zeros([N]);
    return { call: () => be.crossEntropy(losses, logits, targets), tensors: [logits, targets, losses] };
  });
  await bench('crossEntropyBackward', `(${N}, ${V})`, null, () => {
    const logits = randT(be, rng, [N, V]);
    const targets = idsT(be, rng, N, V);
    const [dl, dLogits] = [randT(be, rng, [N]), be.zeros([N, V])];
    return {
      call: () => be.crossEntropyBackward(dLogits, logits, targets, dl),
      tensors: [logits, targets, dl, dLogits],
    };
  });

  return {
    adapter,
    isFallback: acq.ctx.summary.isFallback,
    quick: Boolean(opts.quick),
    rows,
    speedups,
    totalSeconds: (performance.now() - t0) / 1000,
  };
}

declare global {
  interface Window {
    __bench: { run: typeof run };
  }
}

window.__bench = { run };
log('ready');
