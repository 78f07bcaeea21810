/**
 * The supervised warm start, run in the engine worker on whatever backend the lab found: choose a
 * preset, steps and seed, watch the phase and the loss, read the held-out perplexity before and
 * after, download the checkpoint. Bad numbers are refused with the reason, before anything runs.
 */
import { useMemo, useState } from 'react';
import type { PresetName } from '../../engine/model/config';
import { WARM_START_DEFAULTS } from '../../experiment/warmstart';
import { isCpu, useEngine } from '../state/engine';
import { PRESET_CHOICES, useWarmStart } from '../state/warmstart';
import { checkWarmStartField as check } from './warmStartFields';

function Sparkline({ values }: { values: number[] }) {
  if (values.length < 2) return null;
  const w = 320;
  const h = 60;
  const max = Math.max(...values);
  const min = Math.min(...values);
  const pts = values.map(
    (v, i) => `${((i / (values.length - 1)) * w).toFixed(1)},${(h - ((v - min) / (max - min || 1)) * h).toFixed(1)}`,
  );
  return (
    <svg
      className="sparkline"
      width={w}
      height={h}
      role="img"
      aria-label={`training loss from ${values[0].toFixed(2)} to ${values[values.length - 1].toFixed(2)}`}
    >
      <polyline points={pts.join(' ')} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}

export function WarmStartPanel() {
  const ready = useEngine((s) => s.phase === 'ready');
  const backend = useEngine((s) => s.backend);
  const ws = useWarmStart();
  const [preset, setPreset] = useState<PresetName>('ci');
  const [steps, setSteps] = useState(String(WARM_START_DEFAULTS.ci.steps));
  const [dialogues, setDialogues] = useState(String(WARM_START_DEFAULTS.ci.dialogues));
  const [seed, setSeed] = useState('1');
  const errors = useMemo(
    () =>
      [check('steps', steps), check('dialogues', dialogues), check('seed', seed)].filter(
        (e): e is string => e !== null,
      ),
    [steps, dialogues, seed],
  );
  const running = ws.status === 'running' || ws.status === 'cancelling';
  const secondPhase = WARM_START_DEFAULTS[preset].then;
  const download = useMemo(() => (ws.checkpoint ? URL.createObjectURL(ws.checkpoint) : null), [ws.checkpoint]);

  return (
    <section className="panel" aria-labelledby="warm-h">
      <h2 id="warm-h">Warm start: teach the model to talk</h2>
      <p className="muted">
        Next-token training on a generated corpus of support conversations whose strategies are drawn evenly, good and
        bad: the model becomes fluent, not yet empathetic. Reinforcement learning does the rest.
      </p>
      <form
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (errors.length === 0)
            ws.start({ preset, steps: Number(steps), dialogues: Number(dialogues), seed: Number(seed) });
        }}
      >
        <label>
          Preset
          <select
            value={preset}
            disabled={running}
            onChange={(e) => {
              const p = e.target.value as PresetName;
              setPreset(p);
              setSteps(String(WARM_START_DEFAULTS[p].steps));
              setDialogues(String(WARM_START_DEFAULTS[p].dialogues));
            }}
          >
            {PRESET_CHOICES.map((c) => (
              <option key={c.preset} value={c.preset}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Steps
          <input
            inputMode="numeric"
            value={steps}
            disabled={running}
            onChange={(e) => setSteps(e.target.value)}
            aria-invalid={check('steps', steps) !== null}
          />
        </label>
        <label>
          Dialogues
          <input
            inputMode="numeric"
            value={dialogues}
            disabled={running}
            onChange={(e) => setDialogues(e.target.value)}
            aria-invalid={check('dialogues', dialogues) !== null}
          />
        </label>
        <label>
          Seed
          <input
            inputMode="numeric"
            value={seed}
            disabled={running}
            onChange={(e) => setSeed(e.target.value)}
            aria-invalid={check('seed', seed) !== null}
          />
        </label>
        <button type="submit" disabled={!ready || running || errors.length > 0} data-testid="warm-start-button">
          {running ? 'Training…' : 'Train warm start'}
        </button>
        {running && (
          <button
            type="button"
            onClick={ws.cancel}
            disabled={ws.status === 'cancelling'}
            data-testid="warm-start-cancel"
          >
            Cancel
          </button>
        )}
      </form>
      {secondPhase && (
        <p className="muted" data-testid="warm-start-second-phase">
          Then {secondPhase.steps.toLocaleString('en-US')} steps more on a corpus of its own, where{' '}
          {Math.round((secondPhase.corpus.needShare ?? 0) * 100)}% of the replies follow the need the user&apos;s lines
          show: the recipe of the shipped {preset} file.
        </p>
      )}
      {errors.length > 0 && (
        <p className="notice notice-bad" role="alert">
          {errors.join('; ')}.
        </p>
      )}
      {preset !== 'ci' && isCpu(backend) && (
        <p className="notice notice-warn">This preset is slow on the CPU backend: expect hours.</p>
      )}
      {ws.status !== 'idle' && (
        <div className="progress" aria-live="polite" data-testid="warm-start-progress">
          <p>
            {ws.phase}
            {ws.step > 0 && ` — step ${ws.step} / ${ws.steps}`}
            {ws.losses.length > 0 && `, loss ${ws.losses[ws.losses.length - 1].toFixed(3)}`}
          </p>
          <Sparkline values={ws.losses} />
        </div>
      )}
      {ws.report && (
        <p className="notice notice-ok" data-testid="warm-start-result">
          Held-out perplexity {ws.report.perplexityBefore.toFixed(0)} → {ws.report.perplexityAfter.toFixed(1)} (a
          uniform guess scores {ws.report.uniformPerplexity}), in {ws.report.seconds.toFixed(0)} s on the{' '}
          {ws.report.backend === 'webgpu' ? 'GPU' : 'CPU'}.{' '}
          {download && (
            <a href={download} download={`warmstart-${preset}-seed${seed}.bin`}>
              Download checkpoint
            </a>
          )}
        </p>
      )}
      {ws.error && (
        <p className="notice notice-bad" role="alert">
          The warm start stopped: {ws.error}
        </p>
      )}
    </section>
  );
}
