/**
 * A demo dialogue: one benchmark user (or one written in Play's form) played against a checkpoint, reported line by line with the
 * user's appraisal of each reply (what the lab's Demo panel and Play show). The model is frozen and
 * released at the end, so watching many dialogues holds no memory.
 * Not here: where the checkpoint comes from, or the engine's one-job-at-a-time rule (engine.ts).
 */
import type { Backend } from '../engine/backend';
import { loadCheckpoint } from '../engine/model/checkpoint';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { ProfileSchema } from '../persona/profile';
import { benchmarkProfiles } from '../persona/sets';
import { playBenchmark } from '../rl/rollout';
import type { DemoLine, DemoReport, DemoRequest } from './protocol';

/** Play `req`'s benchmark user against the checkpoint in `bytes` on `be`. */
export async function playDemo(
  be: Backend,
  bytes: Uint8Array,
  req: Pick<DemoRequest, 'profileId' | 'turns' | 'seed' | 'profile'>,
): Promise<DemoReport> {
  const t0 = performance.now();
  const ck = loadCheckpoint(bytes);
  let profile = benchmarkProfiles().find((p) => p.id === req.profileId);
  if (req.profile !== undefined) {
    // A user written in Play's form: checked like any profile file.
    const r = ProfileSchema.safeParse(req.profile);
    if (!r.success)
      throw new Error(
        `the user written in the form does not match the profile schema (${r.error.issues
          .slice(0, 3)
          .map((x) => `${x.path.join('.') || '(profile)'}: ${x.message}`)
          .join('; ')})`,
      );
    profile = r.data;
  }
  if (!profile) throw new Error(`no benchmark profile "${req.profileId}"`);
  const model = new Transformer(be, ck.config, ck.weights, { frozen: true });
  const tok = Tokenizer.fromJSON(ck.tokenizer);
  let d;
  try {
    [d] = await playBenchmark(model, tok, [profile], {
      maxTurnTokens: 48,
      maxAgentTurns: Math.max(1, Math.min(10, req.turns)),
      seed: req.seed,
    });
  } finally {
    model.release(); // each demo's model goes back to the pool: watching many loses no memory
  }
  const lines: DemoLine[] = [{ role: 'user', text: d.opening }];
  for (const t of d.turns) {
    const a = t.result.appraisal;
    lines.push({
      role: 'agent',
      text: t.reply,
      ...(t.think !== null ? { think: t.think } : {}),
      change: t.result.change,
      emotion: t.result.emotion,
      appraisal: { intent: a.intent, fit: a.fit, inner: a.inner, feeling: a.feeling },
    });
    lines.push({ role: 'user', text: t.result.line });
  }
  return {
    checkpointMeta: ck.meta,
    profileId: profile.id,
    startEmotion: 40,
    finalEmotion: d.finalEmotion,
    lines,
    seconds: (performance.now() - t0) / 1000,
  };
}
