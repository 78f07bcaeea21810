/**
 * Play's right column: a policy (the shipped warm start, the one trained in this tab, or an RL
 * run's latest checkpoint) plays the user chosen on the left, drawn like the person's own dialogue.
 * It plays a benchmark user, or the user written in the form. All text is rendered as text, never HTML.
 */
import { useEffect, useMemo, useState } from 'react';
import { countOptions, Select } from '../components/Select';
import { useEngine } from '../state/engine';
import { SHIPPED_CHECKPOINT } from '../state/demo';
import { isBenchmarkId, PLAY_TURN_CAP, usePlay, type PlayTurn, type WatchSource } from '../state/play';
import { runStore, useRuns } from '../state/runs';
import { useTraining } from '../state/training';
import { useWarmStart } from '../state/warmstart';
import { Dialogue, Trajectory } from './PlayTranscript';

/** The policy's replies when it is to play as many as the person did (3 before they have replied). */
function matchingReplies(mine: number): number {
  return Math.max(1, Math.min(PLAY_TURN_CAP, mine || 3));
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

export function PolicyDialogue() {
  const ready = useEngine((s) => s.phase === 'ready');
  const trained = useWarmStart((s) => s.status === 'done');
  const watch = usePlay((s) => s.watch);
  const watchPolicy = usePlay((s) => s.watchPolicy);
  const session = usePlay((s) => s.session);
  const chosenId = usePlay((s) => s.profileId);
  const chosenDifficulty = usePlay((s) => s.difficulty);
  const difficulty = session?.difficulty ?? chosenDifficulty;
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
  const [replies, setReplies] = useState<number | 'match'>('match');
  const running = watch.status === 'running';
  const profileId = session?.profileId ?? chosenId;
  const mine = session?.turns.length ?? 0;
  const custom = usePlay((s) => s.custom);
  const benchmark = isBenchmarkId(profileId) || custom?.id === profileId;
  const count = replies === 'match' ? matchingReplies(mine) : replies;
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
        <Select<WatchSource>
          label="Policy"
          value={source}
          onChange={setSource}
          disabled={running}
          options={[
            { value: 'shipped', label: 'shipped warm start (micro)' },
            {
              value: 'last',
              label: `the warm start trained in this tab${trained ? '' : ' (none yet)'}`,
              disabled: !trained,
            },
            {
              group: "Trained with RL (the run's latest checkpoint)",
              options: withCheckpoint.map((r) => ({
                value: `run:${r.id}` as WatchSource,
                label: `${r.name}${r.checkpointStep !== undefined ? `, step ${r.checkpointStep}` : ''}${r.id === liveRun ? ' (the run in the Lab)' : ''}`,
              })),
            },
          ]}
        />
        <Select
          label="Policy replies"
          value={String(replies)}
          onChange={(v) => setReplies(v === 'match' ? 'match' : Number(v))}
          disabled={running}
          options={[
            { value: 'match', label: `as many as yours (${matchingReplies(mine)})` },
            ...countOptions([1, 2, 3, 5, PLAY_TURN_CAP]),
          ]}
        />
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
        {!benchmark ? ' Choose a benchmark user, or check the one written in the form, for the policy to play.' : ''}
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
