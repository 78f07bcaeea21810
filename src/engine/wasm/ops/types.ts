/** The wasm op tables' types: an entry is the op method's parameters after the backend. */
import type { BackendOps, OpName } from '../../backend';
import type { WasmBackend } from '../backend';

/** One op's wasm implementation. */
type WasmImpl<K extends OpName> = (be: WasmBackend, ...args: Parameters<BackendOps[K]>) => void;

/** What a wasm op file exports: the entries of the ops it implements. */
export type WasmEntries = { [K in OpName]?: WasmImpl<K> };

/** A complete table. */
export type WasmTable = { [K in OpName]: WasmImpl<K> };
