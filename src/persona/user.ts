/**
 * The simulated user: one profile, one seed, one difficulty, one mode, and a state that is plain
 * JSON. `respond(reply)` runs SAGE's two steps (appraise, then act), applies the change and says
 * whether the dialogue is over. The engine is a pure function of (seed, profile, transcript): the
 * Rng of each turn is derived from the seed, the profile id and the turn number, and everything
 * else in the state is derived from the transcript, so replaying the agent replies rebuilds it.
 *
 * Not here: policies, benchmark loops, files (benchmark.ts, cli.ts).
 */
import { act, emptyMemory, openingLine, type ActorMemory } from './actor.ts';
import { appraise, initialStage, type Appraisal, type Stage } from './appraiser.ts';
import {
  applyChange,
  bandOf,
  endReasonAfter,
  rewardOf,
  START_EMOTION,
  TURN_CAP,
  type Band,
  type Change,
  type Difficulty,
  type EndReason,
  type Mode,
} from './dynamics.ts';
import type { Profile } from './profile.ts';
import { readReply, readUserLine, type ReplyText, type UserLineText } from './detectors/index.ts';
import { Rng } from '../engine/rng.ts';

const USER_STATE_VERSION = 1;

export interface TranscriptEntry {
  role: 'user' | 'agent';
  text: string;
}

/** Everything needed to resume a dialogue, JSON-able. */
export interface UserState {
  version: typeof USER_STATE_VERSION;
  profileId: string;
  seed: number;
  difficulty: Difficulty;
  mode: Mode;
  /** Scored replies that end the dialogue when it set one other than its mode's TURN_CAP. */
  turnCap?: number;
  emotion: number;
  /** Agent replies scored so far. */
  turns: number;
  over: boolean;
  endReason: EndReason | null;
  transcript: TranscriptEntry[];
  stage: Stage;
  memory: ActorMemory;
  /** Whether each user line (in order) carried a cue to the hidden intention. */
  cues: boolean[];
}

export interface TurnResult {
  /** The user's next line. */
  line: string;
  change: Change;
  emotion: number;
  band: Band;
  appraisal: Appraisal;
  over: boolean;
  endReason: EndReason | null;
  /** Whether the line carries a cue to the hidden intention (for measurement, not for policies). */
  cue: boolean;
}

export interface UserOptions {
  seed: number;
  difficulty?: Difficulty;
  mode: Mode;
  /**
   * Scored replies that end the dialogue, 1..TURN_CAP.benchmark (default: the mode's TURN_CAP, 8
   * in training, 10 in the benchmark). A trainer that trains as many replies as the benchmark
   * scores sets 10 in training.
   */
  turnCap?: number;
}

export interface SimulatedUser {
  readonly profile: Profile;
  /** The user's first line. */
  readonly opening: string;
  /** A JSON-able snapshot (a copy; mutating it does not touch the user). */
  readonly state: UserState;
  /** Whether the dialogue has ended (state.over, without copying the state). */
  readonly over: boolean;
  respond(reply: string): TurnResult;
  /** Final emotion / 100, floored at 0 [RLVER]. */
  reward(): number;
}

/** The Rng of one turn: seed, profile and turn number, nothing else (turn 0 is the opening). */
function turnRng(seed: number, profileId: string, turn: number): Rng {
  return new Rng(`${seed >>> 0}|${profileId}|${turn}`);
}

class User implements SimulatedUser {
  readonly profile: Profile;
  private s: UserState;

  constructor(profile: Profile, state: UserState) {
    this.profile = profile;
    this.s = state;
  }

  get over(): boolean {
    return this.s.over;
  }

  get opening(): string {
    return this.s.transcript[0].text;
  }

  get state(): UserState {
    return structuredCloneJson(this.s);
  }

  reward(): number {
    return rewardOf(this.s.emotion);
  }

  respond(reply: string): TurnResult {
    if (this.s.over) throw new Error(`The dialogue is over (${this.s.endReason}); start a new user to talk again.`);
    const text = typeof reply === 'string' ? reply : String(reply);
    const s = this.s;
    // The history is read again each turn; the readings are kept (detectors/text.ts), so only the
    // new reply is new work. Keeping them per dialogue instead would cost each held dialogue ~20 KiB.
    const previousReplies: ReplyText[] = [];
    const userLines: UserLineText[] = [];
    for (const e of s.transcript)
      if (e.role === 'agent') previousReplies.push(readReply(e.text));
      else userLines.push(readUserLine(e.text));
    const { appraisal, stage } = appraise({
      profile: this.profile,
      difficulty: s.difficulty,
      reply: readReply(text),
      previousReplies,
      userLines,
      emotion: s.emotion,
      stage: s.stage,
    });
    const emotion = applyChange(s.emotion, appraisal.change);
    const turns = s.turns + 1;
    const endReason = endReasonAfter(emotion, turns, s.mode, s.turnCap ?? TURN_CAP[s.mode]);
    const band = bandOf(emotion);
    const rng = turnRng(s.seed, this.profile.id, turns);
    const acted = act({
      profile: this.profile,
      difficulty: s.difficulty,
      band,
      reaction: appraisal.reaction,
      ending: endReason,
      memory: s.memory,
      rng,
      ...(appraisal.challenge ? { moves: appraisal.challenge.moves, denied: appraisal.challenge.denied } : {}),
    });
    this.s = {
      ...s,
      emotion,
      turns,
      over: endReason !== null,
      endReason,
      transcript: [...s.transcript, { role: 'agent', text }, { role: 'user', text: acted.line }],
      stage,
      memory: acted.memory,
      cues: [...s.cues, acted.cue],
    };
    return {
      line: acted.line,
      change: appraisal.change,
      emotion,
      band,
      appraisal,
      over: endReason !== null,
      endReason,
      cue: acted.cue,
    };
  }
}

function checkTurnCap(cap: unknown): void {
  if (typeof cap !== 'number' || !Number.isInteger(cap) || cap < 1 || cap > TURN_CAP.benchmark)
    throw new Error(`A user's turn cap must be a whole number from 1 to ${TURN_CAP.benchmark}, got ${String(cap)}.`);
}

function structuredCloneJson<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}

/**
 * A new simulated user. Benchmark mode opens with profile.openingLine (required there); training
 * mode writes its own opening in character.
 */
export function createSimulatedUser(profile: Profile, options: UserOptions): SimulatedUser {
  const difficulty = options.difficulty ?? 'moderate';
  const seed = Number.isFinite(options.seed) ? Math.trunc(options.seed) >>> 0 : 0;
  const turnCap = options.turnCap ?? TURN_CAP[options.mode];
  checkTurnCap(turnCap);
  let opening: string;
  let memory: ActorMemory = emptyMemory();
  let cue = false;
  if (options.mode === 'benchmark') {
    if (!profile.openingLine)
      throw new Error(`Profile "${profile.id}" has no openingLine; benchmark mode needs one (use mode 'train').`);
    opening = profile.openingLine;
    memory.said.push(opening.toLowerCase());
    memory.lines.push(opening.toLowerCase());
  } else {
    const o = openingLine(profile, difficulty, turnRng(seed, profile.id, 0));
    opening = o.line;
    memory = o.memory;
    cue = o.cue;
  }
  const state: UserState = {
    version: USER_STATE_VERSION,
    profileId: profile.id,
    seed,
    difficulty,
    mode: options.mode,
    // Kept only when it differs, so a default dialogue's state is what it always was.
    ...(turnCap !== TURN_CAP[options.mode] ? { turnCap } : {}),
    emotion: START_EMOTION[options.mode],
    turns: 0,
    over: false,
    endReason: null,
    transcript: [{ role: 'user', text: opening }],
    stage: initialStage(),
    memory,
    cues: [cue],
  };
  return new User(profile, state);
}

/** Resume a dialogue from a saved state (checked against the profile). */
export function restoreSimulatedUser(profile: Profile, state: UserState): SimulatedUser {
  if (!state || state.version !== USER_STATE_VERSION)
    throw new Error(`Unsupported user state version ${String(state?.version)}; expected ${USER_STATE_VERSION}.`);
  if (state.profileId !== profile.id)
    throw new Error(`This state belongs to profile "${state.profileId}", not "${profile.id}".`);
  if (!Array.isArray(state.transcript) || state.transcript.length === 0)
    throw new Error('User state has no transcript.');
  const cap = state.turnCap ?? TURN_CAP[state.mode];
  checkTurnCap(cap);
  if (state.turns > cap) throw new Error(`User state has ${state.turns} turns, more than its cap of ${cap}.`);
  return new User(profile, structuredCloneJson(state));
}

/** Replay agent replies from scratch: the same (seed, profile, replies) always give the same transcript. */
export function replayDialogue(
  profile: Profile,
  options: UserOptions,
  replies: readonly string[],
): { user: SimulatedUser; results: TurnResult[] } {
  const user = createSimulatedUser(profile, options);
  const results: TurnResult[] = [];
  for (const r of replies) {
    if (user.over) break;
    results.push(user.respond(r));
  }
  return { user, results };
}
