/**
 * The guided tour (`tutorial=1` in a link, or "Take the tour"): six steps that point at the real
 * controls and explain, with the run's own numbers where there is a run, what a simulated user is,
 * what its emotion and reasons are, what the reward is, what GRPO and PPO do with it, and what to
 * watch in the charts. It can be left at any step and resumed there (the place is kept).
 */
import { useEffect, type ReactNode } from 'react';
import { useConfig } from '../state/config';
import { useTraining } from '../state/training';
import { useUi } from '../state/ui';
import { checkDraft } from './fields';

interface Step {
  /** The data-tour attribute of the control it points at. */
  target: string;
  title: string;
  body: ReactNode;
}

const num = (x: number | undefined, digits = 2) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));

function useSteps(): Step[] {
  const t = useTraining();
  const draft = useConfig((s) => s.draft);
  const config = t.config ?? checkDraft(draft).config;
  const P = config?.profilesPerStep ?? 4;
  const G = config?.groupSize ?? 4;
  const algo = config?.algo ?? 'grpo';
  const d = t.live?.preview ?? t.dialogues.at(-1)?.items[0];
  const turn = d?.turns.at(-1);
  const row = t.rows.at(-1);
  return [
    {
      target: 'train',
      title: 'The run',
      body: (
        <p>
          Train starts reinforcement learning. Each step the policy, a small language model, talks with {P} simulated
          users, {G} times each: {P * G} dialogues. The status line says what is happening inside the step.
          {t.step > 0 ? ` This run is at step ${t.step} of ${t.steps}.` : ' Press Train (or Space) to begin.'}
        </p>
      ),
    },
    {
      target: 'dialogue',
      title: 'A simulated user',
      body: d ? (
        <p>
          This is {d.who}. Like every simulated user they have a life, a problem and a hidden intention the policy never
          sees: here, “{d.intentionSummary}”. They start at emotion {d.startEmotion} of 100.
        </p>
      ) : (
        <p>
          Each simulated user has a life, a problem and a hidden intention the policy never sees (to be listened to, to
          get advice, to be praised for something specific...). Their dialogues play here once a run starts.
        </p>
      ),
    },
    {
      target: 'dialogue',
      title: 'Emotion and its reasons',
      body: turn ? (
        <p>
          After every reply the user appraises it and their emotion moves by −10 to +10, with the reasons written out.
          The last reply here moved it by {turn.change > 0 ? `+${turn.change}` : turn.change} to {turn.emotion}: “
          {turn.appraisal.feeling}”. At 100 they leave happy; below 10 they give up.
        </p>
      ) : (
        <p>
          After every reply the user appraises it and their emotion moves by −10 to +10, with the reasons written out.
          At 100 they leave happy; below 10 they give up.
        </p>
      ),
    },
    {
      target: 'reward',
      title: 'The reward',
      body: (
        <p>
          The reward is the final emotion divided by 100
          {config?.reward === 'both' || config?.reward === 'turn' ? ', plus each reply’s own change' : ''}: nothing
          else. This chart is its mean over a step’s dialogues
          {row ? `; step ${row.step} scored ${num(row['reward/mean'])}` : ''}. It should climb as the policy learns.
        </p>
      ),
    },
    {
      target: 'train',
      title: algo === 'ppo' ? 'What PPO does with it' : 'What GRPO does with it',
      body:
        algo === 'ppo' ? (
          <p>
            PPO trains a critic that predicts each dialogue’s reward; a reply that did better than predicted gets a
            positive advantage, and the update makes its words likelier (clipped, so one step cannot move the policy
            far). GRPO, the other choice in the settings, compares each dialogue with its {G - 1} siblings instead.
          </p>
        ) : (
          <p>
            GRPO plays each user {G} times and compares the {G} dialogues: one that ended better than its group’s mean
            gets a positive advantage, and the update makes its words likelier; a worse one, less likely. No critic is
            needed. PPO, the other choice in the settings, learns a critic to compare against instead.
          </p>
        ),
    },
    {
      target: 'charts',
      title: 'What to watch',
      body: (
        <p>
          Success and failure rates: how many users leave happy or give up. KL: how far each update moved the policy
          {row ? ` (${num(row['losses/approx_kl'], 4)} at step ${row.step})` : ''}; it should stay small. Clip fraction:
          how often an update hit its limit. Reply length: a policy can learn to say more, or less. The transcripts
          below show what the numbers mean.
        </p>
      ),
    },
  ];
}

export function Tour() {
  const step = useUi((s) => s.tourStep);
  const steps = useSteps();
  const at = step === null ? null : Math.min(step, steps.length - 1);
  const target = at === null ? null : steps[at].target;
  useEffect(() => {
    if (!target) return;
    const el = document.querySelector(`[data-tour="${target}"]`);
    el?.classList.add('tour-target');
    el?.scrollIntoView({ block: 'nearest' });
    return () => el?.classList.remove('tour-target');
  }, [target, at]);
  if (at === null) return null;
  const s = steps[at];
  const ui = useUi.getState();
  const last = at === steps.length - 1;
  return (
    <aside className="tour panel" role="dialog" aria-modal="false" aria-labelledby="tour-h" data-testid="tour">
      <p className="muted small">
        Tour · {at + 1} of {steps.length}
      </p>
      <h2 id="tour-h">{s.title}</h2>
      {s.body}
      <div className="controls">
        <button type="button" onClick={() => ui.setTourStep(at - 1)} disabled={at === 0}>
          Back
        </button>
        {last ? (
          <button type="button" className="primary" onClick={() => ui.finishTour()}>
            Finish
          </button>
        ) : (
          <button type="button" className="primary" onClick={() => ui.setTourStep(at + 1)}>
            Next
          </button>
        )}
        <button type="button" onClick={() => ui.setTourStep(null)}>
          Leave the tour
        </button>
      </div>
    </aside>
  );
}

/** "Take the tour", or "Resume the tour" where one was left. */
export function TourButton() {
  const open = useUi((s) => s.tourStep !== null);
  const leftAt = useUi((s) => s.tourLeftAt);
  if (open) return null;
  return (
    <button
      type="button"
      className="tour-button"
      onClick={() => {
        useUi.getState().setView('lab');
        useUi.getState().setTourStep(leftAt ?? 0);
      }}
    >
      {leftAt !== null && leftAt > 0 ? `Resume the tour (${leftAt + 1})` : 'Take the tour'}
    </button>
  );
}
