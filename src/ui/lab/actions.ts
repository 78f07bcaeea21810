/**
 * The lab's actions in one place, for the buttons and the keyboard shortcuts alike: train or pause,
 * one step, reset (same seed, same starting weights), new seed, stop, copy the share link. Each reads
 * the stores when called, so a shortcut acts on what is on screen at that moment.
 */
import { useMemo } from 'react';
import { SHIPPED_STARTS, checkDraft } from './fields';
import { startUrl, useConfig } from '../state/config';
import { useEngine } from '../state/engine';
import { presetFit } from '../../lab/presetFit';
import { isOpen, useTraining, type RunExtras } from '../state/training';
import { useUi } from '../state/ui';
import type { RunConfig } from '../../rl/config';
import type { LinkFlags } from '../../lab/teacher';

/** Where the run starts: a checkpoint URL on the lab's own origin, or 'last' (the warm start trained in this tab). */
const startOf = (config: RunConfig, start: 'shipped' | 'last'): string => startUrl(config, start);

/** Where the form's run starts, and its training user (the person's own, when one is chosen). */
function extrasOf(): RunExtras {
  const { start, trainUser } = useConfig.getState();
  return { startFrom: start, ...(trainUser ? { profiles: [trainUser] } : {}) };
}

/** Why the form's config cannot start a run now (null when it can). */
export function whyNotStart(): string | null {
  const { draft, start } = useConfig.getState();
  const check = checkDraft(draft);
  if (!check.config) return 'Some settings are not valid: see the marked fields.';
  const engine = useEngine.getState();
  const fit = presetFit(check.config.preset, engine.backend === 'webgpu' ? (engine.adapter?.limits ?? null) : null);
  if (!fit.fits)
    return `The ${check.config.preset} preset does not fit this GPU: ${fit.reason}. Choose a smaller preset.`;
  if (start === 'shipped' && !SHIPPED_STARTS.includes(check.config.preset)) {
    return `The lab ships no warm start for ${check.config.preset} yet: choose ${SHIPPED_STARTS.join(' or ')}.`;
  }
  return null;
}

export interface LabActions {
  /** Train (a new run, or resume) or Pause, as the button says. */
  toggle(): void;
  step(): void;
  reset(): void;
  newSeed(): void;
  stop(): void;
  /** Copy the share link, with the teacher flags ticked in the share dialog. */
  copyShare(flags?: Partial<LinkFlags>): void;
}

function formConfig(): RunConfig | null {
  return checkDraft(useConfig.getState().draft).config;
}

export const labActions: LabActions = {
  toggle() {
    const t = useTraining.getState();
    if (t.status === 'running' || t.status === 'loading' || t.status === 'starting') return t.pause();
    if (t.status === 'paused' || t.status === 'pausing') return t.train(t.config!, '');
    const config = formConfig();
    if (!config || whyNotStart()) return;
    t.train(config, startOf(config, useConfig.getState().start), extrasOf());
  },
  step() {
    const t = useTraining.getState();
    if (t.status === 'paused') return t.stepOnce(t.config!, '');
    if (isOpen(t.status)) return;
    const config = formConfig();
    if (!config || whyNotStart()) return;
    t.stepOnce(config, startOf(config, useConfig.getState().start), extrasOf());
  },
  reset() {
    useTraining.getState().reset();
  },
  newSeed() {
    useTraining.getState().reset();
    useConfig.getState().newSeed();
  },
  stop() {
    useTraining.getState().stop();
  },
  copyShare(flags) {
    const t = useTraining.getState();
    const fromRun = t.config !== null && t.status !== 'idle';
    const config = fromRun ? t.config : formConfig();
    const users = fromRun ? t.profiles : useConfig.getState().trainUser ? [useConfig.getState().trainUser!] : null;
    if (config) void useUi.getState().copyShareLink(config, users ?? undefined, flags);
  },
};

export function useLabActions(): LabActions {
  return useMemo(() => labActions, []);
}
