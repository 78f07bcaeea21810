/**
 * Share links: a run's config in the URL fragment (`#run=2.<payload>`), so a link reproduces the run
 * on another machine and nothing is sent to a server. The `2.` is the link format (JSON, raw
 * DEFLATE, base64url; formats differ only in their baseline, below); the payload's `version` is the
 * config's own (RUN_CONFIG_VERSION).
 *
 * To keep links short (chat apps and mail mangle links past about 2,000 characters) the payload
 * holds preset, version and seed plus only the fields that differ from a FROZEN baseline, the
 * defaults as they were when its link format was made (LINK_BASELINES below). Diffing against the
 * live `defaultRunConfig` instead would make every old link silently change meaning the day a
 * default changes; the frozen copy costs forty lines and keeps links at about a hundred characters
 * (a full config is about 420), while a changed default only makes new links a few bytes longer.
 * Never change a value in a baseline: a new baseline needs a new link format beside the old ones,
 * which the lab keeps reading (format 1's links decode against format 1's baseline). A field added
 * to the schema later goes INTO every baseline with the value that reproduces the behaviour from
 * before it existed (ptxCoef 0), so every older link keeps its meaning even when a preset's default
 * for the new field is something else; new links then carry it as a difference. Format 2 (the
 * reward shaping, truncation masking and the ci learning-rate schedule became defaults) exists
 * because those differences had pushed a ci link with one custom training user past 2,000
 * characters.
 *
 * A run on the person's own training users (written in Play) carries them beside the config, in
 * `&users=1.<payload>` (the same JSON, raw DEFLATE, base64url packing; `1.` is its own format
 * number): a link without it is the standard training set, so every older link keeps its meaning.
 * Each user is checked against the profile schema like any profile file.
 *
 * Decoding never throws and never trusts the link: length and inflate caps, then the same zod schema
 * and cross-field checks as config files (parseRunConfig); each way it can fail has its own message.
 * Pure: no DOM beyond `atob`/`btoa`/TextEncoder, which browsers, workers and Node all have.
 */
import { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';
import type { PresetName } from '../engine/model/config';
import { ProfileSchema, type Profile } from '../persona/profile';
import { parseRunConfig, RUN_CONFIG_VERSION, RunConfigSchema, type RunConfig } from '../rl/config';

/** The link format this lab writes and the newest it reads. */
const SHARE_LINK_FORMAT = 2;
/** The fragment key: `#run=1.<payload>`; other `key=value` pairs may stand beside it (`&hide=...`). */
const SHARE_KEY = 'run';
/** The fragment key of the run's own training users: `&users=1.<payload>`. */
const USERS_KEY = 'users';
/** The users' packing format this lab writes and the newest it reads. */
const USERS_FORMAT = 1;
/** Longest fragment value we try to read; a real link is a few hundred characters. */
const MAX_PAYLOAD_CHARS = 8192;
/** Largest inflated payload accepted (a full config is ~520 bytes): stops a deflate bomb early. */
const MAX_INFLATED_BYTES = 64 * 1024;

type Baseline = Omit<RunConfig, 'preset' | 'version' | 'seed'>;

/** The version-1 defaults, frozen (see the header): what a field absent from a format-1 link means. */
const BASELINE_V1: Baseline = {
  algo: 'grpo',
  reward: 'final',
  think: false,
  thinkGrammar: false, // added after format 2: training sampled freely in think mode before it
  zeroRewardOnBrokenThink: true,
  thinkFormatPenalty: 0, // the three fields below were added after format 1, with the behaviour from before them
  truncation: 'train',
  truncationPenalty: 0,
  repeatPenalty: 0,
  difficulty: 'moderate',
  groupAt: 'dialogue', // added after format 2: groups of whole dialogues, as before it
  steps: 100,
  profilesPerStep: 8,
  groupSize: 4,
  maxTurnTokens: 48,
  maxAgentTurns: 8,
  temperature: 1,
  topP: 1,
  redraws: 0, // added after format 2: no redraws is what links before it meant
  lr: 1e-3,
  lrWarmupSteps: 0, // the three schedule fields were added after format 1: none is what links before them meant
  lrDecay: 'constant',
  criticWarmupSteps: 0,
  adamBeta1: 0.9, // the four AdamW fields were added after format 1, with the values the optimizer used before
  adamBeta2: 0.999,
  adamEps: 1e-8,
  weightDecay: 0,
  epochs: 1,
  minibatchSize: 16,
  maxGradNorm: 1,
  clipLow: 0.2,
  clipHigh: 0.2,
  entropyCoef: 0.001,
  klCoef: 0,
  klEstimator: 'k3',
  ptxCoef: 0, // added after format 1: 0 is what links before it meant
  ptxBatch: 4,
  imitateCoef: 0, // the three self-imitation fields were added after format 2: none is what links before them meant
  imitateBatch: 4,
  imitateKeep: 512,
  imitateDemos: 0, // added after format 2: no demonstrations is what links before it meant
  gamma: 1,
  lambda: 1,
  valueCoef: 0.1,
  valueClip: 0.2,
  normalizeAdvantages: true,
  checkpointEvery: 0,
  evalEvery: 0,
  evalProfiles: 20,
  savedAttention: 'f32', // added after format 1: f32 is what links before it meant
};

export const LINK_BASELINE_V1: Readonly<Record<PresetName, Readonly<Baseline>>> = {
  ci: { ...BASELINE_V1, steps: 40 },
  micro: { ...BASELINE_V1, steps: 100, lr: 3e-4 },
  mini: { ...BASELINE_V1, steps: 200, lr: 1e-4, profilesPerStep: 16 },
  small: { ...BASELINE_V1, steps: 300, lr: 5e-5, profilesPerStep: 16 },
};

/** The version-2 defaults, frozen: format 1's with what had become the defaults by then. */
const BASELINE_V2: Baseline = {
  ...BASELINE_V1,
  zeroRewardOnBrokenThink: false,
  thinkFormatPenalty: 0.1,
  truncation: 'mask-end',
};

const LINK_BASELINE_V2: Readonly<Record<PresetName, Readonly<Baseline>>> = {
  ci: {
    ...BASELINE_V2,
    steps: 40,
    profilesPerStep: 4,
    temperature: 0.7,
    reward: 'both',
    klCoef: 0.1,
    ptxCoef: 0.3,
    epochs: 2,
    lr: 5e-4,
    lrWarmupSteps: 3,
  },
  micro: { ...BASELINE_V2, steps: 100, lr: 3e-4 },
  mini: { ...BASELINE_V2, steps: 200, lr: 1e-4, profilesPerStep: 16 },
  small: { ...BASELINE_V2, steps: 300, lr: 5e-5, profilesPerStep: 16 },
};

/** Each link format's frozen baseline, by format number. */
export const LINK_BASELINES: Readonly<Record<number, Readonly<Record<PresetName, Readonly<Baseline>>>>> = {
  1: LINK_BASELINE_V1,
  2: LINK_BASELINE_V2,
};

export type ShareDecodeResult = { ok: true; config: RunConfig; profiles?: Profile[] } | { ok: false; message: string };

/** The link to `config` (and its own training users): `baseUrl` without its fragment, then `#run=1.<payload>[&users=1.<payload>]`. */
export function encodeShareLink(config: RunConfig, baseUrl: string, profiles?: readonly Profile[]): string {
  const hashAt = baseUrl.indexOf('#');
  const base = hashAt < 0 ? baseUrl : baseUrl.slice(0, hashAt);
  const users = profiles?.length
    ? `&${USERS_KEY}=${USERS_FORMAT}.${toBase64Url(deflateSync(strToU8(JSON.stringify(profiles)), { level: 9 }))}`
    : '';
  return `${base}#${SHARE_KEY}=${encodeSharePayload(config)}${users}`;
}

/** Just the fragment value, `2.<payload>` (for callers that build the fragment themselves). */
function encodeSharePayload(config: RunConfig): string {
  const json = JSON.stringify(compactConfig(config));
  return `${SHARE_LINK_FORMAT}.${toBase64Url(deflateSync(strToU8(json), { level: 9 }))}`;
}

/** preset, version, seed, then each field that differs from the frozen baseline, in schema order. */
export function compactConfig(config: RunConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { version: config.version, preset: config.preset, seed: config.seed };
  const baseline = LINK_BASELINES[SHARE_LINK_FORMAT][config.preset] as Record<string, unknown> | undefined;
  for (const key of Object.keys(RunConfigSchema.shape) as (keyof RunConfig)[]) {
    if (key in out) continue;
    if (!baseline || baseline[key] !== config[key]) out[key] = config[key];
  }
  return out;
}

/**
 * Read a run from a URL fragment (`location.hash`, with or without `#`; a whole URL works too).
 * Never throws: every failure is `{ ok: false, message }` worded for the person who opened the link.
 */
export function decodeShareFragment(hash: string): ShareDecodeResult {
  const hashAt = hash.indexOf('#');
  const fragment = (hashAt < 0 ? hash : hash.slice(hashAt + 1)).trim();
  if (fragment === '') return fail('This link has no run in it: there is nothing after the "#".');
  let value: string | null;
  let users: string | null = null;
  try {
    const params = new URLSearchParams(fragment);
    value = params.get(SHARE_KEY);
    users = params.get(USERS_KEY);
  } catch {
    value = null;
  }
  if (value === null) {
    const shown = fragment.length > 40 ? `${fragment.slice(0, 40)}…` : fragment;
    return fail(`This link's "#${shown}" is not a run from this lab (a lab link has "#${SHARE_KEY}=" in it).`);
  }
  if (value.length > MAX_PAYLOAD_CHARS)
    return damaged(`it is ${value.length} characters long, far longer than any run link`);
  const dot = value.indexOf('.');
  const head = dot < 0 ? '' : value.slice(0, dot);
  if (!/^[1-9][0-9]{0,5}$/.test(head)) return damaged('it does not start with a format number such as "1."');
  const format = Number(head);
  if (format > SHARE_LINK_FORMAT) {
    return fail(
      `This link was made by a newer version of the lab (link format ${format}; this lab reads up to ${SHARE_LINK_FORMAT}). Open it in the current lab.`,
    );
  }
  const bytes = fromBase64Url(value.slice(dot + 1));
  if (!bytes)
    return damaged(
      'its run data has characters that do not belong there (it may have been cut or changed when it was copied)',
    );
  const inflated = inflateCapped(bytes, MAX_INFLATED_BYTES);
  if (typeof inflated === 'string') return damaged(inflated);
  let payload: unknown;
  try {
    payload = JSON.parse(strFromU8(inflated));
  } catch {
    return damaged('its run data is not readable settings');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return damaged('its run data is not a set of settings');
  const run = expandPayload(payload as Record<string, unknown>, LINK_BASELINES[format]);
  if (!run.ok || users === null) return run;
  const profiles = decodeUsers(users);
  return typeof profiles === 'string' ? fail(profiles) : { ...run, profiles };
}

/** The `users=` value → the training users, or the message for the person who opened the link. */
function decodeUsers(value: string): Profile[] | string {
  const bad = (why: string) =>
    `This run link's training users are damaged: ${why}. Ask for the link again, or copy all of it.`;
  if (value.length > MAX_PAYLOAD_CHARS)
    return bad(`they are ${value.length} characters long, far longer than any link's`);
  const dot = value.indexOf('.');
  const head = dot < 0 ? '' : value.slice(0, dot);
  if (!/^[1-9][0-9]{0,5}$/.test(head)) return bad('they do not start with a format number such as "1."');
  if (Number(head) > USERS_FORMAT)
    return `This link's training users were packed by a newer version of the lab (format ${head}; this lab reads up to ${USERS_FORMAT}). Open it in the current lab.`;
  const bytes = fromBase64Url(value.slice(dot + 1));
  if (!bytes) return bad('they have characters that do not belong there');
  const inflated = inflateCapped(bytes, MAX_INFLATED_BYTES);
  if (typeof inflated === 'string') return bad(inflated.replace('its run data', 'the data'));
  let list: unknown;
  try {
    list = JSON.parse(strFromU8(inflated));
  } catch {
    return bad('they are not readable');
  }
  if (!Array.isArray(list) || list.length === 0) return bad('they are not a list of users');
  const out: Profile[] = [];
  for (const [i, p] of list.entries()) {
    const r = ProfileSchema.safeParse(p);
    if (!r.success) {
      const why = r.error.issues
        .slice(0, 3)
        .map((x) => `${x.path.join('.') || '(profile)'}: ${x.message}`)
        .join('; ');
      return `This link's training user ${i + 1} does not match the profile schema (${why}); the run cannot be reproduced from it.`;
    }
    out.push(r.data);
  }
  return out;
}

/** Payload → full config: version check, its format's frozen baseline under it, then validation. */
function expandPayload(
  payload: Record<string, unknown>,
  baselines: Readonly<Record<PresetName, Readonly<Baseline>>>,
): ShareDecodeResult {
  const version = payload.version;
  if (typeof version !== 'number' || !Number.isInteger(version)) return damaged('its run data has no config version');
  if (version > RUN_CONFIG_VERSION) {
    return fail(
      `This link was made by a newer version of the lab (run config version ${version}; this lab reads up to ${RUN_CONFIG_VERSION}). Open it in the current lab.`,
    );
  }
  // Migrations from older config versions go here, oldest first, when RUN_CONFIG_VERSION moves on.
  if (version !== RUN_CONFIG_VERSION)
    return fail(`This link's run config version ${version} is not one this lab knows.`);
  const preset = payload.preset;
  const baseline =
    typeof preset === 'string' && Object.hasOwn(baselines, preset) ? baselines[preset as PresetName] : {};
  const parsed = parseRunConfig({ ...baseline, ...payload });
  if (!parsed.ok)
    return fail(`This link's run settings are not valid:\n${parsed.errors.map((e) => `  ${e}`).join('\n')}`);
  return { ok: true, config: parsed.config };
}

function fail(message: string): ShareDecodeResult {
  return { ok: false, message };
}

function damaged(why: string): ShareDecodeResult {
  return fail(`This run link is damaged: ${why}. Ask for the link again, or copy all of it.`);
}

/** Inflate raw DEFLATE, refusing output past `cap` bytes; a string says what went wrong. */
function inflateCapped(data: Uint8Array, cap: number): Uint8Array | string {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  let tooBig = false;
  const inflater = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total > cap) {
      tooBig = true;
      throw new Error('too big');
    }
    chunks.push(chunk);
    if (final) ended = true;
  });
  try {
    inflater.push(data, true);
  } catch {
    return tooBig
      ? 'its run data unpacks to far more than any run'
      : 'its run data does not unpack (it may have been cut short)';
  }
  if (!ended) return 'its run data does not unpack (it may have been cut short)';
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Bytes → standard base64 with padding (what Python's `base64.b64decode` reads). */
export function toBase64(bytes: Uint8Array): string {
  const CHUNK = 3 * 0x4000; // a multiple of 3, so the chunks' base64 joins without padding inside
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) parts.push(btoa(String.fromCharCode(...bytes.subarray(i, i + CHUNK))));
  return parts.join('');
}

/** Standard base64 (padding optional) → bytes, or null when it is not base64. */
export function fromBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  const bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1) return null;
  try {
    const bin = atob(bare + '='.repeat((4 - (bare.length % 4)) % 4));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** Bytes → base64url without padding (RFC 4648 §5): safe in a fragment and a query value. */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (padding optional) → bytes, or null when it is not base64url. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null;
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}
