/**
 * Matmul: out (…, M, N) = op(a) · op(b), op = optional transpose, batched over the leading dims of
 * `a` and `out`; `b` is either batched the same way or 2-D and broadcast over the batch.
 * This folder: shape resolution (dims.ts, with errors that name the shapes), the CPU reference (a
 * plain triple loop, the spec: reference.ts) and the CPU backend's faster loop (cpu.ts), the
 * backward written as a plan of forward matmuls with transposed operands (backward.ts; no transpose
 * is ever materialised), the shared epilogue (epilogue.ts), and five WGSL kernels:
 *   1. `naive` (naive.ts): one thread per output element, K loop from global memory.
 *   2. `tiled` (tiled.ts): a 64×64 tile of C per workgroup of 16×16 threads, each thread a 4×4 register block,
 *      A and B staged through `var<workgroup>` memory 16 values of K at a time, vec4 loads where
 *      the operand's contiguous dim is a multiple of 4, bounds-checked loads everywhere else.
 *   3. `regs` (regs.ts): a 32×32 tile per 8×8 threads, 4×4 per thread, no workgroup memory and no barriers.
 *   4. `rows` (rows.ts): M ≤ 8 (decoding), one thread per column holding every row's sum.
 *   5. `regs8` (regs.ts): `regs` with 8×8 per thread (a 64×64 tile).
 * `auto` runs rows for M ≤ 8, naive below one tile, else tiled, regs or regs8 as `tuneMatmuls`
 * chose for the shape (tune.ts, timed at start-up; the three give the same bits). Every kernel ends in the
 * same epilogue: optional gelu'(pre) factor (GELU's backward), accumulate, bias, a residual add
 * (out = residual + product + bias, in place or from another tensor) and GELU into a second output
 * (fused `linear`, MLP layers and residual connections), giving exactly the bits of the separate ops.
 * With `bHalf`, every kernel reads b as packed IEEE halves (unpack2x16float, core WGSL) into the same
 * f32 arithmetic: half the bytes of b, the bits of the f32 kernel on b's halves. With `math: 'f16'`
 * (and `shader-f16`; forward passes, no transposed a), every kernel has a half-arithmetic version (f16.ts)
 * (runs of four products summed in f16, the runs in f32; `tiled` stages halves in workgroup memory),
 * held to their own CPU reference (`matmulF16Ref`) by an error bound and to each other bit for bit.
 *
 * This file: the WebGPU entry point (which kernel a call runs), the registry's entry and what the
 * rest of the engine imports.
 *
 * Shape legend: Z batch (product of leading dims), M rows of op(a), K inner dim, N columns of op(b).
 */
import { type MatmulOptions, type Tensor } from '../../backend';
import { type WebGpuBackend } from '../../gpu/backend';
import { MAX_GROUPS_PER_DIM, u32 } from '../../gpu/kernel';
import { type OpEntries } from '../registry';
import { matmulOnCpu } from './cpu';
import { type MatmulDims, logicalBShape, matmulDims } from './dims';
import { epilogueOf } from './epilogue';
import { f16Kernel, f16TiledKernel } from './f16';
import { naiveKernel } from './naive';
import { f16MathOf } from './reference';
import { REGS_BLOCK, regsKernel } from './regs';
import { ROWS_MAX_M, ROWS_WG, rowsKernel } from './rows';
import { TILE, TK, tiledKernel } from './tiled';
import { type BigMatmulKernel } from './tune';

// ---- entry points ------------------------------------------------------------------------------------------

/** `auto` uses the tiled kernel once there are at least this many outputs (one full tile) and K >= TK. */
const TILED_MIN_OUTPUTS = TILE * TILE;

export function pickMatmulVariant(
  d: MatmulDims,
  variant: MatmulOptions['variant'] = 'auto',
): 'naive' | BigMatmulKernel | 'rows' {
  if (variant !== 'auto') return variant;
  if (d.M <= ROWS_MAX_M) return 'rows';
  return d.batch * d.M * d.N >= TILED_MIN_OUTPUTS && d.K >= TK ? 'tiled' : 'naive';
}

function matmulOnGpu(be: WebGpuBackend, out: Tensor, a: Tensor, b: Tensor, opts: MatmulOptions = {}): void {
  for (const [t, what] of [
    [out, 'out'],
    [a, 'a'],
    [b, 'b'],
  ] as const) {
    if (t.dtype !== 'f32') throw new Error(`matmul: ${what} must be f32, got ${t.dtype}`);
  }
  let d = matmulDims(out.shape, a.shape, logicalBShape(b, opts), opts);
  const e = epilogueOf(out, opts);
  const half = opts.bHalf ?? false;
  const bound = [
    out,
    a,
    b,
    ...[opts.bias, opts.geluOut, opts.geluGradOf, e.resid === 'other' ? opts.residual : undefined].filter(
      (t): t is Tensor => !!t,
    ),
  ];
  // A broadcast b with an untransposed a is one big 2-D matmul: fold the batch into M.
  if (!d.bBatched && d.batch > 1) d = { ...d, M: d.batch * d.M, batch: 1 };
  const { M, N, K } = d;
  if (
    d.batch > MAX_GROUPS_PER_DIM ||
    Math.ceil(M / 16) > MAX_GROUPS_PER_DIM ||
    Math.ceil(N / 16) > MAX_GROUPS_PER_DIM
  ) {
    throw new Error(
      `matmul: batch ${d.batch} × (${M}, ${N}) needs more than ${MAX_GROUPS_PER_DIM} workgroups per grid dim`,
    );
  }
  const uniforms = [
    u32(M),
    u32(N),
    u32(K),
    u32(M * K),
    u32(d.bBatched ? K * N : 0),
    u32(M * N),
    u32(d.accumulate ? 1 : 0),
  ];
  const vecA = (d.transA ? M : K) % 4 === 0; // a's contiguous dim
  const vecB = (d.transB ? K : N) % 4 === 0; // b's contiguous dim
  const f16 = f16MathOf(opts);
  if (f16 && !be.hasF16Math)
    throw new Error(
      `matmul: math 'f16' needs a GPU with the shader-f16 feature; ${be.description} has none (use math 'f32')`,
    );
  const asked = opts.variant ?? 'auto';
  let variant = pickMatmulVariant(d, asked);
  if (variant === 'tiled' && asked === 'auto') variant = be.matmulChooser.pick(d, half, f16);
  if (variant === 'naive') {
    be.dispatch(
      f16 ? f16Kernel('naive', d.transB, vecA, vecB, e, {}) : naiveKernel(d.transA, d.transB, e, half),
      bound,
      uniforms,
      [Math.ceil(N / 16), Math.ceil(M / 16), d.batch],
    );
    return;
  }
  if (variant === 'rows') {
    if (M > ROWS_MAX_M) throw new Error(`matmul: the rows kernel takes at most ${ROWS_MAX_M} rows of op(a), got ${M}`);
    // Columns a thread: f16 reads b (K, N) by rows of four where N % 4 == 0; the half f32 kernel takes a column pair of b (K, N).
    const perThread = d.transB ? 1 : f16 ? (vecB ? 4 : 1) : half ? 2 : 1;
    const k = f16 ? f16Kernel('rows', d.transB, vecA, vecB, e, { M }) : rowsKernel(d.transA, d.transB, M, e, half);
    be.dispatch(k, bound, uniforms, [Math.ceil(N / (perThread * ROWS_WG)), 1, d.batch]);
    return;
  }
  if (variant === 'regs' || variant === 'regs8') {
    const { RM, CN } = REGS_BLOCK[variant];
    const k = f16
      ? f16Kernel('regs', d.transB, vecA, vecB, e, { RM, CN })
      : regsKernel(d.transA, d.transB, vecA, vecB, e, RM, CN, half);
    be.dispatch(k, bound, uniforms, [Math.ceil(N / (32 * CN)), Math.ceil(M / (8 * RM)), d.batch]);
    return;
  }
  const k = f16 ? f16TiledKernel(d.transB, vecA, vecB, e) : tiledKernel(d.transA, d.transB, vecA, vecB, e, half);
  be.dispatch(k, bound, uniforms, [Math.ceil(N / TILE), Math.ceil(M / TILE), d.batch]);
}

/** The registry's entries for these ops (./registry.ts). */
export const matmulOps = {
  matmul: { cpu: matmulOnCpu, webgpu: matmulOnGpu },
} satisfies OpEntries;

export { matmulBackward } from './backward';
export { LAB_MATMUL_TUNING, MatmulChooser, tuneMatmuls, type MatmulTuneRow } from './tune';
