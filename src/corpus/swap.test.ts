/**
 * Swapped story details: the pool holds training stories only; a plan never maps a detail to one
 * of the same story's; replacement reads whole words in one pass and keeps capitals; a swapped
 * corpus names none of a story's own details or names, and every detail its agent names was in
 * the user's lines first (the detail can only be copied); share 0 is the corpus itself; same seed,
 * same text; bad shares are refused.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../engine/rng.ts';
import { benchmarkProfiles, trainingProfiles } from '../persona/sets.ts';
import { buildCorpus, type Corpus } from './build.ts';
import { applySwap, detailCore, dialoguePlan, swapCorpus, swapPlan, swapPool, wholeWords } from './swap.ts';

let cached: Corpus | undefined;
const corpus = (): Corpus => (cached ??= buildCorpus({ seed: 3, dialogues: 400, maxTurns: 10, turnDecay: 0.5 }));
const byId = new Map(trainingProfiles().map((p) => [p.id, p]));
const words = (s: string) => wholeWords([s], 'iu');

describe('swapped story details', () => {
  it('draws from training stories only, never a benchmark story', () => {
    const pool = swapPool(trainingProfiles());
    expect(pool.details.length).toBeGreaterThan(100);
    const bench = new Set(
      benchmarkProfiles().flatMap((p) => p.scenario.details.map((d) => detailCore(d).toLowerCase())),
    );
    const train = new Set(
      trainingProfiles().flatMap((p) => p.scenario.details.map((d) => detailCore(d).toLowerCase())),
    );
    // A core the two splits share (a word as common as "midnight") is no benchmark story's own.
    const leaked = pool.details.filter((d) => bench.has(d.toLowerCase()) && !train.has(d.toLowerCase()));
    expect(leaked).toEqual([]);
  });

  it('maps each detail and name of a story to another story, each to a different one', () => {
    const pool = swapPool(trainingProfiles());
    for (const p of trainingProfiles().slice(0, 50)) {
      const plan = swapPlan(p, pool, new Rng(p.id));
      const own = new Set([
        ...p.scenario.details.map((d) => detailCore(d).toLowerCase()),
        ...p.scenario.people.map((x) => x.name.toLowerCase()),
      ]);
      expect(plan.length).toBeGreaterThanOrEqual(p.scenario.people.length);
      for (const [from, to] of plan) {
        expect(own.has(from.toLowerCase())).toBe(true);
        expect(own.has(to.toLowerCase())).toBe(false);
      }
      expect(new Set(plan.map(([, to]) => to)).size).toBe(plan.length);
      // Longest first: a detail that contains another is read before it.
      for (let i = 1; i < plan.length; i++) expect(plan[i - 1][0].length).toBeGreaterThanOrEqual(plan[i][0].length);
      expect(swapPlan(p, pool, new Rng(p.id))).toEqual(plan);
    }
  });

  it('replaces whole words in one pass and keeps a capital', () => {
    const plan: [string, string][] = [
      ['night shift', 'spare key'],
      ['Ravi', 'Omar'],
      ['spare key', 'night shift'],
    ];
    expect(applySwap('Ravi covered the night shift. Ravioli is not Ravi.', plan)).toBe(
      'Omar covered the spare key. Ravioli is not Omar.',
    );
    // One pass: the two details trade places rather than both ending as one.
    expect(applySwap('the spare key and the night shift', plan)).toBe('the night shift and the spare key');
    expect(applySwap('Night shift again.', plan)).toBe('Spare key again.');
    expect(applySwap('nothing to see', [])).toBe('nothing to see');
  });

  it('leaves a swapped corpus with no story of its own, and every named detail first said by the user', () => {
    const c = corpus();
    const swapped = swapCorpus(c, 3, 1);
    expect(swapped.heldOut).toBe(c.heldOut);
    expect(swapped.train.length).toBe(c.train.length);
    let copied = 0;
    const pool = swapPool(trainingProfiles());
    swapped.train.forEach((d, i) => {
      const p = byId.get(d.profileId)!;
      const plan = dialoguePlan(p, pool, 3, i, 1)!;
      // What is left once the replacements are taken out (one may hold a word of a detail it replaced).
      const text = plan.reduce(
        (s, [, to]) => s.replace(wholeWords([to], 'giu'), ' '),
        d.turns.map((t) => t.text).join('\n'),
      );
      for (const [from] of plan) expect(words(from).test(text), `${d.profileId}: "${from}" left in`).toBe(false);
      // Each replacement an agent turn names was in a user line before it.
      d.turns.forEach((t, k) => {
        if (t.role !== 'agent') return;
        const before = d.turns
          .slice(0, k)
          .filter((u) => u.role === 'user')
          .map((u) => u.text)
          .join('\n');
        for (const [, to] of plan)
          if (words(to).test(t.text) && !words(to).test(c.train[i].turns[k].text)) {
            copied++;
            expect(words(to).test(before), `${d.profileId} turn ${k}: "${to}" not said by the user first`).toBe(true);
          }
      });
      expect(d.strategies).toBe(c.train[i].strategies);
    });
    expect(copied).toBeGreaterThan(50);
  });

  it('is the corpus itself at share 0, the same text for the same seed, and refuses a bad share', () => {
    const c = corpus();
    expect(swapCorpus(c, 3, 0)).toBe(c);
    expect(swapCorpus(c, 3, 0.5)).toEqual(swapCorpus(c, 3, 0.5));
    const half = swapCorpus(c, 3, 0.5).train.filter((d, i) => d !== c.train[i]).length / c.train.length;
    expect(half).toBeGreaterThan(0.35);
    expect(half).toBeLessThan(0.65);
    for (const bad of [-0.1, 1.5, Number.NaN]) expect(() => swapCorpus(c, 3, bad)).toThrow(/between 0 and 1/);
  });
});
