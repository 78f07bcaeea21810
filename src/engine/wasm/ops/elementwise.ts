/** Elementwise ops on the wasm backend (asm/elementwise.ts). */
import { reference, type WasmEntries } from './reference';

export const elementwiseWasm = {
  fill(be, t, value) {
    be.par('fillF32', t.size, be.ptr(t), value, t.size);
  },
  copy: reference('copy'),
  add: reference('add'),
  addInto: reference('addInto'),
  scale: reference('scale'),
  packHalf: reference('packHalf'),
} satisfies WasmEntries;
