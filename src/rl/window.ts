/**
 * The policy's context window over a long dialogue, and the figures that show what it hides.
 *
 * A dialogue is a list of chunks, [system, u0, a0, u1, a1, …, un]: the system line (with <|bos|>),
 * then user lines u_i and the agent turns a_i that answered them, ending on the latest user line.
 * The prompt is the system chunk, the chunks still in view, and <|agent|>. When it no longer
 * leaves room for a full reply (`budget` tokens), the window slides: chunks leave it in a fixed
 * order until the prompt is down to SLIDE_TO of the budget, not just below it, so the KV cache is
 * re-read every few turns rather than every turn and the turns in between extend one training
 * sequence (src/rl/batch.ts). A chunk that left never comes back, so each prompt either extends the
 * previous prompt and response or starts a new sequence.
 *
 * Two orders, both keeping the system line and the latest (user line, agent turn, user line):
 *
 * - `pairs`: whole (user line, agent turn) pairs, oldest first; the window opens on a user line.
 * - `replies`: the policy's own earlier replies stay in view as long as they can. Old user lines go
 *   first (oldest first, keeping the opening u0, which states the user's situation), then old
 *   agent turns (oldest first, and only as far as the budget needs: no slack to SLIDE_TO), then the
 *   opening (u0, or the oldest user line still in view once u0 has gone).
 *   The simulated users punish a reply that repeats any earlier one
 *   (src/persona/detectors/repetition.ts), which the policy can only avoid if it sees it. The
 *   window always opens on a user line; agent turns whose user lines left stand next to each other.
 *
 * Why `pairs` stays the default: measured on the benchmark (`npm run evaluate -- --checkpoint
 * public/warmstart-ci.bin [--think] --window pairs|replies [--seed 1] --json`, 100 dialogues, seeds
 * 0 and 1), `replies` halves the repeats of a reply out of view but repeats are rare at the warm
 * start, the rest is within sampling noise, and it costs more than it saves:
 *
 *   ci, pairs → replies       repeats (unseen)             score        failure      hacking
 *   non-think, seed 0 / 1     1.0% (5) / 1.4% (5)          7.7 / 7.1    0.69 / 0.71  0.034 / 0.033
 *                          →  0.6% (0) / 0.9% (2)          9.1 / 7.6    0.61 / 0.73  0.029 / 0.021
 *   think, seed 0 / 1         4.6% (22) / 5.5% (28)        10.6 / 12.5  0.53 / 0.44  0.053 / 0.065
 *                          →  4.6% (19) / 3.9% (13)        9.5 / 11.3   0.59 / 0.54  0.053 / 0.050
 *
 * Slides a dialogue go from 2.4 to 5.0 (think 3.2 to 5.7): once the window is full of replies it
 * slides every turn, so turns stop joining one training sequence. On 40 ci dialogues the tokens the
 * update reads (batch.ts sequences) grow from 23.6k to 42.1k (+79%) without think and from 55.5k to
 * 66.1k (+19%) with it. Letting replies leave with slack too (down to SLIDE_TO) slides 3.5 times a
 * dialogue but hides more replies than `pairs` (8 repeats out of view, not 5). The 512-token micro
 * context slides 0.1 to 0.2 times a dialogue (30 dialogues): the two orders play alike there.
 *
 * Not here: how chunks are encoded (src/rl/rollout.ts) and the KV cache itself.
 */
import { PRESENT, readReply } from '../persona/detectors/index';
import { firstRepeat } from '../persona/detectors/repetition';
import { checkRewardHacking } from './hacking';
import type { DialogueRollout } from './rollout';

export type WindowPolicy = 'pairs' | 'replies';

/** What the window drops first once the context is full (measured above: `pairs`). */
export const DEFAULT_WINDOW: WindowPolicy = 'pairs';

/** Where a full context window slides down to, as a share of the prompt budget. */
export const SLIDE_TO = 0.6;

/**
 * The chunks that leave the window, in the order they leave, as groups that leave together; a
 * `soft` group leaves only while the prompt is above SLIDE_TO of the budget, a hard one only while
 * it is above the budget once every soft group has gone. `n` is the latest user line's index
 * (chunks: 2n + 2); chunk indices: u_i is 2i + 1, a_i is 2i + 2. Under `replies` the window opens
 * on the oldest user line still in view (u0 at first), which leaves after the replies it precedes.
 */
function dropOrder(
  policy: WindowPolicy,
  n: number,
  dropped: ReadonlySet<number>,
): { chunks: number[]; soft: boolean }[] {
  const u = (i: number) => 2 * i + 1;
  const a = (i: number) => 2 * i + 2;
  const order: { chunks: number[]; soft: boolean }[] = [];
  if (policy === 'pairs') {
    for (let i = 0; i < n - 1; i++) order.push({ chunks: [u(i), a(i)], soft: true });
  } else {
    let open = 0;
    while (open < n - 1 && dropped.has(u(open))) open++;
    // Replies leave only when they no longer fit at all: a reply out of view is one the policy may
    // repeat, and that costs more than re-reading the cache every turn once the window is full.
    for (let i = open + 1; i < n - 1; i++) order.push({ chunks: [u(i)], soft: true });
    for (let i = 0; i < n - 1; i++) order.push({ chunks: [a(i)], soft: false });
    if (open < n - 1) order.push({ chunks: [u(open)], soft: false });
  }
  // The latest pair goes only when it alone overflows the context.
  if (n >= 1) order.push({ chunks: [u(n - 1), a(n - 1)], soft: false });
  return order;
}

/**
 * Slide the window of one dialogue if its prompt overflows: `dropped` (chunk indices out of view,
 * updated in place) grows until the prompt (system, the chunks in view, one <|agent|>) fits.
 * Returns whether the window slid. `sizes[k]` is chunk k's length in tokens.
 */
export function slideWindow(
  sizes: readonly number[],
  dropped: Set<number>,
  budget: number,
  policy: WindowPolicy,
): boolean {
  let size = 1 + sizes.reduce((s, x, k) => s + (dropped.has(k) ? 0 : x), 0);
  if (size <= budget) return false;
  const leave = (g: { chunks: number[] }) => {
    for (const k of g.chunks) {
      if (dropped.has(k)) continue;
      dropped.add(k);
      size -= sizes[k];
    }
  };
  const order = dropOrder(policy, (sizes.length - 2) / 2, dropped);
  // The soft groups, down to SLIDE_TO of the budget; only if that is not enough (every soft group
  // gone), the others in order, down to the budget.
  for (const g of order) if (g.soft && size > budget * SLIDE_TO) leave(g);
  for (const g of order) if (size > budget) leave(g);
  return true;
}

/**
 * The prompt for the next agent turn of a history given as whole chunks ([bos + system, user
 * opening, agent turn, user line, …], the last a user line): slide the window if it overflows
 * (slideWindow, `dropped` updated in place), then the system chunk, the chunks still in view, and
 * `<|agent|>`. What a rollout shows the policy, and what self-imitation's demonstrations stand under.
 */
export function windowPrompt(
  chunks: readonly (readonly number[])[],
  dropped: Set<number>,
  budget: number,
  policy: WindowPolicy,
  agentOpen: number,
): { ids: number[]; slid: boolean } {
  const slid = slideWindow(
    chunks.map((x) => x.length),
    dropped,
    budget,
    policy,
  );
  const ids = [...chunks[0], ...chunks.slice(1).flatMap((x, k) => (dropped.has(k + 1) ? [] : x)), agentOpen];
  return { ids, slid };
}

/** How many of the oldest agent turns are out of view (the window drops replies oldest first). */
export function repliesOutOfView(chunks: number, dropped: ReadonlySet<number>): number {
  let k = 0;
  while (2 * k + 2 < chunks && dropped.has(2 * k + 2)) k++;
  return k;
}

export interface RepeatSummary {
  /** Agent turns. */
  turns: number;
  /** Turns the user's repetition detector found repeating an earlier reply of the dialogue. */
  flagged: number;
  /** flagged / turns (0 with no turns). */
  share: number;
  /** Flagged turns whose earlier reply had left the policy's window (it could not see it). */
  unseen: number;
  /** Replies the hacking check flags as repeating an earlier turn (src/rl/hacking.ts). */
  hacking: number;
}

/** The share of agent turns that repeat an earlier reply, and how many repeated one out of view. */
export function summariseRepeats(dialogues: readonly DialogueRollout[]): RepeatSummary {
  let turns = 0;
  let flagged = 0;
  let unseen = 0;
  for (const d of dialogues) {
    const replies = d.turns.map((t) => readReply(t.reply));
    d.turns.forEach((t, k) => {
      turns++;
      const hit = t.result.appraisal.detectors.find((h) => h.id === 'repetition');
      if (!hit || hit.score < PRESENT) return;
      flagged++;
      const hidden = d.window.hidden[k] ?? 0;
      const seen = firstRepeat(replies[k], replies.slice(hidden, k)) >= 0;
      if (!seen) unseen++;
    });
  }
  const hacking = checkRewardHacking(dialogues, { maxExamples: 0 }).repeats;
  return { turns, flagged, share: turns > 0 ? flagged / turns : 0, unseen, hacking };
}

export interface WindowSummary {
  /** Times a window slid, all dialogues together. */
  slides: number;
  /** slides / dialogues (0 with none). */
  perDialogue: number;
}

export function summariseWindow(dialogues: readonly DialogueRollout[]): WindowSummary {
  const slides = dialogues.reduce((s, d) => s + d.window.slides, 0);
  return { slides, perDialogue: dialogues.length > 0 ? slides / dialogues.length : 0 };
}
