/**
 * A teacher link with `autoplay=1`: once the engine is ready, a visible countdown, then training
 * starts (the link's run when it carries one, else the settings in the form). A click on Cancel
 * (or Escape) stops the countdown and nothing starts. Plus the message for flags the link got wrong
 * (the rest of the link still opened).
 */
import { useEffect, useRef, useState } from 'react';
import { useConfig } from '../state/config';
import { useEngine } from '../state/engine';
import { isOpen, useTraining } from '../state/training';
import { useUi } from '../state/ui';
import { labActions, whyNotStart } from './actions';

/** Seconds the countdown shows before training starts. */
const AUTOPLAY_SECONDS = 5;

export function Autoplay() {
  const autoplay = useUi((s) => s.flags.autoplay);
  const ready = useEngine((s) => s.phase === 'ready');
  const [left, setLeft] = useState<number | null>(null);
  const done = useRef(false);
  useEffect(() => {
    if (!autoplay || !ready || done.current) return;
    if (isOpen(useTraining.getState().status)) return;
    done.current = true;
    setLeft(AUTOPLAY_SECONDS);
  }, [autoplay, ready]);
  useEffect(() => {
    if (left === null) return;
    if (left === 0) {
      setLeft(null);
      const shared = useUi.getState().shared;
      if (shared?.ok) {
        // The link's run, as "Reproduce this run" would start it.
        useTraining.getState().reset();
        useConfig.getState().load(shared.config);
        useConfig.getState().setStart('shipped');
        useConfig.getState().setTrainUser(shared.profiles?.[0] ?? null);
        useUi.getState().dismissShared();
      }
      if (!whyNotStart()) labActions.toggle();
      return;
    }
    const t = setTimeout(() => setLeft(left - 1), 1000);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setLeft(null);
    window.addEventListener('keydown', onKey);
    return () => {
      clearTimeout(t);
      window.removeEventListener('keydown', onKey);
    };
  }, [left]);
  if (left === null) return null;
  return (
    <div className="notice notice-warn autoplay" role="status" data-testid="autoplay">
      <strong>Training starts in {left} s.</strong>
      <button type="button" onClick={() => setLeft(null)}>
        Cancel
      </button>
    </div>
  );
}

export function FlagProblems() {
  const problems = useUi((s) => s.flagProblems);
  if (problems.length === 0) return null;
  return (
    <div className="panel notice-panel notice-bad" role="alert" data-testid="flag-error">
      <p className="notice-title">Part of this link could not be read</p>
      <ul>
        {problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
      <p>The rest of the link opened; ask for the link again to get all of it.</p>
      <button type="button" onClick={() => useUi.getState().dismissFlagProblems()}>
        Dismiss
      </button>
    </div>
  );
}
