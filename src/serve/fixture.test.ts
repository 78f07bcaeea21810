/**
 * Writes (and checks) integrations/verl/tests/fixture.json: dialogues played in-process by the
 * engine, with raw agent turns (some with think blocks), the reply the user sees, and every
 * change, emotion and reward. The Python tests play the same raw turns through the verl
 * interaction against the server and must get the same numbers. Set UPDATE_FIXTURE=1 to rewrite.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { benchmarkProfiles, trainingProfiles } from '../persona/sets.ts';
import { makePolicy, type PolicyName } from '../persona/policies.ts';
import { createSimulatedUser, type TranscriptEntry } from '../persona/user.ts';
import type { Difficulty, Mode } from '../persona/dynamics.ts';
import { stripThink } from './think.ts';

const FILE = 'integrations/verl/tests/fixture.json';

const CASES: { profileId: string; seed: number; difficulty: Difficulty; mode: Mode; policy: PolicyName }[] = [
  { profileId: 'train-0001', seed: 1, difficulty: 'moderate', mode: 'train', policy: 'adaptive' },
  { profileId: 'train-0002', seed: 2, difficulty: 'strict', mode: 'train', policy: 'reflective' },
  { profileId: 'train-0003', seed: 3, difficulty: 'moderate', mode: 'train', policy: 'generic' },
  { profileId: 'train-0004', seed: 4, difficulty: 'moderate', mode: 'train', policy: 'advisor' },
  { profileId: 'bench-001', seed: 5, difficulty: 'moderate', mode: 'benchmark', policy: 'oracle' },
  { profileId: 'bench-002', seed: 6, difficulty: 'strict', mode: 'benchmark', policy: 'random' },
];

/** Every other turn wrapped in a think block, one with a broken block, so the strip rule is exercised. */
function rawTurn(reply: string, turn: number): string {
  if (turn % 3 === 1) return `<think>They sound low; reflect first.</think> ${reply}`;
  if (turn % 3 === 2 && turn > 4) return `${reply} </think>`;
  return reply;
}

export function buildFixture(): unknown {
  const all = [...trainingProfiles(), ...benchmarkProfiles()];
  return {
    stripThink: [
      '<think>plan</think> hi',
      '  <think>a</think>b  ',
      'no think',
      '<think>open only',
      'x </think> y',
      '<think>a</think><think>b</think> c',
    ].map((raw) => ({ raw, visible: stripThink(raw) })),
    dialogues: CASES.map((c) => {
      const profile = all.find((p) => p.id === c.profileId)!;
      const policy = makePolicy(c.policy, { seed: c.seed, intention: profile.intention });
      const user = createSimulatedUser(profile, { seed: c.seed, difficulty: c.difficulty, mode: c.mode });
      const transcript: TranscriptEntry[] = [{ role: 'user', text: user.opening }];
      const turns = [];
      for (let t = 0; !user.state.over; t++) {
        const reply = policy(transcript);
        const raw = rawTurn(reply, t);
        const visible = stripThink(raw);
        const r = user.respond(visible);
        transcript.push({ role: 'agent', text: visible }, { role: 'user', text: r.line });
        turns.push({
          raw,
          visible,
          line: r.line,
          change: r.change,
          emotion: r.emotion,
          over: r.over,
          endReason: r.endReason,
          reward: user.reward(),
        });
      }
      return { ...c, opening: user.opening, turns, finalReward: user.reward() };
    }),
  };
}

describe('verl fixture', () => {
  it('think-block rule: only the text after a well-formed block, else the markers removed', () => {
    expect(stripThink('<think>plan</think> hello')).toBe('hello');
    expect(stripThink('hello </think>')).toBe('hello');
    expect(stripThink('<think>never closed')).toBe('never closed');
  });

  it(`${FILE} is what the engine plays now`, () => {
    const text = `${JSON.stringify(buildFixture(), null, 1)}\n`;
    if (process.env.UPDATE_FIXTURE || !existsSync(FILE)) writeFileSync(FILE, text);
    expect(readFileSync(FILE, 'utf8')).toBe(text);
  });
});
