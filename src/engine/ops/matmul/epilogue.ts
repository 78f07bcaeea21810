/**
 * What every matmul kernel shares: the epilogue a call asks for (bias, GELU, GELU's backward factor,
 * residual; `epilogueOf` validates its tensors), its WGSL (bindings, the store of one output), the
 * Params struct, b's declaration (f32 or packed halves) and the kernel cache by name.
 */
import { type MatmulOptions, type Tensor } from '../../backend';
import { type Kernel } from '../../gpu/kernel';
import { WGSL_GELU } from '../gelu';
import { fmt } from './dims';

export interface Epilogue {
  bias: boolean;
  gelu: boolean;
  geluGrad: boolean;
  resid: 'none' | 'out' | 'other';
}

/** Validate the epilogue tensors of out (…, M, N) = op(a)·op(b); throws a message naming the shapes. */
export function epilogueOf(out: Tensor, opts: MatmulOptions): Epilogue {
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

// ---- WGSL ---------------------------------------------------------------------------------------------

export const PARAMS = /* wgsl */ `
struct Params { M: u32, N: u32, K: u32, strideA: u32, strideB: u32, strideC: u32, acc: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;`;

/** The epilogue's bindings (after a at 2 and b at 3) and functions. */
export function epilogueDecls(e: Epilogue): string {
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
export function storeOne(o: string, n: string, value: string, e: Epilogue): string {
  const resid = e.resid === 'out' ? `out[${o}]` : `resid[${o}]`;
  return `{
      var v = ${value};${e.geluGrad ? `\n      v = gelu_grad(gelu_pre[${o}]) * v;` : ''}
      if (P.acc != 0u) { v = out[${o}] + v; }${e.bias ? `\n      v = v + bias[${n}];` : ''}${e.resid !== 'none' ? `\n      v = ${resid} + v;` : ''}
      out[${o}] = v;${e.gelu ? `\n      gelu_out[${o}] = gelu_f(v);` : ''}
    }`;
}

export const epilogueName = (e: Epilogue): string =>
  `${e.bias ? '_bias' : ''}${e.gelu ? '_gelu' : ''}${e.geluGrad ? '_dgelu' : ''}${e.resid === 'none' ? '' : `_res${e.resid === 'out' ? 'io' : ''}`}`;

const kernels = new Map<string, Kernel>();
export function memo(name: string, make: () => string): Kernel {
  let k = kernels.get(name);
  if (!k) kernels.set(name, (k = { name, code: make() }));
  return k;
}

/** Version 1: one thread per output element (16×16 threads per workgroup, batch on z). */

/**
 * The binding of b and, with packed halves, its element reader: b_half(i) = element i (low half of
 * word i / 2 for even i), selected without a dynamic vector index (slow on some compilers).
 */
export function bDecl(vec: boolean, half: boolean): string {
  if (!half) return `@group(0) @binding(3) var<storage, read> b: ${vec ? 'array<vec4<f32>>' : 'array<f32>'};`;
  return `@group(0) @binding(3) var<storage, read> b: ${vec ? 'array<vec2<u32>>' : 'array<u32>'};${
    vec
      ? ''
      : `
fn b_half(i: u32) -> f32 { let w = unpack2x16float(b[i >> 1u]); return select(w.x, w.y, (i & 1u) == 1u); }`
  }`;
}

export const halfName = (half: boolean): string => (half ? '_bh' : '');
