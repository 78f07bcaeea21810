/**
 * The wasm backend's row kernels (asm/rows.ts) against the CPU reference: bias, embedding,
 * LayerNorm, GELU, softmax, log-softmax and cross-entropy, forward and backward, on awkward shapes
 * (rows 1, 3, 130; widths 1 to 1031, around the SIMD width and its blocks of 8), large logits,
 * backward ops accumulating onto non-zero gradients, repeated and out-of-range ids and targets;
 * the column sums (bias, LayerNorm's parameters, the embedding scatter) bit for bit; and the same
 * bits on 1 and 4 threads at shapes that split.
 */
import { describe, expect, it } from 'vitest';
import type { Backend, Tensor } from '../backend';
import { Rng } from '../rng';
import { F32_TOL, type Tolerance } from '../testing/compare';
import { BITWISE } from '../testing/twice';
import { sameBits, sameOnWasm, wasmBackends } from './testing/same';

const ROWS = [1, 3, 130];
const WIDTHS = [1, 3, 4, 5, 7, 63, 65, 127, 300, 1031];
const SHAPES: [number, number][] = ROWS.flatMap((n) => WIDTHS.map((w): [number, number] => [n, w]));

function randn(rng: Rng, n: number, scale = 1, offset = 0): Float32Array {
  return Float32Array.from({ length: n }, () => offset + scale * rng.normal());
}

/** Every shape's reports; the test fails with the summaries of those that fail. */
async function expectSameAll(
  be: Backend,
  cases: [string[], (be: Backend) => Tensor[]][],
  tol: Tolerance = F32_TOL,
): Promise<void> {
  const bad: string[] = [];
  for (const [labels, build] of cases)
    for (const r of await sameOnWasm(be, labels, build, tol)) if (!r.ok) bad.push(r.summary);
  expect(bad).toEqual([]);
}

/** Row-wise mean and rstd of x (N, C), in f64 as the reference, then rounded. */
function meanRstd(x: Float32Array, N: number, C: number): [Float32Array, Float32Array] {
  const mean = new Float32Array(N);
  const rstd = new Float32Array(N);
  for (let n = 0; n < N; n++) {
    let m = 0;
    for (let c = 0; c < C; c++) m += x[n * C + c];
    m /= C;
    let v = 0;
    for (let c = 0; c < C; c++) v += (x[n * C + c] - m) ** 2;
    mean[n] = m;
    rstd[n] = 1 / Math.sqrt(v / C + 1e-5);
  }
  return [mean, rstd];
}

/** softmax (or log-softmax) rows of x, on the host. */
function softmaxHost(x: Float32Array, N: number, V: number, logs: boolean): Float32Array {
  const y = new Float32Array(x.length);
  for (let n = 0; n < N; n++) {
    let m = -Infinity;
    for (let v = 0; v < V; v++) m = Math.max(m, x[n * V + v]);
    let s = 0;
    for (let v = 0; v < V; v++) s += Math.exp(x[n * V + v] - m);
    for (let v = 0; v < V; v++) y[n * V + v] = logs ? x[n * V + v] - m - Math.log(s) : Math.exp(x[n * V + v] - m) / s;
  }
  return y;
}

/** Targets in [0, V), with an ignored row (−1 and V) every few rows. */
function targetsFor(rng: Rng, N: number, V: number): Int32Array {
  return Int32Array.from({ length: N }, (_, n) => (n % 7 === 5 ? -1 : n % 11 === 9 ? V : rng.int(0, V - 1)));
}

describe('wasm row kernels', () => {
  it('addBias (and in place) matches the reference bit for bit', async () => {
    const { many } = await wasmBackends();
    await expectSameAll(
      many,
      SHAPES.map(([N, C]) => {
        const rng = new Rng(`bias ${N} ${C}`);
        const [x, b] = [randn(rng, N * C), randn(rng, C)];
        return [
          [`addBias ${N}x${C}`, `addBias in place ${N}x${C}`],
          (be) => {
            const out = be.zeros([N, C]);
            const bias = be.fromArray(b, [C]);
            be.addBias(out, be.fromArray(x, [N, C]), bias);
            const inPlace = be.fromArray(x, [N, C]);
            be.addBias(inPlace, inPlace, bias);
            return [out, inPlace];
          },
        ];
      }),
      BITWISE,
    );
  });

  it('biasBackward accumulates onto a gradient with the reference bits', async () => {
    const { many } = await wasmBackends();
    await expectSameAll(
      many,
      [...SHAPES, [2000, 67] as [number, number]].map(([N, C]) => {
        const rng = new Rng(`bias bwd ${N} ${C}`);
        const [g, d0] = [randn(rng, N * C), randn(rng, C)];
        return [
          [`biasBackward ${N}x${C}`],
          (be) => {
            const d = be.fromArray(d0, [C]);
            be.biasBackward(d, be.fromArray(g, [N, C]));
            return [d];
          },
        ];
      }),
      BITWISE,
    );
  });

  it('embedding gathers rows (zero rows for ids outside [0, V))', async () => {
    const { many } = await wasmBackends();
    await expectSameAll(
      many,
      SHAPES.map(([N, C]) => {
        const V = 11;
        const rng = new Rng(`emb ${N} ${C}`);
        const table = randn(rng, V * C);
        const ids = Int32Array.from({ length: N }, (_, n) =>
          n % 5 === 4 ? [-1, V, 1 << 30][n % 3] : rng.int(0, V - 1),
        );
        return [
          [`embedding ${N}x${C}`],
          (be) => {
            const out = be.scratch([N, C]);
            be.fill(out, 7);
            be.embedding(out, be.fromArray(table, [V, C]), be.fromArray(ids, [N]));
            return [out];
          },
        ];
      }),
      BITWISE,
    );
  });

  it('embeddingBackward scatter-adds repeated ids in position order, with the reference bits', async () => {
    const { many } = await wasmBackends();
    await expectSameAll(
      many,
      [...SHAPES, [600, 257] as [number, number]].map(([N, C]) => {
        const V = 5; // few ids: every one repeats
        const rng = new Rng(`emb bwd ${N} ${C}`);
        const [g, t0] = [randn(rng, N * C), randn(rng, V * C)];
        const ids = Int32Array.from({ length: N }, (_, n) =>
          n % 9 === 8 ? -1 : n % 13 === 12 ? V : rng.int(0, V - 1),
        );
        return [
          [`embeddingBackward ${N}x${C}`],
          (be) => {
            const d = be.fromArray(t0, [V, C]);
            be.embeddingBackward(d, be.fromArray(g, [N, C]), be.fromArray(ids, [N]));
            return [d];
          },
        ];
      }),
      BITWISE,
    );
  });

  it('layerNorm matches the reference', async () => {
    const { many } = await wasmBackends();
    await expectSameAll(
      many,
      SHAPES.map(([N, C]) => {
        const rng = new Rng(`ln ${N} ${C}`);
        const [x, w, b] = [randn(rng, N * C, 2, 3), randn(rng, C, 1, 1), randn(rng, C)];
        const l = `${N}x${C}`;
        return [
          [`layerNorm out ${l}`, `mean ${l}`, `rstd ${l}`],
          (be) => {
            const [out, mean, rstd] = [be.zeros([N, C]), be.zeros([N]), be.zeros([N])];
            be.layerNorm(out, mean, rstd, be.fromArray(x, [N, C]), be.fromArray(w, [C]), be.fromArray(b, [C]));
            return [out, mean, rstd];
          },
        ];
      }),
    );
  });

  it('layerNormBackward accumulates dx, dWeight and dBias (dBias with the reference bits)', async () => {
    const { many } = await wasmBackends();
    const cases = SHAPES.map(([N, C]) => {
      const rng = new Rng(`ln bwd ${N} ${C}`);
      const x = randn(rng, N * C, 2, 3);
      const [mean, rstd] = meanRstd(x, N, C);
      const [w, g] = [randn(rng, C, 1, 1), randn(rng, N * C)];
      const [dx0, dw0, db0] = [randn(rng, N * C), randn(rng, C), randn(rng, C)];
      const l = `${N}x${C}`;
      const build = (be: Backend): Tensor[] => {
        const [dx, dw, db] = [be.fromArray(dx0, [N, C]), be.fromArray(dw0, [C]), be.fromArray(db0, [C])];
        const ins = [
          be.fromArray(g, [N, C]),
          be.fromArray(x, [N, C]),
          be.fromArray(mean, [N]),
          be.fromArray(rstd, [N]),
        ];
        be.layerNormBackward(dx, dw, db, ins[0], ins[1], ins[2], ins[3], be.fromArray(w, [C]));
        return [dx, dw, db];
      };
      return { l, build };
    });
    await expectSameAll(
      many,
      cases.map(({ l, build }): [string[], (be: Backend) => Tensor[]] => [
        [`dx ${l}`, `dWeight ${l}`, `dBias ${l}`],
        build,
      ]),
    );
    await expectSameAll(
      many,
      cases.map(({ l, build }): [string[], (be: Backend) => Tensor[]] => [[`dBias ${l}`], (be) => build(be).slice(2)]),
      BITWISE,
    );
  });

  it('gelu and geluBackward (onto a non-zero dx) match the reference, large |x| included', async () => {
    const { many } = await wasmBackends();
    await expectSameAll(
      many,
      [...WIDTHS, 4099].map((n) => {
        const rng = new Rng(`gelu ${n}`);
        const x = randn(rng, n, 3);
        for (let i = 0; i < n; i += 17) x[i] = [-1e4, 1e4, -30, 30, 0, -0, 1e-20, -8, 8][(i / 17) % 9];
        const [g, d0] = [randn(rng, n), randn(rng, n)];
        return [
          [`gelu ${n}`, `geluBackward ${n}`],
          (be) => {
            const out = be.zeros([n]);
            be.gelu(out, be.fromArray(x, [n]));
            const dx = be.fromArray(d0, [n]);
            be.geluBackward(dx, be.fromArray(x, [n]), be.fromArray(g, [n]));
            return [out, dx];
          },
        ];
      }),
    );
  });

  for (const logs of [false, true]) {
    const op = logs ? 'logSoftmax' : 'softmax';
    it(`${op} and its backward (onto a non-zero dx) match the reference, ±1e4 logits included`, async () => {
      const { many } = await wasmBackends();
      await expectSameAll(
        many,
        SHAPES.flatMap(([N, V]) =>
          [1, 1e4].map((scale): [string[], (be: Backend) => Tensor[]] => {
            const rng = new Rng(`${op} ${N} ${V} ${scale}`);
            const x = randn(rng, N * V, scale);
            const y = softmaxHost(x, N, V, logs);
            const [dy, d0] = [randn(rng, N * V), randn(rng, N * V)];
            return [
              [`${op} ${N}x${V} scale ${scale}`, `${op}Backward ${N}x${V} scale ${scale}`],
              (be) => {
                const out = be.zeros([N, V]);
                const dx = be.fromArray(d0, [N, V]);
                const [yt, dyt] = [be.fromArray(y, [N, V]), be.fromArray(dy, [N, V])];
                if (logs) {
                  be.logSoftmax(out, be.fromArray(x, [N, V]));
                  be.logSoftmaxBackward(dx, yt, dyt);
                } else {
                  be.softmax(out, be.fromArray(x, [N, V]));
                  be.softmaxBackward(dx, yt, dyt);
                }
                return [out, dx];
              },
            ];
          }),
        ),
      );
    });
  }

  it('crossEntropy and its backward (onto non-zero dLogits) match the reference, ignored rows and ±1e4 logits included', async () => {
    const { many } = await wasmBackends();
    await expectSameAll(
      many,
      [...SHAPES, [64, 1024] as [number, number]].flatMap(([N, V]) =>
        [1, 1e4].map((scale): [string[], (be: Backend) => Tensor[]] => {
          const rng = new Rng(`ce ${N} ${V} ${scale}`);
          const x = randn(rng, N * V, scale);
          const t = targetsFor(rng, N, V);
          const [dl, d0] = [randn(rng, N), randn(rng, N * V)];
          return [
            [`crossEntropy ${N}x${V} scale ${scale}`, `crossEntropyBackward ${N}x${V} scale ${scale}`],
            (be) => {
              const losses = be.scratch([N]);
              be.fill(losses, 9); // ignored rows must be overwritten with 0
              const [logits, targets] = [be.fromArray(x, [N, V]), be.fromArray(t, [N])];
              be.crossEntropy(losses, logits, targets);
              const d = be.fromArray(d0, [N, V]);
              be.crossEntropyBackward(d, logits, targets, be.fromArray(dl, [N]));
              return [losses, d];
            },
          ];
        }),
      ),
    );
  });

  it('checks shapes as the reference does', async () => {
    const { many: be } = await wasmBackends();
    expect(() => be.addBias(be.zeros([2, 3]), be.zeros([2, 3]), be.zeros([4]))).toThrow(/last dim/);
    expect(() => be.embedding(be.zeros([2, 3]), be.zeros([4, 3]), be.zeros([2]))).toThrow(/ids must be i32/);
    expect(() => be.softmax(be.zeros([2, 3]), be.zeros([2, 4]))).toThrow(/softmax output/);
    expect(() => be.crossEntropy(be.zeros([2]), be.zeros([2, 4]), be.zeros([3], 'i32'))).toThrow(/targets/);
    expect(() =>
      be.layerNorm(be.zeros([2, 3]), be.zeros([2]), be.zeros([1]), be.zeros([2, 3]), be.zeros([3]), be.zeros([3])),
    ).toThrow(/one per row/);
  });
});

describe('wasm row kernels on 1 and 4 threads', () => {
  /** Each shape splits into 4 parts on the 4-thread backend (work ≥ 4 · 2^15). */
  it('give the same bits', async () => {
    const { one, many } = await wasmBackends();
    const rng = new Rng('rows split');
    const bad: string[] = [];
    const check = async (what: string, build: (be: Backend) => Tensor[]) => {
      const d = await sameBits(one, many, build);
      if (d) bad.push(`${what}: ${d}`);
    };
    {
      const [N, C] = [2001, 67];
      const [x, b, d0] = [randn(rng, N * C), randn(rng, C), randn(rng, C)];
      await check('bias', (be) => {
        const out = be.zeros([N, C]);
        be.addBias(out, be.fromArray(x, [N, C]), be.fromArray(b, [C]));
        const d = be.fromArray(d0, [C]);
        be.biasBackward(d, be.fromArray(x, [N, C]));
        return [out, d];
      });
    }
    {
      // narrower than the parts: 3 columns are one group, so parts 1 to 3 of the column sums get none
      const [N, C] = [50001, 3];
      const [x, w, g] = [randn(rng, N * C, 2, 1), randn(rng, C), randn(rng, N * C)];
      await check('narrow column sums', (be) => {
        const [out, mean, rstd] = [be.zeros([N, C]), be.zeros([N]), be.zeros([N])];
        const [xt, wt] = [be.fromArray(x, [N, C]), be.fromArray(w, [C])];
        be.layerNorm(out, mean, rstd, xt, wt, be.fromArray(w, [C]));
        const [dx, dw, db] = [be.fromArray(g, [N, C]), be.fromArray(w, [C]), be.fromArray(w, [C])];
        be.layerNormBackward(dx, dw, db, be.fromArray(g, [N, C]), xt, mean, rstd, wt);
        const dBias = be.fromArray(w, [C]);
        be.biasBackward(dBias, be.fromArray(g, [N, C]));
        return [out, dx, dw, db, dBias];
      });
    }
    {
      const [N, V, C] = [601, 7, 257];
      const [table, g] = [randn(rng, V * C), randn(rng, N * C)];
      const ids = Int32Array.from({ length: N }, () => rng.int(-1, V));
      await check('embedding', (be) => {
        const out = be.zeros([N, C]);
        be.embedding(out, be.fromArray(table, [V, C]), be.fromArray(ids, [N]));
        const d = be.fromArray(table, [V, C]);
        be.embeddingBackward(d, be.fromArray(g, [N, C]), be.fromArray(ids, [N]));
        return [out, d];
      });
    }
    {
      const [N, C] = [601, 131];
      const [x, w, b, g] = [randn(rng, N * C, 2, 1), randn(rng, C), randn(rng, C), randn(rng, N * C)];
      await check('layerNorm', (be) => {
        const [out, mean, rstd] = [be.zeros([N, C]), be.zeros([N]), be.zeros([N])];
        const [xt, wt] = [be.fromArray(x, [N, C]), be.fromArray(w, [C])];
        be.layerNorm(out, mean, rstd, xt, wt, be.fromArray(b, [C]));
        const [dx, dw, db] = [be.fromArray(g, [N, C]), be.fromArray(w, [C]), be.fromArray(b, [C])];
        be.layerNormBackward(dx, dw, db, be.fromArray(g, [N, C]), xt, mean, rstd, wt);
        return [out, mean, rstd, dx, dw, db];
      });
    }
    {
      const n = 20011;
      const [x, g] = [randn(rng, n, 3), randn(rng, n)];
      await check('gelu', (be) => {
        const out = be.zeros([n]);
        be.gelu(out, be.fromArray(x, [n]));
        const dx = be.fromArray(g, [n]);
        be.geluBackward(dx, be.fromArray(x, [n]), be.fromArray(g, [n]));
        return [out, dx];
      });
    }
    {
      const [N, V] = [130, 1031];
      const [x, dy] = [randn(rng, N * V, 3), randn(rng, N * V)];
      const t = targetsFor(rng, N, V);
      const dl = randn(rng, N);
      await check('softmax family', (be) => {
        const xt = be.fromArray(x, [N, V]);
        const [sm, lsm] = [be.zeros([N, V]), be.zeros([N, V])];
        be.softmax(sm, xt);
        be.logSoftmax(lsm, xt);
        const [dsm, dlsm] = [be.fromArray(dy, [N, V]), be.fromArray(dy, [N, V])];
        be.softmaxBackward(dsm, sm, be.fromArray(dy, [N, V]));
        be.logSoftmaxBackward(dlsm, lsm, be.fromArray(dy, [N, V]));
        const losses = be.zeros([N]);
        const targets = be.fromArray(t, [N]);
        be.crossEntropy(losses, xt, targets);
        const dLogits = be.fromArray(dy, [N, V]);
        be.crossEntropyBackward(dLogits, xt, targets, be.fromArray(dl, [N]));
        return [sm, lsm, dsm, dlsm, losses, dLogits];
      });
    }
    expect(bad).toEqual([]);
  });
});
