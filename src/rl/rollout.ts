/**
 * Multi-turn rollouts: the policy talks with many simulated users at once. Each agent turn is
 * sampled for every live dialogue in one batch with the KV cache; each user line comes from the
 * persona engine; dialogues end at different turns (goodbye in S or F, the turn cap, or a full
 * context). Think mode: an agent turn is `<think> plan </think> reply`; the user sees the reply
 * only, and later turns see the history without thoughts [RLVER], so in think mode each turn
 * re-reads the visible history into a fresh cache.
 *
 * The output keeps, per dialogue, the token sequence the policy saw and produced for each agent
 * turn (the training samples of the RL issue), the visible transcript and every appraisal.
 */
import type { Profile } from '../persona/profile';
import { createSimulatedUser, type SimulatedUser, type TurnResult } from '../persona/user';
import type { Difficulty, Mode } from '../persona/dynamics';
import type { Rng } from '../engine/rng';
import { encodeDialogue, parseAgentTurn, SYSTEM_LINE, SYSTEM_LINE_THINK, userTurnTokens, type Turn } from '../engine/model/format';
import { KvSession, sampleToken, type SamplingOptions } from '../engine/model/sampler';
import type { Tokenizer } from '../engine/model/tokenizer';
import type { Transformer } from '../engine/model/transformer';

export interface RolloutOptions {
  mode: Mode;
  difficulty: Difficulty;
  /** Seed of the simulated users (the opening lines and their phrasing). */
  userSeed: number;
  think: boolean;
  sampling: SamplingOptions;
  /** Cap on tokens per agent turn (the turn is cut there and closed). */
  maxTurnTokens: number;
}

export interface AgentTurnSample {
  /** Tokens before the turn (the prompt the policy saw, ending with <|agent|>). */
  prompt: number[];
  /** The turn's tokens (think block, reply, closing <|end|>). */
  response: number[];
  reply: string;
  think: string | null;
  wellFormed: boolean;
  /** The user's reaction to this turn. */
  result: TurnResult;
}

export interface DialogueRollout {
  profileId: string;
  opening: string;
  turns: AgentTurnSample[];
  finalEmotion: number;
  /** Final emotion / 100, floored at 0 [RLVER]. */
  reward: number;
  endReason: string;
  /** Visible transcript (agent thoughts kept for display in `think`). */
  transcript: Turn[];
}

/** Play one dialogue per profile, all in one batch. */
export async function rollout(
  model: Transformer,
  tok: Tokenizer,
  profiles: readonly Profile[],
  opts: RolloutOptions,
  rng: Rng,
): Promise<DialogueRollout[]> {
  const B = profiles.length;
  const maxT = model.config.contextLength;
  const end = tok.special('<|end|>');
  const agentOpen = tok.special('<|agent|>');
  const users: SimulatedUser[] = profiles.map((p) => createSimulatedUser(p, { seed: opts.userSeed, difficulty: opts.difficulty, mode: opts.mode }));
  const system: Turn = { role: 'system', text: opts.think ? SYSTEM_LINE_THINK : SYSTEM_LINE };
  const out: DialogueRollout[] = profiles.map((p, b) => ({
    profileId: p.id, opening: users[b].opening, turns: [], finalEmotion: users[b].state.emotion, reward: 0, endReason: 'cap',
    transcript: [system, { role: 'user', text: users[b].opening }],
  }));
  // The token history each dialogue's policy has seen (visible history; thoughts only in the current turn).
  const history: number[][] = out.map((d) => [...encodeDialogue(tok, d.transcript).ids, agentOpen]);
  history.forEach((h, b) => {
    if (h.length + 8 > maxT) throw new Error(`the opening of profile ${profiles[b].id} takes ${h.length} tokens; the model's context (${maxT}) leaves no room for a reply`);
  });
  const live = new Array<boolean>(B).fill(true);
  let session = new KvSession(model, B);
  try {
    let pending: number[][] = history.map((h) => h.slice());
    while (live.some(Boolean)) {
      // Read the pending context (prompt or the latest user line) into the cache.
      let logits = await session.step(pending.map((p, b) => (live[b] ? p : [])));
      const response: number[][] = history.map(() => []);
      const turnLive = live.slice();
      for (let n = 0; n < opts.maxTurnTokens && turnLive.some(Boolean); n++) {
        const next = logits.map((row, b) => {
          if (!turnLive[b]) return [];
          const last = n === opts.maxTurnTokens - 1 || session.lengths[b] + 1 >= maxT;
          const token = last ? end : sampleToken(row, opts.sampling, rng);
          response[b].push(token);
          if (token === end) turnLive[b] = false;
          return turnLive[b] ? [token] : [];
        });
        if (!turnLive.some(Boolean)) break;
        logits = await session.step(next);
      }
      // Hand each reply to its simulated user.
      const nextPending: number[][] = history.map(() => []);
      for (let b = 0; b < B; b++) {
        if (!live[b]) continue;
        if (response[b][response[b].length - 1] !== end) response[b].push(end);
        const parsed = parseAgentTurn(tok, response[b], opts.think);
        const result = users[b].respond(parsed.reply);
        const d = out[b];
        d.turns.push({ prompt: history[b].slice(), response: response[b], reply: parsed.reply, think: parsed.think, wellFormed: parsed.wellFormed, result });
        d.transcript.push({ role: 'agent', text: parsed.reply, ...(parsed.think !== null ? { think: parsed.think } : {}) });
        d.finalEmotion = result.emotion;
        // The history later turns see. Without think mode it is exactly what was sampled (the cache
        // holds it, all but the closing <|end|>); in think mode it is the reply re-encoded, thoughts gone.
        const seen = opts.think ? [...tok.encode(parsed.reply), end] : response[b];
        const userLine = result.over ? [] : userTurnTokens(tok, result.line);
        if (!result.over) d.transcript.push({ role: 'user', text: result.line });
        history[b].push(...seen, ...userLine, agentOpen);
        if (result.over) {
          live[b] = false;
          d.endReason = result.endReason ?? 'over';
        } else if (history[b].length + 8 >= maxT) {
          live[b] = false;
          d.endReason = 'context';
        }
        nextPending[b] = opts.think ? history[b].slice() : [end, ...userLine, agentOpen];
      }
      if (opts.think && live.some(Boolean)) {
        // Thoughts must not stay in the cache: start a fresh one from the visible history.
        session.release();
        session = new KvSession(model, B);
      }
      pending = nextPending;
    }
  } finally {
    session.release();
  }
  for (const d of out) d.reward = Math.max(0, Math.min(1, d.finalEmotion / 100));
  return out;
}
