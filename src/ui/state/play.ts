/**
 * Store: the Play view. A person talks with one simulated benchmark user (run in the page: the user
 * is pure TypeScript and cheap), sees every change with its appraisal, and can then watch a policy
 * (the shipped warm start, or the one trained in this tab) handle the same user through the engine
 * worker's demo dialogue. The typed draft lives here, so nothing typed is lost on a tab switch.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { ProfileSchema } from '../../persona/profile';
import { storedForm } from '../play/profileForm';
import { createSimulatedUser, restoreSimulatedUser, type UserState } from '../../persona/user';
import { START_EMOTION, TURN_CAP, type Difficulty, type EndReason } from '../../persona/dynamics';
import { benchmarkProfiles } from '../../persona/sets';
import type { Profile } from '../../persona/profile';
import type { DemoReport } from '../../worker/protocol';
import type { FormKey, ProfileForm } from '../play/profileForm';
import { onWorkerMessage, sendToWorker } from './worker';

/** The user's seed: the same one the worker's demo dialogue uses, so both meet the same user. */
const USER_SEED = 0;

export interface PlayTurn {
  reply: string;
  change: number;
  emotion: number;
  appraisal: { intent: string; fit: string; inner: string; feeling: string };
  /** The user's next line. */
  line: string;
}

interface PlaySession {
  profileId: string;
  difficulty: Difficulty;
  opening: string;
  startEmotion: number;
  turns: PlayTurn[];
  /** Null while the dialogue goes on. */
  /** 'ended': the person ended it (End and reveal). */
  endReason: EndReason | 'ended' | null;
  /** The user, JSON-able; restored for each reply. */
  user: UserState;
}

/** The shipped warm start, the warm start trained in this tab, or a saved RL run's checkpoint (`run:<id>`). */
export type WatchSource = 'shipped' | 'last' | `run:${string}`;

interface WatchState {
  status: 'idle' | 'running' | 'done' | 'failed';
  profileId: string | null;
  source: WatchSource;
  report: DemoReport | null;
  error: string | null;
}

interface PlayState {
  profileId: string;
  difficulty: Difficulty;
  draft: string;
  session: PlaySession | null;
  /** Why the last reply could not be played, if it could not. */
  error: string | null;
  watch: WatchState;
  /** A profile the person wrote (checked against the schema), playable here beside the benchmark ones. */
  custom: Profile | null;
  /** The profile form being edited, kept across tab switches; null while closed. */
  form: ProfileForm | null;
  setForm(form: ProfileForm | null): void;
  setFormField(key: FormKey, value: string): void;
  /** Use a checked profile: it becomes the chosen one. */
  adoptCustom(profile: Profile): void;
  setProfile(id: string): void;
  setDifficulty(d: Difficulty): void;
  setDraft(text: string): void;
  start(): void;
  send(): void;
  /** End the dialogue now: the hidden intention and every fit are revealed. */
  end(): void;
  /** Play the chosen profile with a policy in the engine worker (replies: 1..10); `bytes`: the checkpoint itself (a run's). */
  watchPolicy(source: WatchSource, checkpoint: string, replies: number, bytes?: Uint8Array): void;
}

const DEFAULT_PROFILE = 'bench-001';
export const PLAY_TURN_CAP = TURN_CAP.benchmark;

export function findProfile(id: string): Profile | undefined {
  const custom = usePlay.getState().custom;
  if (custom?.id === id) return custom;
  return benchmarkProfiles().find((p) => p.id === id);
}

/** Whether the engine worker's demo can play this user (it plays benchmark users only). */
export const isBenchmarkId = (id: string): boolean => benchmarkProfiles().some((p) => p.id === id);

let subscribed = false;

export const usePlay = create<PlayState>()(
  persist(
    (set, get) => ({
      profileId: DEFAULT_PROFILE,
      difficulty: 'moderate',
      draft: '',
      session: null,
      error: null,
      watch: { status: 'idle', profileId: null, source: 'shipped', report: null, error: null },
      custom: null,
      form: null,
      setForm: (form) => set({ form }),
      setFormField: (key, value) => set((s) => (s.form ? { form: { ...s.form, [key]: value } } : {})),
      adoptCustom: (custom) => set({ custom, profileId: custom.id }),
      setProfile: (profileId) => set({ profileId }),
      setDifficulty: (difficulty) => set({ difficulty }),
      setDraft: (draft) => set({ draft }),
      start() {
        const { profileId, difficulty } = get();
        const profile = findProfile(profileId);
        if (!profile) return set({ error: `No benchmark profile "${profileId}".` });
        const user = createSimulatedUser(profile, { seed: USER_SEED, difficulty, mode: 'benchmark' });
        set({
          error: null,
          session: {
            profileId,
            difficulty,
            opening: user.opening,
            startEmotion: START_EMOTION.benchmark,
            turns: [],
            endReason: null,
            user: user.state,
          },
        });
      },
      send() {
        const { session, draft } = get();
        const reply = draft.trim();
        if (!session || session.endReason !== null || reply === '') return;
        const profile = findProfile(session.profileId);
        if (!profile) return set({ error: `No benchmark profile "${session.profileId}".` });
        try {
          const user = restoreSimulatedUser(profile, session.user);
          const r = user.respond(reply);
          const a = r.appraisal;
          const turn: PlayTurn = {
            reply,
            change: r.change,
            emotion: r.emotion,
            appraisal: { intent: a.intent, fit: a.fit, inner: a.inner, feeling: a.feeling },
            line: r.line,
          };
          set({
            draft: '',
            error: null,
            session: { ...session, turns: [...session.turns, turn], endReason: r.endReason, user: user.state },
          });
        } catch (e) {
          set({ error: e instanceof Error ? e.message : String(e) });
        }
      },
      end() {
        const { session } = get();
        if (!session || session.endReason !== null) return;
        set({ session: { ...session, endReason: 'ended' } });
      },
      watchPolicy(source, checkpoint, replies, bytes) {
        if (get().watch.status === 'running') return;
        if (!subscribed) {
          subscribed = true;
          onWorkerMessage((m) => {
            // Only answers to a request made here (the Warm start view's demo shares the message type).
            if (get().watch.status !== 'running') return;
            if (m.type === 'demo-done') set((s) => ({ watch: { ...s.watch, status: 'done', report: m.report } }));
            else if (m.type === 'demo-failed')
              set((s) => ({ watch: { ...s.watch, status: 'failed', error: m.message } }));
          });
        }
        const profileId = get().session?.profileId ?? get().profileId;
        set({ watch: { status: 'running', profileId, source, report: null, error: null } });
        // A user written in the form travels with the request (the worker checks it against the schema).
        const custom = get().custom;
        const profile = custom && custom.id === profileId ? custom : undefined;
        const checkpointBytes = bytes ? (bytes.slice().buffer as ArrayBuffer) : undefined;
        sendToWorker({
          type: 'demo-dialogue',
          request: {
            checkpoint,
            ...(checkpointBytes ? { checkpointBytes } : {}),
            profileId,
            ...(profile ? { profile } : {}),
            turns: Math.max(1, Math.min(PLAY_TURN_CAP, Math.round(replies))),
            seed: 1,
          },
        });
      },
    }),
    {
      name: 'empathy-rl-lab/play',
      version: 1,
      // What the person typed: the reply draft, the profile form, and the user they wrote.
      partialize: (s) => ({ draft: s.draft, form: s.form, custom: s.custom }),
      merge: (stored, current) => {
        const s = (stored ?? {}) as { draft?: unknown; form?: unknown; custom?: unknown };
        const custom = s.custom ? ProfileSchema.safeParse(s.custom) : null;
        return {
          ...current,
          draft: typeof s.draft === 'string' ? s.draft : '',
          form: storedForm(s.form),
          custom: custom?.success ? custom.data : null,
        };
      },
    },
  ),
);
