import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../engine/model/checkpoint';
import { CpuBackend } from '../engine/cpu/backend';
import { Rng } from '../engine/rng';
import { parseAgentTurn } from '../engine/model/format';
import { Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { benchmarkProfiles, trainingProfiles } from '../persona/sets';
import { endReasonAfter } from '../persona/dynamics';
import { replayDialogue } from '../persona/user';
import { buildSequences } from './batch';
import { scoreSamples } from './update';
import { repetitive } from './hacking';
import { readReply } from '../persona/detectors/index';
import { playBenchmark, rollout, summariseRollouts, type DialogueRollout, type RolloutOptions } from './rollout';

const profiles = trainingProfiles().slice(0, 3);
const tok = Tokenizer.train(
  profiles.flatMap((p) => [p.scenario.event, p.scenario.problem, ...p.scenario.details]),
  400,
);
const config = { vocabSize: tok.vocabSize, contextLength: 256, channels: 16, layers: 1, heads: 2 };
const model = Transformer.create(new CpuBackend(), config, 5);
const OPTS: RolloutOptions = {
  mode: 'train',
  difficulty: 'moderate',
  userSeed: 3,
  think: false,
  sampling: { temperature: 1, topK: 0, topP: 1 },
  maxTurnTokens: 6,
};

/** The largest gap between the log-probs a rollout recorded and a fresh scoring of each (prompt, response). */
async function worstLogprobGap(m: Transformer, rs: DialogueRollout[], temperature: number): Promise<number> {
  const { sequences } = buildSequences(rs, m.config.vocabSize);
  const scored = await scoreSamples(m, sequences, 8, temperature);
  const recorded = new Map<number, number>();
  let at = 0;
  for (const r of rs) for (const t of r.turns) for (const lp of t.logprobs) recorded.set(at++, lp);
  let worst = 0;
  sequences.forEach((s, i) =>
    s.stream.forEach((x, j) => (worst = Math.max(worst, Math.abs(scored.logprobs[i][j] - recorded.get(x)!)))),
  );
  return worst;
}

describe('multi-turn rollouts', () => {
  it('plays every dialogue to an end, keeping what the policy saw and did', async () => {
    const rs = await rollout(model, tok, profiles, OPTS, new Rng(1));
    expect(rs.map((r) => r.profileId)).toEqual(profiles.map((p) => p.id));
    for (const r of rs) {
      expect(r.turns.length).toBeGreaterThan(0);
      expect(
        ['cap', 'context', 'goodbye', 'S', 'F', 'over'].some((e) => r.endReason.includes(e)) || r.endReason.length > 0,
      ).toBe(true);
      expect(r.reward).toBe(Math.max(0, r.finalEmotion / 100));
      expect(r.finalEmotion).toBe(r.turns[r.turns.length - 1].result.emotion);
      r.turns.forEach((t, k) => {
        expect(t.response.length).toBeLessThanOrEqual(OPTS.maxTurnTokens + 1);
        expect(t.response[t.response.length - 1]).toBe(tok.special('<|end|>'));
        expect(t.prompt[t.prompt.length - 1]).toBe(tok.special('<|agent|>'));
        // Without think mode the next prompt extends this one by exactly what was sampled, or, once
        // the window slides, keeps the system line and still holds <|agent|> + the sampled turn verbatim.
        if (k + 1 < r.turns.length) {
          const next = r.turns[k + 1].prompt;
          const agent = tok.special('<|agent|>');
          expect(next[next.length - 1]).toBe(agent);
          const extended =
            next.slice(0, t.prompt.length + t.response.length).join() === [...t.prompt, ...t.response].join();
          const slid =
            !extended &&
            next.slice(0, 20).join() === t.prompt.slice(0, 20).join() &&
            `,${next.join()},`.includes(`,${[agent, ...t.response].join()},`);
          expect(extended || slid).toBe(true);
          // Roles alternate: system, then user / agent pairs, ending on the opener of the next turn.
          const roles = next.filter(
            (x) => x === agent || x === tok.special('<|user|>') || x === tok.special('<|system|>'),
          );
          const want = [
            tok.special('<|system|>'),
            ...Array.from({ length: (roles.length - 1) / 2 }, () => [tok.special('<|user|>'), agent]).flat(),
          ];
          expect(roles).toEqual(want);
        }
        expect(t.prompt.length + t.response.length).toBeLessThanOrEqual(config.contextLength);
      });
      // The user saw the decoded reply.
      const t0 = r.turns[0];
      expect(t0.reply).toBe(parseAgentTurn(tok, t0.response, false).reply);
    }
  });

  it('summarises dialogues as the benchmark does: mean final emotion, share at 100, share below 10', () => {
    const d = (finalEmotion: number, replies: number): DialogueRollout =>
      ({
        finalEmotion,
        turns: Array.from({ length: replies }, () => ({ response: [1, 2, 3, 4] })),
      }) as unknown as DialogueRollout;
    expect(summariseRollouts([d(100, 2), d(5, 4), d(45, 3), d(10, 1)])).toEqual({
      score: 40,
      success: 0.25,
      failure: 0.25,
      dialogues: 4,
      meanTurns: 2.5,
      meanReplyTokens: 4,
    });
  });

  it('is deterministic: same seeds, same dialogues', async () => {
    const a = await rollout(model, tok, profiles, OPTS, new Rng(9));
    const b = await rollout(model, tok, profiles, OPTS, new Rng(9));
    expect(b.map((r) => r.turns.map((t) => t.response))).toEqual(a.map((r) => r.turns.map((t) => t.response)));
    expect(b.map((r) => r.finalEmotion)).toEqual(a.map((r) => r.finalEmotion));
  });

  it('slides over a small context instead of ending the dialogue early', async () => {
    const small = Transformer.create(new CpuBackend(), { ...config, contextLength: 200 }, 5);
    const rs = await rollout(small, tok, profiles, OPTS, new Rng(4));
    for (const r of rs) {
      expect(r.endReason).not.toBe('context');
      for (const t of r.turns) expect(t.prompt.length + t.response.length).toBeLessThanOrEqual(200);
    }
    // Some dialogue slid (a prompt that does not extend the one before) and went on after it.
    const slidAt = (r: DialogueRollout) =>
      r.turns.findIndex(
        (t, k) => k > 0 && t.prompt.slice(0, r.turns[k - 1].prompt.length).join() !== r.turns[k - 1].prompt.join(),
      );
    expect(
      rs.some((r) => slidAt(r) > 0),
      `turns: ${rs.map((r) => r.turns.length)}`,
    ).toBe(true);
  });

  it('keeps its own earlier replies in view after a slide, dropping old user lines first', async () => {
    // The shipped ci warm start plays long enough dialogues for the window to fill several times.
    const ck = loadCheckpoint(readFileSync(new URL('../../public/warmstart-ci.bin', import.meta.url)));
    const wtok = Tokenizer.fromJSON(ck.tokenizer);
    const warm = new Transformer(new CpuBackend(), ck.config, ck.weights, { frozen: true });
    const maxTurnTokens = 32;
    const budget = ck.config.contextLength - maxTurnTokens - 1;
    const agent = wtok.special('<|agent|>');
    const contains = (xs: number[], ys: number[]) => `,${xs.join()},`.includes(`,${ys.join()},`);
    const keptAll = { replies: 0, pairs: 0 };
    for (const window of ['replies', 'pairs'] as const) {
      const rs = await playBenchmark(warm, wtok, benchmarkProfiles().slice(0, 4), { window, maxTurnTokens });
      expect(rs.some((r) => r.window.slides > 1)).toBe(true);
      for (const r of rs) {
        expect(r.window.hidden).toHaveLength(r.turns.length);
        r.turns.forEach((t, k) => {
          expect(t.prompt.length).toBeLessThanOrEqual(budget);
          // After the system line the window opens on a user line.
          expect(t.prompt[t.prompt.indexOf(wtok.special('<|end|>')) + 1]).toBe(wtok.special('<|user|>'));
          // Every earlier reply the window still holds is there verbatim.
          for (let j = r.window.hidden[k]; j < k; j++)
            expect(contains(t.prompt, [agent, ...r.turns[j].response])).toBe(true);
          const prev = r.turns[k - 1]?.prompt;
          const slid = k > 0 && t.prompt.slice(0, prev.length).join() !== prev.join();
          if (slid && r.window.hidden[k] === 0) keptAll[window]++;
        });
      }
    }
    // Slides that hid no reply: the replies window drops user lines first; pairs drop a reply each.
    expect(keptAll.replies).toBeGreaterThan(0);
    expect(keptAll.pairs).toBe(0);
  });

  it('siblings: G replies to the same history each turn, each read by the user as it was; the dialogue goes on with the first', async () => {
    const ck = loadCheckpoint(readFileSync(new URL('../../public/warmstart-ci.bin', import.meta.url)));
    const wtok = Tokenizer.fromJSON(ck.tokenizer);
    const warm = new Transformer(new CpuBackend(), ck.config, ck.weights, { frozen: true });
    const G = 3;
    const ps = trainingProfiles().slice(0, 2);
    const opts: RolloutOptions = {
      ...OPTS,
      siblings: G,
      maxTurnTokens: 24,
      sampling: { temperature: 1, topK: 0, topP: 1 },
    };
    const rs = await rollout(warm, wtok, ps, opts, new Rng(5));
    expect(rs.map((r) => r.profileId)).toEqual(ps.flatMap((p) => Array.from({ length: G }, () => p.id)));
    let differing = 0;
    ps.forEach((profile, i) => {
      const rows = rs.slice(i * G, (i + 1) * G);
      const path = rows[0].turns.map((t) => t.reply);
      for (const r of rows) {
        // Every row has a reply at every turn of the dialogue, under the same prompt, and ends as it does.
        expect(r.turns.map((t) => t.prompt)).toEqual(rows[0].turns.map((t) => t.prompt));
        expect([r.finalEmotion, r.endReason, r.transcript]).toEqual([
          rows[0].finalEmotion,
          rows[0].endReason,
          rows[0].transcript,
        ]);
        // Each reply's reaction is what the user says to it after the dialogue's earlier replies.
        r.turns.forEach((t, k) => {
          const replay = replayDialogue(profile, { seed: opts.userSeed, difficulty: 'moderate', mode: 'train' }, [
            ...path.slice(0, k),
            t.reply,
          ]);
          expect(t.result).toEqual(replay.results[k]);
          if (t.reply !== rows[0].turns[k].reply) differing++;
        });
      }
      // The transcript is the first row's: its replies, and the user's lines to them.
      const agentLines = rows[0].transcript.filter((x) => x.role === 'agent').map((x) => x.text);
      expect(agentLines).toEqual(path);
    });
    expect(differing).toBeGreaterThan(0);
    // Each reply was drawn from the prompt it records, not from a cache still holding a sibling's own
    // earlier reply: a fresh scoring of every (prompt, reply) gives the log-probs the rollout kept.
    expect(await worstLogprobGap(warm, rs, 1)).toBeLessThan(1e-3);
    // The same seeds give the same dialogues.
    const again = await rollout(warm, wtok, ps, opts, new Rng(5));
    expect(again.map((r) => r.turns.map((t) => t.response))).toEqual(rs.map((r) => r.turns.map((t) => t.response)));
  });

  it("redraws: a reply that repeats its dialogue or itself is drawn again from the turn's start, scored as drawn", async () => {
    const ck = loadCheckpoint(readFileSync(new URL('../../public/warmstart-ci.bin', import.meta.url)));
    const wtok = Tokenizer.fromJSON(ck.tokenizer);
    const warm = new Transformer(new CpuBackend(), ck.config, ck.weights, { frozen: true });
    const ps = trainingProfiles().slice(0, 8);
    const opts: RolloutOptions = { ...OPTS, maxTurnTokens: 24, sampling: { temperature: 0.7, topK: 0, topP: 1 } };
    /** Per dialogue, the turns whose reply is spam against the dialogue's replies before it. */
    const spam = (rs: DialogueRollout[]) =>
      rs.map((r) =>
        r.turns.map((t, k) =>
          repetitive(
            readReply(t.reply),
            r.turns.slice(0, k).map((x) => readReply(x.reply)),
          ),
        ),
      );
    const count = (xs: boolean[][]) => xs.flat().filter(Boolean).length;
    const plain = await rollout(warm, wtok, ps, opts, new Rng(1));
    expect(plain.flatMap((r) => r.turns).every((t) => t.redrawn === undefined)).toBe(true);
    const R = 2;
    const rs = await rollout(warm, wtok, ps, { ...opts, redraws: R }, new Rng(1));
    const turns = rs.flatMap((r) => r.turns);
    const redrawn = turns.filter((t) => (t.redrawn ?? 0) > 0).length;
    // The warm start repeats itself without redraws; with them, only a turn whose every draw repeated does.
    expect(count(spam(plain))).toBeGreaterThan(0);
    expect(redrawn).toBeGreaterThan(0);
    spam(rs).forEach((ks, i) => ks.forEach((x, k) => x && expect(rs[i].turns[k].redrawn).toBe(R)));
    expect(count(spam(rs))).toBeLessThan(count(spam(plain)));
    for (const t of turns) {
      expect(t.redrawn).toBeGreaterThanOrEqual(0);
      expect(t.redrawn).toBeLessThanOrEqual(R);
      expect(t.response.length).toBeLessThanOrEqual(opts.maxTurnTokens);
      expect(t.response[t.response.length - 1]).toBe(wtok.special('<|end|>'));
      expect(t.logprobs.length).toBe(t.response.length);
      expect(t.reply).toBe(parseAgentTurn(wtok, t.response, false).reply);
    }
    // A redrawn turn was sampled from its prompt alone, not from a cache still holding the draw it
    // replaced: a fresh scoring of every (prompt, reply) gives the log-probs the rollout kept.
    expect(await worstLogprobGap(warm, rs, opts.sampling.temperature)).toBeLessThan(1e-3);
    const again = await rollout(warm, wtok, ps, { ...opts, redraws: R }, new Rng(1));
    expect(again.map((r) => r.turns.map((t) => [t.redrawn, ...t.response]))).toEqual(
      rs.map((r) => r.turns.map((t) => [t.redrawn, ...t.response])),
    );
    await expect(rollout(warm, wtok, ps, { ...opts, redraws: 1.5 }, new Rng(1))).rejects.toThrow(/redraws must be/);
  });

  it('stops after maxAgentTurns when asked (a preview)', async () => {
    const rs = await rollout(model, tok, profiles, { ...OPTS, maxAgentTurns: 2 }, new Rng(4));
    for (const r of rs) {
      expect(r.turns.length).toBeLessThanOrEqual(2);
      if (r.turns.length === 2) expect(r.endReason).toBe('limit');
    }
  });

  it("the training users talk on past their 8 replies to userTurnCap, each turn the user's own reaction", async () => {
    const ck = loadCheckpoint(readFileSync(new URL('../../public/warmstart-ci.bin', import.meta.url)));
    const wtok = Tokenizer.fromJSON(ck.tokenizer);
    const warm = new Transformer(new CpuBackend(), ck.config, ck.weights, { frozen: true });
    const ps = trainingProfiles().slice(0, 6);
    const opts: RolloutOptions = { ...OPTS, maxTurnTokens: 24, maxAgentTurns: 10 };
    const eight = await rollout(warm, wtok, ps, opts, new Rng(3));
    const ten = await rollout(warm, wtok, ps, { ...opts, userTurnCap: 10 }, new Rng(3));
    expect(Math.max(...eight.map((r) => r.turns.length))).toBe(8);
    // Eight replies end the dialogue by the cap, unless the eighth took the user to S or F.
    for (const r of eight.filter((x) => x.turns.length === 8))
      expect(r.endReason).toBe(endReasonAfter(r.turns[7].result.emotion, 8, 'train', 8) ?? 'none');
    expect(Math.max(...ten.map((r) => r.turns.length))).toBe(10);
    ten.forEach((r, i) => {
      if (r.turns.length === 10)
        expect(r.endReason).toBe(endReasonAfter(r.turns[9].result.emotion, 10, 'train', 10) ?? 'none');
      const replies = r.turns.map((t) => t.reply);
      const replay = replayDialogue(
        ps[i],
        { seed: opts.userSeed, difficulty: 'moderate', mode: 'train', turnCap: 10 },
        replies,
      );
      expect(r.turns.map((t) => t.result)).toEqual(replay.results);
    });
  });

  it('says clearly when the opening alone does not fit the context', async () => {
    const small = Transformer.create(new CpuBackend(), { ...config, contextLength: 16 }, 5);
    await expect(rollout(small, tok, profiles, OPTS, new Rng(1))).rejects.toThrow(/leaves no room for a reply/);
  });

  it('think mode: a random policy sampling freely writes malformed turns, and later prompts carry no thoughts', async () => {
    const rs = await rollout(model, tok, profiles, { ...OPTS, think: true, thinkGrammar: false }, new Rng(2));
    const think = tok.special('<think>');
    for (const r of rs) {
      for (const t of r.turns) {
        expect(t.wellFormed).toBe(parseAgentTurn(tok, t.response, true).wellFormed);
        expect(t.prompt.includes(think)).toBe(false);
      }
    }
    expect(rs.flatMap((r) => r.turns).some((t) => !t.wellFormed)).toBe(true);
  });
});
