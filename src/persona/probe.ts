/**
 * The probe: a person's own hostile replies against every user of a set. Each reply is sent as
 * the first reply to every user, and repeated as every reply of a whole dialogue with them; the
 * report counts the changes, the mean final emotion, and lists every positive change with the
 * user and the detector reasons that earned it, so a hole in the users can be found and named.
 *
 * Pure and seeded (the first turn of the repeated dialogue is the first-reply probe: the engine is
 * a pure function of seed, profile and transcript). Not here: reading files (cli.ts).
 */
import { CHANGES, type Change, type Difficulty } from './dynamics.ts';
import type { Profile } from './profile.ts';
import { createSimulatedUser } from './user.ts';

/** One positive change: whose, on which turn, and why. */
interface ProbePositive {
  profileId: string;
  /** 1 for the first reply. */
  turn: number;
  change: Change;
  emotion: number;
  /** The detectors that added to the total, `id: reason`. */
  reasons: string[];
}

export interface ProbeLine {
  line: string;
  /** How many users gave each change to the line as a first reply ('-10', '-5', '0', '+5', '+10'). */
  first: Record<string, number>;
  /** The same over every turn of the repeated dialogues. */
  all: Record<string, number>;
  /** Mean final emotion of the dialogues in which the line is every reply. */
  meanFinal: number;
  positives: ProbePositive[];
}

export interface ProbeReport {
  difficulty: Difficulty;
  seed: number;
  profiles: number;
  lines: ProbeLine[];
  /** Positive changes over all lines, users and turns. */
  positives: number;
  /** Up to WORST_COUNT lines with the most positive changes, then the highest mean final emotion. */
  worst: ProbeLine[];
}

export interface ProbeOptions {
  difficulty: Difficulty;
  seed: number;
}

const WORST_COUNT = 5;
export const changeKey = (c: number): string => (c > 0 ? `+${c}` : `${c}`);
const zeroCounts = (): Record<string, number> => Object.fromEntries(CHANGES.map((c) => [changeKey(c), 0]));
const round1 = (x: number): number => Math.round(x * 10) / 10;

/** One reply against every profile (benchmark mode where the profile has an opening line, else training). */
function probeLine(line: string, profiles: readonly Profile[], opts: ProbeOptions): ProbeLine {
  const first = zeroCounts();
  const all = zeroCounts();
  const positives: ProbePositive[] = [];
  let finals = 0;
  for (const p of profiles) {
    const mode = p.openingLine ? 'benchmark' : 'train';
    const user = createSimulatedUser(p, { seed: opts.seed, difficulty: opts.difficulty, mode });
    let emotion = user.state.emotion;
    for (let turn = 1; !user.state.over; turn++) {
      const r = user.respond(line);
      emotion = r.emotion;
      if (turn === 1) first[changeKey(r.change)]++;
      all[changeKey(r.change)]++;
      if (r.change > 0)
        positives.push({
          profileId: p.id,
          turn,
          change: r.change,
          emotion: r.emotion,
          reasons: r.appraisal.detectors.filter((d) => d.contribution > 0).map((d) => `${d.id}: ${d.reason}`),
        });
    }
    finals += emotion;
  }
  return { line, first, all, meanFinal: profiles.length ? round1(finals / profiles.length) : 0, positives };
}

export function probe(replies: readonly string[], profiles: readonly Profile[], opts: ProbeOptions): ProbeReport {
  const lines = replies.map((r) => probeLine(r, profiles, opts));
  const worst = [...lines]
    .sort((a, b) => b.positives.length - a.positives.length || b.meanFinal - a.meanFinal)
    .slice(0, WORST_COUNT);
  return {
    difficulty: opts.difficulty,
    seed: opts.seed,
    profiles: profiles.length,
    lines,
    positives: lines.reduce((s, l) => s + l.positives.length, 0),
    worst,
  };
}
