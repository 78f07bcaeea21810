/**
 * Write a user of your own: a form, prefilled from the chosen profile, checked against the profile
 * schema (every problem shown at its field); a valid one can be played here and downloaded as JSON.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  CHALLENGE_IDS,
  DOMAINS,
  INTENTION_IDS,
  INTENTIONS,
  PERSONALITY_TYPES,
  TRAIT_POOLS,
  type Profile,
} from '../../persona/profile';
import { benchmarkProfiles, trainingProfiles } from '../../persona/sets';
import { findProfile, usePlay } from '../state/play';
import { useConfig } from '../state/config';
import { checkForm, formOf, type FormKey } from './profileForm';

interface FieldSpec {
  key: FormKey;
  label: string;
  kind: 'text' | 'long' | 'lines' | 'select';
  options?: readonly { value: string; label: string }[];
  help?: string;
}

const opts = (xs: readonly string[]) => xs.map((x) => ({ value: x, label: x }));

const FIELDS: FieldSpec[] = [
  { key: 'id', label: 'Id', kind: 'text', help: 'lower-case letters, digits, - and _' },
  { key: 'name', label: 'Name', kind: 'text' },
  { key: 'age', label: 'Age', kind: 'text', help: '13 to 100' },
  { key: 'pronouns', label: 'Pronouns', kind: 'select', options: opts(['she/her', 'he/him', 'they/them']) },
  { key: 'occupation', label: 'Occupation', kind: 'text' },
  { key: 'scenario.domain', label: 'Domain', kind: 'select', options: opts(DOMAINS) },
  {
    key: 'intention',
    label: 'Hidden intention',
    kind: 'select',
    options: INTENTION_IDS.map((id) => ({ value: id, label: `${id}: ${INTENTIONS[id].summary}` })),
  },
  { key: 'lengthTaste', label: 'Reply length they like', kind: 'select', options: opts(['short', 'medium', 'long']) },
  { key: 'personality.type', label: 'Personality type', kind: 'select', options: opts(PERSONALITY_TYPES) },
  { key: 'personality.traits', label: 'Three traits', kind: 'lines', help: "one a line, from the type's pool" },
  { key: 'openingLine', label: 'Opening line', kind: 'long', help: 'what they say first' },
  { key: 'scenario.event', label: 'What happened', kind: 'long', help: 'first person' },
  { key: 'scenario.problem', label: 'The problem now', kind: 'long', help: 'first person' },
  {
    key: 'scenario.accomplishment',
    label: 'Something they did well',
    kind: 'long',
    help: 'what sincere praise would name',
  },
  { key: 'scenario.people', label: 'People', kind: 'lines', help: 'one a line, "Name: relation"' },
  {
    key: 'scenario.details',
    label: 'Details',
    kind: 'lines',
    help: 'two or more, one a line: what a good listener echoes back',
  },
  { key: 'scenario.feelings', label: 'Feelings', kind: 'lines', help: 'one a line' },
  { key: 'scenario.tried', label: 'Already tried', kind: 'lines', help: 'one a line, first person' },
  { key: 'facts', label: 'Facts', kind: 'lines', help: 'one a line, third person' },
  { key: 'voice.high.description', label: 'Voice when up (A)', kind: 'long' },
  { key: 'voice.high.phrases', label: 'Phrases when up', kind: 'lines' },
  { key: 'voice.medium.description', label: 'Voice in between (B)', kind: 'long' },
  { key: 'voice.medium.phrases', label: 'Phrases in between', kind: 'lines' },
  { key: 'voice.low.description', label: 'Voice when down (C)', kind: 'long' },
  { key: 'voice.low.phrases', label: 'Phrases when down', kind: 'lines' },
  {
    key: 'challenge.behaviours',
    label: 'Pushes back (challenge users)',
    kind: 'lines',
    help: `optional, one a line: ${CHALLENGE_IDS.join(', ')}`,
  },
  {
    key: 'challenge.wrongdoing',
    label: 'What they want agreed with',
    kind: 'long',
    help: 'first person; needed with seeks-agreement',
  },
];

export function ProfileFormPanel() {
  const form = usePlay((s) => s.form);
  const custom = usePlay((s) => s.custom);
  const profileId = usePlay((s) => s.profileId);
  const setForm = usePlay((s) => s.setForm);
  const setField = usePlay((s) => s.setFormField);
  const adoptCustom = usePlay((s) => s.adoptCustom);
  const [errors, setErrors] = useState<Partial<Record<FormKey | 'form', string>>>({});
  const [ready, setReady] = useState<Profile | null>(null);
  const trainUser = useConfig((s) => s.trainUser);
  const setTrainUser = useConfig((s) => s.setTrainUser);
  const download = useMemo(
    () =>
      ready ? URL.createObjectURL(new Blob([JSON.stringify(ready, null, 2)], { type: 'application/json' })) : null,
    [ready],
  );
  useEffect(
    () => () => {
      if (download) URL.revokeObjectURL(download);
    },
    [download],
  );

  if (!form) {
    return (
      <div className="play-form-open">
        <button type="button" onClick={() => setForm(formOf(findProfile(profileId) ?? benchmarkProfiles()[0]))}>
          Write a user of your own…
        </button>
        {custom && <span className="muted small"> Your user {custom.id} is in the Profile list.</span>}
      </div>
    );
  }
  const count = Object.keys(errors).length;
  const traitPool = (TRAIT_POOLS as Record<string, readonly string[]>)[form['personality.type']] ?? [];
  return (
    <form
      className="play-form"
      aria-labelledby="play-form-h"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const r = checkForm(form, new Set([...benchmarkProfiles(), ...trainingProfiles()].map((p) => p.id)));
        if (r.ok) {
          setErrors({});
          setReady(r.profile);
          adoptCustom(r.profile);
        } else {
          setErrors(r.errors);
          setReady(null);
        }
      }}
    >
      <h3 id="play-form-h">A user of your own</h3>
      <p className="muted small">
        Prefilled from the chosen profile; every field is checked against the profile schema. A valid user can be played
        here, used for training (the Lab's next runs then train on this user instead of the standard training set), and
        downloaded as JSON. The policy demo plays benchmark users only.
      </p>
      <div className="field-grid">
        {FIELDS.map((f) => {
          const id = `pf-${f.key.replace(/\./g, '-')}`;
          const err = errors[f.key];
          const help = f.key === 'personality.traits' ? `${f.help}: ${traitPool.join(', ')}` : f.help;
          const common = {
            id,
            value: form[f.key],
            'aria-invalid': err ? true : undefined,
            'aria-describedby':
              [help ? `${id}-help` : '', err ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined,
          };
          return (
            <div
              key={f.key}
              className={`field${err ? ' field-bad' : ''}${f.kind === 'text' || f.kind === 'select' ? '' : ' field-wide'}`}
            >
              <label htmlFor={id}>{f.label}</label>
              {f.kind === 'select' ? (
                <select {...common} onChange={(e) => setField(f.key, e.target.value)}>
                  {f.options!.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              ) : f.kind === 'text' ? (
                <input type="text" {...common} onChange={(e) => setField(f.key, e.target.value)} />
              ) : (
                <textarea
                  {...common}
                  rows={f.kind === 'lines' ? 3 : 2}
                  onChange={(e) => setField(f.key, e.target.value)}
                />
              )}
              {help && (
                <p className="field-help" id={`${id}-help`}>
                  {help}
                </p>
              )}
              {err && (
                <p className="field-error" id={`${id}-err`}>
                  {err}
                </p>
              )}
            </div>
          );
        })}
      </div>
      {count > 0 && (
        <p className="notice notice-bad" role="alert" data-testid="profile-form-errors">
          {count === 1 ? 'One field needs' : `${count} fields need`} attention{errors.form ? `: ${errors.form}` : ''}.
        </p>
      )}
      {ready && count === 0 && (
        <p className="notice notice-ok" role="status" data-testid="profile-form-ok">
          {ready.name} ({ready.id}) matches the schema and is now the chosen profile: press Start to talk with them.{' '}
          {download && (
            <a href={download} download={`${ready.id}.json`}>
              Download JSON
            </a>
          )}
        </p>
      )}
      {ready && count === 0 && (
        <div className="controls">
          <button
            type="button"
            onClick={() => setTrainUser(ready)}
            disabled={trainUser !== null && JSON.stringify(trainUser) === JSON.stringify(ready)}
          >
            Use for training
          </button>
          {trainUser && JSON.stringify(trainUser) === JSON.stringify(ready) && (
            <span className="muted" role="status" data-testid="train-user-set">
              {ready.name} ({ready.id}) is the training user of the Lab's next runs (Configure shows it; choose the
              standard set there to go back).
            </span>
          )}
        </div>
      )}
      <div className="controls">
        <button type="submit" className="primary">
          Check and use this user
        </button>
        <button type="button" onClick={() => setForm(null)}>
          Close the form
        </button>
      </div>
    </form>
  );
}
