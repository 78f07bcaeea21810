import { describe, expect, it } from 'vitest';
import { copyExamples, copyProbe, copyTask } from './copying';

const task = copyTask(513, 4096);

describe('the copying task', () => {
  /** The maximal runs of scored positions of an example, as [first, last]. */
  const runs = (mask: number[]) => {
    const out: [number, number][] = [];
    mask.forEach((m, i) => {
      if (!m) return;
      if (out.length && out[out.length - 1][1] === i - 1) out[out.length - 1][1] = i;
      else out.push([i, i]);
    });
    return out;
  };
  /** The distance back to the span a scored run repeats, its first token included (0: none). */
  const distance = (ids: number[], [a, b]: [number, number]) => {
    for (let d = b - a + 2; d <= a - 1; d++) {
      let same = true;
      for (let i = a - 1; i <= b && same; i++) same = ids[i] === ids[i - d];
      if (same) return d;
    }
    return 0;
  };

  it('fills the window with spans said again, and scores only the repeats after their first token', () => {
    for (const ex of copyExamples(100, 1, task)) {
      expect(ex.ids.length).toBeLessThanOrEqual(task.window);
      expect(ex.ids.length).toBeGreaterThan(task.window - 8);
      expect(ex.agentMask.length).toBe(ex.ids.length);
      const rs = runs(ex.agentMask);
      expect(rs.length).toBeGreaterThan(3);
      for (const r of rs) {
        expect(r[1] - r[0] + 2).toBeGreaterThanOrEqual(4);
        expect(distance(ex.ids, r), `run ${r} of ${ex.ids.length}`).toBeGreaterThan(0);
      }
      // About a third of the tokens are scored repeats.
      const scored = ex.agentMask.filter((m) => m).length / ex.ids.length;
      expect(scored).toBeGreaterThan(0.15);
      for (const id of ex.ids) {
        expect(id).toBeGreaterThanOrEqual(task.firstId);
        expect(id).toBeLessThan(task.vocabSize);
      }
    }
  });

  it('varies the span and the distance between the copies', () => {
    const rs = copyExamples(50, 1, task).flatMap((ex) => runs(ex.agentMask).map((r) => ({ ex, r })));
    expect(new Set(rs.map(({ r }) => r[1] - r[0])).size).toBeGreaterThan(30);
    expect(new Set(rs.map(({ ex, r }) => distance(ex.ids, r))).size).toBeGreaterThan(60);
  });

  it('is seeded: the same seed gives the same examples, the probe others', () => {
    expect(copyExamples(20, 1, task)).toEqual(copyExamples(20, 1, task));
    expect(copyExamples(20, 2, task)).not.toEqual(copyExamples(20, 1, task));
    expect(copyProbe(task, 20)).not.toEqual(copyExamples(20, 1, task));
    expect(copyProbe(task)).toHaveLength(64);
  });

  it('refuses what cannot make a copy', () => {
    expect(() => copyExamples(-1, 1, task)).toThrow(/whole number/);
    expect(() => copyExamples(1.5, 1, task)).toThrow(/whole number/);
    expect(() => copyExamples(1, 1, { ...task, window: 6 })).toThrow(/holds no copy/);
    expect(() => copyExamples(1, 1, { ...task, firstId: 4095 })).toThrow(/fewer than two tokens/);
  });
});
