/**
 * The op registry: every op of the contract (`BackendOps` in ../backend.ts) with one implementation
 * per backend, as tfjs registers its KernelConfigs and verl fills its ADV_ESTIMATOR_REGISTRY. Both
 * backend classes extend `routeOps(name)`, whose prototype sends `be.matmul(...)` to
 * `OPS.matmul[name](be, ...)`; no backend writes an op method of its own. This file is types and
 * the list; the ops themselves live in ./<op>.ts.
 *
 * Adding an op: declare its method (with its doc) in `BackendOps` and its name in `OP_NAMES`
 * (../backend.ts); write it in its own ./<op>.ts (CPU reference, WGSL, and an exported table
 * `{ myOp: { cpu(be, ...) {...}, webgpu(be, ...) {...} } } satisfies OpEntries`, whose parameters
 * the compiler types from the contract); spread that table into `OPS` below; add its `wasm` entry
 * to the table of ../wasm/ops (glue for its kernels). The compiler rejects
 * an op with no entry or an entry with a backend missing, and registry.test.ts checks the same at
 * run time. A new backend is one more name in `BackendOf` and one more field in every entry (or, like
 * wasm, a table of its own).
 */
import type { BackendName, BackendOps, OpName } from '../backend';
import type { CpuBackend } from '../cpu/backend';
import type { WasmBackend } from '../wasm/backend';
import type { WebGpuBackend } from '../gpu/backend';
import { WASM_OPS } from '../wasm/ops';
import { adamwOps } from './adamw';
import { advantageOps } from './advantage';
import { attentionOps } from './attention';
import { biasOps } from './bias';
import { clipOps } from './clip';
import { crossEntropyOps } from './crossentropy';
import { elementwiseOps } from './elementwise';
import { embeddingOps } from './embedding';
import { geluOps } from './gelu';
import { kvAttentionOps } from './kvattention';
import { layerNormOps } from './layernorm';
import { matmulOps } from './matmul';
import { policyLossOps } from './policyloss';
import { softmaxOps } from './softmax';
import { valueLossOps } from './valueloss';

/**
 * The class each backend's implementations receive as their first argument. The op files hold the
 * `cpu` and `webgpu` entries; the `wasm` entries, glue for kernels written in AssemblyScript, are in
 * ../wasm/ops (a table of the same shape, merged below).
 */
interface BackendOf {
  cpu: CpuBackend;
  webgpu: WebGpuBackend;
  wasm: WasmBackend;
}

/** The backends whose entries the op files hold. */
type OpFileBackend = 'cpu' | 'webgpu';

/** One op's implementations in its op file: for each backend, the op method's parameters after the backend. */
export type OpImpls<K extends OpName> = {
  [B in OpFileBackend]: (be: BackendOf[B], ...args: Parameters<BackendOps[K]>) => void;
};

/** A complete registry: every op of the contract with its implementations. */
export type OpTable = { [K in OpName]: OpImpls<K> };

/** What an op file exports: the entries of the ops it defines. */
export type OpEntries = Partial<OpTable>;

/** Every op, from the tables of the op files. */
export const OPS = {
  ...elementwiseOps,
  ...biasOps,
  ...matmulOps,
  ...embeddingOps,
  ...layerNormOps,
  ...geluOps,
  ...attentionOps,
  ...kvAttentionOps,
  ...softmaxOps,
  ...crossEntropyOps,
  ...adamwOps,
  ...clipOps,
  ...policyLossOps,
  ...valueLossOps,
  ...advantageOps,
} satisfies OpTable;

/** An implementation as the router calls it: the backend, then the op's arguments. */
type Routed<B extends BackendName> = (be: BackendOf[B], ...args: unknown[]) => void;

/**
 * A base class whose prototype has one method per op of `OPS`, each calling that op's `backend`
 * implementation with `this` and its arguments. The backend class extends it (`class CpuBackend
 * extends routeOps('cpu')`); `this` is then that class, as the implementations expect.
 */
export function routeOps<B extends BackendName>(backend: B): new () => BackendOps {
  class Routes {}
  const table: Record<string, Record<OpFileBackend, (be: never, ...args: never[]) => void>> = OPS;
  const wasm: Record<string, (be: never, ...args: never[]) => void> = WASM_OPS;
  for (const name of Object.keys(table)) {
    // OpTable pairs each name with implementations of that op's own parameters, which a loop over
    // names cannot express: each is called with the arguments its method was given.
    const impl = (backend === 'wasm' ? wasm[name] : table[name][backend as OpFileBackend]) as Routed<B>;
    Object.defineProperty(Routes.prototype, name, {
      value: function (this: BackendOf[B], ...args: unknown[]): void {
        impl(this, ...args);
      },
      writable: true,
      configurable: true,
    });
  }
  // Routes' prototype now holds every op of OpTable, which `satisfies OpTable` above makes every
  // op of BackendOps.
  return Routes as new () => BackendOps;
}
