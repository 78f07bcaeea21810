/**
 * GPU tests for gelu: forward and backward (dx accumulated onto a non-zero gradient) against the
 * CPU reference on awkward sizes, with large |x| mixed in (the WGSL tanh argument is clamped),
 * plus a bit-identical repeat.
 */
import type { Backend, Tensor } from '../backend';
import { Rng } from '../rng';
import { AWKWARD, randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { sameTwiceOnGpu } from '../testing/twice';

const SIZES = [...AWKWARD, 256, 1000, 4099];
const LARGE = [0, 20, -20, 1e4, -1e4, 3.5, -3.5];

function build(n: number, seed: string): (be: Backend) => Tensor[] {
  const rng = new Rng(seed);
  const x = randn(rng, n, 3);
  for (let i = 0; i < Math.min(n, LARGE.length); i++) x[(i * 7) % n] = LARGE[i];
  const dOut = randn(rng, n);
  const dx0 = randn(rng, n);
  return (be) => {
    const tx = be.fromArray(x, [n]);
    const out = be.zeros([n]);
    be.gelu(out, tx);
    const dx = be.fromArray(dx0, [n]);
    be.geluBackward(dx, tx, be.fromArray(dOut, [n]));
    return [out, dx];
  };
}

export const geluGpuTests: GpuTest[] = [
  {
    name: 'gelu: forward and backward vs cpu, awkward sizes and large |x|',
    async run(env) {
      const reports = [];
      for (const n of SIZES)
        reports.push(...(await sameOnBoth(env, [`gelu n=${n}`, `geluBackward n=${n}`], build(n, `gelu ${n}`))));
      return reports;
    },
  },
  {
    name: 'gelu: bit-identical when run twice',
    run: (env) => sameTwiceOnGpu(env, ['gelu', 'geluBackward'], build(1000, 'gelu twice')),
  },
];
