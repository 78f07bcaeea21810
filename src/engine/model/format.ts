/**
 * The dialogue format: how a conversation becomes tokens, and which tokens are the agent's.
 *
 *   <|bos|> <|system|> line <|end|> <|user|> text <|end|> <|agent|> [<think> plan </think>] reply <|end|> …
 *
 * The agent mask marks the tokens the policy produced (its turn's text, think block and closing
 * <|end|>), which is where supervised and RL losses apply; system and user tokens are context only.
 * The simulated user sees only the reply, and in think mode later turns see the history without
 * earlier thoughts [RLVER]: `historyChunks` is that history as rollouts build their prompts, and
 * `encodeTrainingExamples` gives the warm start the same view of it.
 */
import type { Tokenizer } from './tokenizer';

export interface Turn {
  role: 'system' | 'user' | 'agent';
  text: string;
  /** Agent turns in think mode: the plan written before the reply. */
  think?: string;
}

export interface Encoded {
  ids: number[];
  /** 1 where the token is the agent's (loss applies), 0 elsewhere. */
  agentMask: number[];
  /**
   * Tokens before this index are context only, never scored whatever the loss is on (a think turn's
   * history, see encodeTrainingExamples); 0 when absent.
   */
  scoredFrom?: number;
}

/** The system line the policy sees (RLVER's non-think template, in short). */
export const SYSTEM_LINE =
  'You are chatting with a friend who is going through something. Reply briefly and warmly, in plain words.';
export const SYSTEM_LINE_THINK = `${SYSTEM_LINE} Before each reply, plan it inside <think></think>.`;

export function encodeDialogue(tok: Tokenizer, turns: readonly Turn[]): Encoded {
  const ids: number[] = [tok.special('<|bos|>')];
  const agentMask: number[] = [0];
  const push = (xs: number[], mask: 0 | 1) => {
    for (const x of xs) {
      ids.push(x);
      agentMask.push(mask);
    }
  };
  for (const t of turns) {
    if (t.role === 'agent') {
      push([tok.special('<|agent|>')], 0);
      if (t.think !== undefined)
        push([tok.special('<think>'), ...tok.encode(` ${t.think.trim()} `), tok.special('</think>')], 1);
      push([...tok.encode(t.text), tok.special('<|end|>')], 1);
    } else {
      push(
        [tok.special(t.role === 'system' ? '<|system|>' : '<|user|>'), ...tok.encode(t.text), tok.special('<|end|>')],
        0,
      );
    }
  }
  return { ids, agentMask };
}

/** A system or user turn: role token, text, <|end|>. */
function lineTokens(tok: Tokenizer, t: Turn): number[] {
  return [tok.special(t.role === 'system' ? '<|system|>' : '<|user|>'), ...tok.encode(t.text), tok.special('<|end|>')];
}

/** An earlier agent turn as later turns are shown it in think mode: the reply alone, no thoughts [RLVER]. */
export function visibleAgentTurnTokens(tok: Tokenizer, reply: string): number[] {
  return [tok.special('<|agent|>'), ...tok.encode(reply), tok.special('<|end|>')];
}

/**
 * A history as whole chunks, the way a think-mode prompt shows it: [<|bos|> + system line, user
 * opening, agent turn, user line, …], every agent turn without its thoughts. Rollouts build their
 * prompts from these chunks (a window over them), the warm start its think-turn examples.
 */
export function historyChunks(tok: Tokenizer, turns: readonly Turn[]): number[][] {
  const chunks = turns.map((t) => (t.role === 'agent' ? visibleAgentTurnTokens(tok, t.text) : lineTokens(tok, t)));
  if (chunks.length > 0) chunks[0] = [tok.special('<|bos|>'), ...chunks[0]];
  return chunks;
}

/**
 * Where a training window over a long plain dialogue slides down to, as a share of `maxTokens`: the
 * share a rollout's window slides down to (src/rl/window.ts SLIDE_TO; a test holds them equal).
 */
export const TRAINING_SLIDE_TO = 0.6;

/**
 * A plain dialogue's chunks (historyChunks) as windows of at most `maxTokens`, the way a rollout's
 * context shows them: a window takes chunks until the next one no longer fits; then whole (user
 * line, agent turn) pairs after the system line drop from the front until the history is down to
 * TRAINING_SLIDE_TO of the window, always keeping the user line the next agent turn answers, and the
 * next window goes on from there. Each window scores only the chunks no earlier window scored
 * (scoredFrom), so every token is taught once, and every agent turn with the history a rollout would
 * have shown it. A chunk that does not fit even behind the system line alone is kept whole (the
 * batch cuts its tail).
 */
function slidingExamples(c: readonly number[][], agentIds: ReadonlySet<number>, maxTokens: number): Encoded[] {
  const out: Encoded[] = [];
  const len = (from: number, to: number) => c.slice(from, to).reduce((s, x) => s + x.length, 0);
  // The oldest chunk that may leave before chunk `next`: an agent turn keeps the user line it answers.
  const keepFrom = (next: number) => (agentIds.has(next) ? next - 1 : next);
  let from = 1;
  let next = 1;
  while (next < c.length) {
    const first = next === 1;
    while (!first && from + 2 <= keepFrom(next) && c[0].length + len(from, next) + c[next].length > maxTokens)
      from += 2;
    const history = c[0].length + len(from, next);
    let end = next;
    for (let size = history; end < c.length && size + c[end].length <= maxTokens; end++) size += c[end].length;
    if (end === next) end = next + 1;
    const chunks = [0, ...Array.from({ length: end - from }, (_, i) => from + i)];
    out.push({
      ids: chunks.flatMap((i) => c[i]),
      agentMask: chunks.flatMap((i) => c[i].map((_, k) => (agentIds.has(i) && k > 0 ? 1 : 0))),
      ...(first ? {} : { scoredFrom: history }),
    });
    next = end;
    while (from + 2 <= keepFrom(next) && c[0].length + len(from, next) > TRAINING_SLIDE_TO * maxTokens) from += 2;
  }
  return out;
}

/**
 * The supervised examples of one dialogue, at most `maxTokens` long where the history allows.
 *
 * A dialogue without thoughts is encodeDialogue's one example when it fits, else the windows a
 * rollout's sliding context shows (slidingExamples). A think-mode dialogue (any agent
 * turn with a plan) gives one example per agent turn, what a rollout would have shown and sampled
 * there: the history before the turn as historyChunks, <|agent|>, then the turn with its plan and
 * <|end|>. Only that turn's tokens are the agent's, and nothing before them is scored (scoredFrom),
 * so the thought-free earlier turns are context and never taught as replies to SYSTEM_LINE_THINK.
 * When an example is longer than `maxTokens` (the supervised window is its first maxTokens tokens),
 * whole (user line, agent turn) pairs after the system line drop from the front, as in a rollout's
 * sliding window, keeping the user line the turn answers, so the turn keeps its loss.
 */
export function encodeTrainingExamples(tok: Tokenizer, turns: readonly Turn[], maxTokens: number): Encoded[] {
  if (!turns.some((t) => t.role === 'agent' && t.think !== undefined)) {
    const whole = encodeDialogue(tok, turns);
    if (whole.ids.length <= maxTokens) return [whole];
    const agentIds = new Set(turns.flatMap((t, i) => (t.role === 'agent' ? [i] : [])));
    return slidingExamples(historyChunks(tok, turns), agentIds, maxTokens);
  }
  const out: Encoded[] = [];
  turns.forEach((t, i) => {
    if (t.role !== 'agent') return;
    const c = historyChunks(tok, turns.slice(0, i));
    const response = encodeDialogue(tok, [t]).ids.slice(2); // the turn after <|bos|> <|agent|>
    const size = (from: number) => c[0].length + c.slice(from).reduce((s, x) => s + x.length, 0) + 1 + response.length;
    let from = 1;
    while (from + 2 < c.length && size(from) > maxTokens) from += 2;
    const prompt = [...c[0], ...c.slice(from).flat(), tok.special('<|agent|>')];
    out.push({
      ids: [...prompt, ...response],
      agentMask: [...prompt.map(() => 0), ...response.map(() => 1)],
      scoredFrom: prompt.length,
    });
  });
  return out;
}

/** Tokens that open the agent's turn (what a prompt for sampling ends with). */
export function agentTurnPrefix(tok: Tokenizer): number[] {
  return [tok.special('<|agent|>')];
}

/** The user's line as a chunk to append mid-dialogue. */
export function userTurnTokens(tok: Tokenizer, text: string): number[] {
  return [tok.special('<|user|>'), ...tok.encode(text), tok.special('<|end|>')];
}

export interface ParsedAgentTurn {
  /** What the user sees. */
  reply: string;
  think: string | null;
  /** False when the turn opened a think block and did not close it, or closed one it never opened. */
  wellFormed: boolean;
}

/**
 * Split a sampled agent turn (tokens after <|agent|>, up to and excluding <|end|>) into its think
 * block and reply. In think mode a turn without a complete <think> … </think> is malformed.
 */
export function parseAgentTurn(tok: Tokenizer, ids: readonly number[], thinkMode: boolean): ParsedAgentTurn {
  const open = tok.special('<think>');
  const close = tok.special('</think>');
  const end = tok.special('<|end|>');
  const body = ids[ids.length - 1] === end ? ids.slice(0, -1) : ids.slice();
  const o = body.indexOf(open);
  const c = body.indexOf(close);
  const nOpen = body.filter((x) => x === open).length;
  const nClose = body.filter((x) => x === close).length;
  if (o === 0 && c > 0 && nOpen === 1 && nClose === 1) {
    return {
      think: tok.decode(body.slice(1, c)).trim(),
      reply: tok.decode(body.slice(c + 1)).trim(),
      wellFormed: true,
    };
  }
  const text = tok.decode(body.filter((x) => x !== open && x !== close)).trim();
  return { think: null, reply: text, wellFormed: !thinkMode ? nOpen === 0 && nClose === 0 : false };
}

/** The history as later turns see it: agent thoughts removed [RLVER]. */
export function visibleHistory(turns: readonly Turn[]): Turn[] {
  return turns.map((t) => (t.role === 'agent' ? { role: t.role, text: t.text } : t));
}
