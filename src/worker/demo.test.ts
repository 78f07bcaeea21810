/**
 * The demo dialogue on the CPU backend with the shipped ci warm start: a benchmark user by id, and a
 * user written in Play's form (sent whole, checked against the profile schema in the worker).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { benchmarkProfiles } from '../persona/sets';
import { playDemo } from './demo';

const CI = new Uint8Array(readFileSync(new URL('../../public/warmstart-ci.bin', import.meta.url)));

describe('the demo dialogue', () => {
  it('plays a user written in the form: its own opening line, every reply appraised', async () => {
    const base = benchmarkProfiles()[3];
    const mine = { ...base, id: 'custom-mine', openingLine: 'My sister moved away and the house is so quiet now.' };
    const r = await playDemo(new CpuBackend(), CI, { profileId: mine.id, profile: mine, turns: 2, seed: 1 });
    expect(r.profileId).toBe('custom-mine');
    expect(r.lines[0]).toEqual({ role: 'user', text: mine.openingLine });
    expect(r.lines.filter((l) => l.role === 'agent').length).toBeGreaterThan(0);
    expect(r.lines.filter((l) => l.role === 'agent').every((l) => l.appraisal && typeof l.change === 'number')).toBe(
      true,
    );
  });

  it('refuses a written user the schema refuses, with the field', async () => {
    const bad = { ...benchmarkProfiles()[0], id: 'custom-x', age: 7 };
    await expect(
      playDemo(new CpuBackend(), CI, { profileId: 'custom-x', profile: bad, turns: 1, seed: 1 }),
    ).rejects.toThrow(/does not match the profile schema \(age:/);
    await expect(playDemo(new CpuBackend(), CI, { profileId: 'nobody', turns: 1, seed: 1 })).rejects.toThrow(
      /no benchmark profile "nobody"/,
    );
  });
});
