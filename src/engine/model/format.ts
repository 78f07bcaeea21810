/**
 * The dialogue format: how a conversation becomes tokens, and which tokens are the agent's.
 *
 *   <|bos|> <|system|> line <|end|> <|user|> text <|end|> <|agent|> [<think> plan </think>] reply <|end|> …
 *
 * The agent mask marks the tokens the policy produced (its turn's text, think block and closing
 * <|end|>), which is where supervised and RL losses apply; system and user tokens are context only.
 * The simulated user sees only the reply; `visibleHistory` drops earlier thoughts [RLVER].
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
