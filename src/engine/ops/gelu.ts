/**
 * GELU, tanh approximation (GPT-2, llm.c `gelu_forward` / `gelu_backward`): the CPU reference, the
 * WGSL kernels (one thread per element) and the backend entry points. Not the erf form.
 *
 *   gelu(x)  = ½ x (1 + tanh u),            u = √(2/π) (x + 0.044715 x³)
 *   gelu'(x) = ½ (1 + tanh u) + ½ x sech²u · √(2/π) (1 + 3·0.044715 x²)
 *
 * Shape legend: any shape; x, out, dx, dOut all hold the same number of elements.
 */
import { assertSize, type Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import type { Vec } from './types';
import type { OpEntries } from './registry';

/** √(2/π), the tanh approximation's scale. */
const GELU_SCALE = Math.sqrt(2 / Math.PI);
/** The cubic coefficient of the approximation (Hendrycks & Gimpel 2016, eq. in §2). */
const GELU_CUBIC = 0.044715;
/**
 * WGSL's tanh may be computed from exp and overflow to NaN for large arguments on some drivers;
 * tanh(±10) is ±1 to f32 precision, so clamping the argument changes nothing else.
 */
const TANH_CLAMP = 10;

const WG = 256;

// ---- CPU references -------------------------------------------------------------------------------

export function geluRef(out: Vec, x: Vec): void {
  for (let i = 0; i < x.length; i++) {
    const xi = x[i];
    const u = GELU_SCALE * (xi + GELU_CUBIC * xi * xi * xi);
    out[i] = 0.5 * xi * (1 + Math.tanh(u));
  }
}

export function geluBackwardRef(dx: Vec, x: Vec, dOut: Vec): void {
  for (let i = 0; i < x.length; i++) {
    const xi = x[i];
    const u = GELU_SCALE * (xi + GELU_CUBIC * xi * xi * xi);
    const th = Math.tanh(u);
    const sech2 = 1 - th * th;
    const grad = 0.5 * (1 + th) + 0.5 * xi * sech2 * GELU_SCALE * (1 + 3 * GELU_CUBIC * xi * xi);
    dx[i] += grad * dOut[i];
  }
}

// ---- WGSL -------------------------------------------------------------------------------------------

/** WGSL `gelu_f(x)`, `gelu_grad(x)` (and their `tanh_u`): the kernels here and matmul's GELU epilogues share them. */
export const WGSL_GELU = /* wgsl */ `
fn tanh_u(x: f32) -> f32 {
  return tanh(clamp(${GELU_SCALE} * (x + ${GELU_CUBIC} * x * x * x), -${TANH_CLAMP}.0, ${TANH_CLAMP}.0));
}
fn gelu_f(x: f32) -> f32 { return 0.5 * x * (1.0 + tanh_u(x)); }
fn gelu_grad(x: f32) -> f32 {
  let th = tanh_u(x);
  let sech2 = 1.0 - th * th;
  return 0.5 * (1.0 + th) + 0.5 * x * sech2 * ${GELU_SCALE} * (1.0 + ${3 * GELU_CUBIC} * x * x);
}`;

const header = /* wgsl */ `
struct Params { n: u32 }
@group(0) @binding(0) var<uniform> P: Params;
${WGSL_LINEAR_INDEX}
${WGSL_GELU}`;

const GELU_FWD: Kernel = {
  name: 'gelu_fwd',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i >= P.n) { return; }
  out[i] = gelu_f(x[i]);
}`,
};

const GELU_BWD: Kernel = {
  name: 'gelu_bwd',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> dx: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> dout: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i >= P.n) { return; }
  dx[i] = dx[i] + gelu_grad(x[i]) * dout[i];
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

function geluOnCpu(be: CpuBackend, out: Tensor, x: Tensor): void {
  assertSize(out, x.size, 'gelu out');
  geluRef(be.f32Of(out), be.f32Of(x));
}
function geluOnGpu(be: WebGpuBackend, out: Tensor, x: Tensor): void {
  assertSize(out, x.size, 'gelu out');
  be.dispatch(GELU_FWD, [out, x], [u32(x.size)], grid1d(x.size, WG));
}

function geluBackwardOnCpu(be: CpuBackend, dx: Tensor, x: Tensor, dOut: Tensor): void {
  assertSize(dx, x.size, 'geluBackward dx');
  assertSize(dOut, x.size, 'geluBackward dOut');
  geluBackwardRef(be.f32Of(dx), be.f32Of(x), be.f32Of(dOut));
}
function geluBackwardOnGpu(be: WebGpuBackend, dx: Tensor, x: Tensor, dOut: Tensor): void {
  assertSize(dx, x.size, 'geluBackward dx');
  assertSize(dOut, x.size, 'geluBackward dOut');
  be.dispatch(GELU_BWD, [dx, x, dOut], [u32(x.size)], grid1d(x.size, WG));
}

/** The registry's entries for these ops (./registry.ts). */
export const geluOps = {
  gelu: { cpu: geluOnCpu, webgpu: geluOnGpu },
  geluBackward: { cpu: geluBackwardOnCpu, webgpu: geluBackwardOnGpu },
} satisfies OpEntries;
