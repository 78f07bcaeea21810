/**
 * Store: the configure form's draft (what the person typed, kept as text so a half-typed number is
 * not lost), and where runs start from. Kept in localStorage, so a reload, a damaged share link or a
 * crash loses nothing typed. Validation is derived (fields.ts checkDraft), never stored.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { PresetName } from '../../engine/model/config';
import { ProfileSchema, type Profile } from '../../persona/profile';
import { defaultRunConfig, type RunConfig } from '../../rl/config';
import { REFERENCE_LM_FILE } from '../../rl/reference-lm';
import { draftOf, FIELDS, PRESET_NAMES, type Draft, type FieldKey } from '../lab/fields';

/** Where an RL run starts: the preset's shipped warm start, or the warm start trained in this tab. */
export type StartFrom = 'shipped' | 'last';

/** Where the run starts: a checkpoint URL on the lab's own origin, or 'last' (the warm start trained in this tab). */
export function startUrl(config: Pick<RunConfig, 'preset'>, start: StartFrom): string {
  return start === 'last' ? 'last' : new URL(`warmstart-${config.preset}.bin`, document.baseURI).href;
}

/** The reference model the benchmark's surprisal is measured under (public/reference-lm.json), on the lab's own origin. */
export function referenceModelUrl(): string {
  return new URL(REFERENCE_LM_FILE, document.baseURI).href;
}

interface ConfigState {
  draft: Draft;
  start: StartFrom;
  /** A training user the person wrote in Play ("Use for training"): runs train on it instead of the standard set. */
  trainUser: Profile | null;
  setField(key: FieldKey, value: string | boolean): void;
  /** Take the preset's defaults, keeping the seed. */
  setPreset(preset: PresetName): void;
  /** Put a whole config into the form (a share link, a saved run). */
  load(config: RunConfig): void;
  /** A fresh random seed in the form. */
  newSeed(): number;
  setStart(start: StartFrom): void;
  setTrainUser(profile: Profile | null): void;
}

/** The lab's first preset: ci trains in minutes on any machine, the CPU and software GPUs included. */
const DEFAULT_PRESET: PresetName = 'ci';

export const useConfig = create<ConfigState>()(
  persist(
    (set, get) => ({
      draft: draftOf(defaultRunConfig(DEFAULT_PRESET)),
      start: 'shipped',
      trainUser: null,
      setField: (key, value) => set((s) => ({ draft: { ...s.draft, [key]: value } })),
      setPreset: (preset) => set((s) => ({ draft: { ...draftOf(defaultRunConfig(preset)), seed: s.draft.seed } })),
      load: (config) => set({ draft: draftOf(config) }),
      newSeed: () => {
        const seed = crypto.getRandomValues(new Uint32Array(1))[0] % 2 ** 31;
        set({ draft: { ...get().draft, seed: String(seed) } });
        return seed;
      },
      setStart: (start) => set({ start }),
      setTrainUser: (trainUser) => set({ trainUser }),
    }),
    {
      name: 'empathy-rl-lab/configure',
      version: 1,
      partialize: (s) => ({ draft: s.draft, start: s.start, trainUser: s.trainUser }),
      // Whatever was stored is only a starting point: unknown keys dropped, missing ones from the preset.
      merge: (stored, current) => {
        const s = (stored ?? {}) as Partial<Pick<ConfigState, 'draft' | 'start'>> & { trainUser?: unknown };
        const raw = (s.draft ?? {}) as Record<string, unknown>;
        const preset = PRESET_NAMES.includes(raw.preset as PresetName) ? (raw.preset as PresetName) : DEFAULT_PRESET;
        const draft = draftOf(defaultRunConfig(preset)) as Record<string, string | boolean>;
        for (const f of FIELDS) {
          const v = raw[f.key];
          if (typeof v === typeof draft[f.key]) draft[f.key] = v as string | boolean;
        }
        // A stored training user is checked again (the schema may have moved on): a bad one is dropped.
        const user = s.trainUser ? ProfileSchema.safeParse(s.trainUser) : null;
        return {
          ...current,
          draft: draft as Draft,
          start: s.start === 'last' ? 'last' : 'shipped',
          trainUser: user?.success ? user.data : null,
        };
      },
    },
  ),
);
