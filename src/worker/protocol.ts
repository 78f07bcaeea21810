/**
 * The typed message protocol between the page and the engine worker. The page never touches GPU
 * buffers; it sends requests and receives plain, structured-cloneable results.
 */
import type { AdapterSummary, GpuFailure } from '../engine/gpu/context';
import type { BackendName } from '../engine/backend';

import type { PresetName } from '../engine/model/config';
import type { WarmStartProgress } from '../experiment/warmstart';
import type { BenchmarkDialogue } from '../lab/benchmarkDialogues';
import type { Breakdown } from '../lab/breakdown';
import type { IntentionId } from '../persona/profile';
import type { RunConfig } from '../rl/config';

export interface WarmStartRequest {
  preset: PresetName;
  seed: number;
  steps: number;
  dialogues: number;
}

export interface DemoRequest {
  /** Absolute URL of a checkpoint on the lab's own origin, or 'last' for the warm start just trained. */
  checkpoint: string;
  /** The checkpoint's bytes (an RL run's, from the page's run store); when given, `checkpoint` only names it. */
  checkpointBytes?: ArrayBuffer;
  profileId: string;
  /** A user written in Play's form (checked against the profile schema in the worker), played instead of a benchmark one. */
  profile?: unknown;
  /** Agent turns to play (1..10). */
  turns: number;
  seed: number;
}

/** Start an RL run: a new Trainer from the starting checkpoint, then steps until paused, stopped or done. */
export interface TrainStartRequest {
  /** The page's id for the run (also its key in the run store); every reply carries it. */
  runId: string;
  config: RunConfig;
  /** Absolute URL of a checkpoint on the lab's own origin, or 'last' for the warm start trained in this tab. */
  start: string;
  /**
   * Absolute URL of the reference model of the corpus's replies (public/reference-lm.json) on the
   * lab's own origin: the benchmark's surprisal. Without it the benchmark leaves surprisal out.
   */
  referenceModel?: string;
  /** 'run': step until paused or done; 'step': one step, then pause (the Step button before any run). */
  mode: 'run' | 'step';
  /**
   * Resume: the run's last checkpoint (an RL checkpoint of this run). Training goes on from the step
   * in its meta to `config.steps`; `start` then names the warm start the run began from (the frozen
   * reference of the KL penalty). The benchmark before is not played again.
   */
  resumeFrom?: ArrayBuffer;
  /**
   * Training users written by a person (the Play view's form), instead of the standard training set.
   * Checked against the profile schema in the worker; a bad one fails the start with the reason.
   */
  profiles?: unknown[];
}

/**
 * Controls of a running session, honoured between steps (a step in flight always finishes):
 * pause, resume, step (one step, then pause), stop (save a checkpoint and end), reset (end without
 * saving; the page starts the next run from the same seed and starting weights), evaluate (play the
 * benchmark on the policy as it is now, then go on as before: running or paused).
 */
export type TrainAction = 'pause' | 'resume' | 'step' | 'stop' | 'reset' | 'evaluate';

/** Score a saved checkpoint on the benchmark (a run with no open session: stopped, done, interrupted). */
export interface EvaluateRequest {
  runId: string;
  /** The run's checkpoint bytes (transferred). */
  checkpoint: ArrayBuffer;
  /** Benchmark users to play (the first n; 0: all). */
  evalProfiles: number;
  think: boolean;
  /** URL of the reference model the replies' surprisal is read with (the lab's own origin); none: NaN. */
  referenceModel?: string;
}

export type ToWorker =
  | { type: 'probe'; force: BackendForce }
  | { type: 'warm-start'; request: WarmStartRequest }
  /** Stop the warm start at its next progress report (between steps); it answers 'warm-start-cancelled'. */
  | { type: 'warm-start-cancel' }
  | { type: 'demo-dialogue'; request: DemoRequest }
  | { type: 'train-start'; request: TrainStartRequest }
  | { type: 'train-control'; runId: string; action: TrainAction }
  | { type: 'evaluate-checkpoint'; request: EvaluateRequest }
  /** Test hook (the page sends it only with ?testHooks=1 in its URL): destroy the GPU device, as a driver reset would lose it. */
  | { type: 'test-lose-device' };

/** One line of a played dialogue, with the user's appraisal of each agent reply. */
export interface DemoLine {
  role: 'user' | 'agent';
  text: string;
  think?: string;
  change?: number;
  emotion?: number;
  /** The appraisal's five parts, for the agent's turns. */
  appraisal?: { intent: string; fit: string; inner: string; feeling: string };
}

export interface DemoReport {
  checkpointMeta: Record<string, unknown>;
  profileId: string;
  startEmotion: number;
  finalEmotion: number;
  lines: DemoLine[];
  seconds: number;
}

export interface WarmStartReport {
  backend: BackendName;
  seconds: number;
  perplexityBefore: number;
  perplexityAfter: number;
  uniformPerplexity: number;
  losses: number[];
  /** The checkpoint file (transferred, not copied). */
  checkpoint: ArrayBuffer;
}

/** One agent turn of a dialogue as the page shows it: the reply and the user's reaction. */
export interface TranscriptTurn {
  reply: string;
  /** The think block, in think mode. */
  think: string | null;
  wellFormed: boolean;
  /** The user's signed change and new emotion. */
  change: number;
  emotion: number;
  /** The user's next line. */
  line: string;
  /** The appraisal, without its detector details (too long to move every step). */
  appraisal: { intent: string; fit: string; inner: string; feeling: string; reaction: string; needMet: boolean };
  /**
   * What the step's update did with each token of the reply (credit.ts): its text and weight
   * (GRPO/RLOO the advantage; PPO the advantage times the clipped ratio). Absent where not recorded.
   */
  credit?: { tokens: string[]; values: number[] };
}

/** A transcript's intention when its profile is not among the run's users (nothing is guessed). */
export const UNKNOWN_INTENTION = 'unknown profile';

/**
 * A training dialogue trimmed for transfer and storage: texts capped, detectors dropped, the hidden
 * intention named (the policy never saw it; the person watching may). Kept as the run's transcripts.
 */
export interface TranscriptItem {
  step: number;
  /** Position in its step's batch, and its group (dialogues of a group share profile and opening). */
  index: number;
  group: number;
  profileId: string;
  /** Who the user is, in a few words ("Maya, 34: work"). */
  who: string;
  /** The user's hidden intention; UNKNOWN_INTENTION when the profile is not among the run's users. */
  intention: IntentionId | typeof UNKNOWN_INTENTION;
  intentionSummary: string;
  opening: string;
  startEmotion: number;
  finalEmotion: number;
  reward: number;
  /** 'success' / 'failure' (the emotion reached 100 / fell below 10), 'cap' or 'limit' (turns ran out). */
  endReason: string;
  turns: TranscriptTurn[];
  /**
   * Runs that group at the turn (groupAt 'turn'): which of the group's replies at each turn this
   * row holds. 0 is the dialogue itself; the others are replies written beside it to the same
   * history, each with what the user, as it was before the turn, said to it.
   */
  sibling?: number;
}

/** Where a session is. 'loading': fetching and building the model; terminal: done, stopped, failed, reset. */
export type TrainState = 'loading' | 'running' | 'paused' | 'done' | 'stopped' | 'failed' | 'reset';

/** Inside a step: the dialogues being played (the training rollout or the benchmark), round by round. */
export interface LiveProgress {
  kind: 'train' | 'benchmark';
  /** Rounds played: replies so far in the longest dialogue. */
  round: number;
  /** Dialogues over, of `total`. */
  ended: number;
  total: number;
  /** The first dialogue of a training rollout as far as it has gone (endReason 'playing' while it goes on). */
  preview?: TranscriptItem;
}

/** A batch of progress, posted at most ~10 times a second: everything new since the last one. */
export interface TrainProgress {
  runId: string;
  state: TrainState;
  /** What is happening, in words ("Training step 3 of 40"). */
  phase: string;
  /** Steps completed, and the run's total. */
  step: number;
  steps: number;
  /** New metrics rows (`step` plus the trainer's `namespace/name` keys), in order. */
  rows: Record<string, number>[];
  /** New dialogues (each with its step), in order; at most TRANSCRIPTS_PER_STEP per step. */
  dialogues: TranscriptItem[];
  /** The benchmark played on the starting policy, before step 1 (the first `evalProfiles` users; 0: all). */
  benchmarkBefore?: Record<string, number>;
  /**
   * The benchmark played at the end of a finished run, or when the page asked (Evaluate now); its
   * `step` says on the policy of which step.
   */
  benchmarkAfter?: Record<string, number>;
  /** Those benchmarks broken down by the users' intention and personality type. */
  breakdownBefore?: Breakdown;
  breakdownAfter?: Breakdown;
  /** Those benchmarks' dialogues, one per user, trimmed (the Evaluate panel compares them side by side). */
  benchmarkDialoguesBefore?: BenchmarkDialogue[];
  benchmarkDialoguesAfter?: BenchmarkDialogue[];
  /** What is being played inside the current step (null between rollouts). */
  live?: LiveProgress | null;
}

export interface SelfTest {
  ok: boolean;
  /** Largest |gpu − cpu| over the check. */
  maxAbsErr: number;
  detail: string;
}

/** What the page asks the probe for: the CPU path, WebGPU even on a software adapter, or the best (null). */
export type BackendForce = 'cpu' | 'webgpu' | null;

/** A software WebGPU adapter against the CPU: one short forward pass timed on each. */
export interface BackendChoice {
  chose: BackendName;
  cpuMs: number;
  gpuMs: number;
  /** The software adapter's line. */
  adapter: string;
}

export type FromWorker =
  | {
      type: 'backend';
      backend: BackendName;
      /** The one line the lab shows about where it runs. */
      line: string;
      adapter: AdapterSummary | null;
      /** Why the lab is on the CPU, when it is. */
      failure: GpuFailure | null;
      selfTest: SelfTest | null;
      /** Where the only adapter is a software one: the timed comparison that chose the backend. */
      choice?: BackendChoice;
    }
  | { type: 'warm-start-progress'; phase: WarmStartProgress['phase']; step: number; steps: number; loss: number | null }
  | { type: 'warm-start-done'; report: WarmStartReport }
  | { type: 'warm-start-failed'; message: string }
  | { type: 'warm-start-cancelled' }
  | { type: 'demo-done'; report: DemoReport }
  | { type: 'demo-failed'; message: string }
  | {
      type: 'evaluate-done';
      runId: string;
      /** The checkpoint's step. */
      step: number;
      summary: Record<string, number>;
      breakdown: Breakdown;
      /** The benchmark's dialogues, one per user, trimmed. */
      dialogues: BenchmarkDialogue[];
    }
  | { type: 'evaluate-failed'; runId: string; message: string }
  | ({ type: 'train-progress' } & TrainProgress)
  /** A checkpoint of the run (every checkpointEvery steps, and at the end); the bytes are transferred. */
  | { type: 'train-checkpoint'; runId: string; step: number; final: boolean; bytes: ArrayBuffer }
  /** The run could not go on (a non-finite loss: the weights are back at the last good step; or an error). */
  | { type: 'train-error'; runId: string; step: number; message: string }
  /**
   * The GPU device was lost. An open run ends ('failed', its step in flight lost) and says so in
   * `runId`/`step`; the worker asks for a new device at once (a 'backend' message follows), so the
   * run can be resumed from its last checkpoint.
   */
  | { type: 'device-lost'; message: string; runId?: string; step?: number }
  | { type: 'error'; message: string };
