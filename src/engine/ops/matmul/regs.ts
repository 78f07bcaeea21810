/**
 * Matmul kernels 3 and 5, `regs` and `regs8`: a register-blocked tile per thread (4×4 or 8×8), no
 * workgroup memory and no barriers (f32 and half-b forms).
 */
import { type Kernel } from '../../gpu/kernel';
import { type Epilogue, PARAMS, epilogueDecls, epilogueName, memo, bDecl, halfName } from './epilogue';
import { loadChunk, storeBlock } from './tiled';

export const REGS_BLOCK = { regs: { RM: 4, CN: 1 }, regs8: { RM: 8, CN: 2 } } as const;

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
export function regsKernel(
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
