/**
 * Calibration: the two behavioural figures RLVER uses to describe a simulated user (Table 3),
 * measured for any profile set and difficulty.
 *
 * - Strategy acceptance rate: the share of a FIXED set of sensible probe replies (PROBES: ten
 *   strategies a reasonable supporter might open with) that earn a positive change, each played as
 *   the first reply of a fresh training-mode dialogue, against every profile. RLVER: 52.4%
 *   moderate, 33.1% strict.
 * - Need-expression rate: the share of user lines that carry a cue to the hidden intention, over
 *   the same dialogues (each opening line once, plus the user's answer to every probe).
 *   RLVER: 78.6% moderate, 63.6% strict.
 *
 * Probes name the first person in the story and its first detail, as a person would after reading
 * the opening; they are the same ten templates for every profile.
 */
import type { Difficulty } from './dynamics.ts';
import type { Profile } from './profile.ts';
import { createSimulatedUser } from './user.ts';

const PROBES: readonly { strategy: string; text: string }[] = [
  { strategy: 'reflect', text: 'It sounds like {d} has left you really hurt and worn out.' },
  { strategy: 'validate', text: 'Honestly, anyone would be upset after {d}. Your reaction makes complete sense.' },
  { strategy: 'explore', text: 'What happened with {d}? Tell me more about how it went.' },
  { strategy: 'check-in', text: 'How are you holding up with all of this?' },
  { strategy: 'advise', text: 'You could sit down with {p} this week and say plainly what you need.' },
  {
    strategy: 'analyse',
    text: "Let's break this down: what part of this is actually in your control, and what part isn't?",
  },
  {
    strategy: 'motives',
    text: 'Maybe {p} was under more pressure than they let on. It might not be about you at all.',
  },
  { strategy: 'growth', text: "Looking back, is there anything you'd want to do differently next time?" },
  { strategy: 'praise', text: 'Honestly, I think you handled a lot of this really well. That took real effort.' },
  { strategy: 'exonerate', text: "For what it's worth, this doesn't sound like your fault." },
];

function probeReplies(profile: Profile): string[] {
  const p = profile.scenario.people[0]?.name ?? 'they';
  const d = profile.scenario.details[0];
  return PROBES.map((x) => x.text.replace(/\{p\}/g, p).replace(/\{d\}/g, d));
}

export interface Calibration {
  difficulty: Difficulty;
  profiles: number;
  /** Share of probe replies that earned a positive change (0..1). */
  acceptance: number;
  /** Share of user lines carrying a cue to the hidden intention (0..1). */
  needExpression: number;
  /** Acceptance per probe strategy, for reading what the users like. */
  byStrategy: Record<string, number>;
}

export function calibrate(
  profiles: readonly Profile[],
  options: { difficulty?: Difficulty; seed?: number } = {},
): Calibration {
  const difficulty = options.difficulty ?? 'moderate';
  const seed = options.seed ?? 0;
  let accepted = 0;
  let probes = 0;
  let cueLines = 0;
  let lines = 0;
  const byStrategy: Record<string, number> = {};
  for (const profile of profiles) {
    const replies = probeReplies(profile);
    replies.forEach((reply, i) => {
      const user = createSimulatedUser(profile, { seed, difficulty, mode: 'train' });
      if (i === 0) {
        lines++;
        if (user.state.cues[0]) cueLines++;
      }
      const r = user.respond(reply);
      probes++;
      lines++;
      if (r.cue) cueLines++;
      if (r.change > 0) {
        accepted++;
        byStrategy[PROBES[i].strategy] = (byStrategy[PROBES[i].strategy] ?? 0) + 1;
      }
    });
  }
  const n = Math.max(1, profiles.length);
  for (const p of PROBES) byStrategy[p.strategy] = Math.round((1000 * (byStrategy[p.strategy] ?? 0)) / n) / 1000;
  return {
    difficulty,
    profiles: profiles.length,
    acceptance: Math.round((1000 * accepted) / Math.max(1, probes)) / 1000,
    needExpression: Math.round((1000 * cueLines) / Math.max(1, lines)) / 1000,
    byStrategy,
  };
}
