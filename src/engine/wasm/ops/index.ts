/**
 * The wasm backend's op table: every op of the contract, from the op files beside this one. An
 * entry is a kernel call (the kernels are in ../asm) or `reference(op)`, the CPU reference run in
 * place on the wasm memory; `referenceOps()` lists the latter.
 */
import { OP_NAMES, type OpName } from '../../backend';
import { attentionWasm } from './attention';
import { elementwiseWasm } from './elementwise';
import { matmulWasm } from './matmul';
import { optimWasm } from './optim';
import { isReference, type WasmTable } from './reference';
import { rowsWasm } from './rows';

export const WASM_OPS = {
  ...elementwiseWasm,
  ...matmulWasm,
  ...rowsWasm,
  ...attentionWasm,
  ...optimWasm,
} satisfies WasmTable;

/** The ops that run the CPU reference on the wasm backend (no kernel of their own). */
export function referenceOps(): OpName[] {
  return OP_NAMES.filter((name) => isReference(WASM_OPS[name]));
}
