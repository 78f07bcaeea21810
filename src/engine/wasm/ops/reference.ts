/**
 * The wasm op tables' shared types, and `reference(op)`: an entry that runs the op's CPU reference
 * in place on the wasm memory (../host.ts), for ops whose time does not matter (ops/index.ts says
 * which).
 */
import type { BackendOps, OpName } from '../../backend';
import type { WasmBackend } from '../backend';

/** One op's wasm implementation: the op method's parameters after the backend. */
export type WasmImpl<K extends OpName> = (be: WasmBackend, ...args: Parameters<BackendOps[K]>) => void;

/** What a wasm op file exports: the entries of the ops it implements. */
export type WasmEntries = { [K in OpName]?: WasmImpl<K> };

/** A complete table. */
export type WasmTable = { [K in OpName]: WasmImpl<K> };

/** The entry that runs op `name`'s CPU reference on the wasm memory. */
export function reference<K extends OpName>(name: K): WasmImpl<K> {
  const impl: WasmImpl<K> = (be, ...args) =>
    (be.host[name] as (...a: Parameters<BackendOps[K]>) => void).apply(be.host, args);
  REFERENCES.add(impl as unknown as object);
  return impl;
}

const REFERENCES = new WeakSet<object>();

/** Whether an entry is `reference(op)`. */
export function isReference(impl: object): boolean {
  return REFERENCES.has(impl);
}
