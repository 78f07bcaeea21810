/**
 * Play's two dialogues drawn the same way: the emotion trajectory (with the success and give-up
 * lines) and the transcript of turns, each reply with the user's appraisal and answer. Text only.
 */
import { AppraisalList, ChangeBadge } from '../components/AppraisalList';
import { DialogueLine, EMPTY_REPLY } from '../components/DialogueLine';
import type { PlayTurn } from '../state/play';

/** The emotion after each reply, from the start, with the success (100) and give-up (10) lines. */
export function Trajectory({ values, label }: { values: number[]; label: string }) {
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
export function Dialogue({
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
      <DialogueLine role="user" who="user" text={opening} />
      {turns.map((t, i) => (
        <li key={i} className="turn" data-testid={`${testId}-turn`}>
          <DialogueLine as="div" role="agent" who={who} text={t.reply} emptyText={EMPTY_REPLY} />
          <div className="appraisal-box" data-testid={`${testId}-appraisal`}>
            <p className="appraisal-head">
              <ChangeBadge change={t.change} /> → emotion <strong>{t.emotion}</strong>: {t.appraisal.feeling}
            </p>
            <AppraisalList appraisal={t.appraisal} hideFit={hideFit} />
          </div>
          <DialogueLine as="div" role="user" who="user" text={t.line} />
        </li>
      ))}
    </ol>
  );
}
