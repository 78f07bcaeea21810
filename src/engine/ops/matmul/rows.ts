/**
 * Matmul kernel 4, `rows`: M ≤ ROWS_MAX_M (decoding), one thread per column holding every row's sum
 * (f32 and half-b forms).
 */
import { type Kernel } from '../../gpu/kernel';
import { type Epilogue, PARAMS, epilogueDecls, epilogueName, memo, storeOne, bDecl } from './epilogue';

export const ROWS_MAX_M = 8;
export const ROWS_WG = 64;

/**
 * Version 4: small M (decoding, a matrix-vector product when M = 1). One thread per output column
 * n holds all M ≤ ROWS_MAX_M sums (M baked into the pipeline, one register each) and reads each
 * op(B)[k, n] once for every row, where `naive` reads it M times and `tiled` computes a 64-row tile of which M rows are kept. Each sum runs k = 0,
 * 1, 2, … in order like `naive`'s, so the two give the same bits (a test holds them to that).
 */
export function rowsKernel(transA: boolean, transB: boolean, M: number, e: Epilogue, half: boolean): Kernel {
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
