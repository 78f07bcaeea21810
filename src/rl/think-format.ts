/**
 * How well a policy keeps the think-mode format: the share of agent turns that are well formed
 * (`<think> plan </think> reply`, parseAgentTurn's test), over all turns, first turns (prompt: the
 * opening alone) and later turns (prompt: a history whose earlier turns are shown without thoughts).
 * Split so, because the two prompts differ and a warm start can learn one and not the other.
 * `npm run evaluate -- --think` prints it. Pure: counts over played dialogues, nothing sampled.
 */
export interface ThinkFormat {
  turns: number;
  wellFormed: number;
  /** wellFormed / turns; NaN with no turns. */
  share: number;
  firstTurns: number;
  firstWellFormed: number;
  firstShare: number;
  laterTurns: number;
  laterWellFormed: number;
  laterShare: number;
}

/** Over played dialogues (DialogueRollout, or anything with its turns' wellFormed flags). */
export function thinkFormat(dialogues: readonly { turns: readonly { wellFormed: boolean }[] }[]): ThinkFormat {
  const first = dialogues.flatMap((d) => d.turns.slice(0, 1));
  const later = dialogues.flatMap((d) => d.turns.slice(1));
  const good = (ts: readonly { wellFormed: boolean }[]) => ts.filter((t) => t.wellFormed).length;
  const share = (k: number, n: number) => (n > 0 ? k / n : NaN);
  const turns = first.length + later.length;
  const wellFormed = good(first) + good(later);
  return {
    turns,
    wellFormed,
    share: share(wellFormed, turns),
    firstTurns: first.length,
    firstWellFormed: good(first),
    firstShare: share(good(first), first.length),
    laterTurns: later.length,
    laterWellFormed: good(later),
    laterShare: share(good(later), later.length),
  };
}
