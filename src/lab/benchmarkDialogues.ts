/**
 * The benchmark dialogues a run keeps: every benchmark user's dialogue with the starting policy
 * (played before step 1) and with the latest evaluated one (after the last step, or Evaluate now),
 * trimmed as the transcripts are (texts capped; each reply with the user's change, emotion and the
 * appraisal's reasons; no token ids), for the Evaluate panel's side-by-side comparison.
 *
 * Bounded: at most BENCHMARK_COUNT dialogues a side, each at most the benchmark's turn cap, every
 * text capped (600 characters in the worker; the schema reads up to TEXT_MAX). All 100 users played
 * by the shipped micro warm start come to about 460 kB of JSON a side (790 replies, ~580 characters
 * each with its line and appraisal); the caps hold the worst case near 4 MB a side.
 *
 * The schema reads them from a run file without trusting it. Pure: no DOM.
 * Not here: trimming a rollout (the worker's progress.ts), storage (runs.ts), the file (runfile.ts).
 */
import { z } from 'zod';
import { TURN_CAP } from '../persona/dynamics';
import { INTENTION_IDS, type IntentionId } from '../persona/profile';
import { BENCHMARK_COUNT } from '../persona/sets';

/** The longest text a stored dialogue may hold: above the worker's cap (600 characters and an ellipsis). */
const TEXT_MAX = 2_000;
const Text = z.string().max(TEXT_MAX);

const TurnSchema = z.object({
  reply: Text,
  /** The think block, in think mode. */
  think: Text.nullable(),
  wellFormed: z.boolean(),
  /** The user's signed change and new emotion. */
  change: z.number(),
  emotion: z.number(),
  /** The user's next line. */
  line: Text,
  appraisal: z.object({
    intent: Text,
    fit: Text,
    inner: Text,
    feeling: Text,
    reaction: Text,
    needMet: z.boolean(),
  }),
});

const BenchmarkDialogueSchema = z.object({
  profileId: z.string().min(1).max(200),
  /** Who the user is, in a few words ("Maya, 34: work"). */
  who: Text,
  /** The user's hidden intention (the policy never saw it). */
  intention: z.enum(INTENTION_IDS as [IntentionId, ...IntentionId[]]),
  opening: Text,
  startEmotion: z.number(),
  finalEmotion: z.number(),
  /** 'success', 'failure', 'cap' (the turn cap), or another reason the rollout gave. */
  endReason: z.string().max(40),
  turns: z.array(TurnSchema).max(TURN_CAP.benchmark),
});

export type BenchmarkDialogue = z.infer<typeof BenchmarkDialogueSchema>;

/** A run's benchmark dialogues: before (the starting policy) and after (the latest evaluation). */
export const BenchmarkDialoguesSchema = z.object({
  before: z.array(BenchmarkDialogueSchema).max(BENCHMARK_COUNT).optional(),
  after: z.array(BenchmarkDialogueSchema).max(BENCHMARK_COUNT).optional(),
});
export type BenchmarkDialogues = z.infer<typeof BenchmarkDialoguesSchema>;
