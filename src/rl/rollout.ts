/**
 * Multi-turn rollouts: the policy talks with many simulated users at once. Each agent turn is
 * sampled for every live dialogue in one batch with the KV cache; each user line comes from the
 * persona engine; dialogues end at different turns (goodbye in S or F, or the turn cap). A long
 * dialogue slides over the context (src/rl/window.ts), always keeping the system line; by
 * default whole (user line, agent turn) pairs leave it, oldest first. Think mode: an agent turn is
 * `<think> plan </think> reply`; the user sees the reply only, and later turns see the history
 * without thoughts [RLVER], so in think mode each turn re-reads the visible history into a fresh
 * cache.
 *
 * The output keeps, per dialogue, the token sequence the policy saw and produced for each agent
 * turn (the RL update's training samples), the visible transcript and every appraisal.
 */
import type { Profile } from '../persona/profile';
import { createSimulatedUser, restoreSimulatedUser, type SimulatedUser, type TurnResult } from '../persona/user';
import { bandOf, rewardOf, type Difficulty, type Mode } from '../persona/dynamics';
import { Rng } from '../engine/rng';
import {
  historyChunks,
  parseAgentTurn,
  SYSTEM_LINE,
  SYSTEM_LINE_THINK,
  userTurnTokens,
  visibleAgentTurnTokens,
  type Turn,
} from '../engine/model/format';
import { KvSession, sampleToken, type SamplingOptions } from '../engine/model/sampler';
import type { Tokenizer } from '../engine/model/tokenizer';
import type { Transformer } from '../engine/model/transformer';
import { DEFAULT_WINDOW, repliesOutOfView, windowPrompt, type WindowPolicy } from './window';
import { banLogits, thinkGrammar, traceStep, type GrammarTrace } from './think-grammar';
import { repetitive } from './hacking';
import { readReply, type ReplyText } from '../persona/detectors/index';
import { BENCHMARK_REDRAWS } from './config';

export interface RolloutOptions {
  mode: Mode;
  difficulty: Difficulty;
  /** Seed of the simulated users (the opening lines and their phrasing). */
  userSeed: number;
  /** The users' own cap on scored replies (default: their mode's TURN_CAP, 8 in training). */
  userTurnCap?: number;
  think: boolean;
  /**
   * Think mode only: sample under the turn format's grammar (think-grammar.ts: `<think>` written
   * first, no `<|end|>` inside the think block, a thinking budget), and record what it did in each
   * turn's `grammar`. Default true; false samples freely.
   */
  thinkGrammar?: boolean;
  sampling: SamplingOptions;
  /** Cap on tokens per agent turn (the turn is cut there and closed). */
  maxTurnTokens: number;
  /** Stop every dialogue after this many agent turns (a preview); the user's own cap applies anyway. */
  maxAgentTurns?: number;
  /** What leaves a full context window first (default DEFAULT_WINDOW). */
  window?: WindowPolicy;
  /**
   * Replies drawn at every turn of each dialogue (default 1). With G above 1, each profile plays
   * one dialogue, and at each of its turns the policy writes G replies to the same history; each
   * is shown to a copy of the user as it was before the turn (the users are a pure function of
   * seed, profile and transcript, so the copies differ only in the reply they read), and the
   * dialogue goes on with the first. The output has G rows per profile, row j holding reply j of
   * every turn (its `prompt` the shared history, its `result` the user's reaction to that reply);
   * the rows share the dialogue's transcript and window and end as it does.
   */
  siblings?: number;
  /**
   * Times a reply that repeats an earlier reply of its dialogue, or repeats itself, is drawn again
   * before the user reads it (default 0: never). Spam as the hacking check calls it (hacking.ts's
   * `repetitive`: a word trigram three times in the reply, or 60%+ of its bigrams in one earlier
   * reply): the row's cache is cut back to the turn's start and the turn sampled afresh, while the
   * other rows go on decoding; the last draw stands if every one repeats. What is sampled is then π
   * conditioned on not repeating; the recorded log-probs are π's own (the update does not model
   * the condition, as it does not model top-p). Each turn records how often it was redrawn.
   */
  redraws?: number;
  /**
   * Called after each round (every live dialogue replied once and heard its user): the dialogues so
   * far and which are still going. For showing progress; it must not change them.
   */
  onRound?: (dialogues: readonly DialogueRollout[], live: readonly boolean[]) => void;
}

export interface AgentTurnSample {
  /** Tokens before the turn (the prompt the policy saw, ending with <|agent|>). */
  prompt: number[];
  /** The turn's tokens (think block, reply, closing <|end|>). */
  response: number[];
  reply: string;
  think: string | null;
  wellFormed: boolean;
  /** Cut at maxTurnTokens: the closing <|end|> was forced, not sampled. */
  truncated: boolean;
  /**
   * Per response token, its log-prob under the distribution it was drawn from: log softmax(z / τ)
   * with the grammar's banned logits set (top-k and top-p truncation aside, which the update does
   * not model either); 0 for a token the grammar forced. The update's old log-probs recompute it
   * (trainer.ts reports the largest difference as rollout/logprob_diff).
   */
  logprobs: number[];
  /** Sampled under the think grammar: what it did before each response token. */
  grammar?: GrammarTrace;
  /** With RolloutOptions.redraws: times the turn was drawn again because its reply repeated. */
  redrawn?: number;
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
  window: {
    /** Times the context window slid (the cache was re-read from a shorter prompt). */
    slides: number;
    /** Per agent turn, how many of the dialogue's oldest earlier replies its prompt no longer held. */
    hidden: number[];
  };
}

/** Play one dialogue per profile, all in one batch (with `siblings`, G rows per profile). */
export async function rollout(
  model: Transformer,
  tok: Tokenizer,
  profiles: readonly Profile[],
  opts: RolloutOptions,
  rng: Rng,
): Promise<DialogueRollout[]> {
  const G = opts.siblings ?? 1;
  if (!(Number.isInteger(G) && G >= 1)) throw new Error(`siblings must be a whole number ≥ 1, not ${G}`);
  const R = opts.redraws ?? 0;
  if (!(Number.isInteger(R) && R >= 0)) throw new Error(`redraws must be a whole number ≥ 0, not ${R}`);
  const P = profiles.length;
  const B = P * G;
  /** The dialogue row b belongs to. */
  const path = (b: number): number => Math.floor(b / G);
  const maxT = model.config.contextLength;
  const end = tok.special('<|end|>');
  const grammar = opts.think && opts.thinkGrammar !== false ? thinkGrammar(tok, opts.maxTurnTokens) : null;
  const temperature = opts.sampling.temperature;
  // The current turn of each row: its tokens, their log-probs, what the grammar did.
  let response: number[][] = [];
  let logprobs: number[][] = [];
  let traces: (GrammarTrace | null)[] = [];
  /** The next token of a turn (`last`: the cap's closing <|end|>, written, not drawn), recorded. */
  const draw = (row: Float32Array, b: number, last: boolean): number => {
    const step = grammar?.next(response[b]) ?? null;
    const trace = traces[b];
    if (step && trace) traceStep(trace, step);
    if (step && 'force' in step) {
      logprobs[b].push(0);
      return last ? end : step.force;
    }
    const z = step ? banLogits(row, step.banned) : row;
    const token = last ? end : sampleToken(z, opts.sampling, rng);
    logprobs[b].push(temperedLogprob(z, token, temperature));
    return token;
  };
  const agentOpen = tok.special('<|agent|>');
  const users: SimulatedUser[] = profiles.map((p) =>
    createSimulatedUser(p, {
      seed: opts.userSeed,
      difficulty: opts.difficulty,
      mode: opts.mode,
      turnCap: opts.userTurnCap,
    }),
  );
  const system: Turn = { role: 'system', text: opts.think ? SYSTEM_LINE_THINK : SYSTEM_LINE };
  // The first row of each dialogue; its siblings share its transcript and window (one object each).
  const lead: DialogueRollout[] = profiles.map((p, i) => ({
    profileId: p.id,
    opening: users[i].opening,
    turns: [],
    finalEmotion: users[i].state.emotion,
    reward: 0,
    endReason: 'cap',
    transcript: [system, { role: 'user', text: users[i].opening }],
    window: { slides: 0, hidden: [] },
  }));
  const out: DialogueRollout[] = Array.from({ length: B }, (_, b) =>
    b % G === 0 ? lead[path(b)] : { ...lead[path(b)], turns: [] },
  );
  // What each policy sees, as whole chunks: [bos+system, user opening, <|agent|> turn, user line, …].
  // The prompt is the system chunk plus the chunks still in the window (src/rl/window.ts), with room
  // for a full reply; agent chunks are exactly what was sampled, or the reply re-encoded without
  // thoughts in think mode [RLVER] (format.ts's historyChunks, which the warm start's think-turn
  // examples are built from too). All per dialogue (i), shared by its rows.
  const chunks: number[][][] = lead.map((d) => historyChunks(tok, d.transcript));
  const budget = maxT - opts.maxTurnTokens - 1;
  const policy = opts.window ?? DEFAULT_WINDOW;
  const dropped = lead.map(() => new Set<number>());
  const prompt = (i: number): number[] => {
    const { ids, slid } = windowPrompt(chunks[i], dropped[i], budget, policy, agentOpen);
    if (slid) lead[i].window.slides++;
    return ids;
  };
  const history: number[][] = lead.map((_, i) => prompt(i));
  history.forEach((h, i) => {
    if (h.length > budget + 1) {
      throw new Error(
        `the opening of profile ${profiles[i].id} takes ${h.length} tokens; the model's context (${maxT}) leaves no room for a reply of ${opts.maxTurnTokens} tokens`,
      );
    }
  });
  /** Each dialogue's visible replies so far, read once, for the redraws' repeat check. */
  const said: ReplyText[][] = lead.map(() => []);
  const alive = new Array<boolean>(P).fill(true);
  const live = (): boolean[] => out.map((_, b) => alive[path(b)]);
  const session = new KvSession(model, B);
  try {
    let pending: number[][] = out.map((_, b) => history[path(b)].slice());
    while (alive.some(Boolean)) {
      // Read the pending context (a whole prompt, or the latest user line) into the cache.
      const rowLive = live();
      let logits = await session.step(pending.map((p, b) => (rowLive[b] ? p : [])));
      // Where each row's turn starts, and the logits it starts from: a redraw goes back to them.
      const first = logits;
      const start = R > 0 ? Int32Array.from(session.lengths) : null;
      const redrawn = new Int32Array(B);
      const fresh = (b: number): void => {
        response[b] = [];
        logprobs[b] = [];
        traces[b] = grammar ? { steps: [], bans: [] } : null;
      };
      out.forEach((_, b) => fresh(b));
      const turnLive = rowLive.slice();
      /** The row's next token, drawn from `row`; whether the turn ended with it. */
      const advance = (row: Float32Array, b: number): boolean => {
        const token = draw(row, b, response[b].length === opts.maxTurnTokens - 1);
        response[b].push(token);
        return token === end;
      };
      /** Whether the finished turn of row b repeats its dialogue or itself, and is drawn again. */
      const redraw = (b: number): boolean => {
        if (start === null || redrawn[b] >= R) return false;
        const reply = readReply(parseAgentTurn(tok, response[b], opts.think).reply);
        if (!repetitive(reply, said[path(b)])) return false;
        redrawn[b]++;
        session.rewind(b, start[b]);
        fresh(b);
        return true;
      };
      while (turnLive.some(Boolean)) {
        const next = logits.map((row, b) => {
          if (!turnLive[b]) return [];
          let ended = advance(row, b);
          // A repeat: back to the turn's start, and its first token drawn again at once.
          while (ended && redraw(b)) ended = advance(first[b], b);
          if (ended) turnLive[b] = false;
          return turnLive[b] ? [response[b][response[b].length - 1]] : [];
        });
        if (!turnLive.some(Boolean)) break;
        logits = await session.step(next);
      }
      // Hand each reply to its simulated user (a sibling's to a copy of it as it was before the
      // turn); the <|end|> that closed a reply is not in the cache yet.
      const nextPending: number[][] = out.map(() => []);
      for (let i = 0; i < P; i++) {
        if (!alive[i]) continue;
        const before = G > 1 ? users[i].state : null;
        const d = lead[i];
        d.window.hidden.push(repliesOutOfView(chunks[i].length, dropped[i]));
        // Reply j of every row of the dialogue, read by the user (j > 0: by a copy as it was before).
        const [{ parsed, result }] = Array.from({ length: G }, (_, j) => {
          const b = i * G + j;
          const mine = parseAgentTurn(tok, response[b], opts.think);
          const user = j === 0 || before === null ? users[i] : restoreSimulatedUser(profiles[i], before);
          const reaction = user.respond(mine.reply);
          const trace = traces[b];
          out[b].turns.push({
            prompt: history[i],
            response: response[b],
            reply: mine.reply,
            think: mine.think,
            wellFormed: mine.wellFormed,
            truncated: response[b].length === opts.maxTurnTokens,
            logprobs: logprobs[b],
            ...(trace ? { grammar: trace } : {}),
            ...(R > 0 ? { redrawn: redrawn[b] } : {}),
            result: reaction,
          });
          return { parsed: mine, result: reaction };
        });
        said[i].push(readReply(parsed.reply));
        d.transcript.push({
          role: 'agent',
          text: parsed.reply,
          ...(parsed.think !== null ? { think: parsed.think } : {}),
        });
        d.finalEmotion = result.emotion;
        if (result.over) {
          alive[i] = false;
          d.endReason = result.endReason ?? 'over';
        } else if (opts.maxAgentTurns !== undefined && d.turns.length >= opts.maxAgentTurns) {
          alive[i] = false;
          d.endReason = 'limit';
          d.transcript.push({ role: 'user', text: result.line });
        } else {
          d.transcript.push({ role: 'user', text: result.line });
          const userLine = userTurnTokens(tok, result.line);
          chunks[i].push(
            opts.think ? visibleAgentTurnTokens(tok, parsed.reply) : [agentOpen, ...response[i * G]],
            userLine,
          );
          const slides = d.window.slides;
          history[i] = prompt(i);
          if (history[i].length > budget + 1) {
            alive[i] = false; // a single user line longer than the whole context
            d.endReason = 'context';
          } else if (opts.think || d.window.slides !== slides) {
            // Thoughts must leave the cache, or the window slid: read the prompt afresh.
            session.reset(i * G);
            nextPending[i * G] = history[i];
          } else {
            nextPending[i * G] = [end, ...userLine, agentOpen];
          }
        }
        // The siblings' caches hold their own replies: they read the dialogue's history afresh.
        if (alive[i])
          for (let j = 1; j < G; j++) {
            session.reset(i * G + j);
            nextPending[i * G + j] = history[i];
          }
        for (let j = 1; j < G; j++) {
          out[i * G + j].finalEmotion = d.finalEmotion;
          out[i * G + j].endReason = d.endReason;
        }
      }
      pending = nextPending;
      opts.onRound?.(out, live());
    }
  } finally {
    session.release();
  }
  for (const d of out) d.reward = rewardOf(d.finalEmotion);
  return out;
}

/** log softmax(z / τ)[token], in f64 (τ ≤ 0 is greedy: the token was certain). */
function temperedLogprob(z: ArrayLike<number>, token: number, temperature: number): number {
  if (temperature <= 0) return 0;
  let max = -Infinity;
  for (let i = 0; i < z.length; i++) max = Math.max(max, z[i]);
  let sum = 0;
  for (let i = 0; i < z.length; i++) sum += Math.exp((z[i] - max) / temperature);
  return (z[token] - max) / temperature - Math.log(sum);
}

/** How the benchmark is played by `npm run evaluate`, the trainer and the lab: users seeded 0, sampling 0.7 / top-p 0.9. */
export const BENCHMARK_SAMPLING: SamplingOptions = { temperature: 0.7, topK: 0, topP: 0.9 };
const BENCHMARK_TURN_TOKENS = 64;
const BENCHMARK_SEED = 0;

/**
 * Play benchmark users (Sentient-lite: start 40, at most 10 replies); every option defaults to the
 * benchmark's (sampling, redraws, reply cap, seed).
 */
export function playBenchmark(
  model: Transformer,
  tok: Tokenizer,
  profiles: readonly Profile[],
  o: {
    think?: boolean;
    thinkGrammar?: boolean;
    difficulty?: Difficulty;
    sampling?: SamplingOptions;
    maxTurnTokens?: number;
    maxAgentTurns?: number;
    seed?: number;
    window?: WindowPolicy;
    redraws?: number;
    onRound?: RolloutOptions['onRound'];
  } = {},
): Promise<DialogueRollout[]> {
  return rollout(
    model,
    tok,
    profiles,
    {
      mode: 'benchmark',
      difficulty: o.difficulty ?? 'moderate',
      userSeed: BENCHMARK_SEED,
      think: o.think ?? false,
      thinkGrammar: o.thinkGrammar ?? true,
      sampling: o.sampling ?? BENCHMARK_SAMPLING,
      maxTurnTokens: o.maxTurnTokens ?? BENCHMARK_TURN_TOKENS,
      ...(o.maxAgentTurns !== undefined ? { maxAgentTurns: o.maxAgentTurns } : {}),
      ...(o.window !== undefined ? { window: o.window } : {}),
      redraws: o.redraws ?? BENCHMARK_REDRAWS,
      ...(o.onRound ? { onRound: o.onRound } : {}),
    },
    new Rng(o.seed ?? BENCHMARK_SEED),
  );
}

export interface RolloutSummary {
  /** Mean final emotion. */
  score: number;
  /** Share ending in band S (100). */
  success: number;
  /** Share ending in band F (below 10). */
  failure: number;
  dialogues: number;
  /** Agent replies per dialogue. */
  meanTurns: number;
  /** Tokens per agent reply (think block included). */
  meanReplyTokens: number;
}

/** The benchmark figures of a set of dialogues [SAGE], shared by evaluation and training metrics. */
export function summariseRollouts(dialogues: readonly DialogueRollout[]): RolloutSummary {
  const n = Math.max(1, dialogues.length);
  const turns = dialogues.flatMap((d) => d.turns);
  return {
    score: dialogues.reduce((s, d) => s + d.finalEmotion, 0) / n,
    success: dialogues.filter((d) => bandOf(d.finalEmotion) === 'S').length / n,
    failure: dialogues.filter((d) => bandOf(d.finalEmotion) === 'F').length / n,
    dialogues: dialogues.length,
    meanTurns: turns.length / n,
    meanReplyTokens: turns.reduce((s, t) => s + t.response.length, 0) / Math.max(1, turns.length),
  };
}
