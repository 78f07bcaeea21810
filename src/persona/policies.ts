/**
 * Reference policies: hand-written agents that bracket what the simulated users reward. Each is a
 * pure, seeded function of the visible dialogue (the user's and its own lines); none reads the
 * profile, the appraisal or the emotion number. Only `oracle` is told the hidden intention. Story
 * details come from what the user actually said (policyText.ts extracts them).
 *
 *   random      random words                     generic   stock comfort and clichés
 *   advisor     jumps to solutions               reflective  reflects and asks, never advises
 *   adaptive    reads cues, switches strategy    oracle    told the hidden intention
 *   script-empathic, script-cycle: fixed scripts that ignore the dialogue (to show they cannot win)
 */
import { digest, Rng } from '../engine/rng.ts';
import type { IntentionId } from './profile.ts';
import { inferIntention, readDialogue, type Visible } from './policyText.ts';
import type { TranscriptEntry } from './user.ts';

export const POLICY_NAMES = [
  'random',
  'generic',
  'advisor',
  'reflective',
  'adaptive',
  'oracle',
  'script-empathic',
  'script-cycle',
] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];
export const REFERENCE_POLICIES: readonly PolicyName[] = [
  'random',
  'generic',
  'advisor',
  'reflective',
  'adaptive',
  'oracle',
];

/** A policy maps the visible dialogue (ending on a user line) to the next agent reply. */
export type Policy = (dialogue: readonly TranscriptEntry[]) => string;

export interface PolicyOptions {
  seed: number;
  /** Only for `oracle`: the hidden intention it is told. */
  intention?: IntentionId;
}

export type Strategy =
  'reflect' | 'validate' | 'ask' | 'advise' | 'analyse' | 'motives' | 'growth' | 'praise' | 'exonerate';

/** {d} a detail the user mentioned, {p} a person they named, {f} a feeling word, {a} their deed. */
const T: Record<Strategy, readonly string[]> = {
  reflect: [
    'It sounds like {d} has left you really {f}.',
    'You sound so {f}, especially with {d}.',
    'I can hear how {f} you are about {d}.',
    'No wonder you feel {f} after {d}.',
    "You've been carrying {d} on your own, and you sound {f}.",
    'You must feel so {f} with {d} hanging over you.',
    'Feeling {f} after {d} makes so much sense to me.',
    'That must have left you {f}, {d} of all things.',
  ],
  validate: [
    'Honestly, anyone would be {f} about {d}.',
    'It makes complete sense that {d} got to you.',
    'Your reaction to {d} is completely understandable.',
    "Of course you're {f}; {d} is a lot.",
    'You have every right to be upset about {d}.',
    "That's a lot to deal with, especially {d}.",
  ],
  ask: [
    "What's been the hardest part of it for you?",
    'How are you holding up with {d}?',
    'What was that like for you?',
    'Can you tell me more about {d}?',
    'What goes through your head when you think about {d}?',
    'How has it been since then?',
  ],
  advise: [
    'One concrete step: write down what you need from {p} and ask for a short meeting this week.',
    "I'd start by putting {d} in writing, so you have something clear to point to.",
    "You could give {p} two options and a deadline, so it doesn't drag on.",
    'Make a short list of what you can change this week about {d}, and pick the easiest first.',
    'It might help to ask someone you trust to back you up when you talk to {p}.',
    "If I were you, I'd set a date to decide about {d}, and plan the next step around it.",
  ],
  analyse: [
    "Let's separate two things: what {p} did, and what {d} means for you.",
    'The real question seems to be whether {d} was a one-off or a pattern.',
    "Let's look at what's actually in your control here, and what isn't.",
    'On one hand {d} was out of your hands; on the other, how you respond is yours.',
    'What do we actually know about {d}, and what are we assuming?',
    'It depends on whether {p} knew about {d}. If they did, then it was a choice, not an accident.',
  ],
  motives: [
    'Maybe {p} was under more pressure than they let on.',
    "From {p}'s side, {d} might have looked very different.",
    '{P} may have felt cornered and not known how to say it.',
    '{P} was probably scared of something and handled it badly; it may not be about you at all.',
    "{P} might have been dealing with something you couldn't see.",
    'Perhaps {p} was embarrassed about {d} and avoided it.',
  ],
  growth: [
    "Looking back, what do you think you'd do differently?",
    'What does {d} tell you about what matters to you?',
    'Do you notice a pattern in how these things end for you?',
    "What's one thing you want to take from this?",
    'What would it look like if you handled the next one the way you want to?',
    'What part do you think was yours to work on?',
  ],
  praise: [
    '{A}. That took real effort, and you deserve credit for it.',
    "Honestly, {a} - that's impressive, and not everyone could have done it.",
    '{A}. You should be proud of that.',
    "{A}, and that's no small thing. Well done.",
    'Credit where it is due: {a}. That took real skill.',
  ],
  exonerate: [
    "This doesn't sound like your fault at all.",
    "From what you've said about {d}, you did everything you could.",
    "It wasn't on you. {P} let you down.",
    "You couldn't have known how {d} would go.",
    "Honestly, you didn't do anything wrong here.",
    "Don't blame yourself for {d}; it wasn't your fault.",
  ],
};

/** What each intention calls for: the main strategy and the companions that keep it human. */
export const PLAN: Record<IntentionId, { main: Strategy; with: readonly Strategy[] }> = {
  venting: { main: 'reflect', with: ['validate', 'ask'] },
  'deep-empathy': { main: 'reflect', with: ['validate', 'ask'] },
  'sincere-praise': { main: 'praise', with: ['reflect', 'validate'] },
  'not-my-fault': { main: 'exonerate', with: ['validate', 'reflect'] },
  'practical-advice': { main: 'advise', with: ['reflect', 'validate'] },
  'critical-analysis': { main: 'analyse', with: ['reflect', 'validate'] },
  'others-motives': { main: 'motives', with: ['reflect', 'validate'] },
  'self-reflection': { main: 'growth', with: ['reflect', 'validate'] },
};

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Fill a template from what the user said; returns null if it needs a slot the dialogue cannot fill. */
function render(t: string, v: Visible, rng: Rng): string | null {
  if (t.includes('{a}') || t.includes('{A}')) {
    if (!v.deed) return null;
  }
  const deed = v.deedParts.length ? v.deedParts[v.ownLines.length % v.deedParts.length] : v.deed;
  const d = v.details.length ? rng.pick(v.details.slice(0, 3)) : 'all of this';
  const p = v.people[0] ?? 'they';
  const f = v.feelings.length ? rng.pick(v.feelings.slice(0, 2)) : 'worn down';
  return t
    .replace(/\{A\}/g, cap(deed ?? ''))
    .replace(/\{a\}/g, deed ?? '')
    .replace(/\{P\}/g, cap(p))
    .replace(/\{p\}/g, p)
    .replace(/\{d\}/g, d)
    .replace(/\{f\}/g, f);
}

/** A template not used in this dialogue yet (by its fixed opening words), in seeded order. */
function fresh(s: Strategy, v: Visible, rng: Rng): string {
  const order = rng.shuffle(T[s]);
  let fallback: string | null = null;
  for (const t of order) {
    const out = render(t, v, rng);
    if (!out) continue;
    fallback ??= out;
    const stem = t.split('{')[0].trim().toLowerCase().slice(0, 24);
    const used =
      stem.length >= 6 ? v.ownLines.some((l) => l.toLowerCase().includes(stem)) : v.ownLines.some((l) => l === out);
    if (!used) return out;
  }
  return fallback ?? render(T.reflect[0], v, rng) ?? 'That sounds hard.';
}

const compose = (parts: readonly Strategy[], v: Visible, rng: Rng): string =>
  parts.map((s) => fresh(s, v, rng)).join(' ');

/** The reply for a known intention: lead with the need, wrap it in one companion line. */
function serve(intention: IntentionId, v: Visible, rng: Rng): string {
  const plan = PLAN[intention];
  const companion = plan.with[v.ownLines.length % plan.with.length];
  if (plan.main === 'praise' && !v.deed) return compose(['reflect', 'validate'], v, rng);
  if (plan.main === 'reflect') return compose(['reflect', companion], v, rng);
  return v.ownLines.length === 0 ? compose(['reflect', plan.main], v, rng) : compose([plan.main, companion], v, rng);
}

/** Reflect, validate and ask, in rotation: the listener who never advises. */
function reflective(v: Visible, rng: Rng): string {
  const rota: Strategy[][] = [
    ['reflect', 'ask'],
    ['validate', 'ask'],
    ['reflect', 'validate'],
    ['validate', 'reflect', 'ask'],
  ];
  return compose(rota[v.ownLines.length % rota.length], v, rng);
}

const GENERIC_LINES = [
  "I'm so sorry to hear that. Stay strong!",
  'That sounds tough. Everything happens for a reason.',
  "Hang in there, it'll get better.",
  "Sending hugs. You've got this!",
  'I understand how you feel. Try to look on the bright side.',
  "Don't worry too much, it's not the end of the world.",
  'Time heals everything, trust me.',
  'Stay positive, things will work out.',
  "I'm here for you. Keep your head up!",
  'Aw, that sucks. Chin up!',
  "That's really hard. But at least you learned something.",
  'Just focus on the good things in your life.',
];

const ADVICE_LINES = [
  'You should just talk to {p} directly and tell them how it is.',
  'Make a plan: list your options tonight and pick one tomorrow.',
  "Have you tried just setting a boundary? Tell {p} what you will and won't accept.",
  'My advice: stop waiting and ask for what you need.',
  'Write it all down, then go through it step by step.',
  "I'd suggest getting someone else involved, like HR or a friend.",
  'The first step is to stop overthinking and act.',
  'You need to take control here. Decide by the end of the week.',
];

const WORDS =
  'blue window river quickly seven under paper bright motor cloud sing heavy apple jump corner silver eleven tower soft train garden plastic north whisper candle yellow engine forest button ocean pencil'.split(
    ' ',
  );

function randomWords(v: Visible, rng: Rng): string {
  const pool = WORDS.concat(v.lastUserWords);
  const n = rng.int(4, 16);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(rng.pick(pool));
  return out.join(' ');
}

const SCRIPT_EMPATHIC =
  "That sounds really hard, and it makes complete sense that you feel this way. I'm here for you. What's been the hardest part?";
const SCRIPT_CYCLE = [
  'That sounds really painful, and it makes sense you feel hurt.',
  "What's been the hardest part of it for you?",
  'You could write down your options and pick one small step for this week.',
  "Let's look at what's in your control here and what isn't.",
  'Maybe they were under more pressure than they let on.',
  "Looking back, what do you think you'd do differently?",
  'Honestly, you handled a lot of this well. That took real effort.',
  "This doesn't sound like your fault at all.",
];

/** Build a policy. `oracle` needs the intention; the others ignore it. */
export function makePolicy(name: PolicyName, options: PolicyOptions): Policy {
  if (name === 'oracle' && !options.intention) throw new Error('The oracle policy must be told the hidden intention.');
  return (dialogue) => {
    const v = readDialogue(dialogue);
    const rng = new Rng(`${name}|${options.seed >>> 0}|${dialogue.length}|${digest(v.lastUserLine)}`);
    switch (name) {
      case 'random':
        return randomWords(v, rng);
      case 'generic':
        return rng.pick(GENERIC_LINES);
      case 'advisor':
        return render(rng.pick(ADVICE_LINES), v, rng) ?? ADVICE_LINES[1];
      case 'reflective':
        return reflective(v, rng);
      case 'oracle':
        return serve(options.intention as IntentionId, v, rng);
      case 'adaptive': {
        const guess = inferIntention(dialogue);
        // No cue yet: listen (reflect a detail and ask), which every user welcomes at first.
        return guess ? serve(guess, v, rng) : compose(['reflect', 'ask'], v, rng);
      }
      case 'script-empathic':
        return SCRIPT_EMPATHIC;
      case 'script-cycle':
        return SCRIPT_CYCLE[v.ownLines.length % SCRIPT_CYCLE.length];
    }
  };
}
