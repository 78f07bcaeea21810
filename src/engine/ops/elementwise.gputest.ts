/** GPU tests for the elementwise kernels against their CPU references (see testing/gpu-test.ts). */
import { Rng } from '../rng';
import { compare } from '../testing/compare';
import { AWKWARD, randn, sameOnBoth, type GpuTest } from '../testing/gpu-test';

const SIZES = [...AWKWARD, 256, 1000, 70_001];

/**
 * The profiles' GPU timer (WebGpuBackend.gpuPassTime): every adapter CI has offers
 * `timestamp-query` (SwiftShader, lavapipe), so it must time: nothing is 0 ms, work is a positive,
 * finite time that grows with the work, work split over passes (a clear ends the pass) is still
 * timed, and the timed work computes what it computes untimed.
 */
const gpuPassTimeTest: GpuTest = {
  name: 'gpuPassTime: times the compute passes of the work it records, and leaves the results alone',
  async run(env) {
    const gpu = env.gpu;
    if (!gpu.device.features.has('timestamp-query'))
      throw new Error('this adapter has no timestamp-query: the profiles cannot time kernels on it');
    const n = 1 << 16;
    const rng = new Rng('gpu-pass-time');
    const x = gpu.fromArray(randn(rng, n), [n]);
    const untimed = gpu.fromArray(randn(rng, n), [n]);
    const timed = gpu.zeros([n]);
    gpu.copy(timed, untimed);
    for (let i = 0; i < 4; i++) gpu.addInto(untimed, x, 0.5);
    const none = await gpu.gpuPassTime(() => {});
    const few = await gpu.gpuPassTime(() => gpu.addInto(timed, x, 0.5));
    const many = await gpu.gpuPassTime(() => {
      gpu.addInto(timed, x, 0.5);
      gpu.release(gpu.zeros([n])); // a buffer clear between two passes
      for (let i = 0; i < 2; i++) gpu.addInto(timed, x, 0.5);
      for (let i = 0; i < 60; i++) gpu.scale(gpu.zeros([n]), 1); // more work to time, on scratch
    });
    if (none !== 0) throw new Error(`gpuPassTime of nothing: ${none} ms, not 0`);
    if (!(few !== null && few > 0 && Number.isFinite(few))) throw new Error(`gpuPassTime of one dispatch: ${few}`);
    if (!(many !== null && many > few))
      throw new Error(`gpuPassTime of 63 dispatches (${many} ms) is not above one's (${few} ms)`);
    return [compare('timed work = untimed work', await gpu.read(timed), await gpu.read(untimed), { abs: 0, rel: 0 })];
  },
};

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
          ...(await sameOnBoth(
            env,
            [`fill n=${n}`, `copy n=${n}`, `add n=${n}`, `addInto n=${n}`, `scale n=${n}`],
            (be) => {
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
            },
          )),
        );
      }
      return reports;
    },
  },
  {
    name: 'elementwise: fillAt sets the listed positions (repeats, out-of-range entries skipped), awkward sizes',
    async run(env) {
      const rng = new Rng('fill-at');
      const reports = [];
      for (const n of SIZES) {
        const x = randn(rng, n);
        const index = Int32Array.from(
          { length: Math.min(2 * n + 3, 5000) },
          () => Math.floor(rng.next() * (n + 4)) - 2,
        );
        reports.push(
          ...(await sameOnBoth(env, [`fillAt n=${n}`], (be) => {
            const t = be.fromArray(x, [n]);
            be.fillAt(t, be.fromArray(index, [index.length]), -1e9);
            return [t];
          })),
        );
      }
      return reports;
    },
  },
  gpuPassTimeTest,
];
