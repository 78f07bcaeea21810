/**
 * Play: a person plays the agent against any benchmark user and sees, after every reply, the
 * change, the new emotion and the user's appraisal (what the reply tries, its fit to the hidden
 * need, the inner reaction, the feeling), with the emotion trajectory; when the dialogue ends, the
 * hidden intention is revealed. Then a policy (the shipped warm start, or the one trained in this
 * tab) can play the same user, shown in the same format beside it. All user and policy text is
 * rendered as text, never HTML.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { benchmarkProfiles } from '../../persona/sets';
import { INTENTIONS } from '../../persona/profile';
import { bandOf } from '../../persona/dynamics';
import { useEngine } from '../state/engine';
import { useWarmStart } from '../state/warmstart';
import { SHIPPED_CHECKPOINT } from '../state/demo';
import { runStore, useRuns } from '../state/runs';
import { useTraining } from '../state/training';
import { findProfile, isBenchmarkId, PLAY_TURN_CAP, usePlay, type PlayTurn, type WatchSource } from '../state/play';
import { ProfileFormPanel } from './ProfileFormPanel';
import './play.css';
import { AppraisalList, ChangeBadge, signed } from '../components/AppraisalList';

const END_TEXT: Record<string, string> = {
  success: 'the user left feeling better (emotion reached 100)',
  failure: 'the user gave up (emotion fell below 10)',
  cap: `the turn cap (${PLAY_TURN_CAP} replies) ended it`,
};

/** The emotion after each reply, from the start, with the success (100) and give-up (10) lines. */
function Trajectory({ values, label }: { values: number[]; label: string }) {
  const w = 150;
  const h = 48;
  const slots = Math.max(values.length - 1, 4);
  const x = (i: number) => (i / slots) * (w - 8) + 4;
  const y = (v: number) => h - 4 - (v / 100) * (h - 8);
  return (
    <svg
      className="trajectory play-trajectory"
      width={w}
      height={h}
      role="img"
      aria-label={`${label}: emotion ${values.join(' → ')}`}
    >
      <line x1={0} x2={w} y1={y(100)} y2={y(100)} className="trajectory-ceiling" />
      <line x1={0} x2={w} y1={y(10)} y2={y(10)} className="trajectory-floor" />
      <polyline points={values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')} fill="none" />
      {values.map((v, i) => (
        <circle key={i} cx={x(i)} cy={y(v)} r={2.6} />
      ))}
    </svg>
  );
}

/** One dialogue: the opening, then each reply with its appraisal and the user's answer. */
function Dialogue({
  who,
  opening,
  turns,
  testId,
  hideFit,
}: {
  who: string;
  opening: string;
  turns: PlayTurn[];
  testId: string;
  hideFit: boolean;
}) {
  return (
    <ol className="transcript play-transcript" data-testid={testId}>
      <li className="line line-user">
        <span className="who">user</span>
        <span className="text">{opening}</span>
      </li>
      {turns.map((t, i) => (
        <li key={i} className="turn" data-testid={`${testId}-turn`}>
          <div className="line line-agent">
            <span className="who">{who}</span>
            <span className="text">{t.reply || <em>(empty reply)</em>}</span>
          </div>
          <div className="appraisal-box" data-testid={`${testId}-appraisal`}>
            <p className="appraisal-head">
              <ChangeBadge change={t.change} /> → emotion <strong>{t.emotion}</strong>: {t.appraisal.feeling}
            </p>
            <AppraisalList appraisal={t.appraisal} hideFit={hideFit} />
          </div>
          <div className="line line-user">
            <span className="who">user</span>
            <span className="text">{t.line}</span>
          </div>
        </li>
      ))}
    </ol>
  );
}

function YourDialogue() {
  const session = usePlay((s) => s.session);
  const draft = usePlay((s) => s.draft);
  const error = usePlay((s) => s.error);
  const setDraft = usePlay((s) => s.setDraft);
  const send = usePlay((s) => s.send);
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
            <button type="submit" className="primary" disabled={draft.trim() === ''}>
              Send
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/** A DemoReport's lines as turns: the opening, then (policy reply, user answer) pairs. */
function toTurns(
  lines: { role: string; text: string; change?: number; emotion?: number; appraisal?: PlayTurn['appraisal'] }[],
): PlayTurn[] {
  const turns: PlayTurn[] = [];
  for (let i = 1; i < lines.length; i += 2) {
    const a = lines[i];
    turns.push({
      reply: a.text,
      change: a.change ?? 0,
      emotion: a.emotion ?? 0,
      appraisal: a.appraisal ?? { intent: '', fit: '', inner: '', feeling: '' },
      line: lines[i + 1]?.text ?? '',
    });
  }
  return turns;
}

/** Which policy a demo dialogue was played by, from its checkpoint's provenance. */
function sourceText(meta: Record<string, unknown>): string {
  if (meta.kind === 'rl')
    return `an RL checkpoint, step ${typeof meta.steps === 'number' ? meta.steps : '?'}${typeof meta.runId === 'string' ? ` of run ${meta.runId}` : ''}`;
  return 'a supervised warm start';
}

function PolicyDialogue() {
  const ready = useEngine((s) => s.phase === 'ready');
  const trained = useWarmStart((s) => s.status === 'done');
  const watch = usePlay((s) => s.watch);
  const watchPolicy = usePlay((s) => s.watchPolicy);
  const session = usePlay((s) => s.session);
  const chosenId = usePlay((s) => s.profileId);
  const difficulty = session?.difficulty ?? usePlay.getState().difficulty;
  const [source, setSource] = useState<WatchSource>('shipped');
  const [loadError, setLoadError] = useState<string | null>(null);
  const liveRun = useTraining((s) => s.runId);
  const allRuns = useRuns((s) => s.runs);
  // RL runs with a checkpoint: the one in the Lab first, then the others, newest first.
  const withCheckpoint = useMemo(
    () => allRuns.filter((r) => r.hasCheckpoint).sort((a, b) => Number(b.id === liveRun) - Number(a.id === liveRun)),
    [allRuns, liveRun],
  );
  useEffect(() => {
    void useRuns.getState().refresh();
  }, []);
  const watchNow = async () => {
    setLoadError(null);
    if (source === 'shipped' || source === 'last') {
      watchPolicy(
        source,
        source === 'last' ? 'last' : new URL(`${import.meta.env.BASE_URL}${SHIPPED_CHECKPOINT}`, document.baseURI).href,
        count,
      );
      return;
    }
    const id = source.slice('run:'.length);
    const bytes = await (await runStore()).getCheckpoint(id);
    if (!bytes) return setLoadError('That run has no checkpoint any more (it was deleted, or replaced by an import).');
    watchPolicy(source, `run:${id}`, count, bytes);
  };
  const [replies, setReplies] = useState<number | 'match'>('match');
  const running = watch.status === 'running';
  const profileId = session?.profileId ?? chosenId;
  const mine = session?.turns.length ?? 0;
  const benchmark = isBenchmarkId(profileId);
  const count = replies === 'match' ? Math.max(1, Math.min(PLAY_TURN_CAP, mine || 3)) : replies;
  const turns = useMemo(() => (watch.report ? toTurns(watch.report.lines) : []), [watch.report]);
  const report = watch.report;

  return (
    <section className="play-column" aria-labelledby="play-policy-h">
      <div className="play-column-head">
        <h3 id="play-policy-h">The policy's dialogue</h3>
        {report && (
          <>
            <span className="dialogue-emotion">
              emotion {report.startEmotion} → <strong data-testid="policy-emotion">{report.finalEmotion}</strong>
            </span>
            <Trajectory values={[report.startEmotion, ...turns.map((t) => t.emotion)]} label="The policy's dialogue" />
          </>
        )}
      </div>
      <div className="form-row">
        <label>
          Policy
          <select value={source} onChange={(e) => setSource(e.target.value as WatchSource)} disabled={running}>
            <option value="shipped">shipped warm start (micro)</option>
            <option value="last" disabled={!trained}>
              the warm start trained in this tab{trained ? '' : ' (none yet)'}
            </option>
            {withCheckpoint.length > 0 && (
              <optgroup label="Trained with RL (the run's latest checkpoint)">
                {withCheckpoint.map((r) => (
                  <option key={r.id} value={`run:${r.id}`}>
                    {r.name}
                    {r.checkpointStep !== undefined ? `, step ${r.checkpointStep}` : ''}
                    {r.id === liveRun ? ' (the run in the Lab)' : ''}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        <label>
          Policy replies
          <select
            value={String(replies)}
            onChange={(e) => setReplies(e.target.value === 'match' ? 'match' : Number(e.target.value))}
            disabled={running}
          >
            <option value="match">as many as yours ({Math.max(1, Math.min(PLAY_TURN_CAP, mine || 3))})</option>
            {[1, 2, 3, 5, PLAY_TURN_CAP].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          data-testid="watch-button"
          disabled={!ready || running || !benchmark}
          onClick={() => void watchNow()}
        >
          {running ? 'The policy is talking…' : 'Watch the policy'}
        </button>
      </div>
      <p className="muted small">
        The policy plays {profileId} at moderate difficulty
        {difficulty === 'strict' ? ' (the demo has no strict setting)' : ''}, sampling at temperature 0.7. It never sees
        the hidden intention either.{!ready ? ' The engine is still checking the GPU.' : ''}
        {!benchmark ? ' The policy demo plays benchmark users only, not one written here.' : ''}
      </p>
      {running && (
        <p className="muted" role="status" data-testid="watch-progress">
          Loading the checkpoint and generating {count} {count === 1 ? 'reply' : 'replies'}; on a software GPU or the
          CPU this takes a minute.
        </p>
      )}
      {loadError && (
        <p className="notice notice-bad" role="alert">
          {loadError}
        </p>
      )}
      {watch.error && (
        <p className="notice notice-bad" role="alert">
          The policy could not play: {watch.error}
        </p>
      )}
      {report && (
        <>
          {report.profileId !== profileId && (
            <p className="notice notice-warn">This dialogue is with {report.profileId}, not the user chosen now.</p>
          )}
          <p className="muted small" data-testid="policy-source">
            Played by {sourceText(report.checkpointMeta)}.
          </p>
          <Dialogue
            who="policy"
            opening={report.lines[0]?.text ?? ''}
            turns={turns}
            testId="policy-transcript"
            hideFit={session !== null && session.endReason === null}
          />
          <p className="muted small" data-testid="policy-final">
            Final emotion {report.finalEmotion} (started at {report.startEmotion})
            {report.finalEmotion >= 100
              ? '; the user left feeling better'
              : report.finalEmotion < 10
                ? '; the user gave up'
                : ''}
            . {turns.length} {turns.length === 1 ? 'reply' : 'replies'} in {report.seconds.toFixed(0)} s.
          </p>
        </>
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
        <label>
          Profile
          <select value={profileId} onChange={(e) => setProfile(e.target.value)}>
            {custom && (
              <option value={custom.id}>
                {custom.id} — {custom.name}, {custom.age} — {custom.scenario.domain} (yours)
              </option>
            )}
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id} — {p.name}, {p.age} — {p.scenario.domain}
              </option>
            ))}
          </select>
        </label>
        <label>
          Difficulty
          <select value={difficulty} onChange={(e) => setDifficulty(e.target.value as 'moderate' | 'strict')}>
            <option value="moderate">moderate</option>
            <option value="strict">strict</option>
          </select>
        </label>
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
