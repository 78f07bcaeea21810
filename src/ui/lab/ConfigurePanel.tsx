/**
 * Configure, in the settings drawer beside the run: the preset, where the run starts, the basic
 * knobs, and every other run-config field under "Advanced". Each field shows its schema description
 * as help; a value out of range is marked with the allowed range in words, and stays marked until
 * it is fixed; Train stays off until all are valid. Locked while a run is open. A teacher link can
 * hide Advanced or single settings (`hide=`), or show them read-only (`lock=`).
 */
import { useMemo } from 'react';
import type { PresetName } from '../../engine/model/config';
import { fieldHelp } from '../../rl/config';
import { useConfig } from '../state/config';
import { isOpen, useTraining } from '../state/training';
import { useWarmStart } from '../state/warmstart';
import { useEngine } from '../state/engine';
import { presetFit } from '../../lab/presetFit';
import { isHidden, isLocked } from '../../lab/teacher';
import { useUi } from '../state/ui';
import {
  BASIC_FIELDS,
  checkDraft,
  FIELDS,
  PRESET_LABELS,
  PRESET_NAMES,
  SHIPPED_STARTS,
  type FieldSpec,
} from './fields';

function range(spec: FieldSpec): string {
  if (spec.kind !== 'number') return '';
  return ` (${spec.min} to ${spec.max}${spec.integer ? ', whole' : ''})`;
}

function Field({
  spec,
  value,
  error,
  disabled,
}: {
  spec: FieldSpec;
  value: string | boolean;
  error?: string;
  disabled: boolean;
}) {
  const setField = useConfig((s) => s.setField);
  const id = `cfg-${spec.key}`;
  const described = error ? `${id}-help ${id}-err` : `${id}-help`;
  let control;
  if (spec.kind === 'choice') {
    control = (
      <select
        id={id}
        value={String(value)}
        disabled={disabled}
        aria-describedby={described}
        onChange={(e) => setField(spec.key, e.target.value)}
      >
        {spec.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (spec.kind === 'switch') {
    control = (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        disabled={disabled}
        aria-describedby={described}
        onChange={(e) => setField(spec.key, e.target.checked)}
      />
    );
  } else {
    control = (
      <input
        id={id}
        type="text"
        inputMode={spec.integer ? 'numeric' : 'decimal'}
        autoComplete="off"
        spellCheck={false}
        value={String(value)}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => setField(spec.key, e.target.value)}
      />
    );
  }
  return (
    <div className={`field field-${spec.kind}${error ? ' field-bad' : ''}`}>
      <div className="field-head">
        <label htmlFor={id}>{spec.label}</label>
        <code className="field-key">{spec.key}</code>
      </div>
      {control}
      <p className="field-help" id={`${id}-help`}>
        {spec.help}
        {range(spec)}
      </p>
      {error && (
        <p className="field-error" id={`${id}-err`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function ConfigurePanel() {
  const draft = useConfig((s) => s.draft);
  const start = useConfig((s) => s.start);
  const setPreset = useConfig((s) => s.setPreset);
  const setStart = useConfig((s) => s.setStart);
  const trainUser = useConfig((s) => s.trainUser);
  const setTrainUser = useConfig((s) => s.setTrainUser);
  const running = useTraining((s) => isOpen(s.status));
  const flags = useUi((s) => s.flags);
  const linkLocked = isLocked(flags, 'preset') || flags.lock.includes('*');
  const locked = running || linkLocked;
  const warmTrained = useWarmStart((s) => s.status === 'done');
  const check = useMemo(() => checkDraft(draft), [draft]);
  const shownField = (f: FieldSpec) => !isHidden(flags, f.key);
  const advanced = isHidden(flags, 'advanced')
    ? []
    : FIELDS.filter((f) => !BASIC_FIELDS.includes(f.key) && shownField(f));
  const advancedErrors = advanced.filter((f) => check.fieldErrors[f.key]).length;
  const noStart = start === 'shipped' && !SHIPPED_STARTS.includes(draft.preset);
  const limits = useEngine((s) => (s.backend === 'webgpu' ? (s.adapter?.limits ?? null) : null));
  const fit = useMemo(() => Object.fromEntries(PRESET_NAMES.map((p) => [p, presetFit(p, limits)])), [limits]);
  const chosenFit = fit[draft.preset];
  const field = (spec: FieldSpec) => (
    <Field
      key={spec.key}
      spec={spec}
      value={draft[spec.key]}
      error={check.fieldErrors[spec.key]}
      disabled={locked || isLocked(flags, spec.key)}
    />
  );

  return (
    <section className="panel configure-panel" aria-labelledby="configure-h" data-tour="settings">
      <div className="panel-head">
        <h2 id="configure-h">Settings</h2>
        <button type="button" onClick={() => useUi.getState().setSettingsOpen(false)} aria-label="Hide the settings">
          ×
        </button>
      </div>
      {running && <p className="muted">The settings are locked while a run is open. Reset (or Stop) to change them.</p>}
      {!running && flags.lock.length > 0 && (
        <p className="muted" data-testid="settings-locked">
          This link shows {flags.lock.includes('*') ? 'the settings' : 'some settings'} read-only.
        </p>
      )}
      <div className="field-grid">
        <div className={`field field-choice${noStart || !chosenFit.fits ? ' field-bad' : ''}`}>
          <div className="field-head">
            <label htmlFor="cfg-preset">Preset</label>
            <code className="field-key">preset</code>
          </div>
          <select
            id="cfg-preset"
            value={draft.preset}
            disabled={locked}
            aria-describedby="cfg-preset-help"
            onChange={(e) => setPreset(e.target.value as PresetName)}
          >
            {PRESET_NAMES.map((p) => (
              <option key={p} value={p}>
                {PRESET_LABELS[p]}
                {fit[p].fits ? '' : ' — does not fit this GPU'}
              </option>
            ))}
          </select>
          <p className="field-help" id="cfg-preset-help">
            {fieldHelp().preset} Choosing one loads its defaults (the seed stays).
          </p>
          {noStart && (
            <p className="field-error">
              No shipped warm start for {draft.preset} yet: choose {SHIPPED_STARTS.join(' or ')}.
            </p>
          )}
          {!chosenFit.fits && (
            <p className="field-error" data-testid="preset-fit">
              Does not fit this GPU: {chosenFit.reason}. Choose a smaller preset.
            </p>
          )}
        </div>
        <div className="field field-choice">
          <div className="field-head">
            <label htmlFor="cfg-start">Start from</label>
          </div>
          <select
            id="cfg-start"
            value={start}
            disabled={locked}
            aria-describedby="cfg-start-help"
            onChange={(e) => setStart(e.target.value as 'shipped' | 'last')}
          >
            <option value="shipped">the shipped warm start</option>
            <option value="last" disabled={!warmTrained}>
              the warm start trained in this tab{warmTrained ? '' : ' (train one first)'}
            </option>
          </select>
          <p className="field-help" id="cfg-start-help">
            The supervised model RL begins from; it is also the reference for the KL penalty.
          </p>
        </div>
        <div className="field field-choice" data-testid="train-users">
          <div className="field-head">
            <span className="field-label">Training users</span>
          </div>
          {trainUser ? (
            <p className="train-user">
              Your own user <strong>{trainUser.name}</strong> ({trainUser.id}, {trainUser.intention}), written in Play.{' '}
              <button type="button" disabled={locked} onClick={() => setTrainUser(null)}>
                Use the standard set
              </button>
            </p>
          ) : (
            <p className="train-user">
              The standard training set. Write a user of your own in Play and choose "Use for training" to train on it.
            </p>
          )}
          <p className="field-help">
            Who the policy talks with in training; the benchmark always plays the held-out users.
          </p>
        </div>
        {BASIC_FIELDS.map((k) => FIELDS.find((f) => f.key === k)!)
          .filter(shownField)
          .map(field)}
      </div>
      {advanced.length > 0 && (
        <details className="advanced">
          <summary>
            Advanced ({advanced.length} more settings{advancedErrors ? `; ${advancedErrors} not valid` : ''})
          </summary>
          <div className="field-grid">{advanced.map(field)}</div>
        </details>
      )}
      {check.otherErrors.length > 0 && <p className="notice notice-bad">{check.otherErrors.join('; ')}</p>}
    </section>
  );
}
