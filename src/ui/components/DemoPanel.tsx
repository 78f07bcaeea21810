/**
 * Watch a policy talk: a checkpoint (the shipped warm start or the one trained in this tab) plays a
 * benchmark user; every reply shows the user's change, new emotion and the five-part appraisal,
 * the hidden intention revealed to the person watching.
 */
import { useMemo, useState } from 'react';
import { benchmarkProfiles } from '../../persona/sets';
import { INTENTIONS } from '../../persona/profile';
import { useEngine } from '../state/engine';
import { SHIPPED_CHECKPOINT, useDemo } from '../state/demo';
import { useWarmStart } from '../state/warmstart';
import { AppraisalList, ChangeBadge } from './AppraisalList';
import { DialogueLine, EMPTY_REPLY } from './DialogueLine';
import { countOptions, Select } from './Select';

export function DemoPanel() {
  const ready = useEngine((s) => s.phase === 'ready');
  const trained = useWarmStart((s) => s.status === 'done');
  const demo = useDemo();
  const profiles = useMemo(() => benchmarkProfiles().slice(0, 12), []);
  const [profileId, setProfileId] = useState(profiles[0].id);
  const [source, setSource] = useState<'shipped' | 'last'>('shipped');
  const [turns, setTurns] = useState(3);
  const profile = profiles.find((p) => p.id === profileId)!;
  const running = demo.status === 'running';

  return (
    <section className="panel" aria-labelledby="demo-h">
      <h2 id="demo-h">Watch a policy talk</h2>
      <p className="muted">
        A checkpoint talks with a held-out benchmark user (emotion starts at 40). The warm start is fluent-ish but not
        yet adaptive: that is what reinforcement learning is for.
      </p>
      <div className="form-row">
        <Select<'shipped' | 'last'>
          label="Policy"
          value={source}
          onChange={setSource}
          disabled={running}
          options={[
            { value: 'shipped', label: 'shipped warm start (micro)' },
            {
              value: 'last',
              label: `the warm start trained above${trained ? '' : ' (train one first)'}`,
              disabled: !trained,
            },
          ]}
        />
        <Select
          label="User"
          value={profileId}
          onChange={setProfileId}
          disabled={running}
          options={profiles.map((p) => ({ value: p.id, label: `${p.name}, ${p.age} — ${p.scenario.domain}` }))}
        />
        <Select
          label="Replies"
          value={String(turns)}
          onChange={(v) => setTurns(Number(v))}
          disabled={running}
          options={countOptions([1, 2, 3, 5, 10])}
        />
        <button
          type="button"
          data-testid="demo-button"
          disabled={!ready || running}
          onClick={() =>
            demo.play({
              checkpoint: source === 'last' ? 'last' : new URL(SHIPPED_CHECKPOINT, document.baseURI).href,
              profileId,
              turns,
              seed: 1,
            })
          }
        >
          {running ? 'Talking…' : 'Play the dialogue'}
        </button>
      </div>
      <p className="hidden-need">
        Hidden intention (the policy never sees it): <strong>{INTENTIONS[profile.intention].summary}</strong>
      </p>
      {demo.error && (
        <p className="notice notice-bad" role="alert">
          {demo.error}
        </p>
      )}
      {demo.report && (
        <ol className="transcript" data-testid="demo-transcript">
          {demo.report.lines.map((l, i) => (
            <DialogueLine
              key={i}
              role={l.role}
              who={l.role === 'user' ? 'user' : 'policy'}
              text={l.text}
              emptyText={EMPTY_REPLY}
            >
              {l.appraisal && (
                <details className="appraisal">
                  <summary>
                    <ChangeBadge change={l.change!} /> → emotion {l.emotion}: {l.appraisal.feeling}
                  </summary>
                  <AppraisalList appraisal={l.appraisal} />
                </details>
              )}
            </DialogueLine>
          ))}
        </ol>
      )}
      {demo.report && (
        <p className="muted" data-testid="demo-final">
          Final emotion {demo.report.finalEmotion} (started at {demo.report.startEmotion});{' '}
          {demo.report.seconds.toFixed(0)} s.
        </p>
      )}
    </section>
  );
}
