/**
 * The reply grammar: turn (strategy, what the user said) into a fluent agent reply and, on request,
 * a short think plan ("they sound tired about the smaller plate; reflect the feeling back first").
 * Templates live in templates.ts; slots are filled only from the user's visible lines (extract.ts),
 * and every filled detail is reported with its raw span so tests can check it was really said.
 *
 * `corpusPolicy` plays the grammar as a policy with a uniform strategy choice, the same draw the
 * corpus uses: the benchmark score of that policy is what the warm start is expected to imitate.
 *
 * Not here: choosing strategies for the corpus, talking to simulated users (build.ts). Pure
 * TypeScript, seeded (never Math.random), no DOM or Node APIs.
 */
import type { Rng } from '../engine/rng.ts';
import type { Span, Visible } from './extract.ts';
import { ADVICE_LATE_LEAD, LEAD_INS, PLAN_ACTIONS, PLAN_READS, TEMPLATES, type CorpusStrategy } from './templates.ts';

export { CORPUS_STRATEGIES, type CorpusStrategy } from './templates.ts';

/** One slot filled from the user's text: which slot, the span as the user said it, and as shown. */
interface Fill {
  slot: 'd' | 'd2' | 'p' | 'deed' | 'f';
  raw: string;
  shown: string;
}

export interface Rendered {
  strategy: CorpusStrategy;
  reply: string;
  /** The think plan (always made; the corpus keeps it only in think dialogues). */
  plan: string;
  /** Slots filled from the user's lines (guessed feelings are not listed: the user did not say them). */
  fills: Fill[];
}

/** When the user named no feeling, a listener guesses one of these. */
const GUESSED_FEELINGS = ['hurt', 'worn out', 'frustrated', 'upset', 'stressed', 'let down', 'fed up'] as const;
/** Chances of the small variations that keep replies from sounding like fixed strings. */
const LEAD_IN_RATE = 0.2;
const SECOND_SENTENCE_RATE = 0.15;
const CLICHE_LEAD_RATE = 0.3;
const LATE_ADVICE_LEAD_RATE = 0.6;
/** Strategies whose reply may carry a second sentence of the same kind (questions stay single). */
const TWO_SENTENCE: ReadonlySet<CorpusStrategy> = new Set([
  'reflection',
  'validation',
  'details',
  'motives',
  'analysis',
  'exoneration',
  'minimising',
  'praise',
]);
/** Tries per reply before a bank falls back to its slot-free templates. */
const MAX_TRIES = 12;

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** Lower-case a sentence's first letter after a lead-in, unless it opens with "I" or a name. */
const lowerFirst = (s: string, names: readonly Span[]): string =>
  /^I\b/.test(s) || names.some((n) => s.startsWith(n.you)) ? s : s.charAt(0).toLowerCase() + s.slice(1);

/** Resolve `[a|b]` choices, innermost first, so nested alternatives each get a fair draw. */
export function expand(template: string, rng: Rng): string {
  let t = template;
  for (let guard = 0; guard < 64; guard++) {
    const m = /\[([^[\]]*)\]/.exec(t);
    if (!m) break;
    t = t.slice(0, m.index) + rng.pick(m[1].split('|')) + t.slice(m.index + m[0].length);
  }
  return t
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,?!])/g, '$1')
    .trim();
}

interface Slots {
  d: Span | null;
  d2: Span | null;
  p: Span | null;
  deed: Span | null;
  f: { word: string; said: boolean };
}

/** Choose slot values for one reply: a detail not yet echoed if possible, a person, a feeling. */
function chooseSlots(v: Visible, rng: Rng): Slots {
  const own = v.ownLines.join(' ').toLowerCase();
  const fresh = v.details.filter((d) => !own.includes(d.you.toLowerCase()));
  const pool = (fresh.length ? fresh : v.details).slice(0, 3);
  const d = pool.length ? rng.pick(pool) : null;
  const rest = v.details.filter((x) => x !== d);
  return {
    d,
    d2: rest.length ? rng.pick(rest.slice(0, 3)) : null,
    p: v.people.length ? rng.pick(v.people.slice(0, 2)) : null,
    deed: v.deed,
    f: v.feelings.length
      ? { word: rng.pick(v.feelings.slice(0, 2)), said: true }
      : { word: rng.pick(GUESSED_FEELINGS), said: false },
  };
}

/** Fill one expanded template, or null if it needs a slot this dialogue cannot fill. */
function fill(text: string, s: Slots, fills: Fill[]): string | null {
  const needs = (re: RegExp, ok: unknown) => !re.test(text) || !!ok;
  if (!needs(/\{[dD]\}/, s.d) || !needs(/\{d2\}/, s.d2) || !needs(/\{[pP]\}/, s.p) || !needs(/\{[dD]eed\}/, s.deed))
    return null;
  const used: Fill[] = [];
  const note = (slot: Fill['slot'], raw: string, shown: string) => {
    if (!used.some((u) => u.slot === slot)) used.push({ slot, raw, shown });
  };
  const out = text.replace(/\{([dD]eed|d2|[dDpPf])\}/g, (_, k: string) => {
    switch (k) {
      case 'd':
      case 'D': {
        const d = s.d as Span;
        note('d', d.raw, d.you);
        return k === 'D' ? cap(d.you) : d.you;
      }
      case 'd2': {
        const d = s.d2 as Span;
        note('d2', d.raw, d.you);
        return d.you;
      }
      case 'p':
      case 'P': {
        const p = s.p as Span;
        note('p', p.raw, p.you);
        return k === 'P' ? cap(p.you) : p.you;
      }
      case 'deed':
      case 'Deed': {
        const d = s.deed as Span;
        note('deed', d.raw, d.you);
        return k === 'Deed' ? cap(d.you) : d.you;
      }
      default:
        if (s.f.said) note('f', s.f.word, s.f.word);
        return s.f.word;
    }
  });
  fills.push(...used);
  return out;
}

/** Last resort per strategy when no template's slots can be filled (rare: the user named nothing). */
const FALLBACK: Partial<Record<CorpusStrategy, string>> = {
  details: 'Wait, go back a second. That part stuck with me.',
  praiseSpecific: "Everything you've done to keep going through this is genuinely impressive.",
};

/** One sentence of a strategy from its bank, not from a template in `skip`; returns the template too. */
function sentence(
  strategy: CorpusStrategy,
  s: Slots,
  rng: Rng,
  fills: Fill[],
  skip: readonly string[] = [],
  avoid: readonly string[] = [],
): { text: string; template: string } {
  const bank = TEMPLATES[strategy];
  const order = rng.shuffle(bank.filter((t) => !skip.includes(t)));
  for (let i = 0; i < Math.min(MAX_TRIES, order.length * 2); i++) {
    const local: Fill[] = [];
    const template = order[i % order.length];
    const out = fill(expand(template, rng), s, local);
    if (out && !avoid.includes(out)) {
      fills.push(...local);
      return { text: out, template };
    }
  }
  // No template fits this dialogue's slots: the slot-free ones always do.
  const free = order.filter((t) => !/\{(?:[dDpP]|d2|[dD]eed)\}/.test(t));
  if (free.length) {
    const template = rng.pick(free);
    return { text: fill(expand(template, rng), s, fills) as string, template };
  }
  return { text: FALLBACK[strategy] ?? 'Tell me more.', template: '' };
}

function questionsReply(s: Slots, rng: Rng, fills: Fill[]): string {
  const n = rng.int(3, 5);
  const qs: string[] = [];
  for (const t of rng.shuffle(TEMPLATES.tooManyQuestions)) {
    const q = fill(expand(t, rng), s, fills);
    if (q && !qs.includes(q)) qs.push(q);
    if (qs.length >= n) break;
  }
  const lead = rng.next() < 0.4 ? `${rng.pick(['Okay, wait.', 'Hang on.', 'Hmm.', 'Right, so.'])} ` : '';
  return lead + qs.join(' ');
}

function clicheReply(s: Slots, rng: Rng, fills: Fill[]): string {
  const parts = rng.sample(TEMPLATES.cliche, rng.int(1, 2)).map((t) => expand(t, rng));
  if (s.d && rng.next() < CLICHE_LEAD_RATE)
    parts.unshift(`${rng.pick(['Aw', 'Ugh', 'Oh no'])}, ${fill('{d}', s, fills) as string}.`);
  return parts.join(' ');
}

/** Prefix a neutral lead-in, lower-casing the sentence after a comma-style lead. */
function withLead(lead: string, text: string, names: readonly Span[]): string {
  return lead.endsWith('.') ? `${lead} ${text}` : `${lead} ${lowerFirst(text, names)}`;
}

function planFor(strategy: CorpusStrategy, s: Slots, turn: number, rng: Rng): string {
  const detail = s.d;
  let read: string;
  if (detail && s.f.said) read = rng.pick(PLAN_READS.feelingDetail);
  else if (detail) read = rng.pick(PLAN_READS.detail);
  else if (s.p) read = rng.pick(PLAN_READS.person);
  else read = rng.pick(PLAN_READS.plain);
  read = read
    .replace('{f}', s.f.word)
    .replace('{them}', detail?.them ?? '')
    .replace('{p}', s.p?.them ?? '');
  const action = strategy === 'advice' && turn === 0 ? 'jump straight to advice' : rng.pick(PLAN_ACTIONS[strategy]);
  return `${read}; ${action}`;
}

/**
 * Render one reply of `strategy` for the visible dialogue. `turn` is the agent's turn index (0 for
 * the first reply): advice after the first turn is phrased as a next step, at turn 0 as jumping in.
 */
export function renderReply(strategy: CorpusStrategy, v: Visible, rng: Rng): Rendered {
  const turn = v.ownLines.length;
  const s = chooseSlots(v, rng);
  const fills: Fill[] = [];
  let reply: string;
  if (strategy === 'tooManyQuestions') reply = questionsReply(s, rng, fills);
  else if (strategy === 'cliche') reply = clicheReply(s, rng, fills);
  else {
    const first = sentence(strategy, s, rng, fills, [], v.ownLines);
    reply = first.text;
    if (TWO_SENTENCE.has(strategy) && rng.next() < SECOND_SENTENCE_RATE && !reply.endsWith('?')) {
      const second = sentence(strategy, s, rng, fills, [first.template], [reply]);
      if (second.template) reply = `${reply} ${second.text}`;
    }
    if (strategy === 'advice' && turn > 0 && rng.next() < LATE_ADVICE_LEAD_RATE) {
      reply = withLead(rng.pick(ADVICE_LATE_LEAD), reply.replace(/^Honestly, /, ''), v.people);
    } else if (
      strategy !== 'advice' &&
      rng.next() < LEAD_IN_RATE &&
      !/^(?:Honestly|Oh|Wait|Hold on|Okay|Ugh|Wow)\b/.test(reply)
    ) {
      reply = withLead(rng.pick(LEAD_INS), reply, v.people);
    }
  }
  // Optional openers like "[Honestly, |]you..." can leave a sentence starting in lower case.
  reply = cap(reply).replace(/([.!?] )(\p{Ll})/gu, (_, a: string, b: string) => a + b.toUpperCase());
  return { strategy, reply, plan: planFor(strategy, s, turn, rng), fills };
}
