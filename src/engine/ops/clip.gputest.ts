/**
 * GPU tests for global gradient-norm clipping against the CPU reference: the norm on the device
 * and the clipped gradient, for sizes around the pass-1 chunk (2048) and the workgroup size,
 * clipping and non-clipping limits, and a bit-identical repeat, in every row-reduction mode.
 */
import { Rng } from '../rng';
import { compare, type CompareReport } from '../testing/compare';
import { AWKWARD, randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { eachRowReduceMode } from '../testing/twice';

// 300,001: 147 chunks, three workgroups of rows in `thread` mode. 0 last: an empty gradient has
// norm 0 even when the pooled partials buffer still holds an earlier sum.
const SIZES = [...AWKWARD, 256, 2047, 2048, 2049, 70_001, 300_001, 0];

export const clipGpuTests: GpuTest[] = [
  {
    name: 'clip: grad-norm on the device and in-place scaling, awkward sizes, bit-identical repeat',
    run: (env) =>
      eachRowReduceMode(env, async () => {
        const rng = new Rng('clip');
        const reports: CompareReport[] = [];
        for (const n of SIZES) {
          const g = randn(rng, n);
          // A limit below the norm (clips) and one far above it (no change).
          for (const maxNorm of [0.5, 1e6]) {
            reports.push(
              ...(await sameOnBoth(
                env,
                [`clip n=${n} max=${maxNorm} norm`, `clip n=${n} max=${maxNorm} grad`],
                (be) => {
                  const norm = be.zeros([1]);
                  const grad = be.fromArray(g, [n]);
                  be.clipGradNorm(norm, grad, maxNorm);
                  return [norm, grad];
                },
              )),
            );
          }
        }
        const g = randn(rng, 70_001);
        const once = async (): Promise<Float32Array> => {
          const norm = env.gpu.zeros([1]);
          env.gpu.clipGradNorm(norm, env.gpu.fromArray(g, [g.length]), 1);
          return env.gpu.read(norm);
        };
        const first = await once();
        reports.push(compare('clip norm repeat', await once(), first, { abs: 0, rel: 0 }));
        return reports;
      }),
  },
];
