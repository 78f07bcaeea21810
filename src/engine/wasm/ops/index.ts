/**
 * The wasm backend's op table: every op of the contract, from the op files beside this one; each
 * entry checks its arguments and calls kernels of ../asm (matmul's f16 arithmetic alone runs the CPU
 * reference in place, ../host.ts).
 */
import { attentionWasm } from './attention';
import { elementwiseWasm } from './elementwise';
import { matmulWasm } from './matmul';
import { optimWasm } from './optim';
import type { WasmTable } from './types';
import { rowsWasm } from './rows';

export const WASM_OPS = {
  ...elementwiseWasm,
  ...matmulWasm,
  ...rowsWasm,
  ...attentionWasm,
  ...optimWasm,
} satisfies WasmTable;
