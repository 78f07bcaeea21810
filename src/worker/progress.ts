/**
 * What a training session sends the page while it runs: dialogues trimmed for transfer and storage
 * (trimDialogue; trimBenchmarkDialogue for the benchmark's, kept for the Evaluate panel), and the
 * Outbox that batches progress (metrics rows, dialogues, the phase, the benchmark) into at most one
 * message per OUTBOX_INTERVAL_MS.
 * Not here: the session itself (training.ts), which feeds them. No DOM.
 */
import { START_EMOTION } from '../persona/dynamics';
import { INTENTIONS, type Profile } from '../persona/profile';
import type { BenchmarkDialogue } from '../lab/benchmarkDialogues';
import type { AgentTurnSample, DialogueRollout } from '../rl/rollout';
import {
  UNKNOWN_INTENTION,
  type FromWorker,
  type TrainProgress,
  type TranscriptItem,
  type TranscriptTurn,
} from './protocol';

/** Progress messages at most ~10 a second (DESIGN/STYLE: metrics cross the boundary batched, <= 10 Hz). */
export const OUTBOX_INTERVAL_MS = 100;
/** Dialogues moved to the page per step: a step of 8 profiles x 4 is all of them; bigger batches are cut. */
export const TRANSCRIPTS_PER_STEP = 32;
/** Longest text kept per reply, line or appraisal part: a ci reply is ~50 characters, a user line ~200. */
export const TEXT_CAP = 600;

const cap = (s: string) => (s.length > TEXT_CAP ? `${s.slice(0, TEXT_CAP)}…` : s);

/** Who the user is, in a few words ("Maya, 34: work"). */
const whoOf = (p: Profile) => `${p.name}, ${p.age}: ${p.scenario.domain}`;

/** One agent turn as the page shows it: the reply; the user's change, emotion, line and appraisal (no detectors). */
function trimTurn(t: AgentTurnSample, credit?: TranscriptTurn['credit']): TranscriptTurn {
  const a = t.result.appraisal;
  return {
    reply: cap(t.reply),
    think: t.think === null ? null : cap(t.think),
    wellFormed: t.wellFormed,
    change: t.result.change,
    emotion: t.result.emotion,
    line: cap(t.result.line),
    appraisal: {
      intent: cap(a.intent),
      fit: cap(a.fit),
      inner: cap(a.inner),
      feeling: cap(a.feeling),
      reaction: a.reaction,
      needMet: a.needMet,
    },
    ...(credit ? { credit } : {}),
  };
}

/**
 * A rollout as the page shows it: texts capped, appraisal detectors dropped, the hidden need named
 * (UNKNOWN_INTENTION, and a summary that says so, when the profile is not among the run's users).
 */
export function trimDialogue(
  d: DialogueRollout,
  step: number,
  index: number,
  groupSize: number,
  profile: Profile | undefined,
  credit?: readonly { tokens: string[]; values: number[] }[],
  groupAt: 'dialogue' | 'turn' = 'dialogue',
): TranscriptItem {
  return {
    step,
    index,
    group: Math.floor(index / Math.max(1, groupSize)),
    profileId: d.profileId,
    who: profile ? whoOf(profile) : `${d.profileId} (unknown profile)`,
    // A dialogue whose profile is not among the run's users says so rather than guess an intention.
    intention: profile ? profile.intention : UNKNOWN_INTENTION,
    intentionSummary: profile
      ? INTENTIONS[profile.intention].summary
      : `unknown profile: "${d.profileId}" is not among this run's training users`,
    opening: cap(d.opening),
    startEmotion: START_EMOTION.train,
    finalEmotion: d.finalEmotion,
    reward: d.reward,
    endReason: d.endReason,
    turns: d.turns.map((t, k) => trimTurn(t, credit?.[k])),
    ...(groupAt === 'turn' ? { sibling: index % Math.max(1, groupSize) } : {}),
  };
}

/**
 * A benchmark dialogue as the page keeps it (the Evaluate panel's comparison): trimmed as the
 * transcripts are, without the training-only parts (step, group, reward, the update's credit).
 */
export function trimBenchmarkDialogue(d: DialogueRollout, profile: Profile): BenchmarkDialogue {
  return {
    profileId: d.profileId,
    who: whoOf(profile),
    intention: profile.intention,
    opening: cap(d.opening),
    startEmotion: START_EMOTION.benchmark,
    finalEmotion: d.finalEmotion,
    endReason: d.endReason,
    turns: d.turns.map((t) => trimTurn(t)),
  };
}

/** The benchmark results: each goes out once, with the next message. */
type Evaluations = Pick<
  TrainProgress,
  | 'benchmarkBefore'
  | 'benchmarkAfter'
  | 'breakdownBefore'
  | 'breakdownAfter'
  | 'benchmarkDialoguesBefore'
  | 'benchmarkDialoguesAfter'
>;
export type Head = Omit<TrainProgress, 'rows' | 'dialogues' | keyof Evaluations>;
const EVALUATION_KEYS = [
  'benchmarkBefore',
  'benchmarkAfter',
  'breakdownBefore',
  'breakdownAfter',
  'benchmarkDialoguesBefore',
  'benchmarkDialoguesAfter',
] as const;

/** Collects progress and posts it at most once per interval (the last state always goes out). */
export class Outbox {
  private rows: Record<string, number>[] = [];
  private dialogues: TranscriptItem[] = [];
  private evaluations: Evaluations = {};
  private last = -Infinity;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private head: Head;

  constructor(
    private readonly post: (m: FromWorker) => void,
    head: Head,
  ) {
    this.head = head;
  }

  update(
    head: Partial<Omit<TrainProgress, 'rows' | 'dialogues'>>,
    rows: Record<string, number>[] = [],
    dialogues: TranscriptItem[] = [],
  ): void {
    const rest: Partial<Head> & Evaluations = { ...head };
    for (const k of EVALUATION_KEYS) {
      if (rest[k]) Object.assign(this.evaluations, { [k]: rest[k] });
      delete rest[k];
    }
    this.head = { ...this.head, ...rest };
    this.rows.push(...rows);
    this.dialogues.push(...dialogues);
    const wait = this.last + OUTBOX_INTERVAL_MS - performance.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  /** Post now (the end of a session must not wait for a timer that may never run). */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.last = performance.now();
    const m: TrainProgress = { ...this.head, rows: this.rows, dialogues: this.dialogues, ...this.evaluations };
    this.rows = [];
    this.dialogues = [];
    this.evaluations = {};
    this.post({ type: 'train-progress', ...m });
  }
}
