/**
 * Train: the controls (Train/Pause, Step, Reset, New seed, Stop, Evaluate now, Share, the settings
 * drawer's toggle) and the status line: step, phase, progress inside the step (dialogues played,
 * benchmark users done), steps/s, tokens/s, time left, and where it runs ("software GPU", "CPU"; a
 * saved run: where it ran). A run that stopped short of its steps offers "Resume from step k" and
 * "Start over". The status line is a polite live region; the buttons and the keyboard do the same things.
 */
import { useMemo, useState } from 'react';
import type { LiveProgress } from '../../worker/protocol';
import { isHidden } from '../../lab/teacher';
import { isCpu, useEngine } from '../state/engine';
import { useConfig } from '../state/config';
import { isOpen, useTraining, type MetricsRow } from '../state/training';
import { useUi } from '../state/ui';
import { checkDraft } from './fields';
import { labActions, useLabActions, whyNotStart } from './actions';
import { ShareDialog } from './ShareDialog';

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

function badgeOf(backend: string | null, software: boolean): string {
  return backend === 'wasm' || backend === 'cpu' ? 'CPU' : software ? 'software GPU' : 'GPU';
}

/** Where the run on screen runs (or, for a saved run, ran). */
function useBadge(): string | null {
  const here = useEngine((s) =>
    s.phase === 'checking' ? null : isCpu(s.backend) ? 'CPU' : s.adapter?.isFallback ? 'software GPU' : 'GPU',
  );
  const ran = useTraining((s) =>
    s.status === 'saved' && s.backend ? badgeOf(s.backend.name, s.backend.software) : null,
  );
  return ran ?? here;
}

/** Progress inside a step, in words: the dialogues being played, or the benchmark users done. */
function liveText(live: LiveProgress): string {
  if (live.kind === 'benchmark') return `${live.ended} of ${live.total} users done`;
  if (live.ended === live.total) return `all ${live.total} dialogues played; updating the policy`;
  return `reply ${live.round}: ${live.ended} of ${live.total} dialogues over`;
}

function StatusLine() {
  const { status, phase, step, steps, rows, error, live: inStep } = useTraining();
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
      {inStep && (
        <span className="run-live" data-testid="run-live">
          <progress max={inStep.total} value={inStep.ended} aria-hidden="true" /> {liveText(inStep)}
        </span>
      )}
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
  const startOver = () => {
    const t = useTraining.getState();
    const config = t.config;
    if (!config) return;
    useConfig.getState().load(config);
    t.reset();
    labActions.toggle();
  };
  const button = canResume && (
    <>
      <button type="button" className="primary" onClick={() => void resume()} disabled={asked || !engineReady}>
        Resume from step {checkpointStep}
      </button>
      <button type="button" onClick={startOver} disabled={asked || !engineReady}>
        Start over
      </button>
    </>
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
    <div className="resume-row" data-testid="resume-row">
      {canResume && (
        <span>
          {status === 'saved' && step < steps
            ? `This run stopped at step ${step} of ${steps}; its checkpoint is from step ${checkpointStep}.`
            : ''}
        </span>
      )}
      {button}
      {why && (
        <p className="notice notice-bad" role="alert">
          {why}
        </p>
      )}
    </div>
  );
}

function EvaluateNow() {
  const hasRun = useTraining((s) => s.runId !== null);
  const status = useTraining((s) => s.status);
  const evaluating = useTraining((s) => s.evaluating || /^Evaluating the policy of step/.test(s.phase));
  const engineReady = useEngine((s) => s.phase === 'ready');
  const [why, setWhy] = useState<string | null>(null);
  const busy = status === 'running' || status === 'pausing';
  return (
    <>
      <button
        type="button"
        onClick={async () => setWhy(await useTraining.getState().evaluateNow())}
        disabled={!hasRun || evaluating || !engineReady || status === 'starting' || status === 'loading'}
        title={
          busy
            ? 'Plays the benchmark users with the policy as it is after the current step'
            : 'Plays the benchmark users with the policy as it is now'
        }
      >
        {evaluating ? 'Evaluating…' : 'Evaluate now'}
      </button>
      {why && (
        <p className="notice notice-bad" role="alert">
          {why}
        </p>
      )}
    </>
  );
}

export function TrainPanel() {
  const actions = useLabActions();
  const status = useTraining((s) => s.status);
  const hasRun = useTraining((s) => s.runId !== null);
  const settingsOpen = useUi((s) => s.settingsOpen);
  const settingsHidden = useUi((s) => isHidden(s.flags, 'settings'));
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
    <section className="panel train-panel" aria-labelledby="train-h" data-tour="train">
      <div className="controls">
        <h2 id="train-h">Train</h2>
        {!settingsHidden && (
          <button
            type="button"
            aria-expanded={settingsOpen}
            aria-controls="settings-drawer"
            onClick={() => useUi.getState().setSettingsOpen(!settingsOpen)}
          >
            {settingsOpen ? 'Hide settings' : 'Settings'}
          </button>
        )}
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
        <EvaluateNow />
        <span className="controls-gap" />
        <button
          type="button"
          onClick={() => {
            actions.copyShare();
            useUi.getState().setShareOpen(true);
          }}
          disabled={!formOk && !hasRun}
          aria-keyshortcuts="S"
        >
          Copy share link
        </button>
      </div>
      {blocked && !open && <p className="notice notice-bad">{blocked}</p>}
      <StatusLine />
      <ResumeNotice />
      {shareLink && <ShareDialog link={shareLink} copied={shareCopied} clipboardOk={clipboardOk} />}
    </section>
  );
}
