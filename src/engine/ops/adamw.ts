/**
 * AdamW, one step in place on param, m, v, exactly as torch.optim.AdamW (amsgrad = false,
 * maximize = false) computes it:
 *   p ← p − lr·λ·p                                  decoupled weight decay (Loshchilov & Hutter)
 *   m ← β₁·m + (1 − β₁)·g                           first moment
 *   v ← β₂·v + (1 − β₂)·g²                          second moment
 *   p ← p − (lr / (1 − β₁ᵗ)) · m / (√v / √(1 − β₂ᵗ) + ε)    bias-corrected update
 * https://pytorch.org/docs/stable/generated/torch.optim.AdamW.html (the "single tensor" path).
 * The bias-correction scalars are computed on the host in float64 and passed as uniforms.
 * Not here: the learning-rate schedule, parameter groups (no decay for biases/LayerNorm): callers
 * pass weightDecay per tensor or arena slice.
 *
 * The step guard: flagNonFinite counts the NaN and ±∞ elements of a tensor (the gradient norm, the
 * loss) into a flag on the device, and AdamW given `skipIf: flag` leaves param, m and v untouched
 * when the flag is not 0. A trainer queues forward, backward, clip, guard and step in one command
 * buffer and reads the figures back afterwards; a non-finite step is never applied.
 */
import { assertSize, type AdamWOptions, type Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { f32, grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import { dispatchRows, ROW_WG, wgslRowReduce } from './rowreduce';
import type { Vec } from './types';
import type { OpEntries } from './registry';

const WG = 256;

/** The per-step scalars of the update, from the options (float64 on the host). */
export function adamwScalars(o: AdamWOptions): { decay: number; stepSize: number; bc2Sqrt: number } {
  if (!(o.step >= 1) || !Number.isInteger(o.step))
    throw new Error(`adamw: step must be an integer >= 1 (1-based), got ${o.step}`);
  for (const [k, x] of [
    ['beta1', o.beta1],
    ['beta2', o.beta2],
  ] as const) {
    if (!(x >= 0 && x < 1)) throw new Error(`adamw: ${k} must be in [0, 1), got ${x}`);
  }
  if (!(o.eps > 0)) throw new Error(`adamw: eps must be > 0, got ${o.eps}`);
  const bc1 = 1 - o.beta1 ** o.step; // 1 − β₁ᵗ
  const bc2 = 1 - o.beta2 ** o.step; // 1 − β₂ᵗ
  return { decay: 1 - o.lr * o.weightDecay, stepSize: o.lr / bc1, bc2Sqrt: Math.sqrt(bc2) };
}

// ---- CPU reference ----------------------------------------------------------------------------------

export function adamwRef(p: Vec, g: Vec, m: Vec, v: Vec, o: AdamWOptions, skip = false): void {
  const { decay, stepSize, bc2Sqrt } = adamwScalars(o);
  if (skip) return;
  for (let i = 0; i < p.length; i++) {
    p[i] *= decay; // p ← p − lr·λ·p
    m[i] = o.beta1 * m[i] + (1 - o.beta1) * g[i]; // m_t
    v[i] = o.beta2 * v[i] + (1 - o.beta2) * g[i] * g[i]; // v_t
    const denom = Math.sqrt(v[i]) / bc2Sqrt + o.eps; // √v̂_t + ε
    p[i] -= (stepSize * m[i]) / denom; // p ← p − lr·m̂_t / (√v̂_t + ε)
  }
}

/** The number of NaN and ±∞ values in x. */
export function countNonFiniteRef(x: Vec): number {
  let c = 0;
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) c++;
  return c;
}

// ---- WGSL -------------------------------------------------------------------------------------------

function adamwKernel(guarded: boolean): Kernel {
  return {
    name: guarded ? 'adamw_guarded' : 'adamw',
    code: /* wgsl */ `
struct Params { n: u32, beta1: f32, beta2: f32, eps: f32, decay: f32, stepSize: f32, bc2Sqrt: f32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> p: array<f32>;
@group(0) @binding(2) var<storage, read> g: array<f32>;
@group(0) @binding(3) var<storage, read_write> m: array<f32>;
@group(0) @binding(4) var<storage, read_write> v: array<f32>;
${guarded ? '@group(0) @binding(5) var<storage, read> flag: array<f32>;' : ''}
${WGSL_LINEAR_INDEX}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i >= P.n${guarded ? ' || flag[0] != 0.0' : ''}) { return; }
  let gi = g[i];
  let mi = P.beta1 * m[i] + (1.0 - P.beta1) * gi;
  let vi = P.beta2 * v[i] + (1.0 - P.beta2) * gi * gi;
  let denom = sqrt(vi) / P.bc2Sqrt + P.eps;
  p[i] = p[i] * P.decay - P.stepSize * mi / denom;
  m[i] = mi;
  v[i] = vi;
}`,
  };
}

const ADAMW = adamwKernel(false);
const ADAMW_GUARDED = adamwKernel(true);

/**
 * flag[0] += the count of x's elements whose exponent bits are all ones (NaN, ±∞). x is read as
 * u32 so no float comparison is involved (WGSL lets a compiler assume floats are finite). One row.
 */
const FLAG_NON_FINITE: Kernel = {
  name: 'flag_non_finite',
  code: /* wgsl */ `
struct Params { n: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> flag: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<u32>;
${wgslRowReduce(ROW_WG)}
@compute @workgroup_size(${ROW_WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  if (row_index(wid, nwg) > 0u) { return; }
  var c = 0.0;
  for (var i = lid; i < P.n; i += ROW_STRIDE) {
    if ((x[i] & 0x7f800000u) == 0x7f800000u) { c += 1.0; }
  }
  c = wg_sum(c, lid);
  if (lid == 0u) { flag[0] = flag[0] + c; }
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

export function checkSizes(p: Tensor, g: Tensor, m: Tensor, v: Tensor, o: AdamWOptions): void {
  assertSize(g, p.size, 'adamw grad');
  assertSize(m, p.size, 'adamw m');
  assertSize(v, p.size, 'adamw v');
  if (o.skipIf) checkFlag(o.skipIf, 'adamw skipIf');
}

function checkFlag(flag: Tensor, what: string): void {
  if (flag.size !== 1 || flag.dtype !== 'f32')
    throw new Error(`${what}: expected one f32 value, got ${flag.dtype} shape [${flag.shape.join(', ')}]`);
}

export function checkFlagArgs(flag: Tensor, x: Tensor): void {
  checkFlag(flag, 'flagNonFinite flag');
  if (x.dtype !== 'f32') throw new Error(`flagNonFinite: x must be f32, got ${x.dtype}`);
}

function adamwOnCpu(be: CpuBackend, param: Tensor, grad: Tensor, m: Tensor, v: Tensor, opts: AdamWOptions): void {
  checkSizes(param, grad, m, v, opts);
  adamwRef(
    be.f32Of(param),
    be.f32Of(grad),
    be.f32Of(m),
    be.f32Of(v),
    opts,
    opts.skipIf ? be.f32Of(opts.skipIf)[0] !== 0 : false,
  );
}

function adamwOnGpu(be: WebGpuBackend, param: Tensor, grad: Tensor, m: Tensor, v: Tensor, opts: AdamWOptions): void {
  checkSizes(param, grad, m, v, opts);
  const s = adamwScalars(opts);
  be.dispatch(
    opts.skipIf ? ADAMW_GUARDED : ADAMW,
    [param, grad, m, v, ...(opts.skipIf ? [opts.skipIf] : [])],
    [u32(param.size), f32(opts.beta1), f32(opts.beta2), f32(opts.eps), f32(s.decay), f32(s.stepSize), f32(s.bc2Sqrt)],
    grid1d(param.size, WG),
  );
}

function flagNonFiniteOnCpu(be: CpuBackend, flag: Tensor, x: Tensor): void {
  checkFlagArgs(flag, x);
  be.f32Of(flag)[0] += countNonFiniteRef(be.f32Of(x));
}

function flagNonFiniteOnGpu(be: WebGpuBackend, flag: Tensor, x: Tensor): void {
  checkFlagArgs(flag, x);
  dispatchRows(be, FLAG_NON_FINITE, [flag, x], [u32(x.size)], 1);
}

/** The registry's entries for these ops (./registry.ts). */
export const adamwOps = {
  adamw: { cpu: adamwOnCpu, webgpu: adamwOnGpu },
  flagNonFinite: { cpu: flagNonFiniteOnCpu, webgpu: flagNonFiniteOnGpu },
} satisfies OpEntries;
