/**
 * The warm start's think-mode examples against real rollouts: a scripted policy (the KV session is
 * replaced by one that puts all the weight on the next token of a script) plays think turns through
 * rollout(), and the examples encodeTrainingExamples builds from the played transcript must be,
 * token for token, the prompt the rollout showed plus the response it sampled.
 */
import { describe, expect, it, vi } from 'vitest';
import { CpuBackend } from '../engine/cpu/backend';
import { Rng } from '../engine/rng';
import { encodeDialogue, encodeTrainingExamples, SYSTEM_LINE_THINK } from '../engine/model/format';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { trainingProfiles } from '../persona/sets';
import { rollout } from './rollout';

const script = vi.hoisted(() => ({ tokens: [] as number[][], vocab: 0 }));

vi.mock('../engine/model/sampler', async (importOriginal) => {
  const real = await importOriginal<typeof import('../engine/model/sampler')>();
  /** Each row's next logits are one-hot on its script's next token, whatever it was fed. */
  class ScriptedSession {
    private readonly cursor: number[];
    constructor(_model: unknown, B: number) {
      this.cursor = new Array<number>(B).fill(0);
    }
    async step(tokens: readonly (readonly number[])[]): Promise<Float32Array[]> {
      return tokens.map((fed, b) => {
        const row = new Float32Array(script.vocab);
        if (fed.length > 0) row[script.tokens[b][this.cursor[b]++]] = 1;
        return row;
      });
    }
    reset(): void {}
    release(): void {}
  }
  return { ...real, KvSession: ScriptedSession };
});

const PLANS = ['reflect the hurt back', 'name the feeling', 'ask what would help', 'stay with the worry'];
const REPLIES = [
  'That sounds really hard.',
  'You sound worn out by all of it.',
  'What would help most right now?',
  'It makes sense that this stays with you.',
];
const profiles = trainingProfiles().slice(0, 3);
const tok = Tokenizer.train([SYSTEM_LINE_THINK, ...PLANS, ...REPLIES], 400);

describe('think-mode warm-start examples', () => {
  it('are what a think rollout shows and samples: thought-free history, then the turn with its plan', async () => {
    // Dialogue b plays turn k as PLANS[(b + k) % 4] / REPLIES[(b + k) % 4], each one well formed.
    script.vocab = tok.vocabSize;
    script.tokens = profiles.map((_, b) =>
      Array.from({ length: 4 }, (_, k) => {
        const i = (b + k) % 4;
        return encodeDialogue(tok, [{ role: 'agent', text: REPLIES[i], think: PLANS[i] }]).ids.slice(2);
      }).flat(),
    );
    const model = Transformer.create(
      new CpuBackend(),
      { vocabSize: tok.vocabSize, contextLength: 1024, channels: 8, layers: 1, heads: 2 },
      1,
    );
    const rs = await rollout(
      model,
      tok,
      profiles,
      {
        mode: 'train',
        difficulty: 'moderate',
        userSeed: 3,
        think: true,
        sampling: { temperature: 0, topK: 0, topP: 1 },
        maxTurnTokens: 64,
        maxAgentTurns: 4,
      },
      new Rng(1),
    );
    const think = [tok.special('<think>'), tok.special('</think>')];
    let later = 0;
    for (const r of rs) {
      const examples = encodeTrainingExamples(tok, r.transcript, 1024);
      expect(examples.length).toBe(r.turns.length);
      r.turns.forEach((t, k) => {
        expect(t.wellFormed).toBe(true);
        const ex = examples[k];
        expect(ex.ids).toEqual([...t.prompt, ...t.response]);
        expect(ex.agentMask).toEqual([...t.prompt.map(() => 0), ...t.response.map(() => 1)]);
        expect(ex.scoredFrom).toBe(t.prompt.length);
        // The history holds no thoughts; the turn itself opens with one.
        expect(t.prompt.some((x) => think.includes(x))).toBe(false);
        expect(ex.ids[ex.scoredFrom!]).toBe(tok.special('<think>'));
        if (k > 0) later++;
      });
    }
    expect(later).toBeGreaterThan(2);
  });
});
