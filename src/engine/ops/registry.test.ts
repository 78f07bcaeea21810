/** The op registry is complete: every op of the contract has an implementation per backend, and every backend routes it. */
import { describe, expect, it } from 'vitest';
import { OP_NAMES, type BackendName } from '../backend';
import { CpuBackend } from '../cpu/backend';
import { WebGpuBackend } from '../gpu/backend';
import { WasmBackend } from '../wasm/backend';
import { WASM_OPS } from '../wasm/ops';
import { OPS } from './registry';

const BACKENDS: readonly BackendName[] = ['cpu', 'webgpu'];

describe('op registry', () => {
  it('the contract names the 33 ops of BackendOps', () => {
    expect(OP_NAMES.length).toBe(33);
    expect(new Set(OP_NAMES).size).toBe(OP_NAMES.length);
  });

  for (const backend of BACKENDS) {
    it(`every op of the contract has a ${backend} implementation`, () => {
      const table: Partial<Record<string, Partial<Record<BackendName, unknown>>>> = OPS;
      const missing = OP_NAMES.filter((name) => typeof table[name]?.[backend] !== 'function');
      expect(missing).toEqual([]);
    });
  }

  it('every op of the contract has a wasm implementation', () => {
    const table: Partial<Record<string, unknown>> = WASM_OPS;
    expect(OP_NAMES.filter((name) => typeof table[name] !== 'function')).toEqual([]);
  });

  it('registers no op outside the contract', () => {
    const contract = new Set<string>(OP_NAMES);
    expect(Object.keys(OPS).filter((name) => !contract.has(name))).toEqual([]);
    expect(Object.keys(WASM_OPS).filter((name) => !contract.has(name))).toEqual([]);
  });

  for (const [backend, proto] of [
    ['cpu', CpuBackend.prototype],
    ['webgpu', WebGpuBackend.prototype],
    ['wasm', WasmBackend.prototype],
  ] as const) {
    it(`the ${backend} backend has a method for every op`, () => {
      const methods: object = proto;
      const missing = OP_NAMES.filter((name) => typeof Reflect.get(methods, name) !== 'function');
      expect(missing).toEqual([]);
    });
  }

  it('a routed method runs its implementation on the backend it is called on', async () => {
    const be = new CpuBackend();
    const out = be.zeros([3]);
    be.add(out, be.fromArray(new Float32Array([1, 2, 3]), [3]), be.fromArray(new Float32Array([10, 20, 30]), [3]));
    be.addInto(out, be.fromArray(new Float32Array([1, 1, 1]), [3])); // alpha defaults to 1
    expect(Array.from(await be.read(out))).toEqual([12, 23, 34]);
  });
});
