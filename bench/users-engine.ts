/**
 * `npm run bench -- --users-engine [--json] [--rounds N]`: what a turn of the persona engine costs,
 * without HTTP. The reference policies play the 100 benchmark users at both difficulties once
 * (1,200 dialogues, about 9,100 turns) to record their replies; then the engine alone replays them
 * N times (5 by default) two ways: 256 dialogues at a time, one turn of each in turn (as the users
 * server interleaves them), and one dialogue after another. Prints the CPU time per turn (user +
 * system, this process) of each round's replay, min and median, and the load average. With --json
 * the last line is {interleavedUs, sequentialUs, turns} (medians). Only the engine's public API is
 * used, so the file runs unchanged on an older tree for a before/after. Nothing here is a test.
 */
import { loadavg } from 'node:os';
import { benchmarkProfiles } from '../src/persona/sets.ts';
import { makePolicy, REFERENCE_POLICIES } from '../src/persona/policies.ts';
import { createSimulatedUser, type TranscriptEntry } from '../src/persona/user.ts';
import type { Difficulty } from '../src/persona/dynamics.ts';
import type { Profile } from '../src/persona/profile.ts';

interface Recorded {
  profile: Profile;
  difficulty: Difficulty;
  replies: string[];
}

function record(): Recorded[] {
  const out: Recorded[] = [];
  for (const difficulty of ['moderate', 'strict'] as const)
    for (const name of REFERENCE_POLICIES)
      for (const profile of benchmarkProfiles()) {
        const policy = makePolicy(name, { seed: 0, intention: profile.intention });
        const user = createSimulatedUser(profile, { seed: 0, difficulty, mode: 'benchmark' });
        const transcript: TranscriptEntry[] = [{ role: 'user', text: user.opening }];
        const replies: string[] = [];
        while (!user.state.over) {
          const reply = policy(transcript);
          const r = user.respond(reply);
          transcript.push({ role: 'agent', text: reply }, { role: 'user', text: r.line });
          replies.push(reply);
        }
        out.push({ profile, difficulty, replies });
      }
  return out;
}

/** Replay every recorded dialogue, `width` at a time turn by turn; CPU microseconds. */
function replay(all: readonly Recorded[], width: number): number {
  const c0 = process.cpuUsage();
  for (let start = 0; start < all.length; start += width) {
    const group = all.slice(start, start + width);
    const users = group.map((d) =>
      createSimulatedUser(d.profile, { seed: 0, difficulty: d.difficulty, mode: 'benchmark' }),
    );
    for (let t = 0; group.some((d) => t < d.replies.length); t++)
      group.forEach((d, i) => {
        if (t < d.replies.length) users[i].respond(d.replies[t]);
      });
  }
  const c = process.cpuUsage(c0);
  return c.user + c.system;
}

export function runUsersEngineBench(argv: readonly string[]): number {
  const i = argv.indexOf('--rounds');
  const rounds = i >= 0 ? Number(argv[i + 1]) : 5;
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a positive whole number');
  const log = (s: string): void => void process.stderr.write(`${s}\n`);
  const all = record();
  const turns = all.reduce((s, d) => s + d.replies.length, 0);
  log(`${all.length} dialogues, ${turns} turns recorded; ${rounds} rounds of each replay after one to warm up`);
  const stats = (width: number): { min: number; median: number } => {
    replay(all, width);
    const us = Array.from({ length: rounds }, () => replay(all, width) / turns).sort((a, b) => a - b);
    return { min: us[0], median: us[us.length >> 1] };
  };
  const interleaved = stats(256);
  const sequential = stats(1);
  log(
    `load avg ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  log(
    `engine CPU per turn: 256 interleaved ${interleaved.median.toFixed(1)} us (min ${interleaved.min.toFixed(1)}), ` +
      `one dialogue at a time ${sequential.median.toFixed(1)} us (min ${sequential.min.toFixed(1)})`,
  );
  if (argv.includes('--json'))
    console.log(
      JSON.stringify({
        interleavedUs: Number(interleaved.median.toFixed(1)),
        sequentialUs: Number(sequential.median.toFixed(1)),
        turns,
      }),
    );
  return 0;
}
