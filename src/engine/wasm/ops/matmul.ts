/**
 * Matmul on the wasm backend (asm/matmul.ts): batched and broadcast shapes, transA, transB,
 * accumulate, packed-half b and the fused epilogues (bias, geluOut, geluGradOf, residual, in place
 * too), on f32x4 4 × 8 register blocks (k in blocks of KC for long K).
 *
 * op(b) is packed into k-major panels of 8 columns (`mm_pack`, threaded over panels) unless b is
 * plain row-major f32 and op(a) has few rows (decoding): then the kernel reads b's rows in place and
 * only a partial last panel is packed. Row-major op(a) is packed by the kernel, a chunk of rows at a
 * time, into a scratch per thread. The product is split over blocks of 4 rows, or over panels
 * when there are too few blocks to keep the threads busy; either way each output is summed by one
 * part in ascending k, so the bits do not depend on the thread count.
 *
 * `math: 'f16'` (half arithmetic, opt-in) runs the CPU reference on the wasm memory: it is an
 * emulation there as on the cpu backend, and no wasm path selects it. `variant` is ignored.
 */
import { type MatmulOptions } from '../../backend';
import { logicalBShape, matmulDims } from '../../ops/matmul/dims';
import { epilogueOf } from '../../ops/matmul/epilogue';
import { f16MathOf } from '../../ops/matmul/reference';
import type { WasmBackend } from '../backend';
import type { WasmEntries } from './types';

const NR = 8;
/** Rows of op(a) per batch entry at or below which a row-major f32 b is read in place. */
const DIRECT_ROWS = 32;
/**
 * k per block for K beyond it (not for fewer than 4 rows): a panel's slice (KC × 8, 16 KiB) stays
 * in L1 while the chunk's rows sweep it, the partial sums go to a scratch (f32 stores and loads are
 * exact, so blocking does not move a result). 512: the forward products of C ≤ 128 (K ≤ 4C) in one block.
 */
const KC = 512;
/** op(a) values per chunk of rows (for one k block): 192 KiB, in L2 while every panel sweeps it. */
const CHUNK_WORDS = 49152;

const ACC = 1;
const BIAS = 2;
const GELU = 4;
const GGRAD = 8;
const RESID = 16;

export const matmulWasm = {
  matmul(be: WasmBackend, out, a, b, opts: MatmulOptions = {}) {
    if (f16MathOf(opts)) {
      be.host.matmul(out, a, b, opts);
      return;
    }
    const d = matmulDims(out.shape, a.shape, logicalBShape(b, opts), opts);
    const e = epilogueOf(out, opts);
    if (a.dtype !== 'f32' || b.dtype !== 'f32' || out.dtype !== 'f32')
      throw new Error(`matmul: a, b and out must be f32, got ${a.dtype}, ${b.dtype}, ${out.dtype}`);
    const { K, N, transA, transB } = d;
    // A 2-D b shared by the batch (never with transA): the batch is more rows of one product.
    const Z = d.bBatched ? d.batch : 1;
    const M = d.bBatched ? d.M : d.batch * d.M;
    if (M === 0 || N === 0 || Z === 0) return;
    const half = opts.bHalf ?? false;
    const NB = Math.ceil(N / NR);
    const direct = !transB && !half && M <= DIRECT_ROWS;
    const fullPanels = N % NR === 0 ? NB : NB - 1;
    const p0 = direct ? fullPanels : 0;
    const packed = NB - p0;
    const panelWords = K * NR;
    const scratch = packed > 0 && K > 0 ? be.scratch([Z * packed * panelWords]) : null;
    const sp = scratch ? be.ptr(scratch) : 0;
    if (scratch) be.par('mm_pack', Z * packed * panelWords, sp, be.ptr(b), Z, K, N, +transB, +half, p0);
    const bFull = direct ? be.ptr(b) : sp;
    const bz = direct ? K * N * 4 : packed * panelWords * 4;
    const bp = direct ? NR * 4 : panelWords * 4;
    const bk = direct ? N * 4 : NR * 4;
    const bTail = direct ? sp : sp + (NB - 1) * panelWords * 4;
    const btz = direct ? panelWords * 4 : bz;
    const flags =
      (d.accumulate ? ACC : 0) |
      (e.bias ? BIAS : 0) |
      (e.gelu ? GELU : 0) |
      (e.geluGrad ? GGRAD : 0) |
      (e.resid !== 'none' ? RESID : 0);
    const ptr = (t: typeof out | undefined) => (t ? be.ptr(t) : 0);
    // + NR: a partial last panel's partial sums are loaded 8 at a time.
    const sums = K > KC && M >= 4 ? be.scratch([Z * M * N + NR]) : null;
    // Few row blocks for the threads: split the columns instead.
    const blocks = Z * Math.ceil(M / 4);
    const splitCols = blocks < 4 * be.threads && NB > blocks ? 1 : 0;
    // Blocks of 4 rows per chunk, and each thread's scratch for its chunk of packed op(a) (with
    // transA only a short last block is packed).
    const kb = Math.min(Math.max(K, 1), KC);
    const chunk = Math.max(1, Math.min(Math.ceil(M / 4), Math.floor(CHUNK_WORDS / (4 * kb))));
    const apack = M >= 4 ? be.scratch([be.threads * (transA ? 1 : chunk) * 4 * kb]) : null;
    be.par(
      'mm_f32',
      Z * M * N * K,
      be.ptr(out),
      be.ptr(a),
      Z,
      M,
      N,
      K,
      transA ? 1 : K,
      transA ? M : 1,
      bFull,
      bz,
      bp,
      bk,
      bTail,
      btz,
      flags,
      ptr(opts.bias),
      ptr(opts.geluOut),
      ptr(opts.geluGradOf),
      ptr(opts.residual),
      ptr(sums ?? undefined),
      KC,
      chunk,
      ptr(apack ?? undefined),
      splitCols,
    );
    if (scratch) be.release(scratch);
    if (sums) be.release(sums);
    if (apack) be.release(apack);
  },
} satisfies WasmEntries;
