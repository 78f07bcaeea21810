/**
 * Transcripts: the dialogues of the latest step (or the step clicked on the reward chart), each
 * with its emotion trajectory, every reply's appraisal (what it tries, fit to the hidden need, inner
 * reaction, feeling, change) and the hidden intention revealed; think blocks folded. Filters by
 * outcome and intention. "What the update reinforces" colours every policy token by the weight the
 * step's update gave it (the worker's credit.ts): green likelier, red less likely, with each reply's
 * sum beside the user's change. Every text from the users and the policy is rendered as text, never HTML.
 */
import { useMemo, useState } from 'react';
import { bandOf } from '../../persona/dynamics';
import { INTENTION_IDS, INTENTIONS } from '../../persona/profile';
import type { TranscriptItem } from '../../worker/protocol';
import { useTraining } from '../state/training';
import { useUi } from '../state/ui';
import { AppraisalList, ChangeBadge } from '../components/AppraisalList';
import { DialogueLine, EMPTY_REPLY } from '../components/DialogueLine';
import { countOptions, Select } from '../components/Select';
import { endText } from '../../lab/benchmarkComparison';
import { transcriptMarkdown } from '../../lab/transcriptMarkdown';
import { download } from '../state/runs';

export type Outcome = 'success' | 'failure' | 'neither';

function outcomeOf(d: TranscriptItem): Outcome {
  const band = bandOf(d.finalEmotion);
  return band === 'S' ? 'success' : band === 'F' ? 'failure' : 'neither';
}

/** The emotion after each reply, from the start, as a small line with the S and F thresholds. */
function Trajectory({ d }: { d: TranscriptItem }) {
  const values = [d.startEmotion, ...d.turns.map((t) => t.emotion)];
  const w = 140;
  const h = 36;
  const x = (i: number) => (values.length === 1 ? w / 2 : (i / (values.length - 1)) * (w - 6) + 3);
  const y = (v: number) => h - 3 - (v / 100) * (h - 6);
  return (
    <svg className="trajectory" width={w} height={h} role="img" aria-label={`emotion ${values.join(' → ')}`}>
      <line x1={0} x2={w} y1={y(10)} y2={y(10)} className="trajectory-floor" />
      <polyline points={values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')} fill="none" />
      {values.map((v, i) => (
        <circle key={i} cx={x(i)} cy={y(v)} r={2.2} />
      ))}
    </svg>
  );
}

/** A weight as a background: green for positive, red for negative, stronger with |v| / scale. */
function creditStyle(v: number, scale: number): { backgroundColor: string } {
  const a = scale > 0 ? Math.min(1, Math.abs(v) / scale) * 0.75 : 0;
  return { backgroundColor: v >= 0 ? `rgba(0, 158, 115, ${a.toFixed(3)})` : `rgba(213, 94, 0, ${a.toFixed(3)})` };
}

const signedSum = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;

/** A policy reply as its tokens, each coloured by its weight in the update. */
function CreditReply({ credit, scale }: { credit: { tokens: string[]; values: number[] }; scale: number }) {
  const sum = credit.values.reduce((a, b) => a + b, 0);
  return (
    <div className="line line-agent credit-line">
      <span className="who">
        policy · update Σ <strong data-testid="credit-sum">{signedSum(sum)}</strong>
        {credit.values.every((v) => v === 0) && ' · no weight: its group scored alike, so nothing to learn here'}
      </span>
      <span className="text credit-tokens">
        {credit.tokens.map((t, i) => (
          <span
            key={i}
            className="credit-token"
            style={creditStyle(credit.values[i], scale)}
            title={`${credit.values[i] >= 0 ? '+' : ''}${credit.values[i].toFixed(3)}`}
          >
            {t}
          </span>
        ))}
      </span>
    </div>
  );
}

function Dialogue({ d, open, inspect, scale }: { d: TranscriptItem; open: boolean; inspect: boolean; scale: number }) {
  const outcome = outcomeOf(d);
  return (
    <details className={`dialogue dialogue-${outcome}`} open={open}>
      <summary>
        <span className="dialogue-who">{d.who}</span>
        <span className="dialogue-emotion">
          emotion {d.startEmotion} → <strong>{d.finalEmotion}</strong>
        </span>
        <Trajectory d={d} />
        <span className={`outcome outcome-${outcome}`}>
          {outcome === 'neither' ? `${d.turns.length} replies` : outcome}
        </span>
      </summary>
      <p className="hidden-need">
        Hidden intention (the policy never sees it): <strong>{d.intentionSummary}</strong>. Reward {d.reward.toFixed(2)}
        ; {endText(d.endReason)}.{` Group ${d.group + 1}. `}
        {d.sibling === 0 && "The group's dialogue: its other rows are the replies written beside these, turn by turn. "}
        {d.sibling !== undefined &&
          d.sibling > 0 &&
          `Reply ${d.sibling + 1} of the group at each turn: written to the same history as the group's dialogue (its first row), with what the user, as it was before the turn, said to it; the dialogue went on with the first. `}
        <button
          type="button"
          className="small-button"
          onClick={() => download(`step-${d.step}-dialogue-${d.index + 1}.md`, transcriptMarkdown(d), 'text/markdown')}
        >
          Save as Markdown
        </button>
      </p>
      <ol className="transcript">
        <DialogueLine role="user" who="user" text={d.opening} />
        {d.turns.map((t, i) => (
          <li key={i} className="turn">
            {inspect && t.credit ? (
              <CreditReply credit={t.credit} scale={scale} />
            ) : (
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
            )}
            <div className="appraisal-box">
              <p className="appraisal-head">
                <ChangeBadge change={t.change} /> → emotion {t.emotion}: {t.appraisal.feeling}
              </p>
              <AppraisalList appraisal={t.appraisal} />
            </div>
            <DialogueLine as="div" role="user" who="user" text={t.line} />
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Dialogues shown at once; a step of a big batch is cut, with a note. */
const SHOW_AT_MOST = 40;

export function TranscriptsPanel() {
  const dialogues = useTraining((s) => s.dialogues);
  const chosen = useUi((s) => s.transcriptStep);
  const showStep = useUi((s) => s.showStep);
  const [outcome, setOutcome] = useState<Outcome | 'all'>('all');
  const [intention, setIntention] = useState<string>('all');
  const [inspect, setInspect] = useState(false);
  const algo = useTraining((s) => s.config?.algo ?? 'grpo');
  const latest = dialogues.at(-1);
  const current = (chosen !== null ? dialogues.find((g) => g.step === chosen) : undefined) ?? latest;
  const items = useMemo(
    () =>
      (current?.items ?? []).filter(
        (d) => (outcome === 'all' || outcomeOf(d) === outcome) && (intention === 'all' || d.intention === intention),
      ),
    [current, outcome, intention],
  );
  // One colour scale for the whole step: the largest |weight| in it.
  const scale = useMemo(
    () =>
      Math.max(
        0,
        ...(current?.items ?? []).flatMap((d) =>
          d.turns.flatMap((t) => (t.credit ? t.credit.values.map(Math.abs) : [])),
        ),
      ),
    [current],
  );
  const hasCredit = scale > 0 || (current?.items ?? []).some((d) => d.turns.some((t) => t.credit));

  return (
    <section className="panel" aria-label="Transcripts" id="transcripts">
      <div className="panel-head">
        <h2>Transcripts{current ? ` — step ${current.step}` : ''}</h2>
        <div className="form-row compact">
          <Select
            label="Step"
            value={current && chosen !== null ? String(current.step) : 'latest'}
            onChange={(v) => showStep(v === 'latest' ? null : Number(v))}
            disabled={dialogues.length === 0}
            options={[
              { value: 'latest', label: `latest${latest ? ` (${latest.step})` : ''}` },
              ...countOptions(
                dialogues
                  .slice()
                  .reverse()
                  .map((g) => g.step),
              ),
            ]}
          />
          <Select<Outcome | 'all'>
            label="Outcome"
            value={outcome}
            onChange={setOutcome}
            options={[
              { value: 'all', label: 'all' },
              { value: 'success', label: 'success (emotion 100)' },
              { value: 'failure', label: 'failure (below 10)' },
              { value: 'neither', label: 'neither' },
            ]}
          />
          <Select
            label="Hidden intention"
            value={intention}
            onChange={setIntention}
            options={[
              { value: 'all', label: 'all' },
              ...INTENTION_IDS.map((id) => ({ value: id, label: INTENTIONS[id].summary })),
            ]}
          />
          <label className="inline credit-toggle">
            <input
              type="checkbox"
              checked={inspect}
              disabled={!hasCredit}
              onChange={(e) => setInspect(e.target.checked)}
            />{' '}
            What the update reinforces
          </label>
        </div>
      </div>
      {inspect && hasCredit && (
        <p className="credit-legend" data-testid="credit-legend">
          <span className="credit-token" style={creditStyle(1, 1)}>
            green
          </span>{' '}
          tokens: the step's update makes them likelier;{' '}
          <span className="credit-token" style={creditStyle(-1, 1)}>
            red
          </span>
          : less likely; stronger colour, a larger weight (hover a token for it). The weight is the token's advantage
          {algo === 'ppo' ? ' times its probability ratio after the update, clipped (PPO; the first 4 dialogues)' : ''};
          Σ is the reply's sum, beside the user's change.
        </p>
      )}
      {!current && (
        <p className="muted">
          Each step's dialogues appear here: the policy's replies, how each simulated user took them, and why.
        </p>
      )}
      {current && items.length === 0 && (
        <p className="muted">No dialogue of step {current.step} matches the filters.</p>
      )}
      <div className="dialogues">
        {items.slice(0, SHOW_AT_MOST).map((d, i) => (
          <Dialogue key={`${d.step}-${d.index}`} d={d} open={i === 0} inspect={inspect} scale={scale} />
        ))}
      </div>
      {items.length > SHOW_AT_MOST && (
        <p className="muted">
          The first {SHOW_AT_MOST} of {items.length} shown; filter to see others.
        </p>
      )}
    </section>
  );
}
