/**
 * Matmul kernel 1, `naive`: one thread per output element, the K loop from global memory (f32 and
 * half-b forms).
 */
import { type Kernel } from '../../gpu/kernel';
import { type Epilogue, PARAMS, epilogueDecls, epilogueName, memo, storeOne, bDecl, halfName } from './epilogue';

export function naiveKernel(transA: boolean, transB: boolean, e: Epilogue, half: boolean): Kernel {
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
