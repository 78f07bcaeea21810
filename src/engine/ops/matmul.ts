/**
 * Matmul: out (…, M, N) = op(a) · op(b), op = optional transpose, batched over the leading dims of
 * `a` and `out`; `b` is either batched the same way or 2-D and broadcast over the batch.
 * Here: shape resolution (with errors that name the shapes), the CPU reference (a plain triple
 * loop, the spec), the backward written as a plan of forward matmuls with transposed operands
 * (no transpose is ever materialised), and five WGSL kernels:
 *   1. `naive`: one thread per output element, K loop from global memory.
 *   2. `tiled`: a 64×64 tile of C per workgroup of 16×16 threads, each thread a 4×4 register block,
 *      A and B staged through `var<workgroup>` memory 16 values of K at a time, vec4 loads where
 *      the operand's contiguous dim is a multiple of 4, bounds-checked loads everywhere else.
 *   3. `regs`: a 32×32 tile per 8×8 threads, 4×4 per thread, no workgroup memory and no barriers.
 *   4. `rows`: M ≤ 8 (decoding), one thread per column holding every row's sum.
 *   5. `regs8`: `regs` with 8×8 per thread (a 64×64 tile).
 * `auto` runs rows for M ≤ 8, naive below one tile, else tiled, regs or regs8 as `tuneMatmuls`
 * chose for the shape (timed at start-up; the three give the same bits). Every kernel ends in the
 * same epilogue: optional gelu'(pre) factor (GELU's backward), accumulate, bias, a residual add
 * (out = residual + product + bias, in place or from another tensor) and GELU into a second output
 * (fused `linear`, MLP layers and residual connections), giving exactly the bits of the separate ops.
 * With `bHalf`, every kernel reads b as packed IEEE halves (unpack2x16float, core WGSL) into the same
 * f32 arithmetic: half the bytes of b, the bits of the f32 kernel on b's halves. With `math: 'f16'`
 * (and `shader-f16`; forward passes, no transposed a), every kernel has a half-arithmetic version
 * (runs of four products summed in f16, the runs in f32; `tiled` stages halves in workgroup memory),
 * held to their own CPU reference (`matmulF16Ref`) by an error bound and to each other bit for bit.
 *
 * Shape legend: Z batch (product of leading dims), M rows of op(a), K inner dim, N columns of op(b).
 */
import type { Backend, MatmulOptions, Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { MAX_GROUPS_PER_DIM, u32, type Kernel } from '../gpu/kernel';
import { median } from '../gpu/timing';
import { addBiasRef } from './bias';
import { geluBackwardRef, geluRef, WGSL_GELU } from './gelu';
import { HALF_MAX, roundHalf, unpackHalves } from './half';
import type { Vec } from './types';
import type { OpEntries } from './registry';

// ---- shapes ---------------------------------------------------------------------------------------

export interface MatmulDims {
  /** Z: product of the batch dims of a and out (1 for plain 2-D). */
  batch: number;
  M: number;
  N: number;
  K: number;
  transA: boolean;
  transB: boolean;
  /** b has the batch dims of a; false: b is 2-D and shared by every batch entry. */
  bBatched: boolean;
  accumulate: boolean;
}

const fmt = (s: readonly number[]): string => `[${s.join(', ')}]`;
const sameDims = (x: readonly number[], y: readonly number[]): boolean =>
  x.length === y.length && x.every((d, i) => d === y[i]);

/** Resolve and validate the shapes of out = op(a)·op(b); throws a message naming every shape. */
export function matmulDims(
  outShape: readonly number[],
  aShape: readonly number[],
  bShape: readonly number[],
  opts: MatmulOptions = {},
): MatmulDims {
  const transA = opts.transA ?? false;
  const transB = opts.transB ?? false;
  const where = `matmul(out ${fmt(outShape)}, a ${fmt(aShape)}, b ${fmt(bShape)}, transA=${transA}, transB=${transB})`;
  if (aShape.length < 2) throw new Error(`${where}: a must have at least 2 dims`);
  if (bShape.length < 2) throw new Error(`${where}: b must have at least 2 dims`);
  const aBatch = aShape.slice(0, -2);
  const bBatch = bShape.slice(0, -2);
  const [a0, a1] = aShape.slice(-2);
  const [b0, b1] = bShape.slice(-2);
  const [M, K] = transA ? [a1, a0] : [a0, a1]; // op(a): (M, K)
  const [Kb, N] = transB ? [b1, b0] : [b0, b1]; // op(b): (K, N)
  if (K !== Kb) throw new Error(`${where}: inner dims differ: op(a) is (${M}, ${K}) but op(b) is (${Kb}, ${N})`);
  const bBatched = bBatch.length > 0;
  if (bBatched && !sameDims(aBatch, bBatch)) {
    throw new Error(`${where}: batch dims of b ${fmt(bBatch)} must equal those of a ${fmt(aBatch)} (or b must be 2-D)`);
  }
  if (!bBatched && aBatch.length > 0 && transA) {
    throw new Error(`${where}: a 2-D b is broadcast over the batch only with transA = false`);
  }
  const want = [...aBatch, M, N];
  if (!sameDims(outShape, want)) throw new Error(`${where}: out must have shape ${fmt(want)}`);
  const batch = aBatch.reduce((p, d) => p * d, 1);
  return { batch, M, N, K, transA, transB, bBatched, accumulate: opts.accumulate ?? false };
}

/** b's shape as the matmul sees it: with packed halves (`bHalf`) the last dim holds two values a word. */
export function logicalBShape(b: Tensor, opts: MatmulOptions): readonly number[] {
  if (!opts.bHalf) return b.shape;
  if (b.dtype !== 'f32') throw new Error(`matmul: packed halves (bHalf) live in an f32 tensor, got ${b.dtype}`);
  return [...b.shape.slice(0, -1), 2 * b.shape[b.shape.length - 1]];
}

/** Which epilogue steps a call asks for; `resid`: no residual, out itself (in place), or another tensor. */
interface Epilogue {
  bias: boolean;
  gelu: boolean;
  geluGrad: boolean;
  resid: 'none' | 'out' | 'other';
}

/** Validate the epilogue tensors of out (…, M, N) = op(a)·op(b); throws a message naming the shapes. */
function epilogueOf(out: Tensor, opts: MatmulOptions): Epilogue {
  const N = out.shape[out.shape.length - 1];
  if (opts.bias && (opts.bias.shape.length !== 1 || opts.bias.size !== N)) {
    throw new Error(`matmul: bias must be 1-D with ${N} values (out's last dim), got ${fmt(opts.bias.shape)}`);
  }
  if (opts.geluOut) {
    if (opts.geluOut.size !== out.size)
      throw new Error(
        `matmul: geluOut must hold ${out.size} values like out ${fmt(out.shape)}, got ${fmt(opts.geluOut.shape)}`,
      );
    if (opts.geluOut === out)
      throw new Error('matmul: geluOut must be another tensor than out (out keeps the pre-activation)');
  }
  if (opts.geluGradOf) {
    if (opts.geluGradOf.size !== out.size)
      throw new Error(
        `matmul: geluGradOf must hold ${out.size} values like out ${fmt(out.shape)}, got ${fmt(opts.geluGradOf.shape)}`,
      );
    if (opts.geluGradOf === out) throw new Error('matmul: geluGradOf must be another tensor than out');
  }
  if (opts.residual) {
    if (opts.residual.size !== out.size)
      throw new Error(
        `matmul: residual must hold ${out.size} values like out ${fmt(out.shape)}, got ${fmt(opts.residual.shape)}`,
      );
    const clash = opts.accumulate ? 'accumulate' : opts.geluOut ? 'geluOut' : opts.geluGradOf ? 'geluGradOf' : null;
    if (clash) throw new Error(`matmul: residual cannot be combined with ${clash}`);
  }
  for (const [t, what] of [
    [opts.bias, 'bias'],
    [opts.geluOut, 'geluOut'],
    [opts.geluGradOf, 'geluGradOf'],
    [opts.residual, 'residual'],
  ] as const) {
    if (t && t.dtype !== 'f32') throw new Error(`matmul: ${what} must be f32, got ${t.dtype}`);
  }
  const resid = !opts.residual ? 'none' : opts.residual === out ? 'out' : 'other';
  return { bias: !!opts.bias, gelu: !!opts.geluOut, geluGrad: !!opts.geluGradOf, resid };
}

// ---- CPU reference ----------------------------------------------------------------------------------

/** out[z, m, n] = sum(ao, bo, m, n) (added to out with `accumulate`) for every output: the loop both references share. */
function eachOutput(out: Vec, d: MatmulDims, sum: (ao: number, bo: number, m: number, n: number) => number): void {
  const { batch, M, N, K } = d;
  for (let z = 0; z < batch; z++) {
    const ao = z * M * K;
    const bo = d.bBatched ? z * K * N : 0;
    const oo = z * M * N;
    for (let m = 0; m < M; m++) {
      for (let n = 0; n < N; n++) {
        const s = sum(ao, bo, m, n);
        const o = oo + m * N + n;
        out[o] = d.accumulate ? out[o] + s : s;
      }
    }
  }
}

/** out (Z, M, N) (+)= op(a) · op(b); each dot product summed over k in order, in float64. */
export function matmulRef(out: Vec, a: Vec, b: Vec, d: MatmulDims): void {
  const { M, N, K, transA, transB } = d;
  eachOutput(out, d, (ao, bo, m, n) => {
    let s = 0;
    for (let k = 0; k < K; k++) {
      const av = transA ? a[ao + k * M + m] : a[ao + m * K + k]; // op(a)[m, k]
      const bv = transB ? b[bo + n * K + k] : b[bo + k * N + n]; // op(b)[k, n]
      s += av * bv;
    }
    return s;
  });
}

/** Outputs of math 'f16' sum this many consecutive k in half before adding into the f32 sum. */
export const F16_RUN = 4;

/** Validate a call's `math`; true for half arithmetic. Throws a message saying what to pass instead. */
export function f16MathOf(opts: MatmulOptions): boolean {
  const math = opts.math ?? 'f32';
  if (math === 'f32') return false;
  if (math !== 'f16') throw new Error(`matmul: math must be 'f32' or 'f16', got ${String(math)}`);
  if (!opts.bHalf) throw new Error("matmul: math 'f16' reads b as packed halves: pass bHalf with a packHalf copy of b");
  if (opts.transA) throw new Error("matmul: math 'f16' does not take transA (it is for forward passes)");
  return true;
}

/**
 * The CPU reference of math 'f16' (MatmulOptions.math, the spec): out (Z, M, N) (+)= op(a) · op(b)
 * with op(a)'s values rounded to halves (b's already are), each run of F16_RUN consecutive k summed
 * in half left to right (every product and every add rounded to the nearest half, ties to even;
 * an add goes through f32 first, exact but for a tie at the f32 step), the runs added into an f32
 * sum in k order. transA = false.
 */
export function matmulF16Ref(out: Vec, a: Vec, b: Vec, d: MatmulDims): void {
  const { N, K, transB } = d;
  if (d.transA) throw new Error("matmulF16Ref: math 'f16' does not take transA");
  const ah = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) ah[i] = roundHalf(a[i]);
  eachOutput(out, d, (ao, bo, m, n) => {
    let s = 0;
    for (let k0 = 0; k0 < K; k0 += F16_RUN) {
      let r = 0;
      for (let k = k0; k < Math.min(k0 + F16_RUN, K); k++) {
        const p = roundHalf(ah[ao + m * K + k] * (transB ? b[bo + n * K + k] : b[bo + k * N + n]));
        r = k === k0 ? p : roundHalf(r + p);
      }
      s = Math.fround(s + r);
    }
    return s;
  });
}

// ---- backward as a plan of forward matmuls ------------------------------------------------------------

type Operand = 'a' | 'b' | 'dOut';

/** grad += op(x) · op(y); `flat` views x and y as 2-D (rows, last dim) to sum over the batch. */
export interface BackwardStep {
  grad: 'dA' | 'dB';
  x: Operand;
  y: Operand;
  transA: boolean;
  transB: boolean;
  flat: boolean;
}

/**
 * The gradients of C = op(A)·op(B), each one forward matmul with transposed operands:
 *   C = A B:      dA = dC Bᵀ,      dB = Aᵀ dC
 *   C = A Bᵀ:     dA = dC B,       dB = dCᵀ A
 *   C = Aᵀ B:     dA = B dCᵀ,      dB = A dC
 *   C = Aᵀ Bᵀ:    dA = Bᵀ dCᵀ,     dB = dCᵀ Aᵀ
 * With a broadcast 2-D b (transA = false) dB sums over the batch: flatten A and dC to (Z·M, ·).
 */
export function matmulBackwardPlan(d: MatmulDims): BackwardStep[] {
  const step = (
    grad: 'dA' | 'dB',
    x: Operand,
    y: Operand,
    transA: boolean,
    transB: boolean,
    flat = false,
  ): BackwardStep => ({ grad, x, y, transA, transB, flat });
  const broadcast = !d.bBatched && d.batch > 1;
  if (!d.transA && !d.transB)
    return [step('dA', 'dOut', 'b', false, true), step('dB', 'a', 'dOut', true, false, broadcast)];
  if (!d.transA && d.transB)
    return [step('dA', 'dOut', 'b', false, false), step('dB', 'dOut', 'a', true, false, broadcast)];
  if (d.transA && !d.transB) return [step('dA', 'b', 'dOut', false, true), step('dB', 'a', 'dOut', false, false)];
  return [step('dA', 'b', 'dOut', true, true), step('dB', 'dOut', 'a', true, true)];
}

const flat2d = (s: readonly number[]): number[] => [s.slice(0, -1).reduce((p, x) => p * x, 1), s[s.length - 1]];

/** How the dA step of matmulBackward writes: `overwrite` (dA = instead of +=, no zero fill needed), `geluGradOf` (see MatmulOptions). */
export interface BackwardDA {
  overwrite?: boolean;
  geluGradOf?: Tensor;
}

/**
 * dA (shape of a) += ∂L/∂a, dB (shape of b) += ∂L/∂b, from dOut (shape of out). Either grad may be
 * null. `da` changes how dA is written: overwritten instead of accumulated, and/or multiplied by
 * gelu'(pre) on the way (the gradient at a GELU's input when `a` is that GELU's output).
 */
export function matmulBackward(
  be: Backend,
  dA: Tensor | null,
  dB: Tensor | null,
  dOut: Tensor,
  a: Tensor,
  b: Tensor,
  opts: MatmulOptions = {},
  da: BackwardDA = {},
): void {
  const d = matmulDims(dOut.shape, a.shape, b.shape, opts);
  const src = { a, b, dOut };
  for (const s of matmulBackwardPlan(d)) {
    const g = s.grad === 'dA' ? dA : dB;
    if (!g) continue;
    // Flattened (rows, last dim) views share the operands' memory: no copy.
    const x = s.flat ? be.view(src[s.x], 0, flat2d(src[s.x].shape)) : src[s.x];
    const y = s.flat ? be.view(src[s.y], 0, flat2d(src[s.y].shape)) : src[s.y];
    const isA = s.grad === 'dA';
    be.matmul(g, x, y, {
      transA: s.transA,
      transB: s.transB,
      variant: opts.variant,
      accumulate: !(isA && da.overwrite),
      geluGradOf: isA ? da.geluGradOf : undefined,
    });
  }
}

/** The same plan on plain float64 arrays (for the finite-difference checks). */
export function matmulBackwardRef(
  dA: Vec | null,
  dB: Vec | null,
  dOut: Vec,
  a: Vec,
  b: Vec,
  shapes: { out: readonly number[]; a: readonly number[]; b: readonly number[] },
  opts: MatmulOptions = {},
): void {
  const d = matmulDims(shapes.out, shapes.a, shapes.b, opts);
  const data = { a, b, dOut };
  const shapeOf = { a: shapes.a, b: shapes.b, dOut: shapes.out };
  for (const s of matmulBackwardPlan(d)) {
    const g = s.grad === 'dA' ? dA : dB;
    if (!g) continue;
    const gShape = s.grad === 'dA' ? shapes.a : shapes.b;
    const xs = s.flat ? flat2d(shapeOf[s.x]) : shapeOf[s.x];
    const ys = s.flat ? flat2d(shapeOf[s.y]) : shapeOf[s.y];
    matmulRef(
      g,
      data[s.x],
      data[s.y],
      matmulDims(gShape, xs, ys, { transA: s.transA, transB: s.transB, accumulate: true }),
    );
  }
}

// ---- WGSL ---------------------------------------------------------------------------------------------

const PARAMS = /* wgsl */ `
struct Params { M: u32, N: u32, K: u32, strideA: u32, strideB: u32, strideC: u32, acc: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;`;

/** The epilogue's bindings (after a at 2 and b at 3) and functions. */
function epilogueDecls(e: Epilogue): string {
  let binding = 4;
  return [
    e.bias ? `@group(0) @binding(${binding++}) var<storage, read> bias: array<f32>;` : '',
    e.gelu ? `@group(0) @binding(${binding++}) var<storage, read_write> gelu_out: array<f32>;` : '',
    e.geluGrad ? `@group(0) @binding(${binding++}) var<storage, read> gelu_pre: array<f32>;` : '',
    e.resid === 'other' ? `@group(0) @binding(${binding++}) var<storage, read> resid: array<f32>;` : '',
    e.gelu || e.geluGrad ? WGSL_GELU : '',
  ].join('\n');
}

/**
 * WGSL that stores one output: out[o] = (gelu'(gelu_pre[o]) ·) value (+ out[o] with P.acc)
 * (+ bias[n]), then the residual (out[o] as it was, or resid[o]) + that, and with GELU
 * gelu_out[o] = gelu(out[o]). Each step rounds to f32 as the separate ops would, so the fused result
 * has their bits exactly (a kernel test holds it to that). Each output is read and written by one
 * invocation only, so the in-place residual is safe. Shared by every kernel.
 */
function storeOne(o: string, n: string, value: string, e: Epilogue): string {
  const resid = e.resid === 'out' ? `out[${o}]` : `resid[${o}]`;
  return `{
      var v = ${value};${e.geluGrad ? `\n      v = gelu_grad(gelu_pre[${o}]) * v;` : ''}
      if (P.acc != 0u) { v = out[${o}] + v; }${e.bias ? `\n      v = v + bias[${n}];` : ''}${e.resid !== 'none' ? `\n      v = ${resid} + v;` : ''}
      out[${o}] = v;${e.gelu ? `\n      gelu_out[${o}] = gelu_f(v);` : ''}
    }`;
}

const epilogueName = (e: Epilogue): string =>
  `${e.bias ? '_bias' : ''}${e.gelu ? '_gelu' : ''}${e.geluGrad ? '_dgelu' : ''}${e.resid === 'none' ? '' : `_res${e.resid === 'out' ? 'io' : ''}`}`;

const kernels = new Map<string, Kernel>();
function memo(name: string, make: () => string): Kernel {
  let k = kernels.get(name);
  if (!k) kernels.set(name, (k = { name, code: make() }));
  return k;
}

/** Version 1: one thread per output element (16×16 threads per workgroup, batch on z). */
function naiveKernel(transA: boolean, transB: boolean, e: Epilogue, half: boolean): Kernel {
  const aIdx = transA ? 'ao + k * P.M + m' : 'ao + m * P.K + k';
  const bIdx = transB ? 'bo + n * P.K + k' : 'bo + k * P.N + n';
  return memo(
    `matmul_naive_tA${+transA}_tB${+transB}${epilogueName(e)}${halfName(half)}`,
    () => /* wgsl */ `${PARAMS}
@group(0) @binding(2) var<storage, read> a: array<f32>;
${bDecl(false, half)}
${epilogueDecls(e)}
@compute @workgroup_size(16, 16) fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = gid.x;
  let m = gid.y;
  if (m >= P.M || n >= P.N) { return; }
  let ao = gid.z * P.strideA;
  let bo = gid.z * P.strideB;
  var s = 0.0;
  for (var k = 0u; k < P.K; k++) { s += a[${aIdx}] * ${half ? `b_half(${bIdx})` : `b[${bIdx}]`}; }
  let o = gid.z * P.strideC + m * P.N + n;
  ${storeOne('o', 'n', 's', e)}
}`,
  );
}

const TILE = 64; // TM = TN: outputs per workgroup side
const TK = 16; // K values staged per step

/**
 * WGSL that loads this thread's 4 values of one operand tile into `v`. The operand is stored with
 * `rows` rows and a contiguous dim of length `cols`; (r0, c0) is the chunk's first element; `vec`:
 * cols % 4 == 0, so a chunk is all in or all out of bounds and one vec4 load fetches it.
 */
function loadChunk(
  name: string,
  off: string,
  rows: string,
  cols: string,
  row: string,
  col: string,
  vec: boolean,
  half = false,
): string {
  const [r, c] = [`(${row})`, `(${col})`];
  if (vec) {
    const at = `(${off} + ${r} * ${cols} + ${c}) / 4u`;
    const load = half
      ? `{ let w = ${name}[${at}]; v = vec4<f32>(unpack2x16float(w.x), unpack2x16float(w.y)); }`
      : `v = ${name}[${at}];`;
    return `if (${r} < ${rows} && ${c} < ${cols}) { ${load} }`;
  }
  const one = (i: string): string => (half ? `${name}_half(${i})` : `${name}[${i}]`);
  return `if (${r} < ${rows}) { for (var j = 0u; j < 4u; j++) { if (${c} + j < ${cols}) { v[j] = ${one(`${off} + ${r} * ${cols} + ${c} + j`)}; } } }`;
}

/**
 * The binding of b and, with packed halves, its element reader: b_half(i) = element i (low half of
 * word i / 2 for even i), selected without a dynamic vector index (slow on some compilers).
 */
function bDecl(vec: boolean, half: boolean): string {
  if (!half) return `@group(0) @binding(3) var<storage, read> b: ${vec ? 'array<vec4<f32>>' : 'array<f32>'};`;
  return `@group(0) @binding(3) var<storage, read> b: ${vec ? 'array<vec2<u32>>' : 'array<u32>'};${
    vec
      ? ''
      : `
fn b_half(i: u32) -> f32 { let w = unpack2x16float(b[i >> 1u]); return select(w.x, w.y, (i & 1u) == 1u); }`
  }`;
}

const halfName = (half: boolean): string => (half ? '_bh' : '');

/**
 * WGSL that stores a thread's RM × 4·CN block, `acc[i·CN + j/4][j%4]` = C[row0 + i, col0 + j] of
 * batch entry `z`, through the epilogue, skipping what falls outside M × N. Shared by `tiled`
 * (4×4) and the register kernels.
 */
function storeBlock(row0: string, col0: string, z: string, e: Epilogue, RM = 4, CN = 1): string {
  return `for (var i = 0u; i < ${RM}u; i++) {
    let m = ${row0} + i;
    if (m >= P.M) { break; }
    for (var j = 0u; j < ${4 * CN}u; j++) {
      let n = ${col0} + j;
      if (n >= P.N) { break; }
      let o = ${z} * P.strideC + m * P.N + n;
      ${storeOne('o', 'n', CN === 1 ? 'acc[i][j]' : `acc[i * ${CN}u + j / 4u][j % 4u]`, e)}
    }
  }`;
}

/**
 * The opening both tiled kernels (f32 and f16 arithmetic) share: the two staged tiles (vec4s of
 * `elem`), the thread's index t and tile origin, the batch offsets, and its 4×4 f32 accumulators.
 */
function tiledPrologue(elem: 'f32' | 'f16'): string {
  return `var<workgroup> As: array<vec4<${elem}>, ${(TK * TILE) / 4}>;
var<workgroup> Bs: array<vec4<${elem}>, ${(TK * TILE) / 4}>;
@compute @workgroup_size(16, 16) fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let t = lid.y * 16u + lid.x;
  let m0 = wid.y * ${TILE}u;
  let n0 = wid.x * ${TILE}u;
  let ao = wid.z * P.strideA;
  let bo = wid.z * P.strideB;
  var acc: array<vec4<f32>, 4>; // acc[i][j] = C[m0 + 4*lid.y + i, n0 + 4*lid.x + j]`;
}

/**
 * Version 2: register-tiled. Shared tiles hold op(A)ᵀ and op(B) as rows of K:
 *   As[k * 16 + i] = op(A)[m0 + 4i .. 4i+3, k0 + k],  Bs[k * 16 + j] = op(B)[k0 + k, n0 + 4j .. 4j+3]
 * so the inner loop is two vec4 reads and four vec4 FMAs into a 4×4 block per thread. Each of the
 * 256 threads loads one 4-chunk of each 64×16 operand tile along that operand's contiguous dim.
 */
function tiledKernel(
  transA: boolean,
  transB: boolean,
  vecA: boolean,
  vecB: boolean,
  e: Epilogue,
  half: boolean,
): Kernel {
  // A chunk: transA=false: A is (M, K), chunk along k; transA=true: A is (K, M), chunk along m.
  const loadA = transA
    ? `let r = t / 16u; let c = (t % 16u) * 4u; var v = vec4<f32>(0.0);
    ${loadChunk('a', 'ao', 'P.K', 'P.M', 'k0 + r', 'm0 + c', vecA)}
    As[r * 16u + c / 4u] = v;`
    : `let r = t / 4u; let c = (t % 4u) * 4u; var v = vec4<f32>(0.0);
    ${loadChunk('a', 'ao', 'P.M', 'P.K', 'm0 + r', 'k0 + c', vecA)}
    for (var j = 0u; j < 4u; j++) { As[(c + j) * 16u + r / 4u][r % 4u] = v[j]; }`;
  // B chunk: transB=false: B is (K, N), chunk along n; transB=true: B is (N, K), chunk along k.
  const loadB = transB
    ? `let r = t / 4u; let c = (t % 4u) * 4u; var v = vec4<f32>(0.0);
    ${loadChunk('b', 'bo', 'P.N', 'P.K', 'n0 + r', 'k0 + c', vecB, half)}
    for (var j = 0u; j < 4u; j++) { Bs[(c + j) * 16u + r / 4u][r % 4u] = v[j]; }`
    : `let r = t / 16u; let c = (t % 16u) * 4u; var v = vec4<f32>(0.0);
    ${loadChunk('b', 'bo', 'P.K', 'P.N', 'k0 + r', 'n0 + c', vecB, half)}
    Bs[r * 16u + c / 4u] = v;`;
  const arr = (vec: boolean): string => (vec ? 'array<vec4<f32>>' : 'array<f32>');
  return memo(
    `matmul_tiled_tA${+transA}_tB${+transB}_vA${+vecA}_vB${+vecB}${epilogueName(e)}${halfName(half)}`,
    () => /* wgsl */ `${PARAMS}
@group(0) @binding(2) var<storage, read> a: ${arr(vecA)};
${bDecl(vecB, half)}
${epilogueDecls(e)}
${tiledPrologue('f32')}
  for (var k0 = 0u; k0 < P.K; k0 += ${TK}u) {
    { ${loadA} }
    { ${loadB} }
    workgroupBarrier();
    for (var k = 0u; k < ${TK}u; k++) {
      let av = As[k * 16u + lid.y];
      let bv = Bs[k * 16u + lid.x];
      acc[0] += av.x * bv;
      acc[1] += av.y * bv;
      acc[2] += av.z * bv;
      acc[3] += av.w * bv;
    }
    workgroupBarrier();
  }
  ${storeBlock('m0 + lid.y * 4u', 'n0 + lid.x * 4u', 'wid.z', e)}
}`,
  );
}

/** `auto` uses the small-M kernel for at most this many rows of op(A) (decoding: one row per sequence). */
export const ROWS_MAX_M = 8;
const ROWS_WG = 64;

/**
 * Version 4: small M (decoding, a matrix-vector product when M = 1). One thread per output column
 * n holds all M ≤ ROWS_MAX_M sums (M baked into the pipeline, one register each) and reads each
 * op(B)[k, n] once for every row, where `naive` reads it M times and `tiled` computes a 64-row tile of which M rows are kept. Each sum runs k = 0,
 * 1, 2, … in order like `naive`'s, so the two give the same bits (a test holds them to that).
 */
function rowsKernel(transA: boolean, transB: boolean, M: number, e: Epilogue, half: boolean): Kernel {
  if (half) return rowsHalfKernel(transA, transB, M, e);
  const aIdx = (m: number): string => (transA ? `ao + k * ${M}u + ${m}u` : `ao + ${m}u * P.K + k`);
  const bIdx = transB ? 'bo + n * P.K + k' : 'bo + k * P.N + n';
  const rows = Array.from({ length: M }, (_, m) => m);
  // M is baked in (one pipeline per M ≤ ROWS_MAX_M), so each row's sum is its own register.
  return memo(
    `matmul_rows_tA${+transA}_tB${+transB}_M${M}${epilogueName(e)}`,
    () => /* wgsl */ `${PARAMS}
@group(0) @binding(2) var<storage, read> a: array<f32>;
${bDecl(false, false)}
${epilogueDecls(e)}
@compute @workgroup_size(${ROWS_WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = gid.x;
  if (n >= P.N) { return; }
  let ao = gid.z * P.strideA;
  let bo = gid.z * P.strideB;
  ${rows.map((m) => `var s${m} = 0.0;`).join(' ')}
  for (var k = 0u; k < P.K; k++) {
    let bv = b[${bIdx}];
    ${rows.map((m) => `s${m} += a[${aIdx(m)}] * bv;`).join('\n    ')}
  }
  let o = gid.z * P.strideC + n;
  ${rows.map((m) => storeOne(`o + ${m}u * P.N`, 'n', `s${m}`, e)).join('\n  ')}
}`,
  );
}

/**
 * `rows` over packed-half b, each word unpacked once and both its halves used: b (K, N) (the
 * halves are columns n, n + 1): one thread per column pair, two sums per row; transposed b (N, K)
 * (the halves are k, k + 1): one thread per column, k two at a time. Every sum still adds k = 0,
 * 1, 2, … in order, so the result is the f32 `rows` kernel's on the halves, bit for bit.
 */
function rowsHalfKernel(transA: boolean, transB: boolean, M: number, e: Epilogue): Kernel {
  const aIdx = (m: number, k: string): string => (transA ? `ao + (${k}) * ${M}u + ${m}u` : `ao + ${m}u * P.K + ${k}`);
  const rows = Array.from({ length: M }, (_, m) => m);
  const body = transB
    ? `let n = gid.x;
  if (n >= P.N) { return; }
  let ao = gid.z * P.strideA;
  let bo = gid.z * P.strideB;
  ${rows.map((m) => `var s${m} = 0.0;`).join(' ')}
  for (var k = 0u; k < P.K; k += 2u) {
    let w = unpack2x16float(b[(bo + n * P.K + k) >> 1u]);
    ${rows
      .map(
        (m) => `s${m} += a[${aIdx(m, 'k')}] * w.x;
    s${m} += a[${aIdx(m, 'k + 1u')}] * w.y;`,
      )
      .join('\n    ')}
  }
  let o = gid.z * P.strideC + n;
  ${rows.map((m) => storeOne(`o + ${m}u * P.N`, 'n', `s${m}`, e)).join('\n  ')}`
    : `let n = gid.x * 2u;
  if (n >= P.N) { return; }
  let ao = gid.z * P.strideA;
  let bo = gid.z * P.strideB;
  ${rows.map((m) => `var s${m} = 0.0; var t${m} = 0.0;`).join(' ')}
  for (var k = 0u; k < P.K; k++) {
    let w = unpack2x16float(b[(bo + k * P.N + n) >> 1u]);
    ${rows
      .map(
        (m) => `let a${m} = a[${aIdx(m, 'k')}];
    s${m} += a${m} * w.x;
    t${m} += a${m} * w.y;`,
      )
      .join('\n    ')}
  }
  let o = gid.z * P.strideC + n;
  let n1 = n + 1u;
  ${rows
    .map(
      (m) => `${storeOne(`o + ${m}u * P.N`, 'n', `s${m}`, e)}
  ${storeOne(`o + ${m}u * P.N + 1u`, 'n1', `t${m}`, e)}`,
    )
    .join('\n  ')}`;
  return memo(
    `matmul_rows_tA${+transA}_tB${+transB}_M${M}${epilogueName(e)}_bh`,
    () => /* wgsl */ `${PARAMS}
@group(0) @binding(2) var<storage, read> a: array<f32>;
${bDecl(false, true)}
${epilogueDecls(e)}
@compute @workgroup_size(${ROWS_WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  ${body}
}`,
  );
}

/** Outputs per thread of the register kernels: `regs` 4×4 (a 32×32 tile per 8×8 threads), `regs8` 8×8 (64×64). */
const REGS_BLOCK = { regs: { RM: 4, CN: 1 }, regs8: { RM: 8, CN: 2 } } as const;

/**
 * Versions 3 and 5: registers only. Each of 8×8 threads owns an RM × 4·CN block of C (`regs`
 * 4×4, `regs8` 8×8) and walks K four at a time, loading RM×4 values of op(A) and 4×4·CN of op(B)
 * straight from storage (vec4 along each operand's contiguous dim where it is a multiple of 4),
 * a transposed B turned in registers. No workgroup memory and no barriers: on a software
 * adapter, where a barrier costs a context switch, this can beat `tiled`; on a GPU, `tiled`'s
 * shared-memory reuse usually wins. The bigger block needs fewer loads per FMA and more registers
 * (on SwiftShader `regs8` beats `tiled` at most 512-row shapes, `regs` at 16–64 rows). Each output
 * accumulates op(A)[m, k]·op(B)[k, n] for k = 0, 1, 2, … in the same order as `tiled` (padding
 * with zero products past K, as `tiled` does), so all three give the same bits; a test holds them
 * to that.
 */
function regsKernel(
  transA: boolean,
  transB: boolean,
  vecA: boolean,
  vecB: boolean,
  e: Epilogue,
  RM: number,
  CN: number,
  half: boolean,
): Kernel {
  // Loads unrolled with constant register indices (a dynamic index into a vector is slow on some
  // compilers, SwiftShader's among them). A transposed B lands column by column.
  const range = (n: number): number[] => Array.from({ length: n }, (_, x) => x);
  const chunk = (body: string, assign: string): string => `{ var v = vec4<f32>(0.0); ${body} ${assign} }`;
  // Transposed A is kept as loaded, a4[kk·RM/4 + i/4][i%4] = op(A)[m0 + i, k0 + kk]; else a4[i][kk].
  const loadA = transA
    ? range(4)
        .flatMap((r) =>
          range(RM / 4).map((c) =>
            chunk(
              loadChunk('a', 'ao', 'P.K', 'P.M', `k0 + ${r}u`, `m0 + ${4 * c}u`, vecA),
              `a4[${r * (RM / 4) + c}] = v;`,
            ),
          ),
        )
        .join('\n    ')
    : range(RM)
        .map((r) => chunk(loadChunk('a', 'ao', 'P.M', 'P.K', `m0 + ${r}u`, 'k0', vecA), `a4[${r}] = v;`))
        .join('\n    ');
  const loadB = transB
    ? range(4 * CN)
        .map((r) =>
          chunk(
            loadChunk('b', 'bo', 'P.N', 'P.K', `n0 + ${r}u`, 'k0', vecB, half),
            range(4)
              .map((kk) => `b4[${kk * CN + (r >> 2)}][${r & 3}] = v[${kk}];`)
              .join(' '),
          ),
        )
        .join('\n    ')
    : range(4)
        .flatMap((r) =>
          range(CN).map((c) =>
            chunk(
              loadChunk('b', 'bo', 'P.K', 'P.N', `k0 + ${r}u`, `n0 + ${4 * c}u`, vecB, half),
              `b4[${r * CN + c}] = v;`,
            ),
          ),
        )
        .join('\n    ');
  // The FMAs, unrolled over kk too: every register index a constant. Each output still sums k in order.
  const aAt = (i: number, kk: number): string =>
    transA ? `a4[${kk * (RM / 4) + (i >> 2)}][${i & 3}]` : `a4[${i}][${kk}]`;
  const fmas = range(4)
    .map((kk) =>
      range(CN)
        .map(
          (c) => `    { let bv = b4[${kk * CN + c}];
${range(RM)
  .map((i) => `      acc[${i * CN + c}] += ${aAt(i, kk)} * bv;`)
  .join('\n')}
    }`,
        )
        .join('\n'),
    )
    .join('\n');
  const arr = (vec: boolean): string => (vec ? 'array<vec4<f32>>' : 'array<f32>');
  return memo(
    `matmul_regs${RM}x${4 * CN}_tA${+transA}_tB${+transB}_vA${+vecA}_vB${+vecB}${epilogueName(e)}${halfName(half)}`,
    () => /* wgsl */ `${PARAMS}
@group(0) @binding(2) var<storage, read> a: ${arr(vecA)};
${bDecl(vecB, half)}
${epilogueDecls(e)}
@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let m0 = gid.y * ${RM}u;
  let n0 = gid.x * ${4 * CN}u;
  if (m0 >= P.M || n0 >= P.N) { return; }
  let ao = gid.z * P.strideA;
  let bo = gid.z * P.strideB;
  var acc: array<vec4<f32>, ${RM * CN}>; // acc[i * CN + c][j] = C[m0 + i, n0 + 4c + j]
  var a4: array<vec4<f32>, ${RM}>; // see loadA
  var b4: array<vec4<f32>, ${4 * CN}>; // b4[kk * CN + c][j] = op(B)[k0 + kk, n0 + 4c + j]
  for (var k0 = 0u; k0 < P.K; k0 += 4u) {
    { ${loadA} }
    { ${loadB} }
${fmas}
  }
  ${storeBlock('m0', 'n0', 'gid.z', e, RM, CN)}
}`,
  );
}

// ---- half arithmetic (math 'f16', shader-f16) ------------------------------------------------------

const HMAX = `vec4<f32>(${HALF_MAX}.0)`;

/**
 * How a half kernel reads b: `col` = op(b)[k0 .. k0+3, n] for one column (`b4h`: one vec4<f16> load
 * where b is (N, K) with K % 4 == 0, else four scalar loads); `row` = op(b)[k, n .. n+3], four
 * columns at one k (`b4r`: one vec4<f16> load; b (K, N) with N % 4 == 0), used by the kernels that
 * own four adjacent columns so that they read b as it lies in memory.
 */
type HalfB = 'col' | 'row';

/**
 * The bindings of a and b and the readers for math 'f16': `a4h(ao, m, k0)` = op(a)[m, k0 .. k0+3]
 * clamped to ±HALF_MAX and converted to halves, and b's reader (see HalfB); zeros past K.
 * `vecA`: K % 4 == 0 (one vec4 load of a).
 */
function f16Decls(transB: boolean, vecA: boolean, vecB: boolean, bRead: HalfB): string {
  const tail = (v: string, at: (j: number) => string): string =>
    [0, 1, 2, 3].map((j) => `if (k0 + ${j}u < P.K) { ${v}.${'xyzw'[j]} = ${at(j)}; }`).join(' ');
  const aRead = vecA
    ? `return vec4<f16>(clamp(a[(ao + m * P.K + k0) / 4u], -${HMAX}, ${HMAX}));`
    : `let i = ao + m * P.K + k0; var v = vec4<f32>(0.0);
  ${tail('v', (j) => `a[i + ${j}u]`)}
  return vec4<f16>(clamp(v, -${HMAX}, ${HMAX}));`;
  const bVec = bRead === 'row' || (transB && vecB);
  const reader =
    bRead === 'row'
      ? `fn b4r(bo: u32, k: u32, n: u32) -> vec4<f16> {
  if (k >= P.K) { return vec4<f16>(0.0); }
  return b[(bo + k * P.N + n) / 4u];
}`
      : `fn b4h(bo: u32, n: u32, k0: u32) -> vec4<f16> {
  ${
    bVec
      ? 'return b[(bo + n * P.K + k0) / 4u];'
      : `let i = ${transB ? 'bo + n * P.K + k0' : 'bo + k0 * P.N + n'}; var v = vec4<f16>(0.0);
  ${tail('v', (j) => (transB ? `b[i + ${j}u]` : `b[i + ${j}u * P.N]`))}
  return v;`
  }
}`;
  return `@group(0) @binding(2) var<storage, read> a: ${vecA ? 'array<vec4<f32>>' : 'array<f32>'};
@group(0) @binding(3) var<storage, read> b: ${bVec ? 'array<vec4<f16>>' : 'array<f16>'};
fn a4h(ao: u32, m: u32, k0: u32) -> vec4<f16> {
  ${aRead}
}
${reader}`;
}

/**
 * One run of math 'f16', written out: ((a.x·b0 + a.y·b1) + a.z·b2) + a.w·b3 in f16, the
 * reference's order. b0..b3 are op(b)[k0 .. k0+3, n] as scalars (`col`), or four-column rows
 * op(b)[k0 + kk, n .. n+3] (`row`: the same expression lane by lane). Every kernel uses it, so on
 * one device they give the same numbers.
 */
const run16 = (a: string, b: readonly string[]): string =>
  `${a}.x * ${b[0]} + ${a}.y * ${b[1]} + ${a}.z * ${b[2]} + ${a}.w * ${b[3]}`;
const lanes = (v: string): string[] => ['x', 'y', 'z', 'w'].map((c) => `${v}.${c}`);

/**
 * Half-arithmetic versions of naive (one output per thread), rows (M ≤ 8, every row's sum for one
 * column, or for four adjacent columns reading b (K, N) by rows where N % 4 == 0) and regs/regs8
 * (an RM × 4·CN block per thread; b (K, N) read by rows where N % 4 == 0; rows and columns past the
 * edge read the last ones, their outputs are not stored). Each output is
 * s += f32(run16(op(a)[m, k0..], op(b)[k0.., n])) for k0 = 0, 4, 8, …
 */
function f16Kernel(
  kind: 'naive' | 'rows' | 'regs',
  transB: boolean,
  vecA: boolean,
  vecB: boolean,
  e: Epilogue,
  shape: { M?: number; RM?: number; CN?: number },
): Kernel {
  const range = (n: number): number[] => Array.from({ length: n }, (_, x) => x);
  const byRows = kind !== 'naive' && !transB && vecB;
  let wg: string;
  let body: string;
  let tag: string;
  if (kind === 'naive') {
    wg = '16, 16';
    tag = 'naive';
    body = `let n = gid.x;
  let m = gid.y;
  if (m >= P.M || n >= P.N) { return; }
  let ao = gid.z * P.strideA;
  let bo = gid.z * P.strideB;
  var s = 0.0;
  for (var k0 = 0u; k0 < P.K; k0 += 4u) {
    let av = a4h(ao, m, k0);
    let bv = b4h(bo, n, k0);
    s += f32(${run16('av', lanes('bv'))});
  }
  let o = gid.z * P.strideC + m * P.N + n;
  ${storeOne('o', 'n', 's', e)}`;
  } else if (kind === 'rows') {
    const M = shape.M ?? 1;
    wg = `${ROWS_WG}`;
    tag = `rows_M${M}`;
    body = byRows
      ? `let n = gid.x * 4u;
  if (n >= P.N) { return; }
  let ao = gid.z * P.strideA;
  let bo = gid.z * P.strideB;
  ${range(M)
    .map((m) => `var s${m} = vec4<f32>(0.0);`)
    .join(' ')}
  for (var k0 = 0u; k0 < P.K; k0 += 4u) {
    ${range(4)
      .map((kk) => `let r${kk} = b4r(bo, k0 + ${kk}u, n);`)
      .join(' ')}
    ${range(M)
      .map((m) => `{ let av = a4h(ao, ${m}u, k0); s${m} += vec4<f32>(${run16('av', ['r0', 'r1', 'r2', 'r3'])}); }`)
      .join('\n    ')}
  }
  let o = gid.z * P.strideC + n;
  ${range(M)
    .flatMap((m) =>
      range(4).map((j) => `{ let nj = n + ${j}u; ${storeOne(`o + ${m}u * P.N + ${j}u`, 'nj', `s${m}[${j}]`, e)} }`),
    )
    .join('\n  ')}`
      : `let n = gid.x;
  if (n >= P.N) { return; }
  let ao = gid.z * P.strideA;
  let bo = gid.z * P.strideB;
  ${range(M)
    .map((m) => `var s${m} = 0.0;`)
    .join(' ')}
  for (var k0 = 0u; k0 < P.K; k0 += 4u) {
    let bv = b4h(bo, n, k0);
    ${range(M)
      .map((m) => `{ let av = a4h(ao, ${m}u, k0); s${m} += f32(${run16('av', lanes('bv'))}); }`)
      .join('\n    ')}
  }
  let o = gid.z * P.strideC + n;
  ${range(M)
    .map((m) => storeOne(`o + ${m}u * P.N`, 'n', `s${m}`, e))
    .join('\n  ')}`;
  } else {
    const RM = shape.RM ?? 4;
    const CN = shape.CN ?? 1;
    wg = '8, 8';
    tag = `regs${RM}x${4 * CN}`;
    // b: by rows, r{kk}_{c} = op(b)[k0 + kk, n0 + 4c .. +3]; by columns, b{j} = op(b)[k0 .., n0 + j].
    const loadB = byRows
      ? range(4).flatMap((kk) =>
          range(CN).map((c) => `let r${kk}_${c} = b4r(bo, k0 + ${kk}u, min(n0 + ${4 * c}u, P.N - 4u));`),
        )
      : range(4 * CN).map((j) => `let b${j} = b4h(bo, min(n0 + ${j}u, P.N - 1u), k0);`);
    const runs = range(RM).flatMap((i) =>
      range(CN).map(
        (c) =>
          `acc[${i * CN + c}] += ${
            byRows
              ? `vec4<f32>(${run16(
                  `a${i}`,
                  range(4).map((kk) => `r${kk}_${c}`),
                )})`
              : `vec4<f32>(${range(4)
                  .map((j) => `f32(${run16(`a${i}`, lanes(`b${4 * c + j}`))})`)
                  .join(', ')})`
          };`,
      ),
    );
    body = `let m0 = gid.y * ${RM}u;
  let n0 = gid.x * ${4 * CN}u;
  if (m0 >= P.M || n0 >= P.N) { return; }
  let ao = gid.z * P.strideA;
  let bo = gid.z * P.strideB;
  var acc: array<vec4<f32>, ${RM * CN}>; // acc[i * CN + c][j] = C[m0 + i, n0 + 4c + j]
  for (var k0 = 0u; k0 < P.K; k0 += 4u) {
    ${range(RM)
      .map((i) => `let a${i} = a4h(ao, min(m0 + ${i}u, P.M - 1u), k0);`)
      .join('\n    ')}
    ${loadB.join('\n    ')}
    ${runs.join('\n    ')}
  }
  ${storeBlock('m0', 'n0', 'gid.z', e, RM, CN)}`;
  }
  return memo(
    `matmul_f16_${tag}_tB${+transB}_vA${+vecA}_vB${+vecB}${epilogueName(e)}`,
    () => /* wgsl */ `enable f16;
${PARAMS}
${f16Decls(transB, vecA, vecB, byRows ? 'row' : 'col')}
${epilogueDecls(e)}
@compute @workgroup_size(${wg}) fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  ${body}
}`,
  );
}

/**
 * The half-arithmetic `tiled` kernel: the f32 kernel's 64×64 tile per 16×16 threads, each thread a
 * 4×4 block, K staged 16 at a time through workgroup memory, now as halves (half the bytes of
 * workgroup memory and of its reads). As[q·64 + r] = op(a)[m0 + r, k0 + 4q .. +3] (clamped to
 * ±HALF_MAX, converted once at staging), Bs[k·16 + j] = op(b)[k0 + k, n0 + 4j .. +3]; zeros past K,
 * rows and columns past the edge read the last ones (their outputs are not stored). Each output
 * adds f32(run16) for k0 = 0, 4, 8, … in order, the expression of the other half kernels, so all of
 * them give the same numbers on one device (a test holds them to it) and `auto` may choose between
 * them by time.
 */
function f16TiledKernel(transB: boolean, vecA: boolean, vecB: boolean, e: Epilogue): Kernel {
  const byRows = !transB && vecB;
  // Each of the 256 threads stages one vec4 of each tile. b (K, N), N % 4 == 0: a row chunk, one
  // load; transposed b: a chunk along k (b4h), its four values to four rows of Bs; b (K, N) with
  // N % 4 != 0: four scalar loads along n.
  const loadB = byRows
    ? `let k = t / 16u; let j = t % 16u;
    Bs[t] = b4r(bo, k0 + k, min(n0 + 4u * j, P.N - 4u));`
    : transB
      ? `let nl = t / 4u; let q = t % 4u; var v = vec4<f16>(0.0);
    if (k0 + 4u * q < P.K) { v = b4h(bo, min(n0 + nl, P.N - 1u), k0 + 4u * q); }
    for (var kk = 0u; kk < 4u; kk++) { Bs[(4u * q + kk) * 16u + nl / 4u][nl % 4u] = v[kk]; }`
      : `let k = t / 16u; let j = t % 16u; var v = vec4<f16>(0.0);
    if (k0 + k < P.K) {
      for (var c = 0u; c < 4u; c++) { v[c] = b[bo + (k0 + k) * P.N + min(n0 + 4u * j + c, P.N - 1u)]; }
    }
    Bs[t] = v;`;
  const rows = [0, 1, 2, 3];
  return memo(
    `matmul_f16_tiled_tB${+transB}_vA${+vecA}_vB${+vecB}${epilogueName(e)}`,
    () => /* wgsl */ `enable f16;
${PARAMS}
${f16Decls(transB, vecA, vecB, byRows ? 'row' : 'col')}
${epilogueDecls(e)}
${tiledPrologue('f16')}
  for (var k0 = 0u; k0 < P.K; k0 += ${TK}u) {
    { let r = t / 4u; let q = t % 4u; var v = vec4<f16>(0.0);
    if (k0 + 4u * q < P.K) { v = a4h(ao, min(m0 + r, P.M - 1u), k0 + 4u * q); }
    As[q * ${TILE}u + r] = v; }
    { ${loadB} }
    workgroupBarrier();
    for (var q = 0u; q < ${TK / 4}u; q++) {
      ${rows.map((i) => `let a${i} = As[q * ${TILE}u + 4u * lid.y + ${i}u];`).join(' ')}
      ${rows.map((kk) => `let r${kk} = Bs[(4u * q + ${kk}u) * 16u + lid.x];`).join(' ')}
      ${rows.map((i) => `acc[${i}] += vec4<f32>(${run16(`a${i}`, ['r0', 'r1', 'r2', 'r3'])});`).join('\n      ')}
    }
    workgroupBarrier();
  }
  ${storeBlock('m0 + lid.y * 4u', 'n0 + lid.x * 4u', 'wid.z', e)}
}`,
  );
}

// ---- start-up choice between tiled, regs and regs8 ------------------------------------------------

/** The kernels `auto` chooses between for a big matmul (same bits: the choice is speed only). */
export type BigMatmulKernel = 'tiled' | 'regs' | 'regs8';
export const BIG_MATMUL_KERNELS: readonly BigMatmulKernel[] = ['tiled', 'regs', 'regs8'];

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

// ---- entry points ------------------------------------------------------------------------------------------

/** `auto` uses the tiled kernel once there are at least this many outputs (one full tile) and K >= TK. */
export const TILED_MIN_OUTPUTS = TILE * TILE;

/**
 * The CPU backend's matmul: matmulRef's arithmetic in a cache-friendly loop order. Each output is
 * still Σ_k in ascending k, accumulated in float64 from exact f32×f32 products, so the result is
 * bit-identical to matmulRef (a test holds it to that); only the memory walk changes (row of B
 * streamed per k instead of a strided column), which is several times faster in JavaScript.
 */
export function matmulCpuFast(out: Vec, a: Vec, b: Vec, d: MatmulDims): void {
  const { batch, M, N, K, transA, transB } = d;
  if (transB && transA) {
    matmulRef(out, a, b, d);
    return;
  }
  if (transB) {
    // op(b)[k, n] = b[n, k]: both operands are walked contiguously; the reference's loop without
    // its per-element branches (the logits' h · wteᵀ, the largest matmul of a step).
    for (let z = 0; z < batch; z++) {
      const ao = z * M * K;
      const bo = d.bBatched ? z * K * N : 0;
      const oo = z * M * N;
      for (let m = 0; m < M; m++) {
        const ar = ao + m * K;
        for (let n = 0; n < N; n++) {
          const br = bo + n * K;
          let s = 0;
          for (let k = 0; k < K; k++) s += a[ar + k] * b[br + k];
          const o = oo + m * N + n;
          out[o] = d.accumulate ? out[o] + s : s;
        }
      }
    }
    return;
  }
  const acc = new Float64Array(N);
  for (let z = 0; z < batch; z++) {
    const ao = z * M * K;
    const bo = d.bBatched ? z * K * N : 0;
    const oo = z * M * N;
    for (let m = 0; m < M; m++) {
      acc.fill(0);
      for (let k = 0; k < K; k++) {
        const av = transA ? a[ao + k * M + m] : a[ao + m * K + k]; // op(a)[m, k]
        const row = bo + k * N;
        for (let n = 0; n < N; n++) acc[n] += av * b[row + n];
      }
      const o = oo + m * N;
      if (d.accumulate) for (let n = 0; n < N; n++) out[o + n] = out[o + n] + acc[n];
      else for (let n = 0; n < N; n++) out[o + n] = acc[n];
    }
  }
}

function matmulOnCpu(be: CpuBackend, out: Tensor, a: Tensor, b: Tensor, opts: MatmulOptions = {}): void {
  const d = matmulDims(out.shape, a.shape, logicalBShape(b, opts), opts);
  epilogueOf(out, opts);
  const product = f16MathOf(opts) ? matmulF16Ref : matmulCpuFast;
  const o = be.f32Of(out);
  const bv = opts.bHalf ? unpackHalves(be.f32Of(b)) : be.f32Of(b);
  // The residual as it was before the product overwrites out (a copy when it is out itself).
  const resid = opts.residual ? (opts.residual === out ? o.slice() : be.f32Of(opts.residual)) : null;
  if (opts.geluGradOf) {
    // The product into a scratch, then geluBackward's arithmetic (which accumulates).
    const scratch = new Float32Array(out.size);
    product(scratch, be.f32Of(a), bv, { ...d, accumulate: false });
    if (!d.accumulate) o.fill(0);
    geluBackwardRef(o, be.f32Of(opts.geluGradOf), scratch);
  } else {
    product(o, be.f32Of(a), bv, d);
  }
  if (opts.bias) addBiasRef(o, o, be.f32Of(opts.bias), d.batch * d.M, d.N);
  if (resid) for (let i = 0; i < o.length; i++) o[i] = resid[i] + o[i];
  if (opts.geluOut) geluRef(be.f32Of(opts.geluOut), o);
}

/** Which kernel `variant` resolves to for these dims. */
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
