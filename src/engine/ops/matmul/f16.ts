/**
 * The matmul kernels' half-arithmetic versions (`math: 'f16'`, needs shader-f16): every kernel
 * family summing runs of four products in f16 and the runs in f32, all giving the same bits.
 */
import { type Kernel } from '../../gpu/kernel';
import { HALF_MAX } from '../half';
import { type Epilogue, PARAMS, epilogueDecls, epilogueName, memo, storeOne } from './epilogue';
import { ROWS_WG } from './rows';
import { TILE, TK, storeBlock, tiledPrologue } from './tiled';

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
export function f16Kernel(
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
export function f16TiledKernel(transB: boolean, vecA: boolean, vecB: boolean, e: Epilogue): Kernel {
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
