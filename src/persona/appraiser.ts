/**
 * Step one of a user turn (after SAGE's emotion analyser): read the agent's reply against the
 * profile, the hidden intention, the history and the current emotion, and write five parts: what
 * the reply tries to do, how well it fits the hidden intention, the user's inner reaction, how the
 * user feels, and the signed change. Plus the detector breakdown (score, weight, contribution,
 * reason for each) and the stage bookkeeping the next turn needs.
 *
 * Deterministic: no randomness here at all. The change is the weighted sum of detector scores,
 * quantised by fixed thresholds (dynamics.ts). Not here: the user's words (actor.ts), and the
 * appraisal's own sentences (appraisalText.ts).
 */
import { bandOf, quantise, type Change, type Difficulty } from './dynamics.ts';
import { PAGE, tasteMax } from './detectors/length.ts';
import { overlap } from './detectors/repetition.ts';
import {
  hitOf,
  lexiconOf,
  PRESENT,
  runDetectors,
  type DetectorHit,
  type DetectorId,
  type ReplyText,
  type UserLineText,
} from './detectors/index.ts';
import { feelingOf, fitOf, innerOf, intentOf } from './appraisalText.ts';
import type { Profile } from './profile.ts';
import {
  challengePressures,
  challengeRules,
  initialChallengeStage,
  type ChallengeHitId,
  type ChallengeMove,
  type ChallengeStage,
} from './challenge.ts';
import {
  applyPersonality,
  DISTRUSTED_PRAISE,
  EARLY_ADVICE,
  EARLY_DIRECTIVE_PENALTY,
  FIT,
  isStrategy,
  KNOBS,
  LOW_BAND_SENSITIVITY,
  NEED,
  NEGATIVE,
  NEGATIVE_BY_NEED,
  STRATEGIES,
  type StrategyId,
} from './weights.ts';

/** What the appraiser remembers between turns (all derivable from the transcript). */
export interface Stage {
  /** Turns in which the user felt heard. */
  heard: number;
  /** How often each strategy has been used so far (for staleness). */
  uses: Partial<Record<StrategyId, number>>;
  /** Consecutive turns, since the user felt heard, in which the need went unmet. */
  unmet: number;
  /**
   * Consecutive replies that tried nothing the detectors name (no strategy at all). Optional so a
   * state saved before it existed restores (missing = 0).
   */
  idle?: number;
  /** The previous turn's change (a verbatim repeat must earn less than it). */
  lastChange: Change;
  /** Challenge-set users only (profile.challenge): what their push-back remembers. */
  challenge?: ChallengeStage;
}
export const initialStage = (): Stage => ({ heard: 0, uses: {}, unmet: 0, idle: 0, lastChange: 0 });

/** Overlap with the previous reply at which it counts as the same reply said again. */
const SAME_AS_LAST = 0.8;

export interface WeightedHit extends Omit<DetectorHit, 'id'> {
  /**
   * A detector, or a pressure that builds over turns: 'unmetNeed' (a need left unmet turn after
   * turn once heard) or 'disengaged' (reply after reply that tries nothing), or a challenge-set
   * user's push-back (challenge.ts).
   */
  id: DetectorId | 'unmetNeed' | 'disengaged' | ChallengeHitId;
  weight: number;
  contribution: number;
  /** Why the weight is what it is (intention, stage, traits), for the breakdown. */
  why: string;
}

/** What the reply did to the user, in the actor's terms. */
export type Reaction =
  | 'needMet'
  | 'heard'
  | 'lukewarm'
  | 'unmet'
  | 'unwantedAdvice'
  | 'offTrack'
  | 'mixedUp'
  | 'fakePraise'
  | 'judged'
  | 'minimised'
  | 'cliche'
  | 'selfFocus'
  | 'repeated'
  | 'parroted'
  | 'interrogated'
  | 'tooLong'
  | 'tooShort'
  | 'scattered'
  | 'nonsense'
  | 'silence'
  | 'scorer'
  | 'rejectedComfort'
  | 'contradicted'
  | 'flattered';

export interface Appraisal {
  /** 1. What the reply tries to do. */
  intent: string;
  /** 2. How well it fits the hidden intention. */
  fit: string;
  /** 3. The user's inner reaction. */
  inner: string;
  /** 4. How the user feels. */
  feeling: string;
  /** 5. The signed change. */
  change: Change;
  total: number;
  needMet: boolean;
  reaction: Reaction;
  detectors: WeightedHit[];
  /** Challenge-set users only: what their push-back makes them do next, and the detail they took back. */
  challenge?: { moves: ChallengeMove[]; denied: string | null };
}

export interface AppraisalInput {
  profile: Profile;
  difficulty: Difficulty;
  /** The reply, read (readReply). */
  reply: ReplyText;
  /** The dialogue so far, read (readReply, readUserLine). */
  previousReplies: readonly ReplyText[];
  userLines: readonly UserLineText[];
  emotion: number;
  stage: Stage;
}

/** A detector's raw score in this reply. */
type ScoreOf = (id: DetectorId) => number;

/**
 * Everything a weight depends on besides the detector, the profile and the difficulty: whether
 * the user feels heard yet, how often this strategy was used before, whether the user is low
 * (band C or F), for advice and praise whether this reply's advice is off topic and its praise
 * names nothing the user did, and whether the reply names a detail of somebody else's story.
 */
interface Moment {
  heard: boolean;
  uses: number;
  low: boolean;
  offTopic: boolean;
  unnamedPraise: boolean;
  foreign: boolean;
}

interface Weight {
  w: number;
  why: string;
}

function weigh(id: DetectorId, profile: Profile, difficulty: Difficulty, m: Moment): Weight {
  const knobs = KNOBS[difficulty];
  const need = profile.intention;
  const heard = m.heard;
  const whys: string[] = [];
  let w: number;
  if (isStrategy(id)) {
    const isNeed = NEED[need].includes(id);
    w = FIT[need][id];
    whys.push(isNeed ? 'what I came for' : `fit to my need ${w >= 0 ? '+' : ''}${w}`);
    // Strict users accept fewer strategies: what is not their need counts for less...
    if (!isNeed && w > 0) w *= knobs.offNeedScale;
    // ...but anyone wants to feel heard first, so early empathy keeps a floor.
    const floor = knobs.heardFloor[id];
    if (!heard && floor !== undefined && w < floor) {
      w = floor;
      whys.push('I want to feel heard first');
    }
    if (!heard && id === 'advice' && need !== 'practical-advice') {
      w = Math.min(w, EARLY_ADVICE);
      whys.push('advice before I feel heard');
    } else if (!heard && (id === 'analysis' || id === 'motives' || id === 'growth') && !isNeed) {
      w -= EARLY_DIRECTIVE_PENALTY;
      whys.push('too soon');
    }
    if (id === 'advice' && w > 0 && m.offTopic) {
      w = 0;
      whys.push('it has nothing to do with my situation');
    }
    if (
      id === 'praise' &&
      m.unnamedPraise &&
      profile.personality.traits.some((t) => t === 'suspicious' || t === 'modest')
    ) {
      w = Math.min(w, DISTRUSTED_PRAISE);
      whys.push('generic praise sounds hollow to me');
    }
    // Whatever the reply tries, it was said about a story that is not mine (foreign.ts).
    if (w > 0 && m.foreign) {
      w = 0;
      whys.push('that is not my story');
    }
    if (w > 0) {
      const uses = m.uses;
      if (uses > 0) {
        w *= (isNeed ? knobs.needStale : knobs.stale) ** uses;
        whys.push(`used ${uses}x before`);
      }
    }
  } else {
    w = NEGATIVE_BY_NEED[need]?.[id] ?? NEGATIVE[id] ?? 0;
    if (m.low) {
      w *= LOW_BAND_SENSITIVITY;
      whys.push('I am low already');
    }
  }
  const p = applyPersonality(id, w, profile);
  return { w: p.w, why: [...whys, ...p.notes].join('; ') || 'base weight' };
}

/**
 * weigh is a pure function of (detector, profile, difficulty, moment), and a dialogue meets few
 * moments, so each weight is worked out once per profile object and kept (a few hundred at most).
 */
const weights = new WeakMap<Profile, Record<Difficulty, Map<DetectorId, Weight[]>>>();

function weighed(id: DetectorId, profile: Profile, difficulty: Difficulty, m: Moment): Weight {
  if (!Number.isInteger(m.uses)) return weigh(id, profile, difficulty, m); // no key for it (a hand-made state)
  let byDifficulty = weights.get(profile);
  if (!byDifficulty) weights.set(profile, (byDifficulty = { moderate: new Map(), strict: new Map() }));
  const byId = byDifficulty[difficulty];
  let seen = byId.get(id);
  if (!seen) byId.set(id, (seen = []));
  const k =
    (m.heard ? 1 : 0) +
    (m.low ? 2 : 0) +
    (m.offTopic ? 4 : 0) +
    (m.unnamedPraise ? 8 : 0) +
    (m.foreign ? 16 : 0) +
    32 * m.uses;
  return (seen[k] ??= weigh(id, profile, difficulty, m));
}

/** The reading of a reply: detectors, weights, total, change and the five parts. */
export function appraise(input: AppraisalInput): { appraisal: Appraisal; stage: Stage } {
  const { profile, difficulty, stage } = input;
  const knobs = KNOBS[difficulty];
  const reply = input.reply;
  const hits = runDetectors({
    profile,
    lexicon: lexiconOf(profile),
    reply,
    previousReplies: input.previousReplies,
    userLines: input.userLines,
  });
  const byId = new Map<DetectorId, DetectorHit>();
  for (const h of hits) byId.set(h.id, h);
  const score: ScoreOf = (id) => (byId.get(id) ?? hitOf(hits, id)).score;
  const heard = stage.heard >= knobs.heardNeeded;
  const band = bandOf(input.emotion);
  const low = band === 'C' || band === 'F';
  const offTopic = score('offTopic') >= PRESENT;
  const unnamedPraise = score('praiseSpecific') === 0;
  const foreign = score('foreignDetail') >= PRESENT;
  const weighted: WeightedHit[] = hits.map((h) => {
    const uses = stage.uses[h.id as StrategyId] ?? 0;
    const { w, why } = weighed(h.id, profile, difficulty, { heard, uses, low, offTopic, unnamedPraise, foreign });
    // Spelt out rather than spread: a spread of 24 detector hits a turn was a tenth of its cost.
    return { id: h.id, score: h.score, reason: h.reason, weight: round(w), contribution: round(w * h.score), why };
  });
  // Advice that does not take up the user's story meets no need (offTopic, guidance.ts); nothing
  // said about somebody else's story does (foreignDetail, foreign.ts).
  const needMet =
    !foreign &&
    NEED[profile.intention].some((s) => score(s) >= PRESENT && !(s === 'advice' && score('offTopic') >= PRESENT));
  const heardBefore = stage.heard >= knobs.heardNeeded;
  let total = weighted.reduce((s, h) => s + h.contribution, 0);
  let unmetPenalty = 0;
  if (heardBefore && !needMet && stage.unmet > 0) {
    unmetPenalty = knobs.unmetStep * Math.min(stage.unmet, knobs.unmetCap);
    total -= unmetPenalty;
  }
  // A reply that tries nothing costs nothing once; the next ones in a row wear the user down.
  // Without this, never engaging is free: a policy learns to say "they are?" ten times and keep
  // the emotion where it started (docs/RESULTS.md, hole 4).
  const triedNothing = reply.words.length > 0 && !STRATEGIES.some((s) => score(s) >= PRESENT);
  const idleBefore = stage.idle ?? 0;
  let idlePenalty = 0;
  if (triedNothing && idleBefore > 0) {
    idlePenalty = knobs.idleStep * Math.min(idleBefore, knobs.idleCap);
    total -= idlePenalty;
  }
  const pushed = profile.challenge
    ? challengePressures(profile, stage.challenge ?? initialChallengeStage(), reply, hits)
    : null;
  for (const h of pushed?.hits ?? []) total += h.contribution;
  total = round(total);
  let change = quantise(total, difficulty);
  // Saying the same thing again earns exactly one step less than it did last time: a readable
  // rule rather than a weight, so a repeat can never be farmed and always declines.
  const last = input.previousReplies[input.previousReplies.length - 1];
  if (last !== undefined && reply.words.length > 0 && overlap(reply, last) >= SAME_AS_LAST) {
    change = Math.max(-10, stage.lastChange - 5) as Change;
  }
  let moves: ChallengeMove[] = [];
  let challenge: ChallengeStage | undefined;
  if (pushed) {
    const r = challengeRules(
      profile,
      pushed.stage,
      change,
      input.previousReplies.length + 1,
      input.userLines.map((l) => l.text),
    );
    ({ change, moves, stage: challenge } = r);
  }
  // Hard rules, not weights: talking to the scorer, sending non-language, brushing the user off
  // and pasting a wall of text never earn anything (at least -5, however much empathy is around).
  const gate: Gate | null =
    score('scorer') >= PRESENT
      ? 'scorer'
      : score('nonLanguage') >= PRESENT
        ? 'nonLanguage'
        : score('dismissal') >= PRESENT
          ? 'dismissal'
          : reply.wordCountFull >= PAGE * tasteMax(profile)
            ? 'page'
            : null;
  if (gate && change > -5) change = -5;

  const reaction = reactionOf(
    weighted,
    change,
    needMet,
    unmetPenalty + idlePenalty,
    gate,
    reply.length === 0 || reply.lower.length === 0,
    moves.includes('reject'),
  );
  const heardNow =
    change >= 0 &&
    (score('reflection') >= PRESENT ||
      score('validation') >= PRESENT ||
      score('exoneration') >= PRESENT ||
      (score('details') >= PRESENT && score('openQuestion') >= PRESENT) ||
      (needMet && change > 0));
  const uses = { ...stage.uses };
  for (const s of STRATEGIES) if (score(s) >= PRESENT) uses[s] = (uses[s] ?? 0) + 1;
  const next: Stage = {
    heard: stage.heard + (heardNow ? 1 : 0),
    uses,
    unmet: needMet ? 0 : heardBefore || heardNow ? stage.unmet + 1 : stage.unmet,
    idle: triedNothing ? idleBefore + 1 : 0,
    lastChange: change,
    ...(challenge ? { challenge } : {}),
  };
  const appraisal: Appraisal = {
    intent: intentOf(weighted),
    fit: fitOf(profile.intention, needMet, weighted),
    inner: innerOf(reaction, profile),
    feeling: feelingOf(change, reaction),
    change,
    total,
    needMet,
    reaction,
    detectors: weighted.concat(
      unmetPenalty > 0 ? [unmetHit(unmetPenalty, stage.unmet)] : [],
      idlePenalty > 0 ? [idleHit(idlePenalty, idleBefore)] : [],
      pushed?.hits ?? [],
    ),
    ...(challenge ? { challenge: { moves, denied: challenge.denied } } : {}),
  };
  return { appraisal, stage: next };
}

/** The unmet-need pressure appears in the breakdown as a pseudo-detector so totals add up. */
function unmetHit(penalty: number, turns: number): WeightedHit {
  return {
    id: 'unmetNeed',
    score: 1,
    weight: round(-penalty),
    contribution: round(-penalty),
    reason: `my need has gone unmet for ${turns} turn${turns === 1 ? '' : 's'}`,
    why: 'patience runs out',
  };
}

/** The disengagement pressure, listed the same way. */
function idleHit(penalty: number, before: number): WeightedHit {
  const n = before + 1;
  return {
    id: 'disengaged',
    score: 1,
    weight: round(-penalty),
    contribution: round(-penalty),
    reason: `${n} replies in a row have not tried anything`,
    why: 'they are not engaging with me',
  };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

type Gate = 'scorer' | 'nonLanguage' | 'dismissal' | 'page';

const NEG_REACTION: Partial<Record<WeightedHit['id'], Reaction>> = {
  contradicted: 'contradicted',
  agreedBlindly: 'flattered',
  advice: 'unwantedAdvice',
  offTopic: 'offTrack',
  foreignDetail: 'mixedUp',
  dismissal: 'minimised',
  analysis: 'offTrack',
  motives: 'offTrack',
  growth: 'offTrack',
  exoneration: 'offTrack',
  praise: 'fakePraise',
  minimising: 'minimised',
  cliche: 'cliche',
  judgment: 'judged',
  selfFocus: 'selfFocus',
  repetition: 'repeated',
  parroting: 'parroted',
  tooManyQuestions: 'interrogated',
  focus: 'scattered',
};

function reactionOf(
  hits: readonly WeightedHit[],
  change: Change,
  needMet: boolean,
  unmet: number,
  gate: Gate | null,
  empty: boolean,
  rejected: boolean,
): Reaction {
  if (gate === 'scorer') return 'scorer';
  if (gate === 'nonLanguage') return empty ? 'silence' : 'nonsense';
  if (gate === 'dismissal') return 'minimised';
  if (gate === 'page') return 'tooLong';
  if (rejected) return 'rejectedComfort';
  const worst = hits.reduce((a, b) => (b.contribution < a.contribution ? b : a));
  if (change < 0 || (change === 0 && worst.contribution <= -0.3)) {
    if (unmet > -worst.contribution) return 'unmet';
    if (worst.id === 'length') return worst.reason.includes('curt') ? 'tooShort' : 'tooLong';
    return worst.id === 'unmetNeed' || worst.id === 'disengaged' ? 'unmet' : (NEG_REACTION[worst.id] ?? 'lukewarm');
  }
  if (change > 0) return needMet ? 'needMet' : 'heard';
  return unmet > 0 ? 'unmet' : 'lukewarm';
}
