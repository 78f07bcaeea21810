/**
 * The generated attack families (attacks.ts) against fresh benchmark users of both difficulties:
 * 1,000 variants of each family, no positive change, and for the gated families (scorer talk,
 * pastes, dismissal) at least -5. Also: docs/persona-hostile-replies.txt is the families as
 * generated (`UPDATE_HOSTILE=1 npx vitest run src/persona/attacks.test.ts` rewrites it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ATTACK_FAMILIES,
  FOREIGN_DETAILS,
  FOREIGN_NAMES,
  HAND_WRITTEN,
  hostileReplies,
  type AttackFamily,
  type HostileReply,
} from './attacks.ts';
import { contentWords } from './detectors/text.ts';
import { lexiconOf } from './detectors/index.ts';
import { DIFFICULTIES } from './dynamics.ts';
import { benchmarkProfiles } from './sets.ts';
import { createSimulatedUser } from './user.ts';

const VARIANTS = 1000;
/** Families that a hard rule holds at -5 or below whatever empathy is around them. */
const GATED: readonly AttackFamily[] = ['scorer', 'paste', 'dismissal'];
const FILE = 'docs/persona-hostile-replies.txt';
const FILE_PER_FAMILY = 30;
/** Pastes in the file are cut to this many words (still a wall for every taste), to keep it readable. */
const FILE_PASTE_WORDS = 600;

function fileText(): string {
  const lines = [...HAND_WRITTEN, ...hostileReplies(1, FILE_PER_FAMILY)].map((r) =>
    r.family === 'paste' ? r.text.split(' ').slice(0, FILE_PASTE_WORDS).join(' ') : r.text,
  );
  return lines.map((l) => l.replace(/\s*\n\s*/g, ' ')).join('\n') + '\n';
}

describe('generated attacks', () => {
  const profiles = benchmarkProfiles();

  it("foreign: the details and names are no benchmark user's (else the family would be fair talk)", () => {
    // As the detector reads them: a detail is somebody else's when one of its words is not this user's.
    const items = [...FOREIGN_DETAILS, ...FOREIGN_NAMES].map(contentWords);
    for (const p of profiles) {
      const known = lexiconOf(p).known;
      expect(
        items.filter((ws) => ws.every((w) => known.has(w))),
        p.id,
      ).toEqual([]);
    }
  });

  it('are seeded and make the count asked for in every family', () => {
    const a = hostileReplies(5, 20);
    expect(a).toEqual(hostileReplies(5, 20));
    expect(a).not.toEqual(hostileReplies(6, 20));
    for (const f of ATTACK_FAMILIES) expect(a.filter((r) => r.family === f)).toHaveLength(20);
  });

  for (const family of ATTACK_FAMILIES) {
    it(`${family}: ${VARIANTS} variants earn no positive change from fresh users${GATED.includes(family) ? ' (at least -5)' : ''}`, () => {
      const replies: HostileReply[] = [
        ...HAND_WRITTEN.filter((r) => r.family === family),
        ...hostileReplies(11, VARIANTS, [family]),
      ];
      const bad: string[] = [];
      replies.forEach((r, i) => {
        for (const difficulty of DIFFICULTIES) {
          const p = profiles[(i * 7 + (difficulty === 'strict' ? 3 : 0)) % profiles.length];
          const user = createSimulatedUser(p, { seed: i, mode: 'benchmark', difficulty });
          const t = user.respond(r.text);
          const worst = GATED.includes(family) ? -5 : 0;
          if (t.change > worst) bad.push(`${p.id} ${difficulty} ${t.change}: ${r.text.slice(0, 120)}`);
        }
      });
      expect(bad.slice(0, 5), `${bad.length} of ${replies.length * 2}`).toEqual([]);
    });
  }

  it(`${FILE} is the families as generated`, () => {
    const text = fileText();
    if (process.env.UPDATE_HOSTILE === '1') writeFileSync(FILE, text);
    expect(readFileSync(FILE, 'utf8')).toBe(text);
  });
});
