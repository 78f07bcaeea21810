/** Elementwise ops on the wasm backend (asm/elementwise.ts), each threaded over its elements. */
import { assertSize, type Tensor } from '../../backend';
import { checkFillAt } from '../../ops/elementwise';
import type { WasmBackend } from '../backend';
import type { WasmEntries } from './types';

/** The address of an f32 tensor (throwing for an i32 one, as the CPU reference does). */
export function f32Ptr(be: WasmBackend, t: Tensor): number {
  if (t.dtype !== 'f32') throw new Error(`expected an f32 tensor, got ${t.dtype} [${t.shape.join(', ')}]`);
  return be.ptr(t);
}

/** The address of an i32 tensor (throwing for an f32 one). */
export function i32Ptr(be: WasmBackend, t: Tensor): number {
  if (t.dtype !== 'i32') throw new Error(`expected an i32 tensor, got ${t.dtype} [${t.shape.join(', ')}]`);
  return be.ptr(t);
}

export const elementwiseWasm = {
  fill(be, t, value) {
    be.par('fillF32', t.size, be.ptr(t), value, t.size);
  },
  fillAt(be, t, index, value) {
    checkFillAt(t, index);
    be.call('ew_fillAt', be.ptr(t), be.ptr(index), index.size, t.size, value);
  },
  copy(be, dst, src) {
    assertSize(src, dst.size, 'copy src');
    be.par('ew_copy', dst.size, f32Ptr(be, dst), f32Ptr(be, src), dst.size);
  },
  add(be, out, a, b) {
    assertSize(a, out.size, 'add a');
    assertSize(b, out.size, 'add b');
    be.par('ew_add', out.size, f32Ptr(be, out), f32Ptr(be, a), f32Ptr(be, b), out.size);
  },
  addInto(be, dst, src, alpha = 1) {
    assertSize(src, dst.size, 'addInto src');
    be.par('ew_addInto', dst.size, f32Ptr(be, dst), f32Ptr(be, src), alpha, dst.size);
  },
  scale(be, t, s) {
    be.par('ew_scale', t.size, f32Ptr(be, t), s, t.size);
  },
  packHalf(be, out, x) {
    if (x.dtype !== 'f32' || out.dtype !== 'f32')
      throw new Error(`packHalf: out and x must be f32, got ${out.dtype} and ${x.dtype}`);
    assertSize(out, Math.ceil(x.size / 2), 'packHalf out (⌈x.size / 2⌉ words)');
    be.par('ew_packHalf', 4 * x.size, f32Ptr(be, out), f32Ptr(be, x), x.size);
  },
} satisfies WasmEntries;
