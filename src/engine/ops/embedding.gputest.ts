/**
 * GPU tests for the embedding gather and scatter-add backward against the CPU reference, with
 * repeated and out-of-range ids (negative and >= V) on awkward sizes; the backward sums in position
 * order like the reference, so it is held to exact equality, twice; both backward versions (csr,
 * the one the backend uses, and scan).
 */
import { Rng } from '../rng';
import { compare, type CompareReport } from '../testing/compare';
import { randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { embeddingBackwardOnGpu } from './embedding';

const SHAPES: { N: number; V: number; C: number }[] = [
  { N: 1, V: 1, C: 1 },
  { N: 7, V: 3, C: 5 },
  { N: 31, V: 13, C: 7 },
  { N: 65, V: 63, C: 17 },
  { N: 130, V: 11, C: 33 },
  { N: 40, V: 600, C: 3 }, // V > 256: several counts per scan thread
];

/** Ids mostly in range with many repeats, some -1 and some >= V. */
function makeIds(rng: Rng, N: number, V: number): Int32Array {
  return Int32Array.from({ length: N }, () => (rng.next() < 0.1 ? rng.pick([-1, -7, V, V + 3]) : rng.int(0, V - 1)));
}

export const embeddingGpuTests: GpuTest[] = [
  {
    name: 'embedding: gather and scatter-add backward, repeated and out-of-range ids',
    async run(env) {
      const rng = new Rng('embedding');
      const reports: CompareReport[] = [];
      for (const { N, V, C } of SHAPES) {
        const ids = makeIds(rng, N, V);
        const table = randn(rng, V * C);
        const dOut = randn(rng, N * C);
        const dTable0 = randn(rng, V * C);
        const label = `N=${N} V=${V} C=${C}`;
        for (const pass of [1, 2]) {
          reports.push(
            ...(await sameOnBoth(
              env,
              [`embedding ${label}`, `embeddingBackward ${label} (run ${pass})`],
              (be) => {
                const tIds = be.fromArray(ids, [N]);
                const out = be.fromArray(randn(new Rng(1), N * C), [N, C]); // overwritten
                be.embedding(out, be.fromArray(table, [V, C]), tIds);
                const dTable = be.fromArray(dTable0, [V, C]);
                be.embeddingBackward(dTable, be.fromArray(dOut, [N, C]), tIds);
                return [out, dTable];
              },
              { abs: 0, rel: 0 },
            )),
          );
        }
        // Version 1 (scan) against the CPU reference too.
        const want = env.cpu.fromArray(dTable0, [V, C]);
        env.cpu.embeddingBackward(want, env.cpu.fromArray(dOut, [N, C]), env.cpu.fromArray(ids, [N]));
        const got = env.gpu.fromArray(dTable0, [V, C]);
        embeddingBackwardOnGpu(env.gpu, got, env.gpu.fromArray(dOut, [N, C]), env.gpu.fromArray(ids, [N]), 'scan');
        reports.push(
          compare(`embeddingBackward scan ${label}`, await env.gpu.read(got), await env.cpu.read(want), {
            abs: 0,
            rel: 0,
          }),
        );
      }
      return reports;
    },
  },
];
