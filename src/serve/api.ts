/**
 * The simulated users as a service, without the HTTP: request schemas (zod), the dialogue store
 * (TTL + cap, least recently used evicted first) and one function per endpoint that maps a parsed
 * JSON body to a status and a JSON answer. Every answer is built from the persona engine's own API
 * (createSimulatedUser, restoreSimulatedUser, replayDialogue, parseProfile, the shipped sets), so
 * a dialogue played here is the same dialogue the lab plays.
 *
 * Not here: the request schemas and answer helpers (./schemas.ts); sockets, body reading, routing, metrics text, signals (./server.ts); flags (./cli.ts).
 * Pure of Node APIs, like src/persona, so it can be tested without a socket.
 */
import {
  createSimulatedUser,
  restoreSimulatedUser,
  replayDialogue,
  type SimulatedUser,
  type TurnResult,
  type UserState,
} from '../persona/user.ts';
import { TURN_CAP, bandOf, rewardOf } from '../persona/dynamics.ts';
import type { Profile } from '../persona/profile.ts';
import { parseProfile } from '../persona/validate.ts';
import {
  DIALOGUE_ID,
  fail,
  ok,
  parse,
  ReplayBody,
  ReplyBody,
  RestoreBody,
  StartBody,
  TurnsBody,
  type Answer,
  type TurnItem,
} from './schemas.ts';

/** Limits of one server: every one bounds memory or time per request. */
export interface Limits {
  /** Characters in one agent reply (longer ones are refused, not cut: a cut would change the score). */
  maxReplyChars: number;
  /** Bytes in one request body. */
  maxBodyBytes: number;
  /** Dialogues held at once; the least recently used goes first when a new one would pass it. */
  maxDialogues: number;
  /** A dialogue untouched this long is dropped (ms). */
  ttlMs: number;
  /** Turns in one `POST /v1/turns`. */
  maxBatchTurns: number;
  /** Bytes in one `POST /v1/turns` body (room for maxBatchTurns replies of a few hundred words). */
  maxBatchBodyBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxReplyChars: 4000,
  maxBodyBytes: 256 * 1024,
  maxDialogues: 10_000,
  ttlMs: 10 * 60 * 1000,
  maxBatchTurns: 1024,
  maxBatchBodyBytes: 4 * 1024 * 1024,
};

/** A named list of profiles the server can start dialogues from. */
export interface ProfileSet {
  name: string;
  profiles: readonly Profile[];
}

/**
 * The answer to one turn: everything the engine says about it, plus the reward so far. Without the
 * appraisal (a client that reads only the numbers), the same keys less `appraisal`.
 */
function turnView(r: TurnResult, user: SimulatedUser, turns: number, appraisal = true): Record<string, unknown> {
  if (!appraisal)
    return {
      line: r.line,
      change: r.change,
      emotion: r.emotion,
      band: r.band,
      over: r.over,
      endReason: r.endReason,
      reward: user.reward(),
      turns,
    };
  const a = r.appraisal;
  return {
    line: r.line,
    change: r.change,
    emotion: r.emotion,
    band: r.band,
    appraisal: {
      intent: a.intent,
      fit: a.fit,
      inner: a.inner,
      feeling: a.feeling,
      change: a.change,
      total: a.total,
      needMet: a.needMet,
      reaction: a.reaction,
      detectors: a.detectors.map((d) => ({
        id: d.id,
        score: d.score,
        weight: d.weight,
        contribution: d.contribution,
        reason: d.reason,
        why: d.why,
      })),
    },
    over: r.over,
    endReason: r.endReason,
    reward: user.reward(),
    turns,
  };
}

function summaryOf(id: string, user: SimulatedUser, s: UserState = user.state): Record<string, unknown> {
  return {
    id,
    profileId: s.profileId,
    seed: s.seed,
    difficulty: s.difficulty,
    mode: s.mode,
    opening: user.opening,
    emotion: s.emotion,
    band: bandOf(s.emotion),
    turns: s.turns,
    turnCap: s.turnCap ?? TURN_CAP[s.mode],
    over: s.over,
    endReason: s.endReason,
    reward: user.reward(),
  };
}

// ---------------------------------------------------------------- the service

interface Held {
  user: SimulatedUser;
  expires: number;
  /** Kept beside the user so a turn need not copy its whole state to read them. */
  turns: number;
  endReason: string | null;
  over: boolean;
}

export interface Counters {
  dialoguesStarted: number;
  dialoguesEvictedTtl: number;
  dialoguesEvictedCap: number;
  turns: number;
  /** Seconds spent in the engine answering turns. */
  turnSeconds: number;
  replays: number;
}

export class UsersService {
  readonly limits: Limits;
  readonly sets: readonly ProfileSet[];
  readonly counters: Counters = {
    dialoguesStarted: 0,
    dialoguesEvictedTtl: 0,
    dialoguesEvictedCap: 0,
    turns: 0,
    turnSeconds: 0,
    replays: 0,
  };
  /** Insertion order = least recently used first (a touched dialogue is moved to the end). */
  private dialogues = new Map<string, Held>();
  private byId = new Map<string, Profile>();
  private nextId = 1;
  private readonly now: () => number;
  private readonly prefix: string;
  private readonly owns: (id: string) => boolean;

  /**
   * `owns`: which ids this service may give a new dialogue (a shard of a sharded server takes only
   * the ids that route to it, ./shards.ts); every id by default.
   */
  constructor(
    sets: readonly ProfileSet[],
    limits: Partial<Limits> = {},
    now: () => number = Date.now,
    prefix = 'd',
    owns: (id: string) => boolean = () => true,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.sets = sets;
    this.now = now;
    this.prefix = prefix;
    this.owns = owns;
    // Later sets do not shadow earlier ones: the shipped ids keep their meaning.
    for (const s of sets) for (const p of s.profiles) if (!this.byId.has(p.id)) this.byId.set(p.id, p);
  }

  get size(): number {
    return this.dialogues.size;
  }

  /** Drop every dialogue past its TTL (the oldest-touched come first, so stop at the first live one). */
  sweep(): void {
    const t = this.now();
    for (const [id, h] of this.dialogues) {
      if (h.expires > t) break;
      this.dialogues.delete(id);
      this.counters.dialoguesEvictedTtl++;
    }
  }

  private touch(id: string): Held | undefined {
    const h = this.dialogues.get(id);
    if (!h) return undefined;
    this.dialogues.delete(id);
    if (h.expires <= this.now()) {
      this.counters.dialoguesEvictedTtl++;
      return undefined;
    }
    h.expires = this.now() + this.limits.ttlMs;
    this.dialogues.set(id, h);
    return h;
  }

  /** Keep `user` under `id`; `s` is its state when the caller has copied it already. */
  private hold(id: string, user: SimulatedUser, s: UserState = user.state): void {
    this.dialogues.delete(id);
    this.sweep();
    while (this.dialogues.size >= this.limits.maxDialogues) {
      const oldest = this.dialogues.keys().next().value as string;
      this.dialogues.delete(oldest);
      this.counters.dialoguesEvictedCap++;
    }
    this.dialogues.set(id, {
      user,
      expires: this.now() + this.limits.ttlMs,
      turns: s.turns,
      over: s.over,
      endReason: s.endReason,
    });
  }

  private freshId(): string {
    for (;;) {
      const id = `${this.prefix}${(this.nextId++).toString(36)}`;
      if (!this.dialogues.has(id) && this.owns(id)) return id;
    }
  }

  /** The profile a request names: `profile` (validated), or `profileId` in `set` or in any set. */
  private profileOf(b: { profileId?: string; set?: string; profile?: unknown }): Profile | Answer {
    if (b.profile !== undefined) {
      if (b.profileId !== undefined) return fail(400, ['profileId: give profileId or profile, not both']);
      const r = parseProfile(b.profile, 'profile');
      return r.ok ? r.profile : fail(400, r.errors);
    }
    if (b.profileId === undefined) return fail(400, ['profileId: missing (give profileId or a whole profile)']);
    if (b.set !== undefined) {
      const set = this.sets.find((s) => s.name === b.set);
      if (!set) return fail(404, [`set: no profile set "${b.set}" (see GET /v1/profile-sets)`]);
      const p = set.profiles.find((x) => x.id === b.profileId);
      return p ?? fail(404, [`profileId: no profile "${b.profileId}" in set "${b.set}"`]);
    }
    return this.byId.get(b.profileId) ?? fail(404, [`profileId: no profile "${b.profileId}" in any set`]);
  }

  private userOf(
    profile: Profile,
    b: { seed: number; difficulty: string; mode?: 'train' | 'benchmark'; turnCap?: number },
  ): SimulatedUser | Answer {
    const mode = b.mode ?? (profile.openingLine ? 'benchmark' : 'train');
    if (mode === 'benchmark' && !profile.openingLine)
      return fail(400, [`mode: profile "${profile.id}" has no openingLine; benchmark mode needs one (use "train")`]);
    return createSimulatedUser(profile, {
      seed: b.seed,
      difficulty: b.difficulty as 'moderate' | 'strict',
      mode,
      turnCap: b.turnCap,
    });
  }

  // ---------------------------------------------------------------- endpoints

  health(): Answer {
    return ok({ ok: true, dialogues: this.size, sets: this.sets.map((s) => s.name) });
  }

  listSets(): Answer {
    return ok({ sets: this.sets.map((s) => ({ name: s.name, count: s.profiles.length })) });
  }

  /** One set's profile ids (no hidden intentions: a policy must not be told them). */
  getSet(name: string): Answer {
    const set = this.sets.find((s) => s.name === name);
    if (!set) return fail(404, [`set: no profile set "${name}"`]);
    return ok({
      name: set.name,
      count: set.profiles.length,
      profiles: set.profiles.map((p) => ({ id: p.id, name: p.name, hasOpeningLine: p.openingLine !== undefined })),
    });
  }

  start(body: unknown): Answer {
    const b = parse(StartBody, body);
    if (!('ok' in b)) return b;
    const v = b.value;
    if (v.id !== undefined && this.touch(v.id)) return fail(409, [`id: a dialogue "${v.id}" already exists`]);
    const profile = this.profileOf(v);
    if ('status' in profile) return profile;
    const user = this.userOf(profile, v);
    if ('status' in user) return user;
    const id = v.id ?? this.freshId();
    const state = user.state;
    this.hold(id, user, state);
    this.counters.dialoguesStarted++;
    return ok(summaryOf(id, user, state), 201);
  }

  reply(id: string, body: unknown): Answer {
    const b = parse(ReplyBody, body);
    if (!('ok' in b)) return b;
    return this.turn(id, b.value.reply, b.value.appraisal, { id: 'id', reply: 'reply' });
  }

  /** Turns of many dialogues, each answered as `reply` would, in order, with its status. */
  turns(body: unknown): Answer {
    const b = parse(TurnsBody, body);
    if (!('ok' in b)) return b;
    const { turns, appraisal } = b.value;
    if (turns.length > this.limits.maxBatchTurns)
      return fail(400, [`turns: at most ${this.limits.maxBatchTurns} in one request (got ${turns.length})`]);
    return ok({ results: this.turnItems(turns, appraisal) });
  }

  /**
   * Checked turns (TurnsBody's items), each to `{status, ...answer}`; a failed one says its id.
   * `at`: each turn's index in the request, for the errors (a shard gets part of a request).
   */
  turnItems(turns: readonly TurnItem[], appraisal: boolean, at?: readonly number[]): Record<string, unknown>[] {
    return turns.map((t, j) => {
      const i = at?.[j] ?? j;
      const a = this.turn(t.id, t.reply, appraisal, { id: `turns[${i}].id`, reply: `turns[${i}].reply` });
      const body = a.body as Record<string, unknown>;
      return a.status === 200 ? { status: 200, ...body } : { status: a.status, id: t.id, ...body };
    });
  }

  /** One agent reply to dialogue `id`; `field` says what an error calls the id and the reply. */
  private turn(id: string, reply: string, appraisal: boolean, field: { id: string; reply: string }): Answer {
    if (reply.length > this.limits.maxReplyChars)
      return fail(400, [`${field.reply}: at most ${this.limits.maxReplyChars} characters (got ${reply.length})`]);
    const h = this.touch(id);
    if (!h) return fail(404, [`${field.id}: no dialogue "${id}" (never started, deleted or expired)`]);
    if (h.over) return fail(409, [`${field.id}: dialogue "${id}" is over (${h.endReason}); start a new one`]);
    const t0 = performance.now();
    const r = h.user.respond(reply);
    this.counters.turnSeconds += (performance.now() - t0) / 1000;
    h.turns++;
    h.over = r.over;
    h.endReason = r.endReason;
    this.counters.turns++;
    return ok({ id, ...turnView(r, h.user, h.turns, appraisal) });
  }

  get(id: string): Answer {
    const h = this.touch(id);
    if (!h) return fail(404, [`id: no dialogue "${id}" (never started, deleted or expired)`]);
    return ok({ ...summaryOf(id, h.user), state: h.user.state });
  }

  remove(id: string): Answer {
    const had = this.dialogues.delete(id);
    return had ? { status: 204, body: null } : fail(404, [`id: no dialogue "${id}"`]);
  }

  /**
   * Put a saved state back under `id`. The state is trusted only as far as a replay of its
   * transcript agrees with it: the engine is a pure function of (seed, profile, transcript), so a
   * state whose every field equals the replay's is exactly the one the engine wrote.
   */
  restore(id: string, body: unknown): Answer {
    if (!DIALOGUE_ID.test(id)) return fail(400, ['id: letters, digits, - and _, 1 to 64 characters']);
    const b = parse(RestoreBody, body);
    if (!('ok' in b)) return b;
    const { state, profile: given, set } = b.value;
    const profile = this.profileOf(given !== undefined ? { profile: given } : { profileId: state.profileId, set });
    if ('status' in profile) return profile;
    if (profile.id !== state.profileId)
      return fail(400, [`state.profileId: "${state.profileId}" but the profile given is "${profile.id}"`]);
    const cap = state.turnCap ?? TURN_CAP[state.mode];
    const replies = state.transcript.filter((e) => e.role === 'agent').map((e) => e.text);
    if (replies.length > cap)
      return fail(400, [`state.transcript: ${replies.length} agent replies, more than the cap ${cap}`]);
    const long = replies.findIndex((r) => r.length > this.limits.maxReplyChars);
    if (long >= 0)
      return fail(400, [
        `state.transcript: agent reply ${long + 1} is longer than ${this.limits.maxReplyChars} characters`,
      ]);
    if (state.mode === 'benchmark' && !profile.openingLine)
      return fail(400, [`state.mode: profile "${profile.id}" has no openingLine`]);
    const replayed = replayDialogue(
      profile,
      {
        seed: state.seed,
        difficulty: state.difficulty as 'moderate' | 'strict',
        mode: state.mode,
        turnCap: state.turnCap,
      },
      replies,
    );
    if (replayed.results.length !== replies.length)
      return fail(400, ['state.transcript: agent replies after the dialogue was over']);
    const mismatch = firstDifference(replayed.user.state, state as unknown as UserState, 'state');
    if (mismatch) return fail(400, [`${mismatch}: does not match a replay of the state's transcript`]);
    const user = restoreSimulatedUser(profile, replayed.user.state);
    this.hold(id, user);
    return ok(summaryOf(id, user));
  }

  /** Play a whole transcript from scratch and hold nothing: the stateless form of start + reply. */
  replay(body: unknown): Answer {
    const b = parse(ReplayBody, body);
    if (!('ok' in b)) return b;
    const v = b.value;
    const long = v.replies.findIndex((r) => r.length > this.limits.maxReplyChars);
    if (long >= 0) return fail(400, [`replies[${long}]: at most ${this.limits.maxReplyChars} characters`]);
    const profile = this.profileOf(v);
    if ('status' in profile) return profile;
    const probe = this.userOf(profile, v);
    if ('status' in probe) return probe;
    const s = probe.state;
    const { user, results } = replayDialogue(
      profile,
      {
        seed: s.seed,
        difficulty: s.difficulty,
        mode: s.mode,
        turnCap: s.turnCap,
      },
      v.replies,
    );
    this.counters.replays++;
    // turnView reads the reward from the final user; after turn i it was that turn's emotion / 100.
    const turns = results.map((r, i) => ({ ...turnView(r, user, i + 1), reward: rewardOf(r.emotion) }));
    const { id: _, ...summary } = summaryOf('', user);
    void _;
    return ok({ ...summary, ignoredReplies: v.replies.length - results.length, results: turns, state: user.state });
  }
}

/** The path of the first field where two JSON values differ, or null when they are equal. */
function firstDifference(a: unknown, b: unknown, path: string): string | null {
  if (a === b) return null;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return path;
  if (Array.isArray(a) !== Array.isArray(b)) return path;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return `${path}.length`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], bb[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    const d = firstDifference(ao[k], bo[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}
