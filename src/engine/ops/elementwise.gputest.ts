/** GPU tests for the elementwise kernels against their CPU references (see testing/gpu-test.ts). */
import { Rng } from '../rng';
import { AWKWARD, randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';

const SIZES = [...AWKWARD, 256, 1000, 70_001];

export const elementwiseGpuTests: GpuTest[] = [
  {
    name: 'elementwise: fill, copy, add, addInto, scale on awkward sizes',
    async run(env) {
      const rng = new Rng('elementwise');
      const reports = [];
      for (const n of SIZES) {
        const a = randn(rng, n);
        const b = randn(rng, n);
        reports.push(
          ...(await sameOnBoth(env, [`fill n=${n}`, `copy n=${n}`, `add n=${n}`, `addInto n=${n}`, `scale n=${n}`], (be) => {
            const filled = be.zeros([n]);
            be.fill(filled, 0.75);
            const ta = be.fromArray(a, [n]);
            const tb = be.fromArray(b, [n]);
            const copied = be.zeros([n]);
            be.copy(copied, ta);
            const sum = be.zeros([n]);
            be.add(sum, ta, tb);
            const acc = be.fromArray(a, [n]);
            be.addInto(acc, tb, -0.5);
            const scaled = be.fromArray(b, [n]);
            be.scale(scaled, 3.25);
            return [filled, copied, sum, acc, scaled];
          })),
        );
      }
      return reports;
    },
  },
];
