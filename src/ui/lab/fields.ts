/**
 * The configure form's fields, read off the run config schema (src/rl/config.ts): each field's kind
 * (choice, switch, number with bounds), its label, its help text (the schema's description), and
 * whether it is a basic knob or an Advanced one. Plus the form's draft (what the person typed, as
 * text) and its validation through parseRunConfig, with each reason attached to its field.
 * Pure: no React, no DOM (tested in Node).
 */
import type { z } from 'zod';
import { PRESETS, type PresetName } from '../../engine/model/config';
import { defaultRunConfig, fieldHelp, parseRunConfig, RunConfigSchema, type RunConfig } from '../../rl/config';

export type FieldKey = Exclude<keyof RunConfig, 'version' | 'preset'>;

export type FieldSpec =
  | { key: FieldKey; kind: 'choice'; label: string; help: string; options: readonly string[] }
  | { key: FieldKey; kind: 'switch'; label: string; help: string }
  | { key: FieldKey; kind: 'number'; label: string; help: string; min: number; max: number; integer: boolean };

/** The knobs most runs touch, in the order the form shows them; every other field is Advanced. */
export const BASIC_FIELDS: readonly FieldKey[] = [
  'algo',
  'reward',
  'think',
  'difficulty',
  'steps',
  'seed',
  'lr',
  'profilesPerStep',
  'groupSize',
];

const LABELS: Record<FieldKey, string> = {
  seed: 'Seed',
  algo: 'Algorithm',
  reward: 'Reward',
  think: 'Think mode',
  thinkGrammar: 'Think grammar',
  zeroRewardOnBrokenThink: 'Zero reward on a broken think block',
  thinkFormatPenalty: 'Broken think penalty',
  truncation: 'Cut replies',
  truncationPenalty: 'Cut reply penalty',
  repeatPenalty: 'Repeated reply penalty',
  difficulty: 'User difficulty',
  groupAt: 'Group at',
  steps: 'Steps',
  profilesPerStep: 'Profiles per step',
  groupSize: 'Group size',
  maxTurnTokens: 'Tokens per reply',
  maxAgentTurns: 'Replies per dialogue',
  temperature: 'Temperature',
  topP: 'Top-p',
  redraws: 'Redraws of a repeat',
  lr: 'Learning rate',
  lrWarmupSteps: 'Learning-rate warm-up',
  lrDecay: 'Learning-rate decay',
  criticWarmupSteps: 'Critic warm-up',
  adamBeta1: 'Adam β₁',
  adamBeta2: 'Adam β₂',
  adamEps: 'Adam ε',
  weightDecay: 'Weight decay',
  epochs: 'Epochs',
  minibatchSize: 'Minibatch size',
  maxGradNorm: 'Gradient clip',
  clipLow: 'Clip low',
  clipHigh: 'Clip high',
  entropyCoef: 'Entropy coefficient',
  klCoef: 'KL coefficient',
  klEstimator: 'KL estimator',
  ptxCoef: 'Replay weight',
  ptxBatch: 'Replay dialogues',
  imitateCoef: 'Self-imitation weight',
  imitateBatch: 'Self-imitation replies',
  imitateKeep: 'Self-imitation memory',
  imitateDemos: 'Self-imitation demonstrations',
  gamma: 'Gamma',
  lambda: 'Lambda',
  valueCoef: 'Value loss weight',
  valueClip: 'Value clip',
  normalizeAdvantages: 'Normalise advantages',
  checkpointEvery: 'Checkpoint every',
  evalEvery: 'Benchmark every',
  evalProfiles: 'Benchmark users',
  savedAttention: 'Saved attention precision',
};

/** Presets the lab can start from: the ones with a shipped warm start in public/. */
export const SHIPPED_STARTS: readonly PresetName[] = ['ci', 'micro'];

export const PRESET_LABELS: Record<PresetName, string> = {
  ci: 'ci (~0.2M parameters)',
  micro: 'micro (~1.4M)',
  mini: 'mini (~5M; no warm start yet)',
  small: 'small (~25M; no warm start yet)',
};

export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

function specOf(key: FieldKey, schema: z.ZodType, help: string): FieldSpec {
  const s = schema as unknown as {
    def: { type: string };
    options?: readonly string[];
    minValue?: number | null;
    maxValue?: number | null;
    isInt?: boolean;
  };
  const label = LABELS[key];
  if (s.def.type === 'enum') return { key, kind: 'choice', label, help, options: s.options ?? [] };
  if (s.def.type === 'boolean') return { key, kind: 'switch', label, help };
  return {
    key,
    kind: 'number',
    label,
    help,
    min: s.minValue ?? -Infinity,
    max: s.maxValue ?? Infinity,
    integer: s.isInt === true,
  };
}

/** Every field but version and preset, in schema order. */
export const FIELDS: readonly FieldSpec[] = (() => {
  const help = fieldHelp();
  return (Object.entries(RunConfigSchema.shape) as [keyof RunConfig, z.ZodType][])
    .filter(([k]) => k !== 'version' && k !== 'preset')
    .map(([k, s]) => specOf(k as FieldKey, s, help[k]));
})();

export const fieldByKey = (key: FieldKey): FieldSpec => FIELDS.find((f) => f.key === key)!;

/** What the form holds: the preset, and each field as typed (numbers as text, so "0." is not lost). */
export type Draft = { preset: PresetName } & Record<FieldKey, string | boolean>;

export function draftOf(config: RunConfig): Draft {
  const d: Record<string, string | boolean> = { preset: config.preset };
  for (const f of FIELDS) {
    const v = config[f.key];
    d[f.key] = typeof v === 'boolean' ? v : String(v);
  }
  return d as Draft;
}

export type DraftCheck = {
  /** The run config when every field is valid. */
  config: RunConfig | null;
  /** The reason per field, as the schema and the cross-field checks word it. */
  fieldErrors: Partial<Record<FieldKey | 'preset', string>>;
  /** Reasons that belong to no one field. */
  otherErrors: string[];
};

/** A bound as a person reads it: 100,000 and 0.001, not 1e5 and 1e-3 (1e-12 stays short). */
function bound(n: number): string {
  if (Math.abs(n) >= 1000) return n.toLocaleString('en');
  return String(n);
}

/** The allowed range of a number field, in words: "a whole number from 1 to 100,000". */
function allowedRange(spec: Extract<FieldSpec, { kind: 'number' }>): string {
  const what = spec.integer ? 'a whole number' : 'a number';
  if (Number.isFinite(spec.min) && Number.isFinite(spec.max))
    return `${what} from ${bound(spec.min)} to ${bound(spec.max)}`;
  if (Number.isFinite(spec.min)) return `${what} of at least ${bound(spec.min)}`;
  if (Number.isFinite(spec.max)) return `${what} of at most ${bound(spec.max)}`;
  return what;
}

/** Why a typed value is refused, in plain words with the allowed range; null when it is in range. */
function numberError(spec: Extract<FieldSpec, { kind: 'number' }>, text: string): string | null {
  const t = text.trim();
  const n = Number(t);
  const ok = t !== '' && Number.isFinite(n) && (!spec.integer || Number.isInteger(n)) && n >= spec.min && n <= spec.max;
  return ok ? null : `${spec.label} must be ${allowedRange(spec)}.`;
}

/**
 * Validate the draft: each number field against its own range (so every bad field keeps its
 * message however many others are bad), then parseRunConfig for what depends on several fields,
 * with a bad field's place taken by its preset default so the other checks still run.
 */
export function checkDraft(draft: Draft): DraftCheck {
  const fieldErrors: DraftCheck['fieldErrors'] = {};
  const otherErrors: string[] = [];
  const defaults = defaultRunConfig(draft.preset);
  const raw: Record<string, unknown> = { version: defaults.version, preset: draft.preset };
  for (const f of FIELDS) {
    const v = draft[f.key];
    if (f.kind !== 'number') {
      raw[f.key] = v;
      continue;
    }
    const why = numberError(f, String(v));
    if (why) {
      fieldErrors[f.key] = why;
      raw[f.key] = defaults[f.key];
    } else raw[f.key] = Number(String(v).trim());
  }
  const parsed = parseRunConfig(raw, draft.preset);
  const bad = Object.keys(fieldErrors).length > 0;
  if (parsed.ok) return { config: bad ? null : parsed.config, fieldErrors, otherErrors };
  for (const line of parsed.errors) {
    const at = line.indexOf(': ');
    const key = at > 0 ? line.slice(0, at) : '';
    if (key === 'preset' || FIELDS.some((f) => f.key === key)) fieldErrors[key as FieldKey] ??= line.slice(at + 2);
    else otherErrors.push(line);
  }
  return { config: null, fieldErrors, otherErrors };
}

/** The fields of `config` that differ from its preset's defaults (what a share link's reader wants to see first). */
export function changedFields(config: RunConfig): FieldKey[] {
  const base = defaultRunConfig(config.preset);
  return FIELDS.map((f) => f.key).filter((k) => base[k] !== config[k]);
}

/** A value as the form and the shared-run panel show it. */
export function formatField(value: RunConfig[keyof RunConfig]): string {
  return typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value);
}
