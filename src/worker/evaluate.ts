/**
 * "Evaluate now" for a run with no open session (stopped early, interrupted, done): its saved
 * checkpoint plays the benchmark users as the trainer's own evaluation does (moderate users,
 * think turns under the turn grammar), and the result has the same summary and breakdown.
 * Not here: the open session's Evaluate now (training.ts plays it between steps on its own trainer).
 */
import type { Backend } from '../engine/backend';
import { loadCheckpoint } from '../engine/model/checkpoint';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { BENCHMARK_COUNT, benchmarkProfiles } from '../persona/sets';
import { playBenchmark, summariseRollouts } from '../rl/rollout';
import type { ReferenceLm } from '../rl/reference-lm';
import type { EvaluateRequest } from './protocol';
import { benchmarkResult } from './training';

export async function evaluateCheckpoint(
  be: Backend,
  req: Pick<EvaluateRequest, 'checkpoint' | 'evalProfiles' | 'think'>,
  lm: ReferenceLm | null,
): Promise<ReturnType<typeof benchmarkResult> & { step: number }> {
  const t0 = performance.now();
  const ck = loadCheckpoint(new Uint8Array(req.checkpoint));
  const steps = ck.meta?.steps;
  if (ck.meta?.kind !== 'rl' || typeof steps !== 'number')
    throw new Error('the checkpoint is not one of an RL run (it has no step count)');
  const profiles = benchmarkProfiles().slice(0, req.evalProfiles === 0 ? BENCHMARK_COUNT : req.evalProfiles);
  const model = new Transformer(be, ck.config, ck.weights, { frozen: true });
  try {
    const rollouts = await playBenchmark(model, Tokenizer.fromJSON(ck.tokenizer), profiles, {
      think: req.think,
      thinkGrammar: true, // as the trainer's own evaluation under the default config
    });
    const ev = { ...summariseRollouts(rollouts), rollouts, seconds: (performance.now() - t0) / 1000 };
    const r = benchmarkResult(ev, profiles, lm);
    return { ...r, summary: { ...r.summary, step: steps }, step: steps };
  } finally {
    model.release();
  }
}
