import { describe, expect, it } from 'vitest';
import { thinkFormat } from './think-format';

const dialogue = (...wellFormed: boolean[]) => ({ turns: wellFormed.map((w) => ({ wellFormed: w })) });

describe('think-format shares', () => {
  it('counts well-formed turns over all, first and later turns', () => {
    // First turns: 2 of 3 well formed; later turns: 1 of 4.
    const f = thinkFormat([dialogue(true, false, false), dialogue(false, true), dialogue(true, false)]);
    expect(f).toEqual({
      turns: 7,
      wellFormed: 3,
      share: 3 / 7,
      firstTurns: 3,
      firstWellFormed: 2,
      firstShare: 2 / 3,
      laterTurns: 4,
      laterWellFormed: 1,
      laterShare: 1 / 4,
    });
  });

  it('has no share where there are no turns', () => {
    const f = thinkFormat([dialogue(true)]);
    expect(f.firstShare).toBe(1);
    expect(f.laterTurns).toBe(0);
    expect(f.laterShare).toBeNaN();
    expect(thinkFormat([]).share).toBeNaN();
  });
});
