/**
 * Teacher links (after TensorFlow Playground's `_hide` flags): what a link's fragment says beside
 * the run itself. `hide=` a comma list of panels and settings to leave out of the page (a teacher
 * shares a simplified lab), `lock=1` settings shown read-only (or `lock=` a list of settings),
 * `autoplay=1` training starts after a countdown that a click cancels, `tutorial=1` opens the tour,
 * `view=` the view the page opens on (the page keeps it there as the person moves, so Back and
 * Forward move between views). Unknown or damaged flags get a message and the rest of the link
 * opens; the run (`run=`, `users=`, share.ts) is read apart, so old links keep their meaning.
 * Pure: no DOM.
 */
import { RunConfigSchema } from '../rl/config';

const VIEWS = ['lab', 'runs', 'warm-start', 'play', 'chat'] as const;
export type View = (typeof VIEWS)[number];

/** The lab's charts by the name a link uses (`hide=charts:kl`). */
export const CHART_IDS = [
  'reward',
  'rates',
  'emotion',
  'turns',
  'length',
  'losses',
  'variance',
  'lr',
  'entropy',
  'kl',
  'replay',
  'imitate',
  'clipfrac',
  'gradnorm',
  'throughput',
  'benchmark',
] as const;

/** Panels a link can hide: the settings drawer, Advanced, the views, and the Lab's sections. */
const PANELS = [
  'settings',
  'advanced',
  'runs',
  'warm-start',
  'play',
  'chat',
  'charts',
  'dialogue',
  'transcripts',
  'evaluate',
  'onnx',
  'tour',
] as const;

/** Settings a link can hide or lock: every run-config field but the version. */
const FIELD_KEYS = Object.keys(RunConfigSchema.shape).filter((k) => k !== 'version');

export interface LinkFlags {
  /** Panels (`settings`, `charts:kl`, ...) and settings (`lr`, ...) left out of the page. */
  hide: string[];
  /** '*' locks every setting; else the settings shown read-only. */
  lock: string[];
  autoplay: boolean;
  tutorial: boolean;
  view: View | null;
}

export const NO_FLAGS: LinkFlags = { hide: [], lock: [], autoplay: false, tutorial: false, view: null };

/** Fragment keys that are the run itself (share.ts reads them). */
const RUN_KEYS = ['run', 'users'];
const FLAG_KEYS = ['hide', 'lock', 'autoplay', 'tutorial', 'view'];

const shown = (s: string) => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

function isHideable(name: string): boolean {
  if ((PANELS as readonly string[]).includes(name) || FIELD_KEYS.includes(name)) return true;
  return name.startsWith('charts:') && (CHART_IDS as readonly string[]).includes(name.slice('charts:'.length));
}

const yes = (v: string) => v === '1' || v === 'true' || v === 'yes' || v === 'on';
const no = (v: string) => v === '0' || v === 'false' || v === 'no' || v === 'off';

/**
 * Read the flags of a fragment (with or without `#`). Never throws: each flag it cannot read is
 * left at its default, with a sentence in `problems` saying what and why.
 */
export function readLinkFlags(hash: string): { flags: LinkFlags; problems: string[]; hasRun: boolean } {
  const fragment = hash.replace(/^#/, '').trim();
  const flags: LinkFlags = { ...NO_FLAGS, hide: [], lock: [] };
  const problems: string[] = [];
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(fragment);
  } catch {
    return { flags, problems: ['This link\'s settings after the "#" cannot be read.'], hasRun: false };
  }
  const list = (v: string) =>
    v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  for (const [key, value] of params) {
    if (RUN_KEYS.includes(key)) continue;
    if (!FLAG_KEYS.includes(key)) {
      problems.push(`"${shown(key)}" is not something a lab link can say (it can say ${FLAG_KEYS.join(', ')}).`);
      continue;
    }
    if (key === 'hide') {
      for (const name of list(value)) {
        if (isHideable(name)) flags.hide.push(name);
        else
          problems.push(
            `hide= names "${shown(name)}", which is not a panel or setting of this lab (panels: ${PANELS.join(', ')}, charts:<${CHART_IDS.join('|')}>, or a setting's key such as lr).`,
          );
      }
    } else if (key === 'lock') {
      if (yes(value) || value === 'all' || value === 'settings') flags.lock = ['*'];
      else if (!no(value))
        for (const name of list(value)) {
          if (FIELD_KEYS.includes(name)) flags.lock.push(name);
          else
            problems.push(`lock= names "${shown(name)}", which is not a setting of this lab (lock=1 locks them all).`);
        }
    } else if (key === 'autoplay' || key === 'tutorial') {
      if (yes(value)) flags[key] = true;
      else if (!no(value)) problems.push(`${key}= is "${shown(value)}"; it takes 1 (on) or 0 (off).`);
    } else if (key === 'view') {
      if ((VIEWS as readonly string[]).includes(value)) flags.view = value as View;
      else problems.push(`view= is "${shown(value)}", not a view of this lab (${VIEWS.join(', ')}).`);
    }
  }
  flags.hide = [...new Set(flags.hide)];
  flags.lock = flags.lock.includes('*') ? ['*'] : [...new Set(flags.lock)];
  return { flags, problems, hasRun: params.has('run') };
}

/** The flags as fragment parameters (defaults left out), to stand beside `run=...`: `hide=settings&autoplay=1`. */
export function writeLinkFlags(flags: Partial<LinkFlags>): string {
  const out: string[] = [];
  if (flags.hide?.length) out.push(`hide=${flags.hide.join(',')}`);
  if (flags.lock?.length) out.push(`lock=${flags.lock.includes('*') ? '1' : flags.lock.join(',')}`);
  if (flags.autoplay) out.push('autoplay=1');
  if (flags.tutorial) out.push('tutorial=1');
  if (flags.view && flags.view !== 'lab') out.push(`view=${flags.view}`);
  return out.join('&');
}

/** `hash` with its `view=` set to `view` (left out for the Lab), every other part kept as it was. */
export function withView(hash: string, view: View): string {
  const parts = hash
    .replace(/^#/, '')
    .split('&')
    .filter((p) => p !== '' && !p.startsWith('view='));
  if (view !== 'lab') parts.push(`view=${view}`);
  return parts.length ? `#${parts.join('&')}` : '';
}

/** `hash` without the run (`run=`, `users=`): what stays once a shared run is dismissed. */
export function withoutRun(hash: string): string {
  const parts = hash
    .replace(/^#/, '')
    .split('&')
    .filter((p) => p !== '' && !RUN_KEYS.some((k) => p.startsWith(`${k}=`)));
  return parts.length ? `#${parts.join('&')}` : '';
}

/** Whether `name` (a panel, `charts:<id>` or a setting's key) is hidden by the flags; `charts` hides every chart. */
export function isHidden(flags: Pick<LinkFlags, 'hide'>, name: string): boolean {
  if (flags.hide.includes(name)) return true;
  return name.startsWith('charts:') && flags.hide.includes('charts');
}

/** Whether the setting `key` is read-only under the flags. */
export function isLocked(flags: Pick<LinkFlags, 'lock'>, key: string): boolean {
  return flags.lock.includes('*') || flags.lock.includes(key);
}
