/**
 * GPU tests for matmul: the five kernels (naive, tiled, regs, regs8; rows on its shapes, M ≤ 8) against the CPU reference for every
 * (transA, transB), 2-D / batched / broadcast b, overwrite and accumulate, on shapes that are not
 * multiples of the 64×64×16 tile (scalar loads) and on multiples of 4 (vec4 loads); the backward
 * plan on both backends; bit-identical repeat runs; and `regs` and `regs8` giving `tiled`'s bits
 * exactly (the three sum k in the same order, so which one runs never changes a result), and `rows` giving
 * `naive`'s bits exactly for the same reason; the epilogues (bias, bias + GELU, GELU, GELU's backward) giving the bits
 * of matmul → addBias → gelu run separately, in every kernel. Shapes stay tiny: CI runs on SwiftShader.
 *
 * Longer than ~400 lines on purpose: every kernel family is held to the same reference and to each
 * other's bits over shared case tables; split by family, each file would copy the tables.
 */
import { VIEW_ALIGN, type Backend, type MatmulOptions, type Tensor } from '../../backend';
import { Rng } from '../../rng';
import { compare, type CompareReport, type Tolerance } from '../../testing/compare';
import { randn, sameOnBoth, type GpuTest, type GpuTestEnv } from '../../testing/gpu-test';
import { isHalfRounding, packHalfRef, roundHalf, unpackHalves } from '../half';
import { matmulBackward } from './backward';

/** f32 sums of up to ~70 products of N(0,1) values: allow a little more than the default. */
const MM_TOL: Tolerance = { abs: 1e-4, rel: 1e-4 };

type Variant = 'naive' | 'tiled' | 'regs' | 'regs8' | 'rows';

interface Shape {
  /** Batch size, or null for plain 2-D. */
  Z: number | null;
  M: number;
  K: number;
  N: number;
  bBatched: boolean;
}

/** Odd sizes (scalar loads, partial tiles) and multiples of 4 (vec4 loads), 2-D, batched, broadcast. */
const SHAPES: Shape[] = [
  { Z: null, M: 1, K: 1, N: 1, bBatched: false },
  { Z: null, M: 65, K: 19, N: 67, bBatched: false },
  { Z: null, M: 68, K: 20, N: 72, bBatched: false },
  { Z: 2, M: 13, K: 31, N: 7, bBatched: true },
  { Z: 2, M: 12, K: 20, N: 8, bBatched: true },
  { Z: 3, M: 7, K: 17, N: 9, bBatched: false },
  { Z: 2, M: 36, K: 16, N: 40, bBatched: false },
];

/** Small M for the rows kernel (decoding): a matrix-vector product, a few rows, a folded broadcast batch. */
const ROWS_SHAPES: Shape[] = [
  { Z: null, M: 1, K: 1, N: 1, bBatched: false },
  { Z: null, M: 1, K: 37, N: 70, bBatched: false },
  { Z: null, M: 8, K: 20, N: 131, bBatched: false },
  { Z: 2, M: 5, K: 19, N: 9, bBatched: true },
  { Z: 2, M: 3, K: 16, N: 67, bBatched: false },
];

const TRANS: [boolean, boolean][] = [
  [false, false],
  [false, true],
  [true, false],
  [true, true],
];

function layout(s: Shape, transA: boolean, transB: boolean): { a: number[]; b: number[]; out: number[] } {
  const lead = s.Z === null ? [] : [s.Z];
  return {
    a: [...lead, ...(transA ? [s.K, s.M] : [s.M, s.K])],
    b: [...(s.bBatched ? lead : []), ...(transB ? [s.N, s.K] : [s.K, s.N])],
    out: [...lead, s.M, s.N],
  };
}

const size = (s: readonly number[]): number => s.reduce((p, d) => p * d, 1);
const describe = (s: Shape, transA: boolean, transB: boolean): string =>
  `${s.Z === null ? '2-D' : s.bBatched ? `Z=${s.Z}` : `broadcast Z=${s.Z}`} M=${s.M} K=${s.K} N=${s.N} tA=${+transA} tB=${+transB}`;

/** Forward, overwrite and accumulate, for every shape and transpose combination. */
async function forwardAll(env: GpuTestEnv, variant: Variant): Promise<CompareReport[]> {
  const rng = new Rng(`matmul forward ${variant}`);
  const reports: CompareReport[] = [];
  for (const s of variant === 'rows' ? ROWS_SHAPES : SHAPES) {
    for (const [transA, transB] of TRANS) {
      if (transA && !s.bBatched && s.Z !== null) continue; // broadcast b needs transA = false
      const L = layout(s, transA, transB);
      const a = randn(rng, size(L.a));
      const b = randn(rng, size(L.b));
      const init = randn(rng, size(L.out));
      const name = `${variant} ${describe(s, transA, transB)}`;
      reports.push(
        ...(await sameOnBoth(
          env,
          [`${name} out=`, `${name} out+=`],
          (be) => {
            const ta = be.fromArray(a, L.a);
            const tb = be.fromArray(b, L.b);
            const out = be.fromArray(init, L.out);
            be.matmul(out, ta, tb, { transA, transB, variant });
            const acc = be.fromArray(init, L.out);
            be.matmul(acc, ta, tb, { transA, transB, variant, accumulate: true });
            return [out, acc];
          },
          MM_TOL,
        )),
      );
    }
  }
  return reports;
}

/** dA and dB through matmulBackward (which accumulates) on both backends. */
async function backwardAll(env: GpuTestEnv, variant: Variant): Promise<CompareReport[]> {
  const rng = new Rng(`matmul backward ${variant}`);
  const reports: CompareReport[] = [];
  for (const s of [SHAPES[3], SHAPES[5]]) {
    for (const [transA, transB] of TRANS) {
      if (transA && !s.bBatched) continue;
      const L = layout(s, transA, transB);
      const [a, b, dOut] = [randn(rng, size(L.a)), randn(rng, size(L.b)), randn(rng, size(L.out))];
      const [gA, gB] = [randn(rng, size(L.a)), randn(rng, size(L.b))];
      const name = `backward ${variant} ${describe(s, transA, transB)}`;
      const opts: MatmulOptions = { transA, transB, variant };
      reports.push(
        ...(await sameOnBoth(
          env,
          [`${name} dA`, `${name} dB`],
          (be) => {
            const dA = be.fromArray(gA, L.a);
            const dB = be.fromArray(gB, L.b);
            matmulBackward(be, dA, dB, be.fromArray(dOut, L.out), be.fromArray(a, L.a), be.fromArray(b, L.b), opts);
            return [dA, dB];
          },
          MM_TOL,
        )),
      );
    }
  }
  return reports;
}

/** The same dispatch twice must give the same bits. */
async function repeatable(env: GpuTestEnv, variant: MatmulOptions['variant']): Promise<CompareReport> {
  const rng = new Rng(`matmul repeat ${variant}`);
  const [M, K, N] = [67, 33, 70];
  const a = randn(rng, M * K);
  const b = randn(rng, K * N);
  const run = async (be: Backend): Promise<Float32Array> => {
    const out: Tensor = be.zeros([M, N]);
    be.matmul(out, be.fromArray(a, [M, K]), be.fromArray(b, [N, K]), { transB: true, variant });
    return be.read(out);
  };
  const first = await run(env.gpu);
  const second = await run(env.gpu);
  return compare(`matmul ${variant} repeat is bit-identical`, second, first, { abs: 0, rel: 0 });
}

/** Operands and output as views into one arena each (bound at an offset), as parameters will be. */
async function onViews(env: GpuTestEnv, variant: Variant): Promise<CompareReport[]> {
  const rng = new Rng(`matmul views ${variant}`);
  const [M, K, N] = [20, 16, 24]; // multiples of 4: the tiled kernel takes its vec4 path
  const off = VIEW_ALIGN;
  const arena = (n: number): Float32Array => randn(rng, off + n + 5);
  const [a, b, o] = [arena(M * K), arena(N * K), arena(M * N)];
  return sameOnBoth(
    env,
    [`${variant} on views out+=`, `${variant} on views untouched arena head`],
    (be) => {
      const ta = be.view(be.fromArray(a, [a.length]), off, [M, K]);
      const tb = be.view(be.fromArray(b, [b.length]), off, [N, K]);
      const base = be.fromArray(o, [o.length]);
      const out = be.view(base, off, [M, N]);
      be.matmul(out, ta, tb, { transB: true, accumulate: true, variant });
      return [out, be.view(base, 0, [off])];
    },
    MM_TOL,
  );
}

/**
 * `variants` against `reference` on the same inputs, bit for bit: every shape and transpose,
 * overwrite and accumulate (two kernels that sum k in the same order must agree exactly).
 */
async function sameBits(
  env: GpuTestEnv,
  shapes: Shape[],
  reference: Variant,
  variants: MatmulOptions['variant'][],
): Promise<CompareReport[]> {
  const rng = new Rng(`matmul ${variants.join(',')} vs ${reference}`);
  const reports: CompareReport[] = [];
  for (const s of shapes) {
    for (const [transA, transB] of TRANS) {
      if (transA && !s.bBatched && s.Z !== null) continue;
      const L = layout(s, transA, transB);
      const [a, b, init] = [randn(rng, size(L.a)), randn(rng, size(L.b)), randn(rng, size(L.out))];
      const run = async (variant: MatmulOptions['variant'], accumulate: boolean): Promise<Float32Array> => {
        const be = env.gpu;
        const out = be.fromArray(init, L.out);
        be.matmul(out, be.fromArray(a, L.a), be.fromArray(b, L.b), { transA, transB, variant, accumulate });
        return be.read(out);
      };
      for (const accumulate of [false, true]) {
        const want = await run(reference, accumulate);
        for (const v of variants) {
          reports.push(
            compare(
              `${v} = ${reference} bit for bit, ${describe(s, transA, transB)}${accumulate ? ' out+=' : ''}`,
              await run(v, accumulate),
              want,
              { abs: 0, rel: 0 },
            ),
          );
        }
      }
    }
  }
  return reports;
}

type EpilogueCase = { bias: boolean; gelu: boolean; geluGrad?: boolean; resid?: 'out' | 'other' };
const EPILOGUES: EpilogueCase[] = [
  { bias: true, gelu: false },
  { bias: true, gelu: true },
  { bias: false, gelu: true },
  { bias: false, gelu: false, geluGrad: true },
  { bias: true, gelu: false, resid: 'out' },
  { bias: false, gelu: false, resid: 'other' },
];

/**
 * The fused epilogue against the separate ops on the GPU, bit for bit (out and the GELU output;
 * for gelu'(pre) ⊙ product, the product into a scratch then geluBackward; for a residual, the
 * product and bias into a scratch then addInto(out, scratch) in place or add(out, resid, scratch)),
 * bias + GELU with every transpose on one shape, bias alone and GELU alone untransposed, overwrite
 * and (untransposed) accumulate, odd shapes (partial tiles, scalar loads) and a broadcast batch
 * (each combination is its own pipeline, and SwiftShader compiles slowly); the bias a view at an
 * offset (as parameters are); and the fused path against the CPU (which composes the ops) within
 * MM_TOL on each variant's first shape.
 */
async function epilogues(env: GpuTestEnv, variant: Variant): Promise<CompareReport[]> {
  const rng = new Rng(`matmul epilogue ${variant}`);
  const reports: CompareReport[] = [];
  // First shape: every transpose (vec4 loads in tiled and regs, as the model's shapes); the others untransposed.
  const shapes = variant === 'rows' ? [ROWS_SHAPES[3], ROWS_SHAPES[1]] : [SHAPES[2], SHAPES[1], SHAPES[5]];
  for (const [si, s] of shapes.entries()) {
    for (const [transA, transB] of si === 0 ? TRANS : [[false, false]]) {
      if (transA && !s.bBatched && s.Z !== null) continue;
      const L = layout(s, transA, transB);
      const [a, b, init] = [randn(rng, size(L.a)), randn(rng, size(L.b)), randn(rng, size(L.out))];
      const biasArena = randn(rng, VIEW_ALIGN + s.N);
      const pre = randn(rng, size(L.out), 3); // GELU inputs, some in the tails
      const resid0 = randn(rng, size(L.out));
      for (const e of EPILOGUES) {
        if ((transA || transB) && !(e.bias && e.gelu) && !e.geluGrad) continue;
        for (const accumulate of transA || transB || e.resid ? [false] : [false, true]) {
          const name = `${variant} ${e.bias ? '+bias' : ''}${e.gelu ? '+gelu' : ''}${e.geluGrad ? "·gelu'" : ''}${e.resid ? `+residual(${e.resid === 'out' ? 'in place' : 'other'})` : ''} ${describe(s, transA, transB)}${accumulate ? ' out+=' : ''}`;
          const build = (be: Backend, fused: boolean): Tensor[] => {
            const [ta, tb] = [be.fromArray(a, L.a), be.fromArray(b, L.b)];
            const out = be.fromArray(init, L.out);
            const g = be.zeros(L.out);
            const bias = be.view(be.fromArray(biasArena, [biasArena.length]), VIEW_ALIGN, [s.N]);
            const opts: MatmulOptions = { transA, transB, variant, accumulate };
            if (e.geluGrad) {
              const tPre = be.fromArray(pre, L.out);
              if (fused) {
                be.matmul(out, ta, tb, { ...opts, geluGradOf: tPre });
              } else {
                const product = be.zeros(L.out);
                be.matmul(product, ta, tb, { ...opts, accumulate: false });
                if (!accumulate) be.fill(out, 0);
                be.geluBackward(out, tPre, product);
              }
              return [out];
            }
            if (e.resid) {
              const resid = e.resid === 'out' ? out : be.fromArray(resid0, L.out);
              if (fused) {
                be.matmul(out, ta, tb, { ...opts, bias: e.bias ? bias : undefined, residual: resid });
              } else {
                const scratch = be.zeros(L.out);
                be.matmul(scratch, ta, tb, opts);
                if (e.bias) be.addBias(scratch, scratch, bias);
                if (resid === out) be.addInto(out, scratch);
                else be.add(out, resid, scratch);
              }
              return [out];
            }
            if (fused) {
              be.matmul(out, ta, tb, { ...opts, bias: e.bias ? bias : undefined, geluOut: e.gelu ? g : undefined });
            } else {
              be.matmul(out, ta, tb, opts);
              if (e.bias) be.addBias(out, out, bias);
              if (e.gelu) be.gelu(g, out);
            }
            return e.gelu ? [out, g] : [out];
          };
          const fused = build(env.gpu, true);
          const separate = build(env.gpu, false);
          for (let i = 0; i < fused.length; i++) {
            reports.push(
              compare(
                `${name} ${i ? 'gelu' : 'out'}: fused = separate ops bit for bit`,
                await env.gpu.read(fused[i]),
                await env.gpu.read(separate[i]),
                { abs: 0, rel: 0 },
              ),
            );
          }
          if (!accumulate && si === 0 && !transA && !transB) {
            reports.push(
              ...(await sameOnBoth(
                env,
                [`${name} out vs cpu`, `${name} gelu vs cpu`].slice(0, e.gelu ? 2 : 1),
                (be) => build(be, true),
                MM_TOL,
              )),
            );
          }
        }
      }
    }
  }
  return reports;
}

/** Packed-half b: even contiguous dims of b either way (N for b (K, N), K for transB's (N, K)), vec4 and scalar loads. */
const HALF_SHAPES: Shape[] = [
  { Z: null, M: 65, K: 20, N: 66, bBatched: false },
  { Z: null, M: 68, K: 18, N: 72, bBatched: false },
  { Z: 3, M: 7, K: 16, N: 10, bBatched: false },
];
const HALF_ROWS_SHAPES: Shape[] = [
  { Z: null, M: 1, K: 38, N: 70, bBatched: false },
  { Z: 2, M: 3, K: 16, N: 66, bBatched: false },
];

/**
 * packHalf on the GPU (every half one of the two around its f32 value, values past ±65504 clamped),
 * then the matmul on those packed halves (`bHalf`) against the same kernel on their f32 values,
 * bit for bit, untransposed and transposed b (vec4 and scalar loads; a broadcast batch), overwrite
 * and, on the first shape, with bias + residual.
 */
async function halfB(env: GpuTestEnv, variant: Variant): Promise<CompareReport[]> {
  const rng = new Rng(`matmul half b ${variant}`);
  const reports: CompareReport[] = [];
  const gpu = env.gpu;
  for (const [si, s] of (variant === 'rows' ? HALF_ROWS_SHAPES : HALF_SHAPES).entries()) {
    for (const transB of [false, true]) {
      const L = layout(s, false, transB);
      const b = randn(rng, size(L.b));
      b[0] = 1e6; // clamped to 65504
      b[1] = -7e4;
      const words = [...L.b.slice(0, -1), L.b[L.b.length - 1] / 2];
      const packed = gpu.zeros(words);
      gpu.packHalf(packed, gpu.fromArray(b, L.b));
      const halves = unpackHalves(await gpu.read(packed));
      const name = `${variant} bHalf ${describe(s, false, transB)}`;
      const bits = new Uint16Array(new Uint32Array((await gpu.read(packed)).buffer).buffer);
      reports.push(
        compare(
          `${name}: packHalf gives a rounding of each value`,
          Float32Array.from(b, (x, i) => +isHalfRounding(bits[i], x)),
          new Float32Array(b.length).fill(1),
          { abs: 0, rel: 0 },
        ),
      );
      const a = gpu.fromArray(randn(rng, size(L.a)), L.a);
      const bias = gpu.fromArray(randn(rng, s.N), [s.N]);
      const resid = gpu.fromArray(randn(rng, size(L.out)), L.out);
      const asF32 = gpu.fromArray(halves, L.b);
      for (const extra of (si === 0 ? [{}, { bias, residual: resid }] : [{}]) as MatmulOptions[]) {
        const got = gpu.zeros(L.out);
        gpu.matmul(got, a, packed, { ...extra, transB, variant, bHalf: true });
        const want = gpu.zeros(L.out);
        gpu.matmul(want, a, asF32, { ...extra, transB, variant });
        reports.push(
          compare(
            `${name}${extra.bias ? ' +bias+residual' : ''}: = the f32 kernel on the halves, bit for bit`,
            await gpu.read(got),
            await gpu.read(want),
            { abs: 0, rel: 0 },
          ),
        );
      }
    }
  }
  return reports;
}

/**
 * Shapes for math 'f16' (K and N even for the packed halves): K a multiple of 4 (vec4 loads of a,
 * and of transposed b) or not, N a multiple of 4 (b (K, N) read by rows) or not, 2-D, batched, broadcast.
 */
const F16_SHAPES: Shape[] = [
  { Z: null, M: 65, K: 20, N: 66, bBatched: false },
  { Z: null, M: 66, K: 22, N: 68, bBatched: false },
  { Z: null, M: 36, K: 18, N: 70, bBatched: false },
  { Z: 2, M: 13, K: 22, N: 12, bBatched: true },
  { Z: 3, M: 7, K: 16, N: 10, bBatched: false },
];
const F16_ROWS_SHAPES: Shape[] = [
  { Z: null, M: 1, K: 38, N: 70, bBatched: false },
  { Z: null, M: 8, K: 20, N: 64, bBatched: false },
  { Z: null, M: 5, K: 20, N: 66, bBatched: false },
  { Z: 2, M: 3, K: 18, N: 68, bBatched: true },
];

const U16 = 2 ** -11; // unit roundoff of half

/**
 * How far two correct evaluations of math 'f16' may differ, per output: each run of 4 has at most
 * 4 product and 3 add roundings (≤ 7u of Σ|p| each way; FMAs only round less), a device may round
 * a's values to either neighbouring half (2u), the f32 sums add K/4 roundings of 2^-24, subnormal
 * products lose up to 2^-25 each; and the f32 epilogue rounds the result once more.
 */
function f16Bound(ah: Float32Array, b: Float32Array, s: Shape, transB: boolean, want: Float32Array): Float32Array {
  const Z = s.Z ?? 1;
  const bound = new Float32Array(Z * s.M * s.N);
  for (let z = 0; z < Z; z++) {
    for (let m = 0; m < s.M; m++) {
      for (let n = 0; n < s.N; n++) {
        let sum = 0;
        const bo = s.bBatched ? z * s.K * s.N : 0;
        for (let k = 0; k < s.K; k++)
          sum += Math.abs(ah[(z * s.M + m) * s.K + k] * (transB ? b[bo + n * s.K + k] : b[bo + k * s.N + n]));
        const o = (z * s.M + m) * s.N + n;
        bound[o] = (16 * U16 + s.K * 2 ** -24) * sum + s.K * 2 ** -22 + 2 ** -22 * Math.abs(want[o]);
      }
    }
  }
  return bound;
}

/**
 * math 'f16' in one kernel: against the CPU backend's matmulF16Ref within f16Bound (overwrite,
 * accumulate, bias + residual), b packed on the host so both backends read the same halves. A
 * wrong operand, index or run would miss by about Σ|a·b|, some hundred times the bound.
 */
async function f16Math(env: GpuTestEnv, variant: Variant | 'auto'): Promise<CompareReport[]> {
  const rng = new Rng(`matmul f16 math ${variant}`);
  const reports: CompareReport[] = [];
  const shapes =
    variant === 'rows' ? F16_ROWS_SHAPES : variant === 'auto' ? [...F16_ROWS_SHAPES, ...F16_SHAPES] : F16_SHAPES;
  for (const [si, s] of shapes.entries()) {
    for (const transB of [false, true]) {
      const L = layout(s, false, transB);
      const a = randn(rng, size(L.a));
      const packed = new Float32Array(size(L.b) / 2);
      packHalfRef(packed, randn(rng, size(L.b)));
      const words = [...L.b.slice(0, -1), L.b[L.b.length - 1] / 2];
      const halves = unpackHalves(packed);
      const ah = a.map(roundHalf);
      const [init, bias, resid] = [randn(rng, size(L.out)), randn(rng, s.N), randn(rng, size(L.out))];
      const cases: [string, (be: Backend) => MatmulOptions, boolean][] = [
        ['out=', () => ({}), false],
        ['out+=', () => ({ accumulate: true }), true],
      ];
      if (si === 0)
        cases.push([
          '+bias+residual',
          (be) => ({ bias: be.fromArray(bias, [s.N]), residual: be.fromArray(resid, L.out) }),
          false,
        ]);
      for (const [what, extra, acc] of cases) {
        const run = async (be: Backend): Promise<Float32Array> => {
          const out = be.fromArray(init, L.out);
          be.matmul(out, be.fromArray(a, L.a), be.fromArray(packed, words), {
            ...extra(be),
            transB,
            variant,
            bHalf: true,
            math: 'f16',
          });
          return be === env.cpu ? env.cpu.read(out) : env.gpu.read(out);
        };
        const want = await run(env.cpu);
        const got = await run(env.gpu);
        const bound = f16Bound(ah, halves, s, transB, want);
        if (acc) for (let i = 0; i < bound.length; i++) bound[i] += 2 ** -22 * Math.abs(init[i]);
        const ratio = Float32Array.from(got, (g, i) => Math.abs(g - want[i]) / bound[i]);
        reports.push(
          compare(
            `${variant} f16 ${describe(s, false, transB)} ${what}: |gpu − cpu| / bound`,
            ratio,
            new Float32Array(ratio.length),
            { abs: 1, rel: 0 },
          ),
        );
      }
    }
  }
  return reports;
}

/**
 * The half arithmetic is real: 2048 + 1 inside a run of 4 is lost (half spacing at 2048 is 2), so
 * the result is 2049 (or 2051 rounding the other way), never f32's 2050. And the four kernels run
 * the same expression per output, so on one device they give the same numbers.
 */
async function f16Really(env: GpuTestEnv): Promise<CompareReport[]> {
  const gpu = env.gpu;
  const a = gpu.fromArray(Float32Array.from([2048, 1, 0, 0, 1, 0, 0, 0]), [1, 8]);
  const ones = new Float32Array(8);
  packHalfRef(ones, new Float32Array(16).fill(1));
  const reports: CompareReport[] = [];
  for (const variant of ['naive', 'rows', 'tiled', 'regs', 'regs8'] as const) {
    const out = gpu.zeros([1, 2]);
    gpu.matmul(out, a, gpu.fromArray(ones, [8, 1]), { bHalf: true, math: 'f16', variant });
    const got = await gpu.read(out);
    reports.push(
      compare(
        `${variant}: 2048 + 1 + 0 + 0 in half, then + 1 in f32, is 2049 or 2051 (f32 math: 2050)`,
        Float32Array.from(got, (x) => +(x === 2049 || x === 2051)),
        [1, 1],
        { abs: 0, rel: 0 },
      ),
    );
  }
  const rng = new Rng('matmul f16 kernels agree');
  const shapes: Shape[] = [
    { Z: null, M: 5, K: 22, N: 70, bBatched: false },
    { Z: 2, M: 3, K: 16, N: 68, bBatched: true },
    { Z: null, M: 40, K: 36, N: 34, bBatched: false },
    { Z: null, M: 40, K: 18, N: 72, bBatched: false },
    { Z: null, M: 70, K: 40, N: 68, bBatched: false },
    { Z: 3, M: 30, K: 20, N: 66, bBatched: false },
  ];
  for (const s of shapes) {
    for (const transB of [false, true]) {
      const L = layout(s, false, transB);
      const ta = gpu.fromArray(randn(rng, size(L.a)), L.a);
      const packed = new Float32Array(size(L.b) / 2);
      packHalfRef(packed, randn(rng, size(L.b)));
      const tb = gpu.fromArray(packed, [...L.b.slice(0, -1), L.b[L.b.length - 1] / 2]);
      const run = async (variant: Variant): Promise<Float32Array> => {
        const out = gpu.zeros(L.out);
        gpu.matmul(out, ta, tb, { transB, variant, bHalf: true, math: 'f16' });
        return gpu.read(out);
      };
      const want = await run('naive');
      for (const v of (s.M <= 8 ? ['rows', 'tiled', 'regs', 'regs8'] : ['tiled', 'regs', 'regs8']) as Variant[]) {
        reports.push(
          compare(`f16 ${v} = f16 naive bit for bit, ${describe(s, false, transB)}`, await run(v), want, {
            abs: 0,
            rel: 0,
          }),
        );
      }
    }
  }
  return reports;
}

export const matmulGpuTests: GpuTest[] = [
  {
    name: 'matmul with math f16 (shader-f16): naive, rows, tiled, regs, regs8 and auto within the error bound of the CPU reference; half arithmetic shows; refused without shader-f16',
    async run(env) {
      if (!env.gpu.hasF16Math) {
        // A device without shader-f16 (SwiftShader): the call is refused with a message, never run in f32 instead.
        const gpu = env.gpu;
        let message = '';
        try {
          gpu.matmul(gpu.zeros([1, 2]), gpu.zeros([1, 4]), gpu.zeros([4, 1]), { bHalf: true, math: 'f16' });
        } catch (e) {
          message = String(e);
        }
        return [
          compare(
            `no shader-f16 here: refused with a message naming the feature (${message || 'not refused'})`,
            [+/math 'f16' needs a GPU with the shader-f16 feature/.test(message)],
            [1],
            { abs: 0, rel: 0 },
          ),
        ];
      }
      const reports = await f16Really(env);
      for (const v of ['naive', 'rows', 'tiled', 'regs', 'regs8', 'auto'] as const)
        reports.push(...(await f16Math(env, v)));
      return reports;
    },
  },
  {
    name: "matmul with packed-half b (bHalf): packHalf rounds as WGSL allows; naive, tiled, regs, regs8 and rows give the f32 kernel's bits on the halves",
    async run(env) {
      const reports: CompareReport[] = [];
      for (const v of ['naive', 'tiled', 'regs', 'regs8', 'rows'] as const) reports.push(...(await halfB(env, v)));
      return reports;
    },
  },
  {
    name: "matmul epilogues: bias, bias + GELU, GELU, GELU's backward and the residual add give the separate ops' bits in naive, tiled, regs, regs8 and rows",
    async run(env) {
      const reports: CompareReport[] = [];
      for (const v of ['naive', 'tiled', 'regs', 'regs8', 'rows'] as const) reports.push(...(await epilogues(env, v)));
      return reports;
    },
  },
  {
    name: 'matmul naive: transA x transB x (2-D, batched, broadcast) x accumulate',
    run: (env) => forwardAll(env, 'naive'),
  },
  {
    name: 'matmul tiled: transA x transB x (2-D, batched, broadcast) x accumulate',
    run: (env) => forwardAll(env, 'tiled'),
  },
  {
    name: 'matmul regs: transA x transB x (2-D, batched, broadcast) x accumulate',
    run: (env) => forwardAll(env, 'regs'),
  },
  {
    name: 'matmul regs8: transA x transB x (2-D, batched, broadcast) x accumulate',
    run: (env) => forwardAll(env, 'regs8'),
  },
  {
    name: "matmul regs and regs8 give the tiled kernel's bits exactly",
    run: (env) =>
      sameBits(env, [...SHAPES, { Z: null, M: 130, K: 70, N: 68, bBatched: false }], 'tiled', ['regs', 'regs8']),
  },
  {
    name: 'matmul rows (M <= 8): transA x transB x (2-D, batched, broadcast) x accumulate',
    run: (env) => forwardAll(env, 'rows'),
  },
  // ...and what `auto` runs at M <= 8 (rows) too.
  {
    name: "matmul rows gives the naive kernel's bits exactly",
    run: (env) => sameBits(env, ROWS_SHAPES, 'naive', ['rows', 'auto']),
  },
  {
    name: 'matmul backward: naive, tiled, regs and regs8, batched and broadcast',
    async run(env) {
      return [
        ...(await backwardAll(env, 'naive')),
        ...(await backwardAll(env, 'tiled')),
        ...(await backwardAll(env, 'regs')),
        ...(await backwardAll(env, 'regs8')),
      ];
    },
  },
  {
    name: 'matmul on arena views (offset bindings): naive, tiled, regs and regs8',
    async run(env) {
      return [
        ...(await onViews(env, 'naive')),
        ...(await onViews(env, 'tiled')),
        ...(await onViews(env, 'regs')),
        ...(await onViews(env, 'regs8')),
      ];
    },
  },
  {
    name: 'matmul determinism: naive, tiled, regs, regs8 and auto twice give identical bits',
    async run(env) {
      return [
        await repeatable(env, 'naive'),
        await repeatable(env, 'tiled'),
        await repeatable(env, 'regs'),
        await repeatable(env, 'regs8'),
        await repeatable(env, 'auto'),
      ];
    },
  },
];
