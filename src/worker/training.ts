/**
 * One RL run inside the engine worker: builds the Trainer from the starting checkpoint, calls
 * `trainer.step()` in a loop, and honours pause / resume / step / stop / reset between steps (a step
 * in flight always finishes: the GPU work of a step cannot be abandoned halfway). Between steps it
 * yields a task, so control messages are read even on the CPU backend, whose steps never wait.
 *
 * Progress leaves through an Outbox (progress.ts) that batches everything new (metrics rows, trimmed
 * dialogues, the phase) into at most one message per OUTBOX_INTERVAL_MS; the page never waits on it.
 * Checkpoints go out on their own (every `checkpointEvery` steps and at the end), transferred.
 *
 * The benchmark (the first `evalProfiles` users; 0: all 100) is played on the starting policy before
 * step 1 and again at the end of a finished run; both go out with their breakdown by intention and
 * personality type, the fluency of the replies (src/rl/fluency.ts; surprisal under the reference
 * model the request names, left out without one) and the dialogues themselves, trimmed. A tiny run
 * should set few benchmark users: all 100 are minutes on a software adapter.
 *
 * Not here: fetching the checkpoint and the reference model (the worker passes a loader), storage
 * (the page saves runs).
 * No DOM: runs in the worker and, with the CPU backend, in Node tests.
 */
import type { Backend } from '../engine/backend';
import type { BenchmarkDialogue } from '../lab/benchmarkDialogues';
import { benchmarkBreakdown, type Breakdown } from '../lab/breakdown';
import { loadCheckpoint, type Checkpoint } from '../engine/model/checkpoint';
import { hasPresetShape, type ModelConfig } from '../engine/model/config';
import { WebGpuBackend } from '../engine/gpu/backend';
import { LAB_MATMUL_TUNING, tuneMatmuls } from '../engine/ops/matmul';
import { ProfileSchema, type Profile } from '../persona/profile';
import { BENCHMARK_COUNT, benchmarkProfiles, trainingProfiles } from '../persona/sets';
import type { RunConfig } from '../rl/config';
import { fluencyOf } from '../rl/fluency';
import { ReferenceLm } from '../rl/reference-lm';
import type { DialogueRollout, RolloutSummary } from '../rl/rollout';
import { Trainer, TrainingStopped } from '../rl/trainer';
import { Outbox, OUTBOX_INTERVAL_MS, TRANSCRIPTS_PER_STEP, trimBenchmarkDialogue, trimDialogue } from './progress';
import { tokenCredit } from './credit';
import type { FromWorker, TrainAction, TrainProgress, TrainStartRequest, TrainState } from './protocol';

export interface SessionIO {
  post(m: FromWorker, transfer?: Transferable[]): void;
  /** The bytes of a file of the lab's own origin: the starting checkpoint, the reference model. */
  load(url: string): Promise<Uint8Array>;
  /** Yield a task so queued messages are read (setTimeout 0 in the worker). */
  yieldTask?(): Promise<void>;
}

/** A benchmark as the page keeps it: the summary (with the replies' fluency), its breakdown, the dialogues. */
interface BenchmarkResult {
  summary: Record<string, number>;
  breakdown: Breakdown;
  dialogues: BenchmarkDialogue[];
}

/**
 * Play the first n benchmark users (0: all) with the trainer's policy: the summary (the score, and
 * the replies' fluency: `hackingShare` is the hacking check's share, surprisal NaN without a
 * reference model), its breakdown and the trimmed dialogues.
 */
async function playBenchmark(trainer: Trainer, n: number, lm: ReferenceLm | null): Promise<BenchmarkResult> {
  const profiles = benchmarkProfiles().slice(0, n);
  const ev = await trainer.evaluate(profiles);
  return benchmarkResult(ev, profiles, lm);
}

/** A benchmark's rollouts as the page keeps them (a rollout whose user is not in `profiles` has no dialogue kept). */
export function benchmarkResult(
  ev: RolloutSummary & { rollouts: DialogueRollout[]; seconds: number },
  profiles: readonly Profile[],
  lm: ReferenceLm | null,
): BenchmarkResult {
  const f = fluencyOf(ev.rollouts, profiles, lm, { maxExamples: 0 });
  const byId = new Map(profiles.map((p) => [p.id, p]));
  return {
    summary: {
      score: ev.score,
      success: ev.success,
      failure: ev.failure,
      meanTurns: ev.meanTurns,
      meanReplyTokens: ev.meanReplyTokens,
      dialogues: ev.dialogues,
      seconds: ev.seconds,
      realWords: f.realWords,
      hackingShare: f.hacking.share,
      surprisal: f.surprisal,
      surprisalCorpus: lm ? lm.heldOut.surprisal : NaN,
      oov: f.oov,
      distinct2: f.distinct2,
      meanReplyWords: f.meanReplyWords,
    },
    breakdown: benchmarkBreakdown(ev.rollouts, profiles),
    dialogues: ev.rollouts.flatMap((d) => {
      const p = byId.get(d.profileId);
      return p ? [trimBenchmarkDialogue(d, p)] : [];
    }),
  };
}

/** A benchmark of the policy of `step` as the "after" of progress. */
function afterOf(ev: BenchmarkResult, step: number): Partial<TrainProgress> {
  return {
    benchmarkAfter: { ...ev.summary, step },
    breakdownAfter: ev.breakdown,
    benchmarkDialoguesAfter: ev.dialogues,
  };
}

/**
 * A checkpoint after the first step and then at least this often, on every backend, even when the
 * config asks for none: a reload, a closed tab or a lost device then loses at most this much.
 */
const SAFETY_CHECKPOINT_MS = 60_000;

/** The tiny run the compile phase plays once on a throwaway trainer: every kernel the run needs, on small shapes. */
function warmUpConfig(config: RunConfig): RunConfig {
  return {
    ...config,
    steps: 1,
    profilesPerStep: 1,
    groupSize: 2,
    maxAgentTurns: 1,
    maxTurnTokens: 4,
    minibatchSize: 2,
    epochs: 1,
    evalEvery: 0,
    checkpointEvery: 0,
  };
}

/** Pipelines the backend has compiled so far (the WebGPU backend counts them; the CPU has none). */
function pipelinesOf(be: Backend): number {
  return (be as { stats?: { pipelinesCreated?: number } }).stats?.pipelinesCreated ?? 0;
}

/** The person's training users, checked against the profile schema; a bad one is refused with the reason. */
function checkTrainingProfiles(raw: readonly unknown[]): Profile[] {
  if (raw.length === 0) throw new Error('the run names its own training users but gives none');
  return raw.map((p, i) => {
    const r = ProfileSchema.safeParse(p);
    if (r.success) return r.data;
    const why = r.error.issues
      .slice(0, 3)
      .map((x) => `${x.path.join('.') || '(profile)'}: ${x.message}`)
      .join('; ');
    throw new Error(
      `training user ${i + 1} does not match the profile schema (${why}); fix it in Play → "Write a user of your own"`,
    );
  });
}

export class TrainSession {
  /** What the person asked for last; read between steps. */
  private target: 'run' | 'pause' | 'one-step' | 'stop' | 'reset';
  /** Evaluate now was asked for: the benchmark is played between steps, then the session goes on. */
  private evaluateAsked = false;
  private wake: (() => void) | null = null;
  private readonly out: Outbox;
  /** Why the GPU device was lost, once it was: the run ends at the next chance. */
  private lostWhy: string | null = null;
  state: TrainState = 'loading';
  /** Steps completed (the resumed-from step included). */
  step = 0;
  /** performance.now() when the session ended (null while it runs). */
  endedAt: number | null = null;
  readonly finished: Promise<void>;

  constructor(
    private readonly be: Backend,
    readonly req: TrainStartRequest,
    private readonly io: SessionIO,
  ) {
    this.target = req.mode === 'step' ? 'one-step' : 'run';
    this.out = new Outbox(io.post, {
      runId: req.runId,
      state: 'loading',
      phase: req.resumeFrom ? 'Loading the checkpoint' : 'Loading the warm start',
      step: 0,
      steps: req.config.steps,
    });
    this.finished = this.run();
  }

  get runId(): string {
    return this.req.runId;
  }

  get ended(): boolean {
    return this.state === 'done' || this.state === 'stopped' || this.state === 'failed' || this.state === 'reset';
  }

  /** Stop or Reset was asked for: the session ends after the step in flight. */
  get ending(): boolean {
    return this.target === 'stop' || this.target === 'reset';
  }

  control(action: TrainAction): void {
    // Stop and Reset are final: nothing after them changes the course.
    if (this.ended || this.ending) return;
    if (action === 'evaluate') this.evaluateAsked = true;
    else if (action === 'pause') this.target = 'pause';
    else if (action === 'resume') this.target = 'run';
    else if (action === 'step') this.target = 'one-step';
    else this.target = action;
    this.wake?.();
  }

  /** The GPU device is gone: end the run now (a paused one too); its last checkpoint is where it resumes. */
  lose(why: string): void {
    if (this.ended) return;
    this.lostWhy = why;
    this.wake?.();
  }

  /** The reference model of the corpus's replies; one that cannot be loaded fails the start, saying why. */
  private async loadReferenceModel(url: string): Promise<ReferenceLm> {
    const name = new URL(url).pathname.split('/').pop() ?? url;
    let bytes: Uint8Array;
    try {
      bytes = await this.io.load(url);
    } catch (e) {
      throw new Error(`could not load the reference model ${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
    return ReferenceLm.parse(new TextDecoder().decode(bytes), name);
  }

  private async run(): Promise<void> {
    const { config } = this.req;
    const yieldTask = this.io.yieldTask ?? (() => new Promise<void>((r) => setTimeout(r, 0)));
    let trainer: Trainer | null = null;
    let tuned = false;
    const say = (state: TrainState, phase: string, extra: Partial<TrainProgress> = {}) => {
      this.state = state;
      this.out.update({ state, phase, step: this.step, live: null, ...extra });
    };
    const checkLost = () => {
      if (this.lostWhy !== null) throw new Error(this.lostWhy);
    };
    const onGpu = this.be.name === 'webgpu';
    let lastCheckpointAt = performance.now();
    /** A fresh run checkpoints after its first step, so a reload right after it can resume. */
    let checkpointed = Boolean(this.req.resumeFrom);
    try {
      this.out.update({});
      const sameShape = (c: ModelConfig) => hasPresetShape(c, config.preset);
      let warm: Checkpoint | null;
      try {
        warm = loadCheckpoint(await this.io.load(this.req.start));
      } catch (e) {
        // A resumed run needs its warm start only as the KL reference; without it the checkpoint stands in.
        if (!this.req.resumeFrom) throw e;
        warm = null;
      }
      if (warm && !sameShape(warm.config)) {
        throw new Error(
          `the starting checkpoint holds a model of another shape than the ${config.preset} preset; choose its own preset or another start`,
        );
      }
      let start = warm;
      let resumeStep = 0;
      if (this.req.resumeFrom) {
        const ck = loadCheckpoint(new Uint8Array(this.req.resumeFrom));
        const steps = ck.meta?.steps;
        if (ck.meta?.kind !== 'rl' || typeof steps !== 'number' || !Number.isInteger(steps) || steps < 0) {
          throw new Error('the checkpoint to resume from is not an RL checkpoint of a run (no step count in it)');
        }
        if (!sameShape(ck.config))
          throw new Error(
            `the checkpoint to resume from holds a model of another shape than the ${config.preset} preset`,
          );
        if (steps >= config.steps)
          throw new Error(`the checkpoint is already at step ${steps} of ${config.steps}: nothing is left to train`);
        start = ck;
        resumeStep = steps;
      }
      if (!start) throw new Error('no starting checkpoint');
      const profiles = this.req.profiles ? checkTrainingProfiles(this.req.profiles) : trainingProfiles();
      const lm = this.req.referenceModel ? await this.loadReferenceModel(this.req.referenceModel) : null;
      const byId = new Map(profiles.map((p) => [p.id, p]));
      const evalN = config.evalProfiles === 0 ? BENCHMARK_COUNT : config.evalProfiles;
      if (onGpu) {
        // Compile the pipelines of a training step before the run starts: one tiny step (one user,
        // two dialogues of one short reply, one update) on a throwaway trainer, so the wait has its own
        // label and step 1 is timed like the others. Its rollout compiles the sampler the benchmark uses.
        const t0 = performance.now();
        const before = pipelinesOf(this.be);
        say('running', 'Compiling kernels');
        const tick = setInterval(
          () => say('running', `Compiling kernels (${pipelinesOf(this.be) - before} compiled)`),
          OUTBOX_INTERVAL_MS,
        );
        try {
          const scratch = new Trainer(this.be, {
            config: warmUpConfig(config),
            start,
            trainProfiles: profiles.slice(0, 1),
          });
          try {
            await scratch.step();
          } finally {
            scratch.release(); // its memory serves the run's own trainer
          }
        } finally {
          clearInterval(tick);
        }
        checkLost();
        say(
          'running',
          `Compiled ${pipelinesOf(this.be) - before} kernels in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );
      }
      // Resumed: AdamW goes on from the checkpoint's state where it has one (older checkpoints hold
      // weights only: the moments then start afresh).
      const optimizer = this.req.resumeFrom ? start.optimizer : undefined;
      trainer = new Trainer(this.be, {
        config,
        start,
        trainProfiles: profiles,
        ...(this.req.resumeFrom && warm ? { reference: warm } : {}),
        ...(optimizer ? { optimizer } : {}),
      });
      trainer.stepsDone = resumeStep;
      const t = trainer;
      // The phase goes out before the benchmark starts: the outbox would otherwise hold it for its
      // interval, the benchmark may not yield to a timer (the CPU backend), and the next phase would
      // replace it unseen, so the page would show the old phase all through the evaluation.
      const benchmark = (phase: string): Promise<BenchmarkResult> => {
        say('running', phase);
        this.out.flush();
        return playBenchmark(t, evalN, lm);
      };
      this.step = resumeStep;
      trainer.onRound = (kind, dialogues, live) => {
        const preview =
          kind === 'train' && dialogues[0]
            ? trimDialogue(dialogues[0], this.step + 1, 0, config.groupSize, byId.get(dialogues[0].profileId))
            : undefined;
        if (preview && live[0]) preview.endReason = 'playing';
        this.out.update({
          live: {
            kind,
            round: Math.max(0, ...dialogues.map((d) => d.turns.length)),
            ended: live.filter((x) => !x).length,
            total: dialogues.length,
            ...(preview ? { preview } : {}),
          },
        });
      };
      if (resumeStep === 0) {
        // Before: the starting policy on the benchmark, so the end has something to be compared with.
        const before = await benchmark(`Evaluating on ${evalN} benchmark users (before training)`);
        this.out.update({
          benchmarkBefore: before.summary,
          breakdownBefore: before.breakdown,
          benchmarkDialoguesBefore: before.dialogues,
        });
        // Out now: step 1 may hold the thread longer than the outbox's timer waits, and the page
        // should show the starting score while the first step runs, not after it.
        this.out.flush();
      } else {
        say('running', `Resuming from the checkpoint of step ${resumeStep}`);
      }
      for (;;) {
        checkLost();
        if (this.target === 'reset') {
          say('reset', `Reset after step ${this.step}`);
          break;
        }
        if (this.evaluateAsked && !this.ending) {
          this.evaluateAsked = false;
          const back = this.state;
          const ev = await benchmark(`Evaluating the policy of step ${this.step} on ${evalN} benchmark users`);
          checkLost();
          this.out.update(afterOf(ev, this.step));
          if (back === 'paused') say('paused', `Paused after step ${this.step}; evaluated`);
          continue;
        }
        if (this.target === 'stop' || this.step >= config.steps) {
          const done = this.step >= config.steps;
          let after: Partial<TrainProgress> = {};
          if (done) {
            const ev = await benchmark(`Evaluating on ${evalN} benchmark users (after training)`);
            after = afterOf(ev, this.step);
          }
          say('running', 'Saving the checkpoint', after);
          await this.sendCheckpoint(trainer, this.step, true);
          say(done ? 'done' : 'stopped', done ? `Done: ${this.step} steps` : `Stopped after step ${this.step}`);
          break;
        }
        if (this.target === 'pause') {
          if (this.state !== 'paused') say('paused', `Paused after step ${this.step}`);
          await new Promise<void>((r) => (this.wake = r));
          this.wake = null;
          continue;
        }
        say('running', `Training step ${this.step + 1} of ${config.steps}`);
        const r = await trainer.step();
        checkLost();
        if (!tuned && this.be instanceof WebGpuBackend) {
          // The first step has used every matmul shape of this run: time the big-matmul kernels
          // (tiled, regs, regs8) on the most used ones and keep the fastest (they give the same
          // bits, so no number moves).
          tuned = true;
          say('running', 'Choosing the fastest matmul kernels for this GPU');
          await tuneMatmuls(this.be, LAB_MATMUL_TUNING);
          checkLost();
        }
        this.step = r.step;
        const step = this.step;
        const row: Record<string, number> = { step, ...r.metrics };
        if (config.evalEvery > 0 && step % config.evalEvery === 0 && step < config.steps) {
          say('running', `Evaluating on ${evalN} benchmark users`);
          const ev = await trainer.evaluate(benchmarkProfiles().slice(0, evalN));
          Object.assign(row, { 'eval/score': ev.score, 'eval/success': ev.success, 'eval/failure': ev.failure });
        }
        const credit = await tokenCredit(trainer, r.dialogues, TRANSCRIPTS_PER_STEP);
        checkLost();
        const dialogues = r.dialogues
          .slice(0, TRANSCRIPTS_PER_STEP)
          .map((d, i) => trimDialogue(d, step, i, config.groupSize, byId.get(d.profileId), credit[i], config.groupAt));
        this.out.update({ step }, [row], dialogues);
        const asked = config.checkpointEvery > 0 && step % config.checkpointEvery === 0;
        const safety = !checkpointed || performance.now() - lastCheckpointAt >= SAFETY_CHECKPOINT_MS;
        if ((asked || safety) && step < config.steps) {
          say('running', 'Saving the checkpoint');
          await this.sendCheckpoint(trainer, step, false);
          lastCheckpointAt = performance.now();
          checkpointed = true;
        }
        if (this.target === 'one-step') this.target = 'pause';
        await yieldTask();
      }
    } catch (e) {
      const lost = this.lostWhy;
      const message = lost ?? (e instanceof Error ? e.message : String(e));
      this.io.post({ type: 'train-error', runId: this.runId, step: this.step, message });
      if (!lost && e instanceof TrainingStopped && trainer) {
        // The weights are the last good step's: keep them as the run's checkpoint.
        try {
          await this.sendCheckpoint(trainer, this.step, true);
        } catch {
          // the message above already says why the run stopped
        }
      }
      say(
        'failed',
        lost
          ? `GPU device lost after step ${this.step}: resume from the last checkpoint`
          : e instanceof TrainingStopped
            ? `Stopped: ${message}`
            : `Failed: ${message}`,
      );
    } finally {
      try {
        trainer?.release();
      } catch {
        // a lost device cannot take buffers back; nothing to keep
      }
      this.endedAt = performance.now();
      this.out.flush();
    }
  }

  /**
   * Post the run's checkpoint of `step`. Every checkpoint a run may go on from (steps left) carries
   * AdamW's state (three times the bytes); a finished run's last one holds the weights alone.
   */
  private async sendCheckpoint(trainer: Trainer, step: number, final: boolean): Promise<void> {
    const bytes = await trainer.checkpoint({ runId: this.runId }, { optimizer: step < this.req.config.steps });
    const buffer =
      bytes.buffer.byteLength === bytes.byteLength
        ? (bytes.buffer as ArrayBuffer)
        : (bytes.slice().buffer as ArrayBuffer);
    this.io.post({ type: 'train-checkpoint', runId: this.runId, step, final, bytes: buffer }, [buffer]);
  }
}
