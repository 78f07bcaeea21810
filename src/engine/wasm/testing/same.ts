/**
 * Holding a wasm op to its CPU reference: `sameOnWasm` runs a computation on the cpu backend and on
 * a wasm backend from the same host inputs and compares every output with the tolerance rule of
 * ../../testing/compare.ts; `sameBits` runs it on two wasm backends (1 thread and several) and asks
 * for identical bits. Tests get their backends from `wasmBackends()`, made once per test file.
 */
import type { Backend, Tensor } from '../../backend';
import { CpuBackend } from '../../cpu/backend';
import { compare, F32_TOL, type CompareReport, type Tolerance } from '../../testing/compare';
import { WasmBackend } from '../backend';

/** One wasm backend on 1 thread and one on 4 (the split does not need 4 cores to be exercised). */
export interface WasmBackends {
  one: WasmBackend;
  many: WasmBackend;
}

let made: Promise<WasmBackends> | null = null;

export function wasmBackends(): Promise<WasmBackends> {
  made ??= Promise.all([WasmBackend.create({ threads: 1 }), WasmBackend.create({ threads: 4 })]).then(
    ([one, many]) => ({ one, many }),
  );
  return made;
}

async function readAll(be: Backend, ts: Tensor[]): Promise<(Float32Array | Int32Array)[]> {
  return Promise.all(ts.map((t) => (t.dtype === 'i32' ? be.readInt(t) : be.read(t))));
}

/** `build` on the cpu backend and on `wasm`, each output compared under its label. */
export async function sameOnWasm(
  wasm: Backend,
  labels: readonly string[],
  build: (be: Backend) => Tensor[],
  tol: Tolerance = F32_TOL,
): Promise<CompareReport[]> {
  const cpu = new CpuBackend();
  const want = await readAll(cpu, build(cpu));
  const gotT = build(wasm);
  const got = await readAll(wasm, gotT);
  if (want.length !== labels.length || got.length !== labels.length)
    throw new Error(`sameOnWasm: ${labels.length} labels for ${want.length}/${got.length} outputs`);
  for (const t of gotT) wasm.release(t);
  return labels.map((l, i) => compare(l, got[i], want[i], tol));
}

/** `build` on two backends; the outputs' bits must be identical. Returns the first difference, or null. */
export async function sameBits(a: Backend, b: Backend, build: (be: Backend) => Tensor[]): Promise<string | null> {
  const [x, y] = [await readAll(a, build(a)), await readAll(b, build(b))];
  for (let o = 0; o < x.length; o++) {
    const [u, v] = [new Int32Array(x[o].buffer), new Int32Array(y[o].buffer)];
    if (u.length !== v.length) return `output ${o}: ${u.length} vs ${v.length} values`;
    for (let i = 0; i < u.length; i++)
      if (u[i] !== v[i])
        return `output ${o} [${i}]: ${new Float32Array(x[o].buffer)[i]} vs ${new Float32Array(y[o].buffer)[i]}`;
  }
  return null;
}
