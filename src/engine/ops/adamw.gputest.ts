/**
 * GPU tests for AdamW against the CPU reference: three steps (bias correction changes per step)
 * with weight decay, on awkward sizes, then a repeat that must give identical bits. The step guard:
 * flagNonFinite's count against the CPU's in every row mode (odd NaN payloads included), and AdamW
 * under a raised flag leaves everything untouched, under a zero flag gives the unguarded bits.
 */
import type { AdamWOptions, Backend, Tensor } from '../backend';
import { Rng } from '../rng';
import { compare, type CompareReport } from '../testing/compare';
import { AWKWARD, randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';
import { BITWISE, eachRowReduceMode } from '../testing/twice';

/** n normal values with non-finite ones planted at the ends and in the middle (NaNs of several payloads). */
function withSpecials(rng: Rng, n: number): Float32Array {
  const x = randn(rng, n);
  const bits = new Uint32Array(x.buffer);
  const specials = [0x7fc00000, 0xffffffff, 0x7f800001, 0x7f800000, 0xff800000]; // NaN, −NaN, signalling NaN, +∞, −∞
  [0, n - 1, n >> 1, 65, 4097].forEach((at, k) => {
    if (at < n) bits[at] = specials[k];
  });
  if (n > 3) x[1] = 3.4028234663852886e38; // the largest finite value: not counted
  if (n > 2) x[2] = -0;
  return x;
}

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
  {
    name: 'adamw step guard: flagNonFinite counts as the CPU does in every row mode; AdamW skips under a raised flag',
    run: (env) =>
      eachRowReduceMode(env, async (mode) => {
        const rng = new Rng('adamw-guard');
        const reports: CompareReport[] = [];
        for (const n of [0, 1, 2, 3, 70, 5000]) {
          const x = withSpecials(rng, n);
          reports.push(
            ...(await sameOnBoth(
              env,
              [`flagNonFinite n=${n} (${mode})`],
              (be) => {
                const flag = be.fromArray(Float32Array.from([2]), [1]); // accumulates onto what is there
                be.flagNonFinite(flag, be.fromArray(x, [n]));
                return [flag];
              },
              BITWISE,
            )),
          );
        }
        const n = 1000;
        const p = randn(rng, n);
        const g = randn(rng, n);
        const m = randn(rng, n, 0.1);
        const v = Float32Array.from(randn(rng, n, 0.1), Math.abs);
        const step = (be: Backend, flag: number | null): Tensor[] => {
          const t = [p, g, m, v].map((a) => be.fromArray(a, [n]));
          const skipIf = flag === null ? undefined : be.fromArray(Float32Array.from([flag]), [1]);
          be.adamw(t[0], t[1], t[2], t[3], { ...OPTS, step: 3, skipIf });
          return [t[0], t[2], t[3]];
        };
        const plain = await Promise.all(step(env.gpu, null).map((t) => env.gpu.read(t)));
        const zero = await Promise.all(step(env.gpu, 0).map((t) => env.gpu.read(t)));
        const raised = await Promise.all(step(env.gpu, 1).map((t) => env.gpu.read(t)));
        ['param', 'm', 'v'].forEach((k, i) => {
          reports.push(compare(`adamw flag 0 = unguarded: ${k}`, zero[i], plain[i], BITWISE));
          reports.push(compare(`adamw flag 1 leaves ${k} untouched`, raised[i], [p, m, v][i], BITWISE));
        });
        // The trainer's chain with no readback: a gradient holding a NaN gives a NaN norm, the flag
        // counts it, AdamW skips; the same chain on a finite gradient takes the step.
        const chain = (be: Backend, grad: Float32Array): Tensor[] => {
          const tp = be.fromArray(p, [n]);
          const tg = be.fromArray(grad, [n]);
          const norm = be.zeros([1]);
          const flag = be.zeros([1]);
          be.clipGradNorm(norm, tg, 1);
          be.flagNonFinite(flag, norm);
          be.adamw(tp, tg, be.fromArray(m, [n]), be.fromArray(v, [n]), { ...OPTS, step: 3, skipIf: flag });
          return [tp, flag];
        };
        for (const bad of [true, false]) {
          const grad = Float32Array.from(g);
          if (bad) grad[517] = NaN;
          reports.push(
            ...(await sameOnBoth(
              env,
              [`chain (${bad ? 'NaN' : 'finite'} gradient): param`, `chain (${bad ? 'NaN' : 'finite'} gradient): flag`],
              (be) => chain(be, grad),
            )),
          );
          const [tp, flag] = chain(env.gpu, grad);
          if ((await env.gpu.read(flag))[0] !== (bad ? 1 : 0))
            throw new Error(`chain: flag ${(await env.gpu.read(flag))[0]}, want ${bad ? 1 : 0}`);
          if (bad)
            reports.push(
              compare('chain (NaN gradient) leaves the param untouched', await env.gpu.read(tp), p, BITWISE),
            );
        }
        return reports;
      }),
  },
];
