/**
 * Chat: talk with any saved policy through onnxruntime-web (the policy exported to ONNX in the
 * page), or let a simulated benchmark user talk with it and score each reply live. All text is
 * rendered as text, never HTML.
 */
import { useEffect, useState, type KeyboardEvent } from 'react';
import { benchmarkProfiles } from '../../persona/sets';
import { AppraisalList, ChangeBadge } from '../components/AppraisalList';
import { DialogueLine, EMPTY_REPLY } from '../components/DialogueLine';
import { Select } from '../components/Select';
import { useRuns } from '../state/runs';
import { CHAT_TURN_CAP, useChat, type ChatTurn, type Runtime } from './chatStore';
import { usePolicySources } from './sources';
import './chat.css';
import { CheckpointFileInput } from '../components/CheckpointFileInput';

const END_TEXT: Record<string, string> = {
  success: 'the user left feeling better (emotion reached 100)',
  failure: 'the user gave up (emotion fell below 10)',
  cap: `the turn cap (${CHAT_TURN_CAP} replies) ended it`,
};

function PolicyPanel() {
  const sources = usePolicySources();
  const s = useChat();
  const [label, setLabel] = useState('');
  useEffect(() => void useRuns.getState().refresh(), []);
  const source = sources.find((x) => x.id === s.sourceId) ?? sources[0];
  useEffect(() => setLabel(source.label), [source.label]);
  const loading = s.status === 'loading';
  return (
    <section className="panel" aria-labelledby="chat-policy-h">
      <h2 id="chat-policy-h">Chat with a policy</h2>
      <p className="muted small">
        The policy is exported to ONNX here in the page and run by onnxruntime-web: on the WebGPU execution provider
        with a hardware GPU, on wasm otherwise. Nothing leaves this tab.
      </p>
      <div className="form-row">
        <Select
          label="Policy"
          value={source.id}
          onChange={s.setSource}
          disabled={loading}
          testId="chat-source"
          options={sources.map((x) => ({ value: x.id, label: x.label }))}
        />
        <Select<Runtime>
          label="Runtime"
          value={s.runtime}
          onChange={s.setRuntime}
          disabled={loading}
          options={[
            { value: 'auto', label: 'auto (WebGPU on a hardware GPU, else wasm)' },
            { value: 'webgpu', label: 'WebGPU' },
            { value: 'wasm', label: 'wasm' },
          ]}
        />
        <button type="button" onClick={() => void s.load(label)} disabled={loading}>
          {loading ? 'Loading…' : 'Load policy'}
        </button>
        <CheckpointFileInput disabled={loading} testId="chat-file" onFile={(f) => void s.loadFile(f)} />
      </div>
      {s.policy && (
        <p className="notice notice-ok" role="status" data-testid="chat-loaded">
          Loaded {s.policy.label}: {s.policy.config.layers} layers, {s.policy.config.channels} channels, context{' '}
          {s.policy.config.contextLength}; ONNX {(s.policy.onnxBytes / 1e6).toFixed(1)} MB on{' '}
          <strong data-testid="chat-ep">{s.policy.ep}</strong> in {(s.policy.loadMs / 1000).toFixed(1)} s
          {s.policy.fallback ? ` (not WebGPU: ${s.policy.fallback})` : ''}.
        </p>
      )}
      {s.error && (
        <p className="notice notice-bad" role="alert" data-testid="chat-error">
          {s.error}
        </p>
      )}
    </section>
  );
}

function Decoding() {
  const s = useChat();
  const busy = s.status === 'busy' || s.status === 'loading';
  return (
    <div className="form-row">
      <Select
        label="Decoding"
        value={s.greedy ? 'greedy' : 'sampled'}
        onChange={(v) => s.setDecoding({ greedy: v === 'greedy' })}
        disabled={busy}
        options={[
          { value: 'greedy', label: 'greedy' },
          { value: 'sampled', label: 'sampled' },
        ]}
      />
      {!s.greedy && (
        <>
          <label>
            Temperature
            <input
              type="number"
              min={0.05}
              max={2}
              step={0.05}
              value={s.temperature}
              onChange={(e) => s.setDecoding({ temperature: Math.max(0.05, Number(e.target.value) || 0.7) })}
            />
          </label>
          <label>
            Top-p
            <input
              type="number"
              min={0.05}
              max={1}
              step={0.05}
              value={s.topP}
              onChange={(e) => s.setDecoding({ topP: Math.min(1, Math.max(0.05, Number(e.target.value) || 0.9)) })}
            />
          </label>
          <label>
            Seed
            <input
              type="number"
              step={1}
              value={s.seed}
              onChange={(e) => s.setDecoding({ seed: Math.trunc(Number(e.target.value) || 0) })}
            />
          </label>
        </>
      )}
    </div>
  );
}

/** How long a reply took: milliseconds under a second (a small policy on wasm answers in tens of ms), else seconds. */
function replyTime(ms: number): string {
  return ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function Transcript({ turns, scored }: { turns: ChatTurn[]; scored: boolean }) {
  return (
    <ol className="transcript chat-transcript" data-testid="chat-transcript" aria-live="polite">
      {turns.map((t, i) => (
        <DialogueLine
          key={i}
          role={t.role}
          testId={`chat-${t.role}`}
          text={t.text}
          emptyText={EMPTY_REPLY}
          who={
            <>
              {t.role === 'user' ? (scored ? 'simulated user' : 'you') : 'policy'}
              {t.role === 'agent' && t.tokens !== undefined && t.ms !== undefined && (
                <span className="chat-meta">
                  {' '}
                  · {t.tokens} tokens, {replyTime(t.ms)}
                </span>
              )}
              {t.change !== undefined && (
                <span className="chat-meta">
                  {' '}
                  · <ChangeBadge change={t.change} /> → emotion <span data-testid="chat-emotion">{t.emotion}</span>
                </span>
              )}
            </>
          }
        >
          {t.appraisal && (
            <details className="chat-appraisal">
              <summary>How the user read it</summary>
              <AppraisalList appraisal={t.appraisal} />
            </details>
          )}
        </DialogueLine>
      ))}
    </ol>
  );
}

function Conversation() {
  const s = useChat();
  const profiles = benchmarkProfiles();
  const busy = s.status === 'busy';
  const ready = s.policy !== null && s.status !== 'loading';
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void s.send();
    }
  };
  const emotions = s.turns.filter((t) => t.emotion !== undefined).map((t) => t.emotion!);
  return (
    <section className="panel" aria-labelledby="chat-conv-h">
      <div className="panel-head">
        <h2 id="chat-conv-h">Conversation</h2>
        <div className="chat-modes" role="radiogroup" aria-label="Who talks with the policy">
          <label>
            <input
              type="radio"
              name="chat-mode"
              checked={s.mode === 'you'}
              onChange={() => s.setMode('you')}
              disabled={busy}
            />{' '}
            You
          </label>
          <label>
            <input
              type="radio"
              name="chat-mode"
              checked={s.mode === 'simulated'}
              onChange={() => s.setMode('simulated')}
              disabled={busy}
            />{' '}
            A simulated user
          </label>
        </div>
      </div>
      <Decoding />
      {!ready && <p className="muted">Load a policy above to start.</p>}
      {ready && s.mode === 'you' && (
        <>
          <Transcript turns={s.turns} scored={false} />
          <div className="chat-input">
            <label htmlFor="chat-draft" className="visually-hidden">
              Your message
            </label>
            <textarea
              id="chat-draft"
              rows={2}
              value={s.draft}
              placeholder="Write what is on your mind; Enter sends, Shift+Enter breaks the line"
              onChange={(e) => s.setDraft(e.target.value)}
              onKeyDown={onKey}
              disabled={busy}
            />
            <button type="button" onClick={() => void s.send()} disabled={busy || s.draft.trim() === ''}>
              {busy ? 'Replying…' : 'Send'}
            </button>
            <button type="button" onClick={() => s.clear()} disabled={busy || s.turns.length === 0}>
              Clear
            </button>
          </div>
        </>
      )}
      {ready && s.mode === 'simulated' && (
        <>
          <div className="form-row">
            <Select
              label="Benchmark user"
              value={s.profileId}
              onChange={s.setProfile}
              disabled={busy}
              options={profiles.map((p) => ({
                value: p.id,
                label: `${p.id} — ${p.name}, ${p.age} — ${p.scenario.domain}`,
              }))}
            />
            <button type="button" onClick={() => s.startSimulated()} disabled={busy}>
              {s.sim ? 'Start again' : 'Start'}
            </button>
            <button
              type="button"
              onClick={() => void s.nextReply()}
              disabled={busy || !s.sim || s.sim.endReason !== null}
            >
              {busy ? 'Replying…' : 'Next reply'}
            </button>
            <button
              type="button"
              onClick={() => void s.playToEnd()}
              disabled={busy || !s.sim || s.sim.endReason !== null}
            >
              Play to the end
            </button>
          </div>
          {s.sim && (
            <>
              <p className="small" data-testid="chat-score">
                Emotion {[s.sim.startEmotion, ...emotions].join(' → ')}
                {s.sim.endReason && <> — ended: {END_TEXT[s.sim.endReason]}</>}
              </p>
              <Transcript turns={s.turns} scored />
            </>
          )}
        </>
      )}
    </section>
  );
}

export function ChatView() {
  return (
    <>
      <PolicyPanel />
      <Conversation />
    </>
  );
}
