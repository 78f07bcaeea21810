/**
 * The dialogue on the first screen: the one being played in the current step, reply by reply as
 * the worker reports each round, or else the first dialogue of the latest step. Each reply with the
 * user's change, new emotion and feeling, and the user's answer; the hidden intention named (the
 * policy never sees it). Follows the newest line. Text only, never HTML.
 */
import { useEffect, useRef } from 'react';
import type { TranscriptItem } from '../../worker/protocol';
import { ChangeBadge } from '../components/AppraisalList';
import { DialogueLine, EMPTY_REPLY } from '../components/DialogueLine';
import { useTraining } from '../state/training';
import { useUi } from '../state/ui';
import { isHidden } from '../../lab/teacher';

function Lines({ d }: { d: TranscriptItem }) {
  return (
    <ol className="transcript live-transcript">
      <DialogueLine role="user" who="user" text={d.opening} />
      {d.turns.map((t, i) => (
        <li key={i} className="turn">
          <DialogueLine as="div" role="agent" who="policy" text={t.reply} emptyText={EMPTY_REPLY} />
          <p className="live-change">
            <ChangeBadge change={t.change} /> → emotion {t.emotion}: {t.appraisal.feeling}
          </p>
          <DialogueLine as="div" role="user" who="user" text={t.line} />
        </li>
      ))}
    </ol>
  );
}

export function LiveDialogue() {
  const preview = useTraining((s) => s.live?.preview ?? null);
  const latest = useTraining((s) => s.dialogues.at(-1));
  const status = useTraining((s) => s.status);
  const hidden = useUi((s) => isHidden(s.flags, 'dialogue'));
  const d = preview ?? latest?.items[0] ?? null;
  const playing = preview !== null && preview.endReason === 'playing';
  const box = useRef<HTMLDivElement>(null);
  const lines = d?.turns.length ?? 0;
  useEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [d?.step, lines]);
  if (hidden) return null;
  return (
    <section className="panel live-dialogue" aria-labelledby="live-h" data-testid="live-dialogue" data-tour="dialogue">
      <div className="live-head">
        <h2 id="live-h">
          {d ? (playing ? `Playing now · step ${d.step}` : `A dialogue of step ${d.step}`) : 'A dialogue'}
        </h2>
        {d && (
          <span className="dialogue-emotion">
            {d.who} · emotion {d.startEmotion} → <strong>{d.turns.at(-1)?.emotion ?? d.startEmotion}</strong>
          </span>
        )}
      </div>
      {d ? (
        <>
          <p className="hidden-need small">
            Hidden intention (the policy never sees it): <strong>{d.intentionSummary}</strong>
          </p>
          <div className="live-scroll" ref={box} tabIndex={0} aria-label="The dialogue's lines">
            <Lines d={d} />
          </div>
        </>
      ) : (
        <p className="muted">
          {status === 'idle'
            ? 'Press Train: the policy talks with simulated users, and the first dialogue of each step plays here, reply by reply, with how the user took each one.'
            : 'The first dialogue of the step appears here as it is played.'}
        </p>
      )}
    </section>
  );
}
