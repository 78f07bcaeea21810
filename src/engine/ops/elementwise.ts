/**
 * Elementwise ops: fill, fill at listed positions, copy, residual add, scaled accumulate
 * (gradients), in-place scale.
 * Each op: the CPU reference (plain loops over `Vec`, the spec), the WGSL kernel, and the two
 * backend entry points. These are the template the other op files follow.
 * Bias add and its backward live in bias.ts.
 */
import { assertSize, type Tensor } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { f32, grid1d, u32, WGSL_LINEAR_INDEX, type Kernel } from '../gpu/kernel';
import type { Vec } from './types';
import { packHalfRef, WGSL_PACK_HALF } from './half';
import type { OpEntries } from './registry';

const WG = 256;

// ---- CPU references -------------------------------------------------------------------------------

function fillRef(t: Vec, value: number): void {
  for (let i = 0; i < t.length; i++) t[i] = value;
}

function fillAtRef(t: Vec, index: ArrayLike<number>, value: number): void {
  for (let i = 0; i < index.length; i++) if (index[i] >= 0 && index[i] < t.length) t[index[i]] = value;
}

function addRef(out: Vec, a: Vec, b: Vec): void {
  for (let i = 0; i < out.length; i++) out[i] = a[i] + b[i];
}

function addIntoRef(dst: Vec, src: Vec, alpha: number): void {
  for (let i = 0; i < dst.length; i++) dst[i] += alpha * src[i];
}

function scaleRef(t: Vec, s: number): void {
  for (let i = 0; i < t.length; i++) t[i] *= s;
}

// ---- WGSL -------------------------------------------------------------------------------------------

const header = /* wgsl */ `
struct Params { n: u32, s: f32 }
@group(0) @binding(0) var<uniform> P: Params;
${WGSL_LINEAR_INDEX}`;

const FILL: Kernel = {
  name: 'fill',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> t: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i < P.n) { t[i] = P.s; }
}`,
};

const FILL_AT: Kernel = {
  name: 'fill_at',
  code: /* wgsl */ `
struct Params { n: u32, s: f32, size: u32 }
@group(0) @binding(0) var<uniform> P: Params;
${WGSL_LINEAR_INDEX}
@group(0) @binding(1) var<storage, read_write> t: array<f32>;
@group(0) @binding(2) var<storage, read> index: array<i32>;
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i >= P.n) { return; }
  let at = index[i];
  if (at >= 0 && u32(at) < P.size) { t[u32(at)] = P.s; }
}`,
};

const COPY: Kernel = {
  name: 'copy',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<storage, read> src: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i < P.n) { dst[i] = src[i]; }
}`,
};

const ADD: Kernel = {
  name: 'add',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> a: array<f32>;
@group(0) @binding(3) var<storage, read> b: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i < P.n) { out[i] = a[i] + b[i]; }
}`,
};

const ADD_INTO: Kernel = {
  name: 'add_into',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<storage, read> src: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i < P.n) { dst[i] = dst[i] + P.s * src[i]; }
}`,
};

const SCALE: Kernel = {
  name: 'scale',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> t: array<f32>;
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  if (i < P.n) { t[i] = t[i] * P.s; }
}`,
};

// ---- entry points ------------------------------------------------------------------------------------

function fillOnCpu(be: CpuBackend, t: Tensor, value: number): void {
  fillRef(be.f32Of(t), value);
}
function fillOnGpu(be: WebGpuBackend, t: Tensor, value: number): void {
  be.dispatch(FILL, [t], [u32(t.size), f32(value)], grid1d(t.size, WG));
}

/** fillAt's argument check, shared by every backend's entry. */
export function checkFillAt(t: Tensor, index: Tensor): void {
  if (t.dtype !== 'f32') throw new Error(`fillAt: t must be f32, got ${t.dtype}`);
  if (index.dtype !== 'i32') throw new Error(`fillAt: index must be i32, got ${index.dtype}`);
}
function fillAtOnCpu(be: CpuBackend, t: Tensor, index: Tensor, value: number): void {
  checkFillAt(t, index);
  fillAtRef(be.f32Of(t), be.i32Of(index), value);
}
function fillAtOnGpu(be: WebGpuBackend, t: Tensor, index: Tensor, value: number): void {
  checkFillAt(t, index);
  if (index.size === 0) return;
  be.dispatch(FILL_AT, [t, index], [u32(index.size), f32(value), u32(t.size)], grid1d(index.size, WG));
}

function copyOnCpu(be: CpuBackend, dst: Tensor, src: Tensor): void {
  assertSize(src, dst.size, 'copy src');
  be.f32Of(dst).set(be.f32Of(src));
}
function copyOnGpu(be: WebGpuBackend, dst: Tensor, src: Tensor): void {
  assertSize(src, dst.size, 'copy src');
  be.dispatch(COPY, [dst, src], [u32(dst.size), f32(0)], grid1d(dst.size, WG));
}

function addOnCpu(be: CpuBackend, out: Tensor, a: Tensor, b: Tensor): void {
  assertSize(a, out.size, 'add a');
  assertSize(b, out.size, 'add b');
  addRef(be.f32Of(out), be.f32Of(a), be.f32Of(b));
}
function addOnGpu(be: WebGpuBackend, out: Tensor, a: Tensor, b: Tensor): void {
  assertSize(a, out.size, 'add a');
  assertSize(b, out.size, 'add b');
  be.dispatch(ADD, [out, a, b], [u32(out.size), f32(0)], grid1d(out.size, WG));
}

function addIntoOnCpu(be: CpuBackend, dst: Tensor, src: Tensor, alpha = 1): void {
  assertSize(src, dst.size, 'addInto src');
  addIntoRef(be.f32Of(dst), be.f32Of(src), alpha);
}
function addIntoOnGpu(be: WebGpuBackend, dst: Tensor, src: Tensor, alpha = 1): void {
  assertSize(src, dst.size, 'addInto src');
  be.dispatch(ADD_INTO, [dst, src], [u32(dst.size), f32(alpha)], grid1d(dst.size, WG));
}

const PACK_HALF: Kernel = {
  name: 'pack_half',
  code: /* wgsl */ `${header}
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
${WGSL_PACK_HALF}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_index(gid, nwg, ${WG}u);
  let n = 2u * i;
  if (n + 1u < P.n) { out[i] = pack_half(vec2<f32>(x[n], x[n + 1u])); }
  else if (n < P.n) { out[i] = pack_half(vec2<f32>(x[n], 0.0)); } // odd size: the last word's high half is 0
}`,
};

function checkPackHalf(out: Tensor, x: Tensor): void {
  if (x.dtype !== 'f32' || out.dtype !== 'f32')
    throw new Error(`packHalf: out and x must be f32, got ${out.dtype} and ${x.dtype}`);
  assertSize(out, Math.ceil(x.size / 2), 'packHalf out (⌈x.size / 2⌉ words)');
}
function packHalfOnCpu(be: CpuBackend, out: Tensor, x: Tensor): void {
  checkPackHalf(out, x);
  packHalfRef(be.f32Of(out), be.f32Of(x));
}
function packHalfOnGpu(be: WebGpuBackend, out: Tensor, x: Tensor): void {
  checkPackHalf(out, x);
  be.dispatch(PACK_HALF, [out, x], [u32(x.size), f32(0)], grid1d(out.size, WG));
}

function scaleOnCpu(be: CpuBackend, t: Tensor, s: number): void {
  scaleRef(be.f32Of(t), s);
}
function scaleOnGpu(be: WebGpuBackend, t: Tensor, s: number): void {
  be.dispatch(SCALE, [t], [u32(t.size), f32(s)], grid1d(t.size, WG));
}

/** The registry's entries for these ops (./registry.ts). */
export const elementwiseOps = {
  fill: { cpu: fillOnCpu, webgpu: fillOnGpu },
  fillAt: { cpu: fillAtOnCpu, webgpu: fillAtOnGpu },
  copy: { cpu: copyOnCpu, webgpu: copyOnGpu },
  add: { cpu: addOnCpu, webgpu: addOnGpu },
  addInto: { cpu: addIntoOnCpu, webgpu: addIntoOnGpu },
  packHalf: { cpu: packHalfOnCpu, webgpu: packHalfOnGpu },
  scale: { cpu: scaleOnCpu, webgpu: scaleOnGpu },
} satisfies OpEntries;
