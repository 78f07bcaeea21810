/**
 * Train: the controls (Train/Pause, Step, Reset, New seed, Stop, Copy share link) and the status
 * line: step, phase, steps/s, tokens/s, time left, and where it runs ("software GPU", "CPU").
 * The status line is a polite live region; the buttons and the keyboard do the same things.
 */
import { useMemo, useState } from 'react';
import { isCpu, useEngine } from '../state/engine';
import { useConfig } from '../state/config';
import { isOpen, useTraining, type MetricsRow } from '../state/training';
import { useUi } from '../state/ui';
import { checkDraft } from './fields';
import { useLabActions, whyNotStart } from './actions';

/** Steps averaged for the speed and the time left. */
const SPEED_WINDOW = 5;

function speedOf(rows: readonly MetricsRow[], step: number, steps: number) {
  const recent = rows
    .slice(-SPEED_WINDOW)
    .map((r) => r['speed/step_seconds'])
    .filter((x) => Number.isFinite(x) && x > 0);
  if (recent.length === 0) return null;
  const secondsPerStep = recent.reduce((a, b) => a + b, 0) / recent.length;
  const tokens = rows.at(-1)?.['speed/rollout_tokens_per_s'];
  return {
    stepsPerSecond: 1 / secondsPerStep,
    tokensPerSecond: Number.isFinite(tokens) ? tokens! : null,
    secondsLeft: Math.max(0, steps - step) * secondsPerStep,
  };
}

function duration(seconds: number): string {
  if (seconds < 1) return 'under a second';
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

const number = (x: number, digits = 2) => (x >= 100 ? Math.round(x).toLocaleString('en') : x.toPrecision(digits));

function useBadge(): string | null {
  return useEngine((s) =>
    s.phase === 'checking' ? null : isCpu(s.backend) ? 'CPU' : s.adapter?.isFallback ? 'software GPU' : 'GPU',
  );
}

function StatusLine() {
  const { status, phase, step, steps, rows, error } = useTraining();
  const engineChecking = useEngine((s) => s.phase === 'checking');
  const badge = useBadge();
  const speed = useMemo(() => speedOf(rows, step, steps), [rows, step, steps]);
  const live = status === 'running' || status === 'pausing' || status === 'loading' || status === 'starting';
  let what = phase;
  if (status === 'idle') what = 'Ready: press Train (or Space) to start a run';
  else if ((status === 'starting' || status === 'loading') && engineChecking) what = 'Checking GPU';
  return (
    <div className="run-status" role="status" aria-live="polite" aria-label="Training status" data-status={status}>
      {badge && <span className={`run-badge run-badge-${badge.replace(' ', '-').toLowerCase()}`}>{badge}</span>}
      <strong className="run-step">
        Step {step}
        {status !== 'idle' && steps > 0 ? ` of ${steps}` : ''}
      </strong>
      <span className="run-phase">{what}</span>
      {speed && (
        <span className="run-speed">
          {number(speed.stepsPerSecond)} steps/s
          {speed.tokensPerSecond !== null && ` · ${number(speed.tokensPerSecond)} tokens/s generated`}
          {live && step < steps && ` · about ${duration(speed.secondsLeft)} left`}
        </span>
      )}
      {error && <span className="run-error">{error}</span>}
    </div>
  );
}

/**
 * After a lost GPU device (an alert: what happened, that a new device is ready, and Resume), or for
 * a saved run that stopped short of its steps: resume from the last checkpoint.
 */
function ResumeNotice() {
  const { runId, status, lost, checkpointStep, step, steps } = useTraining();
  const engineReady = useEngine((s) => s.phase === 'ready');
  const [why, setWhy] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  const ended = status === 'failed' || status === 'stopped' || status === 'saved';
  if (!runId || !ended)
    return why ? (
      <p className="notice notice-bad" role="alert">
        {why}
      </p>
    ) : null;
  const canResume = checkpointStep !== null && checkpointStep < steps;
  const resume = async () => {
    setAsked(true);
    const r = await useTraining.getState().resumeSaved(runId);
    setAsked(false);
    setWhy(r);
  };
  const button = canResume && (
    <button type="button" className="primary" onClick={() => void resume()} disabled={asked || !engineReady}>
      Resume from the checkpoint of step {checkpointStep}
    </button>
  );
  if (lost) {
    return (
      <div className="notice notice-bad" role="alert" data-testid="device-lost-run">
        <p>
          <strong>The GPU device was lost after step {step}.</strong> {lost}
        </p>
        <p>
          {canResume
            ? `Everything up to the last checkpoint (step ${checkpointStep}) is kept. ${engineReady ? 'The lab has a new device: resume the run where it left off.' : 'The lab is asking for a new device…'}`
            : 'The run has no checkpoint yet, so it cannot be resumed: start it again (a smaller preset asks less of the GPU).'}
        </p>
        {button}
        {why && <p>{why}</p>}
      </div>
    );
  }
  if (!canResume && !why) return null;
  return (
    <div className="resume-row">
      {button}
      {why && (
        <p className="notice notice-bad" role="alert">
          {why}
        </p>
      )}
    </div>
  );
}

export function TrainPanel() {
  const actions = useLabActions();
  const status = useTraining((s) => s.status);
  const hasRun = useTraining((s) => s.runId !== null);
  const draft = useConfig((s) => s.draft);
  const shareLink = useUi((s) => s.shareLink);
  const shareCopied = useUi((s) => s.shareCopied);
  const formOk = useMemo(() => checkDraft(draft).config !== null, [draft]);
  const start = useConfig((s) => s.start);
  // whyNotStart reads the stores itself; draft, start and the adapter are here to recompute when they change.
  const adapter = useEngine((s) => s.adapter);
  const blocked = useMemo(
    () => (isOpen(status) || !draft || !start ? null : whyNotStart()),
    [status, draft, start, adapter],
  );
  const clipboardOk = Boolean(navigator.clipboard);
  const running = status === 'running' || status === 'loading' || status === 'starting';
  const open = isOpen(status);

  return (
    <section className="panel train-panel" aria-labelledby="train-h">
      <h2 id="train-h">Train</h2>
      <div className="controls">
        <button
          type="button"
          className="primary"
          onClick={actions.toggle}
          disabled={!running && !open && blocked !== null}
          aria-keyshortcuts="Space"
        >
          {running ? 'Pause' : 'Train'}
        </button>
        <button
          type="button"
          onClick={actions.step}
          disabled={running || status === 'pausing' || (!open && blocked !== null)}
          aria-keyshortcuts="N ArrowRight"
        >
          Step
        </button>
        <button type="button" onClick={actions.reset} disabled={!hasRun} aria-keyshortcuts="R">
          Reset
        </button>
        <button type="button" onClick={actions.newSeed}>
          New seed
        </button>
        <button type="button" onClick={actions.stop} disabled={!open}>
          Stop
        </button>
        <span className="controls-gap" />
        <button type="button" onClick={actions.copyShare} disabled={!formOk && !hasRun} aria-keyshortcuts="S">
          Copy share link
        </button>
      </div>
      {blocked && !open && <p className="notice notice-bad">{blocked}</p>}
      <StatusLine />
      <ResumeNotice />
      {shareLink && (
        <div className="share-link">
          <label htmlFor="share-link">
            {shareCopied
              ? 'Share link (copied to the clipboard)'
              : clipboardOk
                ? 'Share link (copy it from here)'
                : 'Share link'}
          </label>
          <input id="share-link" readOnly value={shareLink} onFocus={(e) => e.currentTarget.select()} />
        </div>
      )}
      <p className="muted small">
        Reset starts again from the same seed and starting weights; New seed does the same with a fresh seed. Stop saves
        a checkpoint and ends the run. Press <kbd>?</kbd> for the keys.
      </p>
    </section>
  );
}
