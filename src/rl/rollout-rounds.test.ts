import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { Rng } from '../engine/rng';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { trainingProfiles } from '../persona/sets';
import { rollout, type RolloutOptions } from './rollout';

const profiles = trainingProfiles().slice(0, 3);
const tok = Tokenizer.train(
  profiles.flatMap((p) => [p.scenario.event, p.scenario.problem, ...p.scenario.details]),
  400,
);
const model = Transformer.create(
  new CpuBackend(),
  { vocabSize: tok.vocabSize, contextLength: 256, channels: 16, layers: 1, heads: 2 },
  5,
);
const OPTS: RolloutOptions = {
  mode: 'train',
  difficulty: 'moderate',
  userSeed: 3,
  think: false,
  sampling: { temperature: 1, topK: 0, topP: 1 },
  maxTurnTokens: 6,
  maxAgentTurns: 3,
};

describe('rollout rounds', () => {
  it('reports each round with the dialogues so far, and changes nothing it reports', async () => {
    const seen: { turns: number[]; live: boolean[] }[] = [];
    const got = await rollout(
      model,
      tok,
      profiles,
      { ...OPTS, onRound: (ds, live) => seen.push({ turns: ds.map((d) => d.turns.length), live: live.slice() }) },
      new Rng(1),
    );
    const plain = await rollout(model, tok, profiles, OPTS, new Rng(1));
    expect(got.map((d) => d.turns.map((t) => t.reply))).toEqual(plain.map((d) => d.turns.map((t) => t.reply)));
    // One report per round: the longest dialogue's replies; turns only grow; the last has none live.
    expect(seen).toHaveLength(Math.max(...got.map((d) => d.turns.length)));
    seen.forEach((s, k) => expect(Math.max(...s.turns)).toBe(k + 1));
    expect(seen.at(-1)!.live).toEqual(profiles.map(() => false));
    expect(seen.at(-1)!.turns).toEqual(got.map((d) => d.turns.length));
  });
});
