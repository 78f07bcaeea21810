/**
 * Matmul kernel 2, `tiled`: a 64×64 tile of out per workgroup of 16×16 threads, each a 4×4 block,
 * A and B staged through workgroup memory TK values of K at a time; and the chunk loads and block
 * stores that `regs` and the f16 kernels share.
 */
import { type Kernel } from '../../gpu/kernel';
import { bDecl, type Epilogue, epilogueDecls, epilogueName, halfName, memo, PARAMS, storeOne } from './epilogue';

export const TILE = 64; // TM = TN: outputs per workgroup side
export const TK = 16; // K values staged per step

/**
 * WGSL that loads this thread's 4 values of one operand tile into `v`. The operand is stored with
 * `rows` rows and a contiguous dim of length `cols`; (r0, c0) is the chunk's first element; `vec`:
 * cols % 4 == 0, so a chunk is all in or all out of bounds and one vec4 load fetches it.
 */
export function loadChunk(
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
 * WGSL that stores a thread's RM × 4·CN block, `acc[i·CN + j/4][j%4]` = C[row0 + i, col0 + j] of
 * batch entry `z`, through the epilogue, skipping what falls outside M × N. Shared by `tiled`
 * (4×4) and the register kernels.
 */
export function storeBlock(row0: string, col0: string, z: string, e: Epilogue, RM = 4, CN = 1): string {
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
export function tiledPrologue(elem: 'f32' | 'f16'): string {
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
export function tiledKernel(
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
