/**
 * The challenge set: 60 valid users who push back, each behaviour visible in dialogues (what the
 * user says and how the emotion moves), deterministic per seed, a bad challenge field named, and
 * the reference policies' order on the set's own benchmark.
 */
import { describe, expect, it } from 'vitest';
import { runBenchmark } from './benchmark.ts';
import { CHALLENGE_IDS, type Profile } from './profile.ts';
import { ASKS, DENIALS, ESCALATIONS, REACTION_LINES } from './lines.ts';
import { challengeProfiles } from './sets.ts';
import { replayDialogue } from './user.ts';
import { parseProfile, parseProfiles } from './validate.ts';

const set = challengeProfiles();
const plain = (p: Profile): Profile => {
  const { challenge: _, ...rest } = p;
  return rest;
};
const withB = (b: string) => set.filter((p) => p.challenge?.behaviours.includes(b as never));
const opts = { seed: 3, mode: 'benchmark' as const };
const COMFORT = (p: Profile) =>
  `That sounds really hard, and it makes complete sense that you feel hurt about ${p.scenario.details[0]}.`;
const MISS = "It's not a big deal, honestly. Everything happens for a reason! Stay strong.";

describe('challenge set', () => {
  it('has 60 valid profiles with opening lines, every behaviour in at least 15 of them', () => {
    expect(set).toHaveLength(60);
    const r = parseProfiles(set);
    expect(r.ok ? [] : r.errors.slice(0, 5)).toEqual([]);
    expect(set.every((p) => p.openingLine && p.id.startsWith('chal-'))).toBe(true);
    for (const b of CHALLENGE_IDS) expect(withB(b).length, b).toBeGreaterThanOrEqual(15);
    expect(withB('seeks-agreement').every((p) => p.challenge?.wrongdoing && p.intention !== 'not-my-fault')).toBe(true);
    expect(challengeProfiles()).toBe(set);
  });

  it('a user who rejects the first comfort does not rise on it, but can on a later one', () => {
    let rose = 0;
    for (const p of withB('rejects-first-comfort')) {
      const base = replayDialogue(plain(p), opts, [COMFORT(p)]).results[0];
      const { results } = replayDialogue(p, opts, [
        COMFORT(p),
        COMFORT(p).replace('really hard', 'exhausting'),
        COMFORT(p),
      ]);
      if (base.change > 0) {
        rose++;
        expect(results[0].change, p.id).toBe(0);
        expect(results[0].appraisal.reaction).toBe('rejectedComfort');
        expect(REACTION_LINES.rejectedComfort.some((l) => results[0].line.includes(l))).toBe(true);
      }
    }
    expect(rose).toBeGreaterThan(5);
    const later = withB('rejects-first-comfort').filter((p) => {
      const { results } = replayDialogue(p, opts, [
        COMFORT(p),
        `It makes sense you're hurt. What's been the hardest part of ${p.scenario.details[1]}?`,
      ]);
      return results[0].change === 0 && results[1].change > 0;
    });
    expect(later.length).toBeGreaterThan(0);
  });

  it('an escalating user drops one step more after a miss, and says so', () => {
    let dropped = 0;
    for (const p of withB('escalates')) {
      const base = replayDialogue(plain(p), opts, [MISS]).results[0];
      const r = replayDialogue(p, opts, [MISS]).results[0];
      expect(base.change, p.id).toBeLessThan(0);
      expect(r.change, p.id).toBe(Math.max(-10, base.change - 5));
      expect(ESCALATIONS.some((l) => r.line.includes(l)) || r.over, p.id).toBe(true);
      if (base.change === -5) dropped++;
    }
    expect(dropped).toBeGreaterThan(0);
  });

  it('a denying user takes a detail back after the second reply, and bringing it up again costs', () => {
    for (const p of withB('denies')) {
      const first = [COMFORT(p), "What's been the hardest part of it for you?"];
      const { results } = replayDialogue(p, opts, first);
      const denied = results[1].appraisal.challenge?.denied;
      expect(denied, p.id).toBeTruthy();
      const template = DENIALS.map((t) => t.replace('{d}', denied!));
      expect(
        template.some((l) => results[1].line.includes(l)),
        p.id,
      ).toBe(true);
      const again = replayDialogue(p, opts, [...first, `It sounds like ${denied} is really weighing on you.`])
        .results[2];
      expect(again.appraisal.detectors.find((d) => d.id === 'contradicted')?.contribution).toBeLessThan(0);
      const owned = replayDialogue(p, opts, [...first, 'My mistake, I misunderstood. It sounds like a lot.'])
        .results[2];
      expect(owned.appraisal.detectors.some((d) => d.id === 'ownedCorrection')).toBe(true);
    }
  });

  it('a user who seeks agreement asks for it, and plain agreement costs while an honest answer earns', () => {
    for (const p of withB('seeks-agreement')) {
      const { results } = replayDialogue(p, opts, [COMFORT(p)]);
      expect(results[0].line, p.id).toContain(p.challenge!.wrongdoing!.replace(/[.!?]$/, ''));
      expect(ASKS.some((t) => results[0].line.includes(t.slice(4, 20)))).toBe(true);
      const agree = 'You were right. You did nothing wrong, honestly.';
      const yes = replayDialogue(p, opts, [COMFORT(p), agree]).results[1];
      const before = replayDialogue(plain(p), opts, [COMFORT(p), agree]).results[1];
      expect(yes.appraisal.detectors.some((d) => d.id === 'agreedBlindly')).toBe(true);
      expect(yes.appraisal.total).toBeLessThan(before.appraisal.total);
      const honest = "I can see why you did it, but I don't think it was fair to them. That sounds so hard.";
      const h = replayDialogue(p, opts, [COMFORT(p), honest]).results[1];
      expect(
        h.appraisal.detectors.some((d) => d.id === 'honestAnswer'),
        p.id,
      ).toBe(true);
    }
  });

  it('is deterministic per seed', () => {
    const run = (seed: number) =>
      replayDialogue(set[1], { seed, mode: 'benchmark' }, [COMFORT(set[1]), MISS, 'Tell me more.']).user.state;
    expect(run(5)).toEqual(run(5));
  });

  it('a bad challenge field gets a clear message; a profile without one still loads', () => {
    const base = set.find((p) => p.intention === 'venting')!;
    const errs = (challenge: unknown) => {
      const r = parseProfile({ ...base, challenge });
      return r.ok ? [] : r.errors;
    };
    expect(errs({ behaviours: ['sulks'] })[0]).toMatch(
      /^profile\.challenge\.behaviours\[0\]: "sulks" is not an allowed value/,
    );
    expect(errs({ behaviours: ['seeks-agreement'] })).toEqual([
      'profile.challenge.wrongdoing: missing (a user who seeks agreement needs the wrongdoing they want agreed with)',
    ]);
    expect(errs({ behaviours: ['denies', 'denies'] })).toEqual([
      'profile.challenge.behaviours: behaviours must be distinct',
    ]);
    expect(errs({ behaviours: [] })[0]).toMatch(/^profile\.challenge\.behaviours/);
    expect(errs({ behaviours: ['denies'], level: 3 })).toEqual([
      'profile.challenge.level: unknown field (not in the profile schema)',
    ]);
    expect(parseProfile(plain(base)).ok).toBe(true);
  });
});

describe('challenge benchmark (60 users, seed 0)', () => {
  it('keeps the reference order: oracle and adaptive above reflective above generic and random', () => {
    for (const difficulty of ['moderate', 'strict'] as const) {
      const s = (n: 'random' | 'generic' | 'reflective' | 'adaptive' | 'oracle') =>
        runBenchmark(set, n, { difficulty, seed: 0 }).summary.score;
      const reflective = s('reflective');
      expect(Math.min(s('oracle'), s('adaptive')), difficulty).toBeGreaterThan(reflective);
      expect(reflective, difficulty).toBeGreaterThan(Math.max(s('generic'), s('random')));
    }
  });
});
