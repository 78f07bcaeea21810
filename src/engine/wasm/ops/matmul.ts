/** Matmul on the wasm backend. */
import { reference, type WasmEntries } from './reference';

export const matmulWasm = {
  matmul: reference('matmul'),
} satisfies WasmEntries;
