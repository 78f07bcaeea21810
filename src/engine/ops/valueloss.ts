/**
 * PPO's clipped value loss and its gradient w.r.t. the values, elementwise (one thread per token):
 * the CPU reference (the spec, a plain loop), the WGSL kernel and the registry's entries. The
 * policy losses on the logits are in policyloss.ts. Equations and sources: docs/ALGORITHMS.md.
 *
 * Per masked-in token (mask > 0), with w = mask · lossScale:
 *   v_clip = clip(v, old − c, old + c)                             (v when clip is null)
 *   ℓ      = ½ max((v − R)², (v_clip − R)²)                        the value loss
 *   dv    += w (v − R) when the unclipped term is the max, else 0
 *
 * Shape legend: N token rows (B*T). values, oldValues, returns, responseMask, dValues: (N);
 * valueStats: (N, VALUE_STATS), columns named by VALUE_STAT.
 */
import { assertSize, type Tensor, type ValueLossOptions } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { f32, grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import type { Vec } from './types';
import type { OpEntries } from './registry';

/** Columns of the per-row diagnostics of valueLoss. */
export const VALUE_STAT = { loss: 0, clipped: 1 } as const;
export const VALUE_STATS = 2;

// ---- CPU reference --------------------------------------------------------------------------------

/** valueStats (N, 2) = [½ max((v−R)², (clip(v, old ± c) − R)²), clipped]; dValues (N) += w ∂/∂v. */
export function valueLossRef(
  valueStats: Vec,
  dValues: Vec,
  values: Vec,
  oldValues: Vec,
  returns: Vec,
  responseMask: Vec,
  o: ValueLossOptions,
  N: number,
): void {
  for (let n = 0; n < N; n++) {
    const so = n * VALUE_STATS;
    valueStats[so] = 0;
    valueStats[so + 1] = 0;
    if (!(responseMask[n] > 0)) continue;
    const v = values[n];
    const old = oldValues[n];
    const R = returns[n];
    const vc = o.clip === null ? v : Math.min(old + o.clip, Math.max(old - o.clip, v)); // V_clip
    const l1 = (v - R) * (v - R);
    const l2 = (vc - R) * (vc - R);
    const clipped = l2 > l1; // then the max is the clipped constant: no gradient
    valueStats[so + VALUE_STAT.loss] = 0.5 * Math.max(l1, l2);
    valueStats[so + VALUE_STAT.clipped] = clipped ? 1 : 0;
    if (!clipped) dValues[n] += responseMask[n] * o.lossScale * (v - R);
  }
}

// ---- WGSL -------------------------------------------------------------------------------------------

const VALUE_WG = 256;
const VALUE_LOSS: Kernel = {
  name: 'value_loss',
  code: /* wgsl */ `
struct Params { n: u32, has_clip: u32, clip: f32, loss_scale: f32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> vstats: array<f32>;
@group(0) @binding(2) var<storage, read_write> dvalues: array<f32>;
@group(0) @binding(3) var<storage, read> values: array<f32>;
@group(0) @binding(4) var<storage, read> old_values: array<f32>;
@group(0) @binding(5) var<storage, read> returns: array<f32>;
@group(0) @binding(6) var<storage, read> response_mask: array<f32>;
${WGSL_LINEAR_INDEX}
@compute @workgroup_size(${VALUE_WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let n = linear_index(gid, nwg, ${VALUE_WG}u);
  if (n >= P.n) { return; }
  let mask = response_mask[n];
  if (!(mask > 0.0)) { vstats[2u * n] = 0.0; vstats[2u * n + 1u] = 0.0; return; }
  let v = values[n];
  let old = old_values[n];
  let r = returns[n];
  var vc = v;
  if (P.has_clip != 0u) { vc = clamp(v, old - P.clip, old + P.clip); }
  let l1 = (v - r) * (v - r);
  let l2 = (vc - r) * (vc - r);
  let clipped = l2 > l1;
  vstats[2u * n] = 0.5 * max(l1, l2);
  vstats[2u * n + 1u] = select(0.0, 1.0, clipped);
  if (!clipped) { dvalues[n] = dvalues[n] + mask * P.loss_scale * (v - r); }
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

export function checkValue(valueStats: Tensor, dValues: Tensor, ins: Tensor[], o: ValueLossOptions): number {
  const N = dValues.size;
  assertSize(valueStats, N * VALUE_STATS, `valueLoss valueStats (N, ${VALUE_STATS})`);
  ins.forEach((t, i) => assertSize(t, N, `valueLoss ${['values', 'oldValues', 'returns', 'responseMask'][i]}`));
  if (o.clip !== null && !(o.clip >= 0 && Number.isFinite(o.clip)))
    throw new Error(`valueLoss: clip must be a finite value >= 0 or null, got ${o.clip}`);
  return N;
}

function valueLossOnCpu(
  be: CpuBackend,
  valueStats: Tensor,
  dValues: Tensor,
  values: Tensor,
  oldValues: Tensor,
  returns: Tensor,
  responseMask: Tensor,
  o: ValueLossOptions,
): void {
  const N = checkValue(valueStats, dValues, [values, oldValues, returns, responseMask], o);
  valueLossRef(
    be.f32Of(valueStats),
    be.f32Of(dValues),
    be.f32Of(values),
    be.f32Of(oldValues),
    be.f32Of(returns),
    be.f32Of(responseMask),
    o,
    N,
  );
}
function valueLossOnGpu(
  be: WebGpuBackend,
  valueStats: Tensor,
  dValues: Tensor,
  values: Tensor,
  oldValues: Tensor,
  returns: Tensor,
  responseMask: Tensor,
  o: ValueLossOptions,
): void {
  const N = checkValue(valueStats, dValues, [values, oldValues, returns, responseMask], o);
  be.dispatch(
    VALUE_LOSS,
    [valueStats, dValues, values, oldValues, returns, responseMask],
    [u32(N), u32(o.clip === null ? 0 : 1), f32(o.clip ?? 0), f32(o.lossScale)],
    grid1d(N, VALUE_WG),
  );
}

/** The registry's entries for this op (./registry.ts). */
export const valueLossOps = {
  valueLoss: { cpu: valueLossOnCpu, webgpu: valueLossOnGpu },
} satisfies OpEntries;
