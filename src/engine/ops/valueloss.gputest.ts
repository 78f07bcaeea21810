/**
 * GPU tests for the clipped value loss against the CPU reference (stats and dValues accumulated
 * onto a non-zero gradient; clipped and unclipped; sizes off the workgroup), plus a bit-identical
 * rerun. Shapes stay tiny: CI runs SwiftShader.
 */
import type { Backend, Tensor } from '../backend';
import { Rng } from '../rng';
import { randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { sameTwiceOnGpu } from '../testing/twice';
import { VALUE_STATS } from './valueloss';

function buildValue(N: number, seed: string, clip: number | null): (be: Backend) => Tensor[] {
  const rng = new Rng(seed);
  const values = randn(rng, N);
  const oldValues = Float32Array.from(values, (v) => v + 0.8 * rng.normal());
  const returns = randn(rng, N);
  const mask = Float32Array.from({ length: N }, () => (rng.next() < 0.7 ? 1 : 0));
  const d0 = randn(rng, N);
  return (be) => {
    const stats = be.zeros([N, VALUE_STATS]);
    const dValues = be.fromArray(d0, [N]);
    const t = (x: Float32Array): Tensor => be.fromArray(x, [N]);
    be.valueLoss(stats, dValues, t(values), t(oldValues), t(returns), t(mask), { clip, lossScale: 0.3 });
    return [stats, dValues];
  };
}

export const valuelossGpuTests: GpuTest[] = [
  {
    name: 'valueLoss: clipped value loss and dValues vs cpu, awkward sizes, bit-identical rerun',
    async run(env) {
      const reports = [];
      for (const N of [1, 7, 65, 257]) {
        for (const clip of [0.5, null]) {
          const l = [`valueLoss stats N=${N} clip=${clip}`, `valueLoss dValues N=${N} clip=${clip}`];
          reports.push(...(await sameOnBoth(env, l, buildValue(N, `vl ${N} ${clip}`, clip))));
        }
      }
      reports.push(
        ...(await sameTwiceOnGpu(env, ['valueLoss stats', 'valueLoss dValues'], buildValue(65, 'vl twice', 0.5))),
      );
      return reports;
    },
  },
];
