/**
 * The Evaluate panel's comparison as data: the two sides paired by user in the benchmark's order,
 * a side not played left empty, the picker's label, and the run store to the panel unchanged.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { INTENTIONS } from '../persona/profile';
import { benchmarkProfiles } from '../persona/sets';
import { defaultRunConfig } from '../rl/config';
import { compareBenchmarkDialogues, endText } from './benchmarkComparison';
import type { BenchmarkDialogue } from './benchmarkDialogues';
import { exportRun, importRun } from './runfile';
import { openRunStore } from './runs';

const users = benchmarkProfiles();

function dialogue(i: number, finalEmotion: number, reply = 'I hear you.'): BenchmarkDialogue {
  const u = users[i];
  return {
    profileId: u.id,
    who: `${u.name}, ${u.age}: ${u.scenario.domain}`,
    intention: u.intention,
    opening: `opening of ${u.id}`,
    startEmotion: 40,
    finalEmotion,
    endReason: finalEmotion >= 100 ? 'success' : 'cap',
    turns: [
      {
        reply,
        think: null,
        wellFormed: true,
        change: finalEmotion - 40,
        emotion: finalEmotion,
        line: 'Thanks.',
        appraisal: {
          intent: 'reflects',
          fit: 'close',
          inner: 'heard',
          feeling: 'calmer',
          reaction: 'warm',
          needMet: false,
        },
      },
    ],
  };
}

describe('compareBenchmarkDialogues', () => {
  it('pairs each user with both dialogues, in the order the benchmark played them', () => {
    const pairs = compareBenchmarkDialogues({
      before: [dialogue(0, 35), dialogue(1, 40), dialogue(2, 20)],
      after: [dialogue(2, 100, 'You did well.'), dialogue(0, 62)],
    });
    expect(pairs.map((p) => p.profileId)).toEqual([users[0].id, users[1].id, users[2].id]);
    expect(pairs.map((p) => [p.before?.finalEmotion ?? null, p.after?.finalEmotion ?? null])).toEqual([
      [35, 62],
      [40, null],
      [20, 100],
    ]);
    expect(pairs[2].after?.turns[0].reply).toBe('You did well.');
    expect(pairs[0].intention).toBe(users[0].intention);
  });

  it('labels each user with who, the hidden intention and both final emotions; a side not played reads —', () => {
    const [a, b] = compareBenchmarkDialogues({ before: [dialogue(0, 35), dialogue(1, 40)], after: [dialogue(0, 62)] });
    expect(a.label).toBe(
      `${users[0].name}, ${users[0].age}: ${users[0].scenario.domain} · ${INTENTIONS[users[0].intention].summary} · 35 → 62`,
    );
    expect(b.label.endsWith(' · 40 → —')).toBe(true);
  });

  it('keeps users only one side played, and each user once', () => {
    const onlyAfter = compareBenchmarkDialogues({ after: [dialogue(4, 70), dialogue(4, 10)] });
    expect(onlyAfter).toHaveLength(1);
    expect(onlyAfter[0]).toMatchObject({ profileId: users[4].id, before: null });
    expect(onlyAfter[0].after?.finalEmotion).toBe(70);
    expect(onlyAfter[0].label.endsWith(' · — → 70')).toBe(true);
    const mixed = compareBenchmarkDialogues({ before: [dialogue(1, 40)], after: [dialogue(3, 55), dialogue(1, 45)] });
    expect(mixed.map((p) => p.profileId)).toEqual([users[1].id, users[3].id]);
    expect(compareBenchmarkDialogues({})).toEqual([]);
  });

  it('what a run stored or a run file carried reaches the comparison unchanged', async () => {
    const played = { before: [dialogue(0, 35), dialogue(1, 40)], after: [dialogue(0, 62), dialogue(1, 12)] };
    const run = {
      id: 'cmp',
      name: 'cmp',
      createdAt: 1,
      updatedAt: 1,
      status: 'done' as const,
      config: defaultRunConfig('ci'),
      metrics: [],
      transcripts: [],
    };
    const store = await openRunStore('comparison-test');
    try {
      await store.put(run);
      await store.putBenchmarkDialogues('cmp', played);
      const stored = (await store.get('cmp'))!.benchmarkDialogues!;
      expect(compareBenchmarkDialogues(stored)).toEqual(compareBenchmarkDialogues(played));
    } finally {
      store.close();
    }
    const back = importRun(exportRun({ ...run, benchmarkDialogues: played }));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    const pairs = compareBenchmarkDialogues(back.run.benchmarkDialogues!);
    expect(pairs.map((p) => [p.before?.finalEmotion, p.after?.finalEmotion])).toEqual([
      [35, 62],
      [40, 12],
    ]);
  });
});

describe('endText', () => {
  it('says how a dialogue ended, and shows an unknown reason as it came', () => {
    expect(endText('success')).toBe('the user left happy');
    expect(endText('cap')).toBe('the turn cap ended it');
    expect(endText('something-new')).toBe('something-new');
  });
});
