/**
 * The appraiser's weights: how much each detector's finding moves this user, by hidden intention
 * (the fit table), by stage of the dialogue, by difficulty and by trait. Data plus one small
 * function that combines them and says why. This is the file to read (and to tune) to understand
 * what a simulated user rewards; docs/PERSONAS.md prints the same tables in prose.
 */
import type { Difficulty } from './dynamics.ts';
import type { DetectorId } from './detectors/types.ts';
import type { IntentionId, PersonalityType, Profile } from './profile.ts';

/** Detectors that are strategies a supporter can choose (their weight depends on the need). */
export const STRATEGIES = [
  'reflection',
  'validation',
  'details',
  'openQuestion',
  'advice',
  'analysis',
  'motives',
  'growth',
  'praise',
  'praiseSpecific',
  'exoneration',
] as const satisfies readonly DetectorId[];
export type StrategyId = (typeof STRATEGIES)[number];
export const isStrategy = (id: DetectorId): id is StrategyId => (STRATEGIES as readonly string[]).includes(id);

/**
 * Fit of each strategy to each hidden intention, once the user feels heard (moderate). 1.3 is
 * "this is what I came for"; 0.2-0.7 "nice, not the point"; negative "that is the opposite".
 */
export const FIT: Record<IntentionId, Record<StrategyId, number>> = {
  venting: {
    reflection: 0.7,
    validation: 0.55,
    details: 0.5,
    openQuestion: 0.3,
    advice: -0.9,
    analysis: -0.5,
    motives: -0.45,
    growth: -0.5,
    praise: 0,
    praiseSpecific: 0.1,
    exoneration: 0.45,
  },
  'deep-empathy': {
    reflection: 0.75,
    validation: 0.4,
    details: 0.6,
    openQuestion: 0.3,
    advice: -0.8,
    analysis: -0.5,
    motives: -0.35,
    growth: -0.45,
    praise: -0.1,
    praiseSpecific: 0.1,
    exoneration: 0.4,
  },
  'sincere-praise': {
    reflection: 0.25,
    validation: 0.3,
    details: 0.3,
    openQuestion: 0.15,
    advice: -0.5,
    analysis: -0.3,
    motives: -0.3,
    growth: -0.3,
    praise: 0.5,
    praiseSpecific: 1.3,
    exoneration: 0.15,
  },
  'not-my-fault': {
    reflection: 0.25,
    validation: 0.45,
    details: 0.25,
    openQuestion: 0.1,
    advice: -0.5,
    analysis: -0.2,
    motives: -0.6,
    growth: -0.7,
    praise: 0.1,
    praiseSpecific: 0.2,
    exoneration: 1.3,
  },
  'practical-advice': {
    reflection: 0.2,
    validation: 0.2,
    details: 0.4,
    openQuestion: 0.2,
    advice: 1.3,
    analysis: 0.35,
    motives: 0,
    growth: 0,
    praise: 0,
    praiseSpecific: 0.1,
    exoneration: 0,
  },
  'critical-analysis': {
    reflection: 0.2,
    validation: 0.15,
    details: 0.4,
    openQuestion: 0.25,
    advice: 0.25,
    analysis: 1.3,
    motives: 0.35,
    growth: 0.1,
    praise: -0.2,
    praiseSpecific: 0.1,
    exoneration: -0.2,
  },
  'others-motives': {
    reflection: 0.2,
    validation: 0.2,
    details: 0.4,
    openQuestion: 0.2,
    advice: -0.2,
    analysis: 0.35,
    motives: 1.3,
    growth: 0,
    praise: -0.1,
    praiseSpecific: 0.1,
    exoneration: -0.1,
  },
  'self-reflection': {
    reflection: 0.2,
    validation: 0.15,
    details: 0.3,
    openQuestion: 0.3,
    advice: 0,
    analysis: 0.3,
    motives: 0.2,
    growth: 1.3,
    praise: 0,
    praiseSpecific: 0.1,
    exoneration: -0.5,
  },
};

/** The strategies that meet each need (the first is the need itself). */
export const NEED: Record<IntentionId, readonly StrategyId[]> = {
  venting: ['reflection', 'validation'],
  'deep-empathy': ['reflection', 'details'],
  'sincere-praise': ['praiseSpecific'],
  'not-my-fault': ['exoneration'],
  'practical-advice': ['advice'],
  'critical-analysis': ['analysis'],
  'others-motives': ['motives'],
  'self-reflection': ['growth'],
};

/** Base weights of the ways a reply goes wrong (multiplied by the detector score, 0..1 or more). */
export const NEGATIVE: Partial<Record<DetectorId, number>> = {
  tooManyQuestions: -0.5,
  offTopic: -0.6,
  foreignDetail: -0.6,
  minimising: -0.9,
  dismissal: -1.5,
  cliche: -0.4,
  judgment: -1.3,
  selfFocus: -0.6,
  repetition: -0.8,
  parroting: -0.8,
  length: -0.5,
  focus: -0.6,
  nonLanguage: -2.5,
  scorer: -2.5,
};
/** Needs that make some failures hurt more: shallow comfort to someone who wants depth, blame to someone who fears it is theirs. */
export const NEGATIVE_BY_NEED: Partial<Record<IntentionId, Partial<Record<DetectorId, number>>>> = {
  'deep-empathy': { cliche: -0.9, minimising: -1.2 },
  'not-my-fault': { judgment: -1.8 },
  venting: { selfFocus: -0.9, minimising: -1.1 },
};

export interface DifficultyKnobs {
  /** Heard turns before advice and analysis are welcome (unless they are the need). */
  heardNeeded: number;
  /** Before the user feels heard, empathy earns at least these weights whatever the need. */
  heardFloor: Partial<Record<StrategyId, number>>;
  /** Positive weights of strategies that are not the need are scaled by this (strict accepts fewer). */
  offNeedScale: number;
  /** Each earlier use of a non-need strategy keeps this share of its weight (it goes stale). */
  stale: number;
  /** The need strategy itself stays welcome longer. */
  needStale: number;
  /** Per turn the need has gone unmet since the user felt heard. */
  unmetStep: number;
  unmetCap: number;
  /** Per reply in a row, after the first, that tries nothing (no strategy): the user disengages. */
  idleStep: number;
  idleCap: number;
}

export const KNOBS: Record<Difficulty, DifficultyKnobs> = {
  moderate: {
    heardNeeded: 1,
    heardFloor: { reflection: 0.6, validation: 0.45, details: 0.45, openQuestion: 0.4 },
    offNeedScale: 1,
    stale: 0.7,
    needStale: 0.95,
    unmetStep: 0.12,
    unmetCap: 4,
    idleStep: 0.2,
    idleCap: 4,
  },
  strict: {
    heardNeeded: 1,
    heardFloor: { reflection: 0.5, validation: 0.4, details: 0.4, openQuestion: 0.3 },
    offNeedScale: 0.55,
    stale: 0.6,
    needStale: 0.9,
    unmetStep: 0.2,
    unmetCap: 4,
    idleStep: 0.25,
    idleCap: 4,
  },
};

/** Advice before the user feels heard (unless advice is the need) weighs at most this. */
export const EARLY_ADVICE = -0.8;
/** Other directive strategies before the user feels heard lose this much (too soon). */
export const EARLY_DIRECTIVE_PENALTY = 0.25;
/** Suspicious or modest users distrust generic praise: it weighs at most this. */
export const DISTRUSTED_PRAISE = -0.3;
/** At low emotion (bands C, F) every failure hurts this much more. */
export const LOW_BAND_SENSITIVITY = 1.1;

/** Trait effects: `up` scales positive weights, `down` scales negative ones, per detector. */
interface TraitEffect {
  up?: Partial<Record<DetectorId, number>>;
  down?: Partial<Record<DetectorId, number>> | number;
  note: string;
}
const TRAIT_EFFECTS: Partial<Record<string, TraitEffect>> = {
  angry: {
    down: { judgment: 1.3, length: 1.3, cliche: 1.2, advice: 1.2 },
    note: 'angry: blame, lectures and early advice sting more',
  },
  irritable: {
    down: { length: 1.6, tooManyQuestions: 1.5, repetition: 1.3 },
    note: 'irritable: long replies and questions grate',
  },
  crude: { down: { cliche: 1.5 }, note: 'crude: no patience for fluff' },
  conceited: {
    up: { praise: 1.4, praiseSpecific: 1.2 },
    down: { advice: 1.2 },
    note: 'conceited: likes credit, dislikes being told what to do',
  },
  arrogant: {
    up: { praise: 1.3 },
    down: { judgment: 1.3, advice: 1.2 },
    note: 'arrogant: likes credit, hates correction',
  },
  vain: { up: { praise: 1.5, praiseSpecific: 1.2 }, note: 'vain: praise lands' },
  selfish: { up: { motives: 0.7 }, down: { selfFocus: 1.4 }, note: "selfish: little interest in the others' side" },
  mean: { up: { motives: 0.8 }, down: { cliche: 1.3 }, note: 'mean: scorns stock comfort' },
  lazy: { up: { advice: 0.85 }, down: { length: 1.3 }, note: 'lazy: long replies and effortful advice land less' },
  suspicious: {
    up: { validation: 0.8 },
    down: { cliche: 1.3 },
    note: 'suspicious: distrusts generic praise and stock comfort',
  },
  introverted: {
    up: { openQuestion: 0.8 },
    down: { tooManyQuestions: 1.5 },
    note: 'introverted: questions feel like pressure',
  },
  blunt: { down: { cliche: 1.5, length: 1.3 }, note: 'blunt: wants it straight' },
  resentful: { up: { exoneration: 1.2 }, down: { minimising: 1.3 }, note: 'resentful: hates being told it is nothing' },
  anxious: { up: { validation: 1.3 }, down: { judgment: 1.3 }, note: 'anxious: reassurance helps, blame spirals' },
  cautious: { down: { advice: 1.3 }, note: 'cautious: pushed advice feels risky' },
  insecure: { up: { validation: 1.2 }, down: { judgment: 1.5 }, note: 'insecure: validation helps, judgment wounds' },
  patient: { down: 0.8, note: 'patient: forgives misses' },
  timid: { down: { judgment: 1.3, tooManyQuestions: 1.3 }, note: 'timid: pressure and blame shut them down' },
  optimistic: { down: 0.85, note: 'optimistic: bounces back' },
  modest: { note: 'modest: distrusts generic praise' },
  tolerant: { down: 0.8, note: 'tolerant: forgives misses' },
  steady: { down: 0.85, note: 'steady: hard to knock off balance' },
  'quick-witted': { down: { repetition: 1.4, cliche: 1.3 }, note: 'quick-witted: spots repetition and stock lines' },
  evasive: {
    up: { openQuestion: 0.7, reflection: 0.85 },
    down: { tooManyQuestions: 1.6 },
    note: 'evasive: probing makes them back off',
  },
  sensitive: { down: { judgment: 1.5, minimising: 1.4 }, note: 'sensitive: blame and minimising hurt' },
  aloof: {
    up: { reflection: 0.85 },
    down: { tooManyQuestions: 1.3, length: 1.3 },
    note: "aloof: keeps feelings at arm's length",
  },
  taciturn: { down: { length: 1.4, tooManyQuestions: 1.4 }, note: 'taciturn: few words, few questions' },
  erratic: { note: 'erratic: mood shows in the wording more than in the score' },
};

/** Personality type effects, applied like traits. */
const TYPE_EFFECTS: Record<PersonalityType, TraitEffect> = {
  negative: { down: 1.15, note: 'negative type: misses hurt more' },
  passive: { note: 'passive type: no change' },
  avoidant: {
    up: { reflection: 0.9, openQuestion: 0.9 },
    down: { tooManyQuestions: 1.3 },
    note: 'avoidant type: feelings talk and questions land less',
  },
};

/** The type's effect, then each trait's, in the profile's order; listed once per profile object. */
const effectLists = new WeakMap<Profile, readonly TraitEffect[]>();

function effectsOf(profile: Profile): readonly TraitEffect[] {
  let effects = effectLists.get(profile);
  if (!effects) {
    effects = [
      TYPE_EFFECTS[profile.personality.type],
      ...profile.personality.traits.map((t) => TRAIT_EFFECTS[t]).filter((e): e is TraitEffect => !!e),
    ];
    effectLists.set(profile, effects);
  }
  return effects;
}

/** Multiply `w` by the trait and type effects that touch detector `id`; returns the notes used. */
export function applyPersonality(id: DetectorId, w: number, profile: Profile): { w: number; notes: string[] } {
  const notes: string[] = [];
  for (const e of effectsOf(profile)) {
    let m = 1;
    if (w > 0 && e.up && e.up[id] !== undefined) m = e.up[id] ?? 1;
    if (w < 0 && e.down !== undefined) m = typeof e.down === 'number' ? e.down : (e.down[id] ?? 1);
    if (m !== 1) {
      w *= m;
      notes.push(e.note);
    }
  }
  return { w, notes };
}
