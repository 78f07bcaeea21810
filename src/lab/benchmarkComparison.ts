/**
 * The Evaluate panel's side-by-side comparison as data: a run's benchmark dialogues before (the
 * starting policy) and after (the latest evaluated one) paired by user, in the benchmark's order,
 * each pair with the label its picker shows; and the words for how a dialogue ended. Pure: no DOM,
 * no React (the panel is src/ui/lab/BenchmarkComparison.tsx).
 */
import { INTENTIONS, type IntentionId } from '../persona/profile';
import type { BenchmarkDialogue, BenchmarkDialogues } from './benchmarkDialogues';

/** One benchmark user with the dialogue each policy had with them (null: that side was not played). */
export interface ComparedUser {
  profileId: string;
  who: string;
  intention: IntentionId;
  before: BenchmarkDialogue | null;
  after: BenchmarkDialogue | null;
  /** The picker's text: who, the hidden intention, and the final emotion of each side. */
  label: string;
}

const END_TEXT: Record<string, string> = {
  success: 'the user left happy',
  failure: 'the user gave up',
  cap: 'the turn cap ended it',
  limit: 'the replies-per-dialogue limit ended it',
  context: 'the context was full',
};

/** How a dialogue ended, in words (an unknown reason is shown as it came). */
export function endText(reason: string): string {
  return END_TEXT[reason] ?? reason;
}

/**
 * Pair the two sides by user: the users of `before` in its order, then any only `after` played. A
 * user played twice on one side (a damaged store) keeps the first dialogue.
 */
export function compareBenchmarkDialogues({ before = [], after = [] }: BenchmarkDialogues): ComparedUser[] {
  const afterById = new Map<string, BenchmarkDialogue>();
  for (const d of after) if (!afterById.has(d.profileId)) afterById.set(d.profileId, d);
  const seen = new Set<string>();
  const out: ComparedUser[] = [];
  const add = (b: BenchmarkDialogue | null, a: BenchmarkDialogue | null) => {
    const d = (b ?? a)!;
    if (seen.has(d.profileId)) return;
    seen.add(d.profileId);
    const finals = `${b ? b.finalEmotion : '—'} → ${a ? a.finalEmotion : '—'}`;
    out.push({
      profileId: d.profileId,
      who: d.who,
      intention: d.intention,
      before: b,
      after: a,
      label: `${d.who} · ${INTENTIONS[d.intention].summary} · ${finals}`,
    });
  };
  for (const b of before) add(b, afterById.get(b.profileId) ?? null);
  for (const a of after) add(null, a);
  return out;
}
