/**
 * Evaluate's side-by-side comparison: pick a benchmark user, see the starting policy's dialogue
 * (before step 1) beside the latest evaluated policy's (after the last step, or Evaluate now), each
 * reply with the user's change, new emotion, feeling and the appraisal's reasons. The pairing is
 * src/lab/benchmarkComparison.ts; the dialogues come with the run (the worker, the run store, run
 * files). Every text from the users and the policy is rendered as text, never HTML.
 */
import { useMemo, useState } from 'react';
import { compareBenchmarkDialogues, endText } from '../../lab/benchmarkComparison';
import type { BenchmarkDialogue } from '../../lab/benchmarkDialogues';
import { INTENTIONS } from '../../persona/profile';
import { AppraisalList, ChangeBadge } from '../components/AppraisalList';
import { DialogueLine, EMPTY_REPLY } from '../components/DialogueLine';
import { Select } from '../components/Select';
import { Trajectory } from '../play/PlayTranscript';
import { useTraining } from '../state/training';

function Side({
  title,
  note,
  d,
  missing,
  testId,
}: {
  title: string;
  note: string;
  d: BenchmarkDialogue | null;
  missing: string;
  testId: string;
}) {
  return (
    <section className="compare-side" aria-label={title} data-testid={testId}>
      <div className="compare-side-head">
        <h4>
          {title} <span className="muted">({note})</span>
        </h4>
        {d && (
          <>
            <span className="dialogue-emotion">
              emotion {d.startEmotion} → <strong data-testid={`${testId}-final`}>{d.finalEmotion}</strong>
            </span>
            <Trajectory values={[d.startEmotion, ...d.turns.map((t) => t.emotion)]} label={title} />
          </>
        )}
      </div>
      {d ? (
        <>
          <p className="muted compare-end">
            {d.turns.length} {d.turns.length === 1 ? 'reply' : 'replies'}; {endText(d.endReason)}.
          </p>
          <ol className="transcript compare-transcript">
            <DialogueLine role="user" who="user" text={d.opening} />
            {d.turns.map((t, i) => (
              <li key={i} className="turn" data-testid={`${testId}-turn`}>
                <DialogueLine
                  as="div"
                  role="agent"
                  who="policy"
                  text={t.reply}
                  emptyText={EMPTY_REPLY}
                  before={
                    t.think !== null && (
                      <details className="think">
                        <summary>Thoughts{t.wellFormed ? '' : ' (broken think block)'}</summary>
                        <span className="text">{t.think}</span>
                      </details>
                    )
                  }
                />
                <div className="appraisal-box">
                  <p className="appraisal-head">
                    <ChangeBadge change={t.change} /> → emotion <strong>{t.emotion}</strong>: {t.appraisal.feeling}
                  </p>
                  <AppraisalList appraisal={t.appraisal} />
                </div>
                <DialogueLine as="div" role="user" who="user" text={t.line} />
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p className="muted">{missing}</p>
      )}
    </section>
  );
}

export function BenchmarkComparison() {
  const before = useTraining((s) => s.benchmarkDialoguesBefore);
  const after = useTraining((s) => s.benchmarkDialoguesAfter);
  const afterStep = useTraining((s) => s.benchmarkAfter?.step);
  const pairs = useMemo(
    () => compareBenchmarkDialogues({ before: before ?? undefined, after: after ?? undefined }),
    [before, after],
  );
  const [picked, setPicked] = useState<string | null>(null);
  if (pairs.length === 0) return null;
  const current = pairs.find((p) => p.profileId === picked) ?? pairs[0];

  return (
    <section className="benchmark-compare" aria-labelledby="benchmark-compare-h" data-testid="benchmark-compare">
      <div className="panel-head">
        <h3 id="benchmark-compare-h">One benchmark user, before and after</h3>
        <div className="form-row compact">
          <Select
            label="Benchmark user"
            value={current.profileId}
            onChange={setPicked}
            options={pairs.map((p) => ({ value: p.profileId, label: p.label }))}
          />
        </div>
      </div>
      <p className="hidden-need">
        {current.who}. Hidden intention (the policy never sees it):{' '}
        <strong>{INTENTIONS[current.intention].summary}</strong>. The same user, the same opening, each policy's own
        replies.
      </p>
      <div className="compare-grid">
        <Side
          title="Starting policy"
          note="before step 1"
          d={current.before}
          missing="The starting policy's benchmark was not kept for this run."
          testId="compare-before"
        />
        <Side
          title="Trained policy"
          note={
            typeof afterStep === 'number' && Number.isFinite(afterStep)
              ? `the latest evaluated, step ${afterStep}`
              : 'the latest evaluated'
          }
          d={current.after}
          missing="Not evaluated yet: the trained policy plays the benchmark after the last step, or on Evaluate now."
          testId="compare-after"
        />
      </div>
    </section>
  );
}
