/**
 * Play: a person plays the agent against any benchmark user and sees, after every reply, the
 * change, the new emotion and the user's appraisal (what the reply tries, its fit to the hidden
 * need, the inner reaction, the feeling), with the emotion trajectory; when the dialogue ends, the
 * hidden intention is revealed. Then a policy (the shipped warm start, or the one trained in this
 * tab) can play the same user, shown in the same format beside it. All user and policy text is
 * rendered as text, never HTML. The policy's column is PolicyDialogue.tsx; both are drawn by
 * PlayTranscript.tsx.
 */
import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { benchmarkProfiles } from '../../persona/sets';
import { INTENTIONS } from '../../persona/profile';
import { bandOf } from '../../persona/dynamics';
import { signed } from '../components/AppraisalList';
import { Select } from '../components/Select';
import { findProfile, PLAY_TURN_CAP, usePlay } from '../state/play';
import { Dialogue, Trajectory } from './PlayTranscript';
import { PolicyDialogue } from './PolicyDialogue';
import { ProfileFormPanel } from './ProfileFormPanel';
import './play.css';

const END_TEXT: Record<string, string> = {
  success: 'the user left feeling better (emotion reached 100)',
  failure: 'the user gave up (emotion fell below 10)',
  cap: `the turn cap (${PLAY_TURN_CAP} replies) ended it`,
  ended: 'you ended it',
};

function YourDialogue() {
  const session = usePlay((s) => s.session);
  const draft = usePlay((s) => s.draft);
  const error = usePlay((s) => s.error);
  const setDraft = usePlay((s) => s.setDraft);
  const send = usePlay((s) => s.send);
  const end = usePlay((s) => s.end);
  const box = useRef<HTMLTextAreaElement>(null);
  const turns = session?.turns.length ?? 0;
  // Keep the cursor in the reply box: after Start and after each reply.
  useEffect(() => {
    if (session && session.endReason === null) box.current?.focus();
  }, [session?.opening, session?.profileId, turns, session]);

  if (!session) {
    return (
      <section className="play-column" aria-labelledby="play-you-h">
        <h3 id="play-you-h">Your dialogue</h3>
        <p className="muted">
          Choose a user and press Start. You see what they say; what they really want stays hidden until the end.
        </p>
      </section>
    );
  }
  const over = session.endReason !== null;
  const profile = findProfile(session.profileId);
  const last = session.turns.at(-1);
  const final = last?.emotion ?? session.startEmotion;
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  return (
    <section className="play-column" aria-labelledby="play-you-h">
      <div className="play-column-head">
        <h3 id="play-you-h">Your dialogue</h3>
        <span className="dialogue-emotion">
          emotion {session.startEmotion} → <strong data-testid="play-emotion">{final}</strong>
        </span>
        <Trajectory values={[session.startEmotion, ...session.turns.map((t) => t.emotion)]} label="Your dialogue" />
      </div>
      <Dialogue who="you" opening={session.opening} turns={session.turns} testId="play-transcript" hideFit={!over} />
      <p className="visually-hidden" aria-live="polite">
        {last
          ? `${signed(last.change)}, emotion ${last.emotion}. ${last.appraisal.feeling}. The user says: ${last.line}`
          : ''}
      </p>
      {error && (
        <p className="notice notice-bad" role="alert">
          {error}
        </p>
      )}
      {over ? (
        <div
          className={`notice play-end ${bandOf(final) === 'S' ? 'notice-ok' : bandOf(final) === 'F' ? 'notice-bad' : 'notice-warn'}`}
          data-testid="play-end"
        >
          <p>
            <strong>The dialogue is over:</strong> {END_TEXT[session.endReason!] ?? session.endReason}. Final emotion{' '}
            <strong>{final}</strong> (started at {session.startEmotion}), after {session.turns.length}{' '}
            {session.turns.length === 1 ? 'reply' : 'replies'}.
          </p>
          {profile && (
            <p>
              Hidden intention: <strong>{INTENTIONS[profile.intention].summary}</strong>.
            </p>
          )}
        </div>
      ) : (
        <form
          className="play-reply"
          onSubmit={(e) => {
            e.preventDefault();
            send();
          }}
        >
          <label htmlFor="play-reply">Your reply</label>
          <textarea
            id="play-reply"
            ref={box}
            rows={3}
            value={draft}
            maxLength={1200}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKey}
            placeholder="Write what you would say…"
          />
          <div className="play-reply-actions">
            <span className="muted small">
              Enter sends, Shift+Enter starts a new line. Reply {turns + 1} of at most {PLAY_TURN_CAP}.
            </span>
            <span className="play-reply-buttons">
              <button
                type="button"
                onClick={end}
                disabled={turns === 0}
                title="End the dialogue and see the hidden need"
              >
                End and reveal
              </button>
              <button type="submit" className="primary" disabled={draft.trim() === ''}>
                Send
              </button>
            </span>
          </div>
        </form>
      )}
    </section>
  );
}

export function PlayView() {
  const profileId = usePlay((s) => s.profileId);
  const difficulty = usePlay((s) => s.difficulty);
  const session = usePlay((s) => s.session);
  const setProfile = usePlay((s) => s.setProfile);
  const setDifficulty = usePlay((s) => s.setDifficulty);
  const start = usePlay((s) => s.start);
  const profiles = useMemo(() => benchmarkProfiles(), []);
  const custom = usePlay((s) => s.custom);
  const shown = findProfile(session?.profileId ?? profileId);

  return (
    <section className="panel" aria-labelledby="play-h">
      <h2 id="play-h">Play the agent</h2>
      <p className="muted">
        You are the support partner. A held-out benchmark user opens (emotion 40 of 100) and appraises each reply
        against a need they never state; their emotion moves by −10 to +10 with the reasons written out. 100 ends it
        happily, below 10 they give up. Then watch a policy talk with the same user.
      </p>
      <div className="form-row">
        <Select
          label="Profile"
          value={profileId}
          onChange={setProfile}
          options={[
            ...(custom
              ? [
                  {
                    value: custom.id,
                    label: `${custom.id} — ${custom.name}, ${custom.age} — ${custom.scenario.domain} (yours)`,
                  },
                ]
              : []),
            ...profiles.map((p) => ({ value: p.id, label: `${p.id} — ${p.name}, ${p.age} — ${p.scenario.domain}` })),
          ]}
        />
        <Select<'moderate' | 'strict'>
          label="Difficulty"
          value={difficulty}
          onChange={setDifficulty}
          options={[
            { value: 'moderate', label: 'moderate' },
            { value: 'strict', label: 'strict' },
          ]}
        />
        <button type="button" className="primary" onClick={start} data-testid="play-start">
          {session ? 'Start again' : 'Start'}
        </button>
      </div>
      <ProfileFormPanel />
      {shown && (
        <p className="play-who" data-testid="play-who">
          <strong>{shown.name}</strong>, {shown.age}, {shown.occupation} ({shown.pronouns}) — {shown.scenario.domain}
          {session && (session.profileId !== profileId || session.difficulty !== difficulty) && (
            <span className="muted"> · press Start again to talk with the user chosen above</span>
          )}
        </p>
      )}
      <div className="play-grid">
        <YourDialogue />
        <PolicyDialogue />
      </div>
    </section>
  );
}
