/**
 * `npm run bench:sampling [-- --json]`: host sampling on the CPU, what every rollout token costs
 * beside the model: ordering V candidates (the comparator sort of the spec, the earlier integer-key
 * sort of a Float64Array, and the radix sort `candidateOrder` uses) and one whole `sampleToken`
 * (order, weights, draw) at temperature 0.7, against the draw as it was before (key sort, arrays), for 64 rows of V logits shaped like a model's (normal,
 * spread 4). Median ms over 9 repetitions, each the 64 rows; `--json` prints the figures on the
 * last line.
 */
import { candidateOrder, candidateOrderRef, sampleToken } from '../src/engine/model/sampler';
import { Rng } from '../src/engine/rng';

const ROWS = 64;
const REPS = 9;

/** The integer-key sort candidateOrder used before the radix sort: one double per candidate, sorted natively. */
function keySortOrder(logits: Float32Array): number[] {
  const V = logits.length;
  const idBits = Math.max(1, Math.ceil(Math.log2(V)));
  const scale = 2 ** idBits;
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  const k = new Float64Array(V);
  for (let i = 0; i < V; i++) {
    f[0] = logits[i] + 0;
    const b = u[0];
    const asc = b & 0x80000000 ? ~b >>> 0 : (b | 0x80000000) >>> 0;
    k[i] = (0xfffffffe - asc) * scale + i;
  }
  k.sort();
  const out = new Array<number>(V);
  for (let i = 0; i < V; i++) out[i] = k[i] % scale;
  return out;
}

/** sampleToken as it was before (the key sort, then arrays of weights): the peer of the whole draw. */
function previousSampleToken(logits: Float32Array, temperature: number, rng: Rng): number {
  const idx = keySortOrder(logits);
  const max = logits[idx[0]];
  const probs = idx.map((i) => Math.exp((logits[i] - max) / temperature));
  const total = probs.reduce((a, b) => a + b, 0);
  let r = rng.next() * total;
  for (let k = 0; k < idx.length; k++) {
    r -= probs[k];
    if (r < 0) return idx[k];
  }
  return idx[idx.length - 1];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Median ms of each method over the rows, the methods taking turns each repetition (drift hits all alike). */
function timeAll<K extends string>(
  rows: Float32Array[],
  fs: Record<K, (r: Float32Array) => unknown>,
): Record<K, number> {
  const names = Object.keys(fs) as K[];
  const ms = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let rep = 0; rep < REPS + 1; rep++) {
    for (const k of names) {
      const t0 = performance.now();
      for (const r of rows) fs[k](r);
      if (rep > 0) ms[k].push(performance.now() - t0); // the first is a warm-up
    }
  }
  return Object.fromEntries(names.map((k) => [k, median(ms[k])])) as Record<K, number>;
}

function main(): void {
  const json = process.argv.includes('--json');
  const gen = new Rng('bench-sampling');
  const results = [];
  for (const V of [1024, 4096]) {
    const rows = Array.from({ length: ROWS }, () => Float32Array.from({ length: V }, () => gen.normal() * 4));
    for (const r of rows) {
      const a = candidateOrder(r);
      const b = keySortOrder(r);
      if (a.some((x, i) => x !== b[i])) throw new Error('the radix order differs from the key sort');
    }
    const rng = new Rng(1);
    const rng2 = new Rng(1);
    const t = timeAll(rows, {
      comparatorMs: candidateOrderRef,
      keySortMs: keySortOrder,
      radixMs: candidateOrder,
      sampleTokenMs: (r) => sampleToken(r, { temperature: 0.7, topK: 0, topP: 1 }, rng),
      previousSampleTokenMs: (r) => previousSampleToken(r, 0.7, rng2),
    });
    const row = { V, rows: ROWS, ...t };
    results.push(row);
    console.error(
      `V ${V}, ${ROWS} rows: comparator ${row.comparatorMs.toFixed(2)} ms, key sort ${row.keySortMs.toFixed(2)} ms, ` +
        `radix ${row.radixMs.toFixed(2)} ms (${(row.keySortMs / row.radixMs).toFixed(1)}× the key sort, ` +
        `${(row.comparatorMs / row.radixMs).toFixed(1)}× the comparator); sampleToken ${row.sampleTokenMs.toFixed(2)} ms, ` +
        `before ${row.previousSampleTokenMs.toFixed(2)} ms (${(row.previousSampleTokenMs / row.sampleTokenMs).toFixed(1)}×)`,
    );
  }
  if (json) console.log(JSON.stringify({ rows: results }));
}

main();
