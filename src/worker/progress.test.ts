import { describe, expect, it } from 'vitest';
import { BenchmarkDialoguesSchema } from '../lab/benchmarkDialogues';
import { START_EMOTION } from '../persona/dynamics';
import { INTENTIONS } from '../persona/profile';
import { benchmarkProfiles, trainingProfiles } from '../persona/sets';
import type { TurnResult } from '../persona/user';
import type { DialogueRollout } from '../rl/rollout';
import { TEXT_CAP, trimBenchmarkDialogue, trimDialogue } from './progress';
import { UNKNOWN_INTENTION } from './protocol';

const profile = trainingProfiles()[0];
const rollout = (profileId: string): DialogueRollout => ({
  profileId,
  opening: 'I had a rough day.',
  turns: [
    {
      prompt: [1],
      response: [2],
      reply: 'x'.repeat(TEXT_CAP + 10),
      think: null,
      wellFormed: true,
      truncated: false,
      logprobs: [0],
      result: {
        change: 5,
        emotion: 35,
        line: 'Thanks.',
        appraisal: { intent: 'i', fit: 'f', inner: 'n', feeling: 'g', reaction: 'warm', needMet: false },
      } as unknown as TurnResult,
    },
  ],
  finalEmotion: 35,
  reward: 0.35,
  endReason: 'cap',
  transcript: [],
  window: { slides: 0, hidden: [] },
});

describe('trimDialogue', () => {
  it('names the user and their hidden intention, and caps the texts', () => {
    const t = trimDialogue(rollout(profile.id), 3, 5, 4, profile);
    expect(t).toMatchObject({ step: 3, index: 5, group: 1, profileId: profile.id, intention: profile.intention });
    expect(t.intentionSummary).toBe(INTENTIONS[profile.intention].summary);
    expect(t.who).toContain(profile.name);
    expect(t.turns[0].reply).toHaveLength(TEXT_CAP + 1); // the cap and an ellipsis
    expect(t).not.toHaveProperty('sibling');
    // Grouped at the turn: row 5 of groups of 4 holds the second reply of each turn of group 2.
    expect(trimDialogue(rollout(profile.id), 3, 5, 4, profile, undefined, 'turn')).toMatchObject({
      group: 1,
      sibling: 1,
    });
    expect(trimDialogue(rollout(profile.id), 3, 4, 4, profile, undefined, 'turn').sibling).toBe(0);
  });

  it('says when the profile is not found instead of guessing an intention', () => {
    const t = trimDialogue(rollout('nobody-42'), 1, 0, 4, undefined);
    expect(t.intention).toBe(UNKNOWN_INTENTION);
    expect(t.intention).not.toBe('venting');
    expect(t.intentionSummary).toMatch(/unknown profile.*nobody-42/);
    expect(t.who).toBe('nobody-42 (unknown profile)');
  });
});

describe('trimBenchmarkDialogue', () => {
  it('keeps the visible text, each change, emotion and reason, and nothing of the tokens', () => {
    const user = benchmarkProfiles()[3];
    const t = trimBenchmarkDialogue(rollout(user.id), user);
    expect(t).toMatchObject({ profileId: user.id, intention: user.intention, startEmotion: START_EMOTION.benchmark });
    expect(t.who).toContain(user.name);
    expect(Object.keys(t).sort()).toEqual(
      ['endReason', 'finalEmotion', 'intention', 'opening', 'profileId', 'startEmotion', 'turns', 'who'].sort(),
    );
    expect(t.turns[0]).toEqual({
      reply: `${'x'.repeat(TEXT_CAP)}…`,
      think: null,
      wellFormed: true,
      change: 5,
      emotion: 35,
      line: 'Thanks.',
      appraisal: { intent: 'i', fit: 'f', inner: 'n', feeling: 'g', reaction: 'warm', needMet: false },
    });
    // What the page stores and a run file carries passes the schema the file is read with.
    expect(BenchmarkDialoguesSchema.safeParse({ before: [t] }).success).toBe(true);
  });
});
