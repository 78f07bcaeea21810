/**
 * Matmul kernels: out (Z, M, N) (+)= op(a) · op(b) with the fused epilogues of MatmulOptions.
 *
 * op(b) is read in panels of NR = 8 columns, k-major (panel[k * 8 + c] = op(b)[k, n0 + c]): either
 * packed into scratch by `mm_pack` (transposed b, packed halves, or a row count that pays for it;
 * the last partial panel padded with zeros), or straight from a row-major b whose rows hold the
 * panel's 8 values at a stride of N (then only a partial last panel is packed). op(a) goes in blocks
 * of 4 rows whose 4 values of a k are adjacent: row-major op(a) packed so (`packRows4`, a chunk of
 * blocks at a time), with transA a's own columns read in place. The micro-kernel keeps a 4 × 8 block
 * of outputs in 8 f32x4 accumulators; each k adds a[m, k] · b[k, n0..n0+8) for its rows (a short last
 * block runs on zero rows and stores only its own); 1 × 32 and 1 × 8 for fewer than 4 rows. For K
 * beyond `kc` the k range runs in blocks, the partial sums stored in a scratch between blocks (f32
 * in, f32 out: exact).
 *
 * Numbers: every output is acc = 0, then acc = acc + a[m, k] · b[k, n] in ascending k, each product
 * and each add rounded to f32 (no FMA in wasm SIMD): every block size, the 1-row tails and every
 * split compute it the same way, so the bits do not depend on the tiling or on the thread count.
 * A partial sum stored between k blocks and loaded back is the same f32, so blocking moves nothing.
 * The epilogue then follows the reference's order: gelu'(pre) · v (as the wasm geluBackward), out + v
 * (accumulate), + bias, residual + v, and gelu(v) (as the wasm gelu op) into geluOut.
 */
import { splitFrom } from './split';
import { geluGradV, geluV } from './simd';
import { halfToF32, halves4 } from './half';

/** Epilogue flags (ops/matmul.ts sets them). */
const ACC = 1;
const BIAS = 2;
const GELU = 4;
const GGRAD = 8;
const RESID = 16;

const NR = 8;

// ---- GELU: simd.ts's, so a fused epilogue gives the bits of the gelu ops after the product --------

/** gelu(x) for one value: lane 0 of the four-lane function (so tails and full strips agree). */
function geluOne(x: f32): f32 {
  return f32x4.extract_lane(geluV(f32x4.splat(x)), 0);
}

function geluGradOne(x: f32): f32 {
  return f32x4.extract_lane(geluGradV(f32x4.splat(x)), 0);
}

// ---- half → f32 ---------------------------------------------------------------------------------

/** Packs a full panel of b (K, N) at src (row stride N values) stored as halves: 8 halves a k. */
function packHalfRows(d: usize, src: usize, K: i32, N: i32): void {
  const stride = (<usize>N) << 1;
  for (let k = 0; k < K; k++) {
    const h = v128.load(src);
    const q = d + ((<usize>k) << 5);
    v128.store(q, halves4(i32x4.extend_low_i16x8_u(h)));
    v128.store(q, halves4(i32x4.extend_high_i16x8_u(h)), 16);
    src += stride;
  }
}

/**
 * Packs a full panel of b (N, K) at src (rows n0.. of b, K values each), transposed: 4 k of 8 rows
 * at a time through two 4 × 4 shuffles, the k tail one value at a time.
 */
function packTransRows(d: usize, src: usize, K: i32): void {
  const rs = (<usize>K) << 2;
  let k = 0;
  for (; k + 4 <= K; k += 4) {
    const s = src + ((<usize>k) << 2);
    const q = d + ((<usize>k) << 5);
    for (let h = 0; h < 2; h++) {
      const s0 = s + <usize>(4 * h) * rs;
      const r0 = v128.load(s0);
      const r1 = v128.load(s0 + rs);
      const r2 = v128.load(s0 + 2 * rs);
      const r3 = v128.load(s0 + 3 * rs);
      const t0 = i32x4.shuffle(r0, r1, 0, 4, 1, 5);
      const t1 = i32x4.shuffle(r2, r3, 0, 4, 1, 5);
      const t2 = i32x4.shuffle(r0, r1, 2, 6, 3, 7);
      const t3 = i32x4.shuffle(r2, r3, 2, 6, 3, 7);
      const qh = q + <usize>(16 * h);
      v128.store(qh, i32x4.shuffle(t0, t1, 0, 1, 4, 5));
      v128.store(qh + 32, i32x4.shuffle(t0, t1, 2, 3, 6, 7));
      v128.store(qh + 64, i32x4.shuffle(t2, t3, 0, 1, 4, 5));
      v128.store(qh + 96, i32x4.shuffle(t2, t3, 2, 3, 6, 7));
    }
  }
  for (; k < K; k++)
    for (let c = 0; c < NR; c++)
      store<f32>(d + ((<usize>k) << 5) + ((<usize>c) << 2), load<f32>(src + <usize>c * rs + ((<usize>k) << 2)));
}

// ---- packing ----------------------------------------------------------------------------------------

/**
 * Packs op(b) into panels for `mm_f32`: dst[z][p - p0][k * 8 + c] = op(b)[z][k, p * 8 + c] (0 past
 * column N) for panels p in [p0, ⌈N / 8⌉) of each of the Z batch entries. b is (Z, K, N) or with
 * transB (Z, N, K); with half != 0 it holds packed IEEE halves (element i = the i-th 16-bit word).
 * Threaded over (z, panel).
 */
export function mm_pack(
  dst: usize,
  b: usize,
  Z: i32,
  K: i32,
  N: i32,
  transB: i32,
  half: i32,
  p0: i32,
  part: i32,
  parts: i32,
): void {
  const NB = (N + NR - 1) / NR;
  const per = NB - p0;
  const items = Z * per;
  const from = splitFrom(items, part, parts);
  const to = splitFrom(items, part + 1, parts);
  for (let it = from; it < to; it++) {
    const z = it / per;
    const p = p0 + (it - z * per);
    const n0 = p * NR;
    const cnt = min(NR, N - n0);
    const d = dst + (((<usize>it * <usize>K) << 3) << 2);
    const zb = <usize>z * <usize>K * <usize>N;
    if (!transB && !half && cnt == NR) {
      let src = b + ((zb + <usize>n0) << 2);
      const stride = (<usize>N) << 2;
      for (let k = 0; k < K; k++) {
        const q = d + ((<usize>k) << 5);
        v128.store(q, v128.load(src));
        v128.store(q, v128.load(src, 16), 16);
        src += stride;
      }
      continue;
    }
    if (cnt == NR && !half) {
      packTransRows(d, b + ((zb + <usize>n0 * <usize>K) << 2), K);
      continue;
    }
    if (cnt == NR && !transB) {
      packHalfRows(d, b + ((zb + <usize>n0) << 1), K, N);
      continue;
    }
    for (let k = 0; k < K; k++) {
      const q = d + ((<usize>k) << 5);
      for (let c = 0; c < NR; c++) {
        let v: f32 = 0;
        if (c < cnt) {
          const n = n0 + c;
          const idx = zb + (transB ? <usize>n * <usize>K + <usize>k : <usize>k * <usize>N + <usize>n);
          v = half ? halfToF32(<u32>load<u16>(b + (idx << 1))) : load<f32>(b + (idx << 2));
        }
        store<f32>(q + ((<usize>c) << 2), v);
      }
    }
  }
}

// ---- epilogue -------------------------------------------------------------------------------------

/** Lane l (0..7) of the pair (lo, hi). */
function lane8(lo: v128, hi: v128, l: i32): f32 {
  switch (l) {
    case 0:
      return f32x4.extract_lane(lo, 0);
    case 1:
      return f32x4.extract_lane(lo, 1);
    case 2:
      return f32x4.extract_lane(lo, 2);
    case 3:
      return f32x4.extract_lane(lo, 3);
    case 4:
      return f32x4.extract_lane(hi, 0);
    case 5:
      return f32x4.extract_lane(hi, 1);
    case 6:
      return f32x4.extract_lane(hi, 2);
    default:
      return f32x4.extract_lane(hi, 3);
  }
}

/** The epilogue of one output: element o of out (column n) from its sum s. */
function epiOne(
  out: usize,
  o: usize,
  n: usize,
  s: f32,
  flags: i32,
  bias: usize,
  gout: usize,
  pre: usize,
  resid: usize,
): void {
  const p = out + (o << 2);
  let v = s;
  if (flags & GGRAD) v = geluGradOne(load<f32>(pre + (o << 2))) * v;
  if (flags & ACC) v = load<f32>(p) + v;
  if (flags & BIAS) v = v + load<f32>(bias + (n << 2));
  if (flags & RESID) v = load<f32>(resid + (o << 2)) + v;
  store<f32>(p, v);
  if (flags & GELU) store<f32>(gout + (o << 2), geluOne(v));
}

/** Stores the first `cnt` of 8 sums (lo, hi) of one row through the epilogue, at element o (column n). */
function storeRow(
  out: usize,
  o: usize,
  n: usize,
  cnt: i32,
  lo: v128,
  hi: v128,
  flags: i32,
  bias: usize,
  gout: usize,
  pre: usize,
  resid: usize,
): void {
  if (cnt == NR) {
    const p = out + (o << 2);
    let v0 = lo;
    let v1 = hi;
    if (flags & GGRAD) {
      const q = pre + (o << 2);
      v0 = f32x4.mul(geluGradV(v128.load(q)), v0);
      v1 = f32x4.mul(geluGradV(v128.load(q, 16)), v1);
    }
    if (flags & ACC) {
      v0 = f32x4.add(v128.load(p), v0);
      v1 = f32x4.add(v128.load(p, 16), v1);
    }
    if (flags & BIAS) {
      const q = bias + (n << 2);
      v0 = f32x4.add(v0, v128.load(q));
      v1 = f32x4.add(v1, v128.load(q, 16));
    }
    if (flags & RESID) {
      const q = resid + (o << 2);
      v0 = f32x4.add(v128.load(q), v0);
      v1 = f32x4.add(v128.load(q, 16), v1);
    }
    v128.store(p, v0);
    v128.store(p, v1, 16);
    if (flags & GELU) {
      const q = gout + (o << 2);
      v128.store(q, geluV(v0));
      v128.store(q, geluV(v1), 16);
    }
    return;
  }
  for (let l = 0; l < cnt; l++)
    epiOne(out, o + <usize>l, n + <usize>l, lane8(lo, hi, l), flags, bias, gout, pre, resid);
}

// ---- micro-kernels ----------------------------------------------------------------------------------

/**
 * Packs a block of `rows` (≤ 4) rows of op(a), kn values of k each, 4 values a k: d[4 k + r] = the
 * value at src + r · rs + k · cs bytes, 0 for r ≥ rows (a short last block runs the 4-row kernel on
 * zeros, whose sums are not stored). Four rows of row-major a (cs = 4): 4 k at a time through a
 * 4 × 4 shuffle transpose.
 */
function packRows4(d: usize, src: usize, rs: usize, cs: usize, rows: i32, kn: i32): void {
  let k = 0;
  if (rows == 4 && cs == 4) {
    const s1 = src + rs;
    const s2 = s1 + rs;
    const s3 = s2 + rs;
    for (; k + 4 <= kn; k += 4) {
      const o = (<usize>k) << 2;
      const r0 = v128.load(src + o);
      const r1 = v128.load(s1 + o);
      const r2 = v128.load(s2 + o);
      const r3 = v128.load(s3 + o);
      const t0 = i32x4.shuffle(r0, r1, 0, 4, 1, 5);
      const t1 = i32x4.shuffle(r2, r3, 0, 4, 1, 5);
      const t2 = i32x4.shuffle(r0, r1, 2, 6, 3, 7);
      const t3 = i32x4.shuffle(r2, r3, 2, 6, 3, 7);
      const q = d + ((<usize>k) << 4);
      v128.store(q, i32x4.shuffle(t0, t1, 0, 1, 4, 5));
      v128.store(q, i32x4.shuffle(t0, t1, 2, 3, 6, 7), 16);
      v128.store(q, i32x4.shuffle(t2, t3, 0, 1, 4, 5), 32);
      v128.store(q, i32x4.shuffle(t2, t3, 2, 3, 6, 7), 48);
    }
  }
  for (; k < kn; k++) {
    const q = d + ((<usize>k) << 4);
    const s = src + <usize>k * cs;
    for (let r = 0; r < 4; r++) store<f32>(q + ((<usize>r) << 2), r < rows ? load<f32>(s + <usize>r * rs) : 0);
  }
}

/**
 * 4 rows × 8 columns: the 4 values of op(a) of one k adjacent at pa (packed rows, or a's own
 * columns with transA), `as` bytes from one k to the next; b: the panel, bk bytes per k. Stores the
 * first `rows` rows. 8 accumulators, the 4 splats, 2 b vectors and a product fill the 15 xmm
 * registers V8 allocates (it loads all of a k's operands before the arithmetic, so a 5th or 6th
 * row, or a second k in the loop, spills).
 */
function tile4(
  pa: usize,
  as: usize,
  pb: usize,
  bk: usize,
  K: i32,
  ini: usize,
  out: usize,
  o: usize,
  N: usize,
  n: usize,
  cnt: i32,
  rows: i32,
  flags: i32,
  bias: usize,
  gout: usize,
  pre: usize,
  resid: usize,
): void {
  let c00 = f32x4.splat(0);
  let c01 = c00;
  let c10 = c00;
  let c11 = c00;
  let c20 = c00;
  let c21 = c00;
  let c30 = c00;
  let c31 = c00;
  const rs = N << 2;
  if (ini) {
    c00 = v128.load(ini);
    c01 = v128.load(ini, 16);
    if (rows > 1) {
      c10 = v128.load(ini + rs);
      c11 = v128.load(ini + rs, 16);
    }
    if (rows > 2) {
      c20 = v128.load(ini + 2 * rs);
      c21 = v128.load(ini + 2 * rs, 16);
    }
    if (rows > 3) {
      c30 = v128.load(ini + 3 * rs);
      c31 = v128.load(ini + 3 * rs, 16);
    }
  }
  const end = pa + <usize>K * as;
  while (pa < end) {
    const b0 = v128.load(pb);
    const b1 = v128.load(pb, 16);
    let x = v128.load32_splat(pa);
    c00 = f32x4.add(c00, f32x4.mul(x, b0));
    c01 = f32x4.add(c01, f32x4.mul(x, b1));
    x = v128.load32_splat(pa, 4);
    c10 = f32x4.add(c10, f32x4.mul(x, b0));
    c11 = f32x4.add(c11, f32x4.mul(x, b1));
    x = v128.load32_splat(pa, 8);
    c20 = f32x4.add(c20, f32x4.mul(x, b0));
    c21 = f32x4.add(c21, f32x4.mul(x, b1));
    x = v128.load32_splat(pa, 12);
    c30 = f32x4.add(c30, f32x4.mul(x, b0));
    c31 = f32x4.add(c31, f32x4.mul(x, b1));
    pb += bk;
    pa += as;
  }
  storeRow(out, o, n, cnt, c00, c01, flags, bias, gout, pre, resid);
  if (rows > 1) storeRow(out, o + N, n, cnt, c10, c11, flags, bias, gout, pre, resid);
  if (rows > 2) storeRow(out, o + 2 * N, n, cnt, c20, c21, flags, bias, gout, pre, resid);
  if (rows > 3) storeRow(out, o + 3 * N, n, cnt, c30, c31, flags, bias, gout, pre, resid);
}

/** 1 row × 8 columns: a[m, k] at pa + k · acs bytes. */
function tile1(
  pa: usize,
  acs: usize,
  pb: usize,
  bk: usize,
  K: i32,
  ini: usize,
  out: usize,
  o: usize,
  n: usize,
  cnt: i32,
  flags: i32,
  bias: usize,
  gout: usize,
  pre: usize,
  resid: usize,
): void {
  let c0 = f32x4.splat(0);
  let c1 = c0;
  if (ini) {
    c0 = v128.load(ini);
    c1 = v128.load(ini, 16);
  }
  for (let k = 0; k < K; k++) {
    const x = v128.load32_splat(pa);
    c0 = f32x4.add(c0, f32x4.mul(x, v128.load(pb)));
    c1 = f32x4.add(c1, f32x4.mul(x, v128.load(pb, 16)));
    pb += bk;
    pa += acs;
  }
  storeRow(out, o, n, cnt, c0, c1, flags, bias, gout, pre, resid);
}

/**
 * 1 row × 32 columns (4 full panels, bp bytes apart: 32 when b is read in place, so the 32 values
 * of a k are adjacent): decoding's matrix-vector products, each k one splat for 8 products.
 */
function tile1x32(
  pa: usize,
  acs: usize,
  pb: usize,
  bk: usize,
  bp: usize,
  K: i32,
  out: usize,
  o: usize,
  n: usize,
  flags: i32,
  bias: usize,
  gout: usize,
  pre: usize,
  resid: usize,
): void {
  let c00 = f32x4.splat(0);
  let c01 = c00;
  let c10 = f32x4.splat(0);
  let c11 = c10;
  let c20 = f32x4.splat(0);
  let c21 = c20;
  let c30 = f32x4.splat(0);
  let c31 = c30;
  const q1 = bp;
  const q2 = bp + bp;
  const q3 = q2 + bp;
  for (let k = 0; k < K; k++) {
    const x = v128.load32_splat(pa);
    c00 = f32x4.add(c00, f32x4.mul(x, v128.load(pb)));
    c01 = f32x4.add(c01, f32x4.mul(x, v128.load(pb, 16)));
    c10 = f32x4.add(c10, f32x4.mul(x, v128.load(pb + q1)));
    c11 = f32x4.add(c11, f32x4.mul(x, v128.load(pb + q1, 16)));
    c20 = f32x4.add(c20, f32x4.mul(x, v128.load(pb + q2)));
    c21 = f32x4.add(c21, f32x4.mul(x, v128.load(pb + q2, 16)));
    c30 = f32x4.add(c30, f32x4.mul(x, v128.load(pb + q3)));
    c31 = f32x4.add(c31, f32x4.mul(x, v128.load(pb + q3, 16)));
    pb += bk;
    pa += acs;
  }
  storeRow(out, o + 0, n + 0, NR, c00, c01, flags, bias, gout, pre, resid);
  storeRow(out, o + 8, n + 8, NR, c10, c11, flags, bias, gout, pre, resid);
  storeRow(out, o + 16, n + 16, NR, c20, c21, flags, bias, gout, pre, resid);
  storeRow(out, o + 24, n + 24, NR, c30, c31, flags, bias, gout, pre, resid);
}

// ---- the matmul -------------------------------------------------------------------------------------

/**
 * out (Z, M, N) (+)= op(a) · op(b) and the epilogue `flags` (ACC 1, BIAS 2, GELU 4, GGRAD 8,
 * RESID 16; bias (N), gout / pre / resid of out's size).
 *
 * a: op(a)[z][m, k] at a + 4 (z · M · K + m · ars + k · acs) (ars = 1 or acs = 1).
 * b: panel p (< ⌈N / 8⌉ - 1, or the last one when it is full) of batch z at
 * bFull + z · bz + p · bp bytes, bk bytes per k; a partial last panel at bTail + z · btz (8 values a
 * k). sums: a scratch of out's size (+ 8) for the partial sums when K > kc, else 0 (no blocking).
 * Rows go in blocks of 4, `chunk` blocks at a time (their op(a) for one k block stays in L2 while
 * every panel sweeps it); row-major op(a) is packed for that (k-major, 4 values a k) into apack, at
 * chunk · 16 · min(K, kc) bytes per part (with transA only a short last block is, into 16 · min(K, kc)).
 * Threaded over blocks of 4 rows ((z, block) pairs), or with splitCols over panels.
 */
export function mm_f32(
  out: usize,
  a: usize,
  Z: i32,
  M: i32,
  N: i32,
  K: i32,
  ars: i32,
  acs: i32,
  bFull: usize,
  bz: usize,
  bp: usize,
  bk: usize,
  bTail: usize,
  btz: usize,
  flags: i32,
  bias: usize,
  gout: usize,
  pre: usize,
  resid: usize,
  sums: usize,
  kc: i32,
  chunk: i32,
  apack: usize,
  splitCols: i32,
  part: i32,
  parts: i32,
): void {
  const NB = (N + NR - 1) / NR;
  const rowMajor = acs == 1;
  const MB = (M + 3) >> 2;
  const full = N % NR == 0 ? NB : NB - 1;
  let pFrom = 0;
  let pTo = NB;
  let iFrom = 0;
  let iTo = Z * MB;
  if (splitCols) {
    pFrom = splitFrom(NB, part, parts);
    pTo = splitFrom(NB, part + 1, parts);
  } else {
    iFrom = splitFrom(Z * MB, part, parts);
    iTo = splitFrom(Z * MB, part + 1, parts);
  }
  if (pFrom >= pTo || iFrom >= iTo) return;
  const az = <usize>M * <usize>K;
  const arsB = (<usize>ars) << 2;
  const acsB = (<usize>acs) << 2;
  const Nu = <usize>N;
  if (M < 4) {
    // Few rows (decoding): each row against 4 panels at a time, the rest one panel at a time.
    for (let z = iFrom / MB; z <= (iTo - 1) / MB; z++) {
      const za = a + ((<usize>z * az) << 2);
      const zo = <usize>z * <usize>M * Nu;
      for (let m = 0; m < M; m++) {
        const pa = za + <usize>m * arsB;
        const o = zo + <usize>m * Nu;
        let p = pFrom;
        for (; p + 4 <= min(pTo, full); p += 4) {
          const n0 = <usize>(p * NR);
          const pb = bFull + <usize>z * bz + <usize>p * bp;
          tile1x32(pa, acsB, pb, bk, bp, K, out, o + n0, n0, flags, bias, gout, pre, resid);
        }
        for (; p < pTo; p++) {
          const n0 = p * NR;
          const pb = p < full ? bFull + <usize>z * bz + <usize>p * bp : bTail + <usize>z * btz;
          const bkp = p < full ? bk : 32;
          tile1(pa, acsB, pb, bkp, K, 0, out, o + <usize>n0, <usize>n0, min(NR, N - n0), flags, bias, gout, pre, resid);
        }
      }
    }
    return;
  }
  // k in blocks of kc (all of K without a `sums` buffer), partial sums kept in `sums`.
  const KC = sums ? kc : max(K, 1);
  const ap = apack + <usize>part * <usize>(rowMajor ? chunk : 1) * ((<usize>min(max(K, 1), KC)) << 4);
  for (let z = iFrom / MB; z <= (iTo - 1) / MB; z++) {
    const b0 = max(iFrom - z * MB, 0);
    const b1 = min(iTo - z * MB, MB);
    const za = a + ((<usize>z * az) << 2);
    const zo = <usize>z * <usize>M * Nu;
    for (let c0 = b0; c0 < b1; c0 += chunk) {
      const c1 = min(c0 + chunk, b1);
      for (let k0 = 0; k0 < K || k0 == 0; k0 += KC) {
        const kn = min(KC, K - k0);
        const last = k0 + KC >= K;
        // Partial sums go to `sums` (raw), the last block through the epilogue to out.
        const dst = last ? out : sums;
        const fl = last ? flags : 0;
        const blkB = (<usize>kn) << 4;
        const ak = za + <usize>k0 * acsB;
        if (rowMajor) {
          for (let blk = c0; blk < c1; blk++)
            packRows4(
              ap + <usize>(blk - c0) * blkB,
              ak + <usize>(blk << 2) * arsB,
              arsB,
              4,
              min(4, M - (blk << 2)),
              kn,
            );
        } else if (c1 == MB && (M & 3) != 0) {
          packRows4(ap, ak + <usize>((MB - 1) << 2) * 4, 4, acsB, M & 3, kn);
        }
        for (let p = pFrom; p < pTo; p++) {
          const n0 = p * NR;
          const cnt = min(NR, N - n0);
          let pb: usize;
          let bkp: usize;
          if (p < full) {
            pb = bFull + <usize>z * bz + <usize>p * bp;
            bkp = bk;
          } else {
            pb = bTail + <usize>z * btz;
            bkp = 32;
          }
          pb += <usize>k0 * bkp;
          for (let blk = c0; blk < c1; blk++) {
            const m0 = blk << 2;
            const rows = min(4, M - m0);
            const o = zo + <usize>m0 * Nu + <usize>n0;
            const ini = k0 > 0 ? sums + (o << 2) : 0;
            let pa = ap;
            let as: usize = 16;
            if (rowMajor) pa = ap + <usize>(blk - c0) * blkB;
            else if (rows == 4) {
              pa = ak + ((<usize>m0) << 2);
              as = acsB;
            }
            tile4(pa, as, pb, bkp, kn, ini, dst, o, Nu, <usize>n0, cnt, rows, fl, bias, gout, pre, resid);
          }
        }
        if (K <= 0) break;
      }
    }
  }
}

// ---- peak ---------------------------------------------------------------------------------------------

/**
 * Single-core SIMD peak probe, the matmul kernel's own instruction mix with nothing to wait for:
 * 8 independent sums c[i][j] += a_i · b_j of f32x4 (8 multiplies and 8 adds, 64 flops, an
 * iteration), `iters` times, the operands loaded each iteration from the same 48 bytes at p (b_0,
 * b_1, then a_0 … a_3), so they stay in L1 and no compiler can fold or hoist the products; returns a
 * sum of the sums so none can be dropped. (With operands in registers instead, asc folds or V8
 * hoists the loop-invariant products.)
 */
export function mm_peak_sums(iters: i32, p: usize): f32 {
  let c00 = f32x4.splat(0);
  let c01 = c00;
  let c10 = c00;
  let c11 = c00;
  let c20 = c00;
  let c21 = c00;
  let c30 = c00;
  let c31 = c00;
  for (let i = 0; i < iters; i++) {
    const b0 = v128.load(p);
    const b1 = v128.load(p, 16);
    let x = v128.load32_splat(p, 32);
    c00 = f32x4.add(c00, f32x4.mul(x, b0));
    c01 = f32x4.add(c01, f32x4.mul(x, b1));
    x = v128.load32_splat(p, 36);
    c10 = f32x4.add(c10, f32x4.mul(x, b0));
    c11 = f32x4.add(c11, f32x4.mul(x, b1));
    x = v128.load32_splat(p, 40);
    c20 = f32x4.add(c20, f32x4.mul(x, b0));
    c21 = f32x4.add(c21, f32x4.mul(x, b1));
    x = v128.load32_splat(p, 44);
    c30 = f32x4.add(c30, f32x4.mul(x, b0));
    c31 = f32x4.add(c31, f32x4.mul(x, b1));
  }
  const s = f32x4.add(
    f32x4.add(f32x4.add(c00, c01), f32x4.add(c10, c11)),
    f32x4.add(f32x4.add(c20, c21), f32x4.add(c30, c31)),
  );
  return f32x4.extract_lane(s, 0) + f32x4.extract_lane(s, 1) + f32x4.extract_lane(s, 2) + f32x4.extract_lane(s, 3);
}

/**
 * Single-core SIMD peak probe, registers only: 12 independent chains x = x · m + c of f32x4 (8
 * flops each an iteration, 96 in all), `iters` times; returns a sum of the chains so none can be
 * dropped. Each chain's add waits for its multiply: on a core where that latency outlasts the
 * issue of 12 chains' operations, this reads below mm_peak_sums.
 */
export function mm_peak_chains(iters: i32): f32 {
  const m = f32x4.splat(0.999);
  const c = f32x4.splat(0.001);
  let x0 = f32x4.splat(0.1);
  let x1 = f32x4.splat(0.2);
  let x2 = f32x4.splat(0.3);
  let x3 = f32x4.splat(0.4);
  let x4 = f32x4.splat(0.5);
  let x5 = f32x4.splat(0.6);
  let x6 = f32x4.splat(0.7);
  let x7 = f32x4.splat(0.8);
  let x8 = f32x4.splat(0.9);
  let x9 = f32x4.splat(1.1);
  let x10 = f32x4.splat(1.2);
  let x11 = f32x4.splat(1.3);
  for (let i = 0; i < iters; i++) {
    x0 = f32x4.add(f32x4.mul(x0, m), c);
    x1 = f32x4.add(f32x4.mul(x1, m), c);
    x2 = f32x4.add(f32x4.mul(x2, m), c);
    x3 = f32x4.add(f32x4.mul(x3, m), c);
    x4 = f32x4.add(f32x4.mul(x4, m), c);
    x5 = f32x4.add(f32x4.mul(x5, m), c);
    x6 = f32x4.add(f32x4.mul(x6, m), c);
    x7 = f32x4.add(f32x4.mul(x7, m), c);
    x8 = f32x4.add(f32x4.mul(x8, m), c);
    x9 = f32x4.add(f32x4.mul(x9, m), c);
    x10 = f32x4.add(f32x4.mul(x10, m), c);
    x11 = f32x4.add(f32x4.mul(x11, m), c);
  }
  const s = f32x4.add(
    f32x4.add(f32x4.add(f32x4.add(x0, x1), f32x4.add(x2, x3)), f32x4.add(f32x4.add(x4, x5), f32x4.add(x6, x7))),
    f32x4.add(f32x4.add(x8, x9), f32x4.add(x10, x11)),
  );
  return f32x4.extract_lane(s, 0) + f32x4.extract_lane(s, 1) + f32x4.extract_lane(s, 2) + f32x4.extract_lane(s, 3);
}
