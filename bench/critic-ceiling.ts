/**
 * `npx tsx bench/critic-ceiling.ts [--checkpoint F] [--batches N] [--json]`: how much of the PPO
 * returns' variance a critic could explain on the `ci` recipe's rollouts, measured rather than
 * hoped. Plays N + 1 training batches (the ci defaults: 8 profiles × 4 dialogues, temperature 0.7,
 * reward `both`, γ = λ = 1, so the returns are Monte-Carlo), fits each predictor by least squares on
 * the first N batches and reports its explained variance 1 − Var(R − V)/Var(R) on the last one (the
 * figure `value/explained_variance` reports in training: a prediction on fresh dialogues):
 *
 *   head      a linear value head on the policy's final hidden states (what our critic is), at
 *             its best (ridge, the best of several penalties);
 *   position  the token's position in its sequence alone;
 *   oracle    the simulated user's true current emotion and the turn index, which no critic sees.
 *
 * The oracle bounds what reading the user's state can give: the rest of a return's variance is the
 * outcome of the turns not yet sampled. Nothing here is a test. CPU backend, Node.
 */
import { readFileSync } from 'node:fs';
import { CpuBackend } from '../src/engine/cpu/backend';
import { loadCheckpoint } from '../src/engine/model/checkpoint';
import { Tokenizer } from '../src/engine/model/tokenizer';
import { Transformer } from '../src/engine/model/transformer';
import { Rng } from '../src/engine/rng';
import { trainingProfiles } from '../src/persona/sets';
import { computeCredit, explained } from '../src/rl/advantages';
import { buildSequences, turnSpans } from '../src/rl/batch';
import { defaultRunConfig } from '../src/rl/config';
import { rollout } from '../src/rl/rollout';
import { packSamples } from '../src/rl/samples';

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const checkpoint = flag('--checkpoint') ?? 'public/warmstart-ci.bin';
const batches = Number(flag('--batches') ?? 2);
if (!(Number.isInteger(batches) && batches >= 1)) throw new Error('--batches must be a positive integer');

interface Rows {
  hidden: number[][];
  position: number[][];
  oracle: number[][];
  returns: number[];
}

const ck = loadCheckpoint(new Uint8Array(readFileSync(checkpoint)));
const be = new CpuBackend();
const model = new Transformer(be, ck.config, ck.weights, { frozen: true });
const tok = Tokenizer.fromJSON(ck.tokenizer);
const c = { ...defaultRunConfig('ci'), profilesPerStep: 8 };
const profiles = trainingProfiles();
const order = new Rng(`profiles:${c.seed}`).shuffle(profiles.map((_, i) => i));

async function batch(k: number): Promise<Rows> {
  const rng = new Rng(`step:${c.seed}:${k}`);
  const ps = order.slice(k * c.profilesPerStep, (k + 1) * c.profilesPerStep).map((i) => profiles[i]);
  const dialogues = await rollout(
    model,
    tok,
    ps.flatMap((p) => Array.from({ length: c.groupSize }, () => p)),
    {
      mode: 'train',
      difficulty: c.difficulty,
      userSeed: rng.nextU32() % 1_000_000,
      think: false,
      sampling: { temperature: c.temperature, topK: 0, topP: c.topP },
      maxTurnTokens: c.maxTurnTokens,
      maxAgentTurns: c.maxAgentTurns,
    },
    rng,
  );
  const { sequences, stream } = buildSequences(dialogues, ck.config.vocabSize);
  const credit = await computeCredit(be, dialogues, stream, new Float32Array(stream.N), {
    ...c,
    algo: 'ppo',
    normalizeAdvantages: false,
  });
  // The user's emotion before each stream token's turn, and the turn index.
  const emotion = new Float32Array(stream.N);
  const turn = new Float32Array(stream.N);
  dialogues.forEach((d, di) => {
    let e = d.turns.length ? d.turns[0].result.emotion - d.turns[0].result.change : 0;
    turnSpans(stream, di).forEach(([from, at], k) => {
      for (let i = from; i <= at; i++) [emotion[i], turn[i]] = [e, k];
      e = d.turns[k].result.emotion;
    });
  });
  const out: Rows = { hidden: [], position: [], oracle: [], returns: [] };
  const C = ck.config.channels;
  for (const s of sequences) {
    const mb = packSamples([s], ck.config.contextLength);
    const ids = be.fromArray(mb.ids, [mb.T]);
    const rows = be.fromArray(mb.rowIndex, [mb.tokens]);
    const h = await be.read(model.forwardRows(ids, 1, mb.T, rows, { grad: false }).hidden);
    s.stream.forEach((at, j) => {
      out.hidden.push([...h.subarray(j * C, (j + 1) * C), 1]);
      out.position.push([s.rows[j] / ck.config.contextLength, 1]);
      out.oracle.push([emotion[at] / 100, turn[at] / 8, 1]);
      out.returns.push(credit.returns[at]);
    });
  }
  return out;
}

/** Ridge regression by the normal equations (Gauss-Jordan with partial pivoting). */
function ridge(X: number[][], y: number[], lambda: number): number[] {
  const d = X[0].length;
  const A = Array.from({ length: d }, (_, i) => Array.from({ length: d + 1 }, (_, j) => (i === j ? lambda : 0)));
  X.forEach((x, n) => {
    for (let i = 0; i < d; i++) {
      A[i][d] += x[i] * y[n];
      for (let j = 0; j < d; j++) A[i][j] += x[i] * x[j];
    }
  });
  for (let i = 0; i < d; i++) {
    let p = i;
    for (let r = i + 1; r < d; r++) if (Math.abs(A[r][i]) > Math.abs(A[p][i])) p = r;
    [A[i], A[p]] = [A[p], A[i]];
    for (let r = 0; r < d; r++) {
      if (r === i) continue;
      const f = A[r][i] / A[i][i];
      for (let j = i; j <= d; j++) A[r][j] -= f * A[i][j];
    }
  }
  return A.map((row, i) => row[d] / row[i]);
}

const predict = (X: number[][], w: number[]) => X.map((x) => x.reduce((s, v, i) => s + v * w[i], 0));

const t0 = performance.now();
const played: Rows[] = [];
for (let k = 0; k <= batches; k++) {
  played.push(await batch(k));
  process.stderr.write(`batch ${k + 1}/${batches + 1}: ${played[k].returns.length} tokens\n`);
}
const test = played[batches];
const train = played.slice(0, batches);
const cat = (key: keyof Omit<Rows, 'returns'>) => train.flatMap((r) => r[key]);
const trainReturns = train.flatMap((r) => r.returns);
const figures: Record<string, number> = {};
for (const key of ['hidden', 'position', 'oracle'] as const) {
  let best = -Infinity;
  for (const lambda of [1e-4, 1e-2, 1, 100]) {
    best = Math.max(best, explained(test.returns, predict(test[key], ridge(cat(key), trainReturns, lambda))));
  }
  figures[key] = best;
}
const mean = test.returns.reduce((a, b) => a + b, 0) / test.returns.length;
const sd = Math.sqrt(test.returns.reduce((s, v) => s + (v - mean) ** 2, 0) / test.returns.length);
const result = {
  checkpoint,
  trainTokens: trainReturns.length,
  testTokens: test.returns.length,
  returnStd: sd,
  explainedVariance: figures,
  seconds: (performance.now() - t0) / 1000,
};
if (argv.includes('--json')) console.log(JSON.stringify(result));
else {
  console.log(`${checkpoint}: returns std ${sd.toFixed(3)} over ${test.returns.length} held-out tokens`);
  console.log(`explained variance on the held-out batch (fit on ${trainReturns.length} tokens):`);
  console.log(`  linear head on the final hidden states  ${figures.hidden.toFixed(3)}`);
  console.log(`  position in the sequence alone          ${figures.position.toFixed(3)}`);
  console.log(`  oracle: true emotion and turn index     ${figures.oracle.toFixed(3)}`);
}
