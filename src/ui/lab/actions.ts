/**
 * The lab's actions in one place, for the buttons and the keyboard shortcuts alike: train or pause,
 * one step, reset (same seed, same starting weights), new seed, stop, copy the share link. Each reads
 * the stores when called, so a shortcut acts on what is on screen at that moment.
 */
import { useMemo } from 'react';
import { SHIPPED_STARTS, checkDraft } from './fields';
import { useConfig } from '../state/config';
import { isOpen, useTraining } from '../state/training';
import { useUi } from '../state/ui';
import type { RunConfig } from '../../rl/config';

/** Where the run starts: a checkpoint URL on the lab's own origin, or 'last' (the warm start trained in this tab). */
export function startOf(config: RunConfig, start: 'shipped' | 'last'): string {
  return start === 'last' ? 'last' : new URL(`warmstart-${config.preset}.bin`, document.baseURI).href;
}

/** Why the form's config cannot start a run now (null when it can). */
export function whyNotStart(): string | null {
  const { draft, start } = useConfig.getState();
  const check = checkDraft(draft);
  if (!check.config) return 'Some settings are not valid: see the marked fields.';
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
  copyShare(): void;
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
    t.train(config, startOf(config, useConfig.getState().start));
  },
  step() {
    const t = useTraining.getState();
    if (t.status === 'paused') return t.stepOnce(t.config!, '');
    if (isOpen(t.status)) return;
    const config = formConfig();
    if (!config || whyNotStart()) return;
    t.stepOnce(config, startOf(config, useConfig.getState().start));
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
  copyShare() {
    const t = useTraining.getState();
    const config = t.config && t.status !== 'idle' ? t.config : formConfig();
    if (config) void useUi.getState().copyShareLink(config);
  },
};

export function useLabActions(): LabActions {
  return useMemo(() => labActions, []);
}
