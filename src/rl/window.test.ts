import { describe, expect, it } from 'vitest';
import { TRAINING_SLIDE_TO } from '../engine/model/format';
import { Rng } from '../engine/rng';
import { benchmarkProfiles } from '../persona/sets';
import { playScripted } from './testing/scripted';
import { repliesOutOfView, SLIDE_TO, slideWindow, summariseRepeats, summariseWindow } from './window';

/** The sliding window as it was written before window.ts: a start index over whole pairs. */
function pairsReference(sizes: readonly number[], from: number, budget: number): number {
  const size = (k: number) => sizes[0] + 1 + sizes.slice(k).reduce((s, x) => s + x, 0);
  if (size(from) > budget) {
    while (from + 2 < sizes.length - 2 && size(from) > budget * SLIDE_TO) from += 2;
    while (from + 2 < sizes.length && size(from) > budget) from += 2;
  }
  return from;
}

/** A dialogue grown turn by turn: chunk sizes [system, u0, a0, u1, …, un], random but seeded. */
function grow(seed: number, turns: number): number[][] {
  const rng = new Rng(seed);
  const sizes = [8 + (rng.nextU32() % 20), 5 + (rng.nextU32() % 40)];
  const out = [sizes.slice()];
  for (let k = 0; k < turns; k++) {
    sizes.push(2 + (rng.nextU32() % 60), 5 + (rng.nextU32() % 40));
    out.push(sizes.slice());
  }
  return out;
}

const sorted = (s: ReadonlySet<number>) => [...s].sort((a, b) => a - b);
const promptSize = (sizes: readonly number[], dropped: ReadonlySet<number>) =>
  1 + sizes.reduce((s, x, k) => s + (dropped.has(k) ? 0 : x), 0);

describe('the context window', () => {
  it("slides as far as the warm start's training windows do", () => {
    expect(TRAINING_SLIDE_TO).toBe(SLIDE_TO);
  });

  it('pairs: drops whole (user line, agent turn) pairs exactly as the start-index window did', () => {
    for (let seed = 0; seed < 200; seed++) {
      const budget = 60 + (seed % 7) * 25;
      const dropped = new Set<number>();
      let from = 1;
      for (const sizes of grow(seed, 10)) {
        if (sizes[0] + sizes[sizes.length - 1] + 1 > budget) break; // the latest line alone overflows
        const overflows = promptSize(sizes, dropped) > budget;
        expect(slideWindow(sizes, dropped, budget, 'pairs')).toBe(overflows);
        from = pairsReference(sizes, from, budget);
        expect(sorted(dropped)).toEqual(Array.from({ length: from - 1 }, (_, i) => i + 1));
      }
    }
  });

  it('replies: keeps every earlier reply in view while they fit, and drops a reply only when it must', () => {
    let slides = 0;
    let usersDropped = 0;
    let repliesLeft = 0;
    let keptAll = 0;
    for (let seed = 0; seed < 300; seed++) {
      const budget = 80 + (seed % 9) * 30;
      const dropped = new Set<number>();
      let allFitSoFar = true;
      for (const sizes of grow(seed, 10)) {
        const n = (sizes.length - 2) / 2;
        if (sizes[0] + sizes[sizes.length - 1] + 1 > budget) break;
        const before = new Set(dropped);
        const slid = slideWindow(sizes, dropped, budget, 'replies');
        const size = promptSize(sizes, dropped);
        // The prompt never exceeds the budget, and a slide happens only when it did.
        expect(size).toBeLessThanOrEqual(budget);
        expect(slid).toBe(promptSize(sizes, before) > budget);
        if (slid) slides++;
        // What left never comes back; the system line and the latest user line never leave.
        for (const k of before) expect(dropped.has(k)).toBe(true);
        expect(dropped.has(0)).toBe(false);
        expect(dropped.has(2 * n + 1)).toBe(false);
        // The window opens on a user line (odd chunk index).
        const first = sizes.findIndex((_, k) => k > 0 && !dropped.has(k));
        expect(first % 2).toBe(1);
        // While the system line, the opening, every reply and the latest pair fit, every reply stays.
        const replies = Array.from({ length: n }, (_, i) => sizes[2 * i + 2]).reduce((s, x) => s + x, 0);
        const latest = (n >= 2 ? sizes[2 * n - 1] : 0) + (n >= 1 ? sizes[2 * n + 1] : 0);
        const needed = 1 + sizes[0] + sizes[1] + replies + latest;
        allFitSoFar &&= needed <= budget;
        const repliesDropped = [...dropped].filter((k) => k % 2 === 0);
        if (allFitSoFar && slid) {
          expect(repliesDropped).toEqual([]);
          keptAll++;
        }
        // A reply that left had to: with the newest of those that left this slide back, it overflows
        // (unless the opening or the latest pair left after it, which a smaller reply cannot replace).
        const newReplies = repliesDropped.filter((k) => !before.has(k));
        let open = 1;
        while (before.has(open)) open += 2;
        const later = [open, 2 * n - 1].some((k) => dropped.has(k) && !before.has(k));
        if (newReplies.length > 0 && !later) {
          const back = new Set(dropped);
          back.delete(Math.max(...newReplies));
          expect(promptSize(sizes, back)).toBeGreaterThan(budget);
          repliesLeft++;
        }
        // The replies out of view are the oldest ones.
        const hidden = repliesOutOfView(sizes.length, dropped);
        for (let i = 0; i < n; i++) expect(dropped.has(2 * i + 2)).toBe(i < hidden);
        usersDropped += [...dropped].filter((k) => k % 2 === 1).length;
      }
    }
    expect(slides).toBeGreaterThan(50);
    expect(usersDropped).toBeGreaterThan(50);
    expect(keptAll).toBeGreaterThan(20);
    expect(repliesLeft).toBeGreaterThan(20);
  });

  it('replies: a worked example, user lines first, then the oldest reply, then the opening', () => {
    // [system, u0, a0, u1, a1, u2, a2, u3]: 10 + 5 + 20 * 3 + 5 * 3 = 90 tokens, plus <|agent|>.
    const sizes = [10, 5, 20, 5, 20, 5, 20, 5];
    const dropped = new Set<number>();
    expect(slideWindow(sizes, dropped, 91, 'replies')).toBe(false);
    // Over budget: the middle user line u1 (chunk 3) goes, then a0 (2) to fit; u0 (1) stays. u2 (5)
    // is the latest pair's user line, which stays until the pair itself must go.
    expect(slideWindow(sizes, dropped, 70, 'replies')).toBe(true);
    expect(sorted(dropped)).toEqual([2, 3]);
    expect(promptSize(sizes, dropped)).toBe(66);
    // Tighter: every reply before the latest pair, then the opening.
    const tight = new Set<number>();
    slideWindow(sizes, tight, 45, 'replies');
    expect(sorted(tight)).toEqual([1, 2, 3, 4]);
    // The same dialogue under `pairs` loses two replies with their user lines, down to SLIDE_TO.
    const pairs = new Set<number>();
    slideWindow(sizes, pairs, 70, 'pairs');
    expect(sorted(pairs)).toEqual([1, 2, 3, 4]);
  });
});

describe('window and repeat figures', () => {
  const profile = benchmarkProfiles()[1];
  const play = (replies: readonly string[], hidden: number[], slides: number) =>
    playScripted(profile, replies, { slides, hidden });
  const same = 'That sounds really hard, I am so sorry you went through that.';
  const other = 'What was the hardest part of that moment for you?';
  const third = 'It was not your fault; anyone in your place would have been shaken.';

  it('counts repeats of an earlier reply, and those whose earlier reply was out of view', () => {
    // Turn 3 repeats turn 1, which had left the window (hidden 1); turn 4 repeats turn 3, in view.
    const d = play([same, other, same, same], [0, 0, 1, 1], 1);
    const r = summariseRepeats([d, play([other, third], [0, 0], 0)]);
    expect(r).toEqual({ turns: 6, flagged: 2, share: 2 / 6, unseen: 1, hacking: 2 });
    expect(summariseRepeats([])).toEqual({ turns: 0, flagged: 0, share: 0, unseen: 0, hacking: 0 });
  });

  it('counts slides per dialogue', () => {
    const w = (slides: number) => play([other], [0], slides);
    expect(summariseWindow([w(2), w(0), w(1)])).toEqual({ slides: 3, perDialogue: 1 });
    expect(summariseWindow([])).toEqual({ slides: 0, perDialogue: 0 });
  });
});
