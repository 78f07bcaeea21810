/**
 * GPU tests for AdamW against the CPU reference: three steps (bias correction changes per step)
 * with weight decay, on awkward sizes, then a repeat that must give identical bits.
 */
import type { AdamWOptions, Backend, Tensor } from '../backend';
import { Rng } from '../rng';
import { compare, type CompareReport } from '../testing/compare';
import { AWKWARD, randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';

const OPTS: Omit<AdamWOptions, 'step'> = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1 };

export const adamwGpuTests: GpuTest[] = [
  {
    name: 'adamw: three steps with weight decay on awkward sizes, bit-identical repeat',
    async run(env) {
      const rng = new Rng('adamw');
      const reports: CompareReport[] = [];
      for (const n of [...AWKWARD, 256, 5000]) {
        const p = randn(rng, n);
        const grads = [randn(rng, n), randn(rng, n, 0.01), randn(rng, n, 3)];
        const steps = (be: Backend): Tensor[] => {
          const tp = be.fromArray(p, [n]);
          const m = be.zeros([n]);
          const v = be.zeros([n]);
          grads.forEach((g, i) => be.adamw(tp, be.fromArray(g, [n]), m, v, { ...OPTS, step: i + 1 }));
          return [tp, m, v];
        };
        reports.push(...(await sameOnBoth(env, [`adamw n=${n} param`, `adamw n=${n} m`, `adamw n=${n} v`], steps)));
        if (n === 5000) {
          const [a, b] = [steps(env.gpu)[0], steps(env.gpu)[0]];
          reports.push(compare('adamw repeat', await env.gpu.read(b), await env.gpu.read(a), { abs: 0, rel: 0 }));
        }
      }
      return reports;
    },
  },
];
