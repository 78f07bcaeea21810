/**
 * The live charts of a run, one LineChart per figure (the trainer's `namespace/name` keys), with
 * one smoothing slider and one log-scale switch for all. A click on the reward chart opens that
 * step's dialogues in Transcripts.
 */
import { useMemo } from 'react';
import { LineChart, type LineSeries } from '../charts/LineChart';
import { useTraining, type MetricsRow } from '../state/training';
import { useUi } from '../state/ui';
import type { RunConfig } from '../../rl/config';

type ChartSpec = {
  title: string;
  help: string;
  keys: [key: string, label: string][];
  when?: (c: RunConfig | null, rows: readonly MetricsRow[]) => boolean;
};

const has = (key: string) => (_c: RunConfig | null, rows: readonly MetricsRow[]) => rows.some((r) => key in r);

const CHARTS: ChartSpec[] = [
  {
    title: 'Mean reward',
    help: "Final emotion / 100, averaged over the step's dialogues: what RL maximises. Click a point to read that step's dialogues.",
    keys: [['reward/mean', 'mean reward']],
  },
  {
    title: 'Success and failure rates',
    help: 'Share of dialogues ending at emotion 100 (success) or below 10 (failure).',
    keys: [
      ['emotion/success', 'success'],
      ['emotion/failure', 'failure'],
    ],
  },
  {
    title: 'Mean final emotion',
    help: "The simulated users' emotion (0 to 100) when the dialogue ended; training users start at 30.",
    keys: [['emotion/final', 'final emotion']],
  },
  {
    title: 'Turns per dialogue',
    help: 'Agent replies per dialogue: a user leaves early when very happy or very upset.',
    keys: [['dialogue/turns', 'turns']],
  },
  {
    title: 'Reply length',
    help: 'Tokens per agent reply (the think block included).',
    keys: [['dialogue/reply_tokens', 'tokens per reply']],
  },
  {
    title: 'Losses',
    help: 'The clipped policy-gradient loss (and, for PPO, the value loss) of the update.',
    keys: [
      ['losses/policy_loss', 'policy loss'],
      ['losses/value_loss', 'value loss'],
    ],
  },
  {
    title: 'Explained variance',
    help: "PPO: how much of the returns' spread the critic predicted before the step (1 − Var(R − V) / Var(R)). 0 is the mean, below 0 worse than the mean; the critic warm-up steps raise it before the policy trusts it.",
    keys: [['value/explained_variance', 'explained variance']],
    when: (c) => !!c && c.algo === 'ppo',
  },
  {
    title: 'Learning rate',
    help: 'The policy learning rate of each step: the warm-up ramp and the decay, when configured.',
    keys: [['train/lr', 'learning rate']],
    when: (c) => !!c && (c.lrWarmupSteps > 0 || c.lrDecay !== 'constant'),
  },
  {
    title: 'Entropy',
    help: 'Mean entropy of the policy over agent tokens: how spread its choices are.',
    keys: [['losses/entropy', 'entropy']],
  },
  {
    title: 'KL',
    help: 'approx KL: how far one update moved the policy (k3). KL to the start: distance from the warm start, when the KL penalty is on.',
    keys: [
      ['losses/approx_kl', 'approx KL'],
      ['losses/kl_ref', 'KL to the start'],
    ],
  },
  {
    title: 'Replay loss',
    help: "Next-token loss (nats per agent token) on the warm start's own training text, the replay term that keeps the language while RL changes the strategy. Flat is good; a rising line means RL is costing the language.",
    keys: [['losses/ptx_loss', 'replay loss']],
    when: (c) => !!c && c.ptxCoef > 0,
  },
  {
    title: 'Clip fraction',
    help: 'Share of tokens whose probability ratio hit the clip range.',
    keys: [['losses/clipfrac', 'clip fraction']],
  },
  {
    title: 'Gradient norm',
    help: 'Global gradient norm before clipping.',
    keys: [['train/grad_norm', 'gradient norm']],
  },
  {
    title: 'Throughput',
    help: 'Tokens per second generated in rollouts, and processed in the update.',
    keys: [
      ['speed/rollout_tokens_per_s', 'generated tokens/s'],
      ['speed/train_tokens_per_s', 'trained tokens/s'],
    ],
  },
  {
    title: 'Benchmark score',
    help: 'Mean final emotion of held-out benchmark users, every "Benchmark every" steps.',
    keys: [['eval/score', 'benchmark score']],
    when: has('eval/score'),
  },
];

function seriesOf(rows: readonly MetricsRow[], spec: ChartSpec, config: RunConfig | null): LineSeries[] {
  return spec.keys
    .filter(
      ([key]) =>
        !(key === 'losses/value_loss' && config?.algo !== 'ppo') &&
        !(key === 'losses/kl_ref' && !(config && config.klCoef > 0)),
    )
    .map(([key, label]) => ({ label, points: rows.filter((r) => key in r).map((r) => [r.step, r[key]] as const) }));
}

export function MetricsPanel() {
  const rows = useTraining((s) => s.rows);
  const config = useTraining((s) => s.config);
  const smoothing = useUi((s) => s.smoothing);
  const logScale = useUi((s) => s.logScale);
  const setSmoothing = useUi((s) => s.setSmoothing);
  const setLogScale = useUi((s) => s.setLogScale);
  const showStep = useUi((s) => s.showStep);
  const charts = useMemo(
    () =>
      CHARTS.filter((c) => !c.when || c.when(config, rows)).map((c) => ({
        spec: c,
        series: seriesOf(rows, c, config),
      })),
    [rows, config],
  );

  const openStep = (step: number) => {
    showStep(step);
    document.getElementById('transcripts')?.scrollIntoView({ block: 'start' });
  };

  return (
    <section className="panel" aria-labelledby="charts-h">
      <div className="panel-head">
        <h2 id="charts-h">Charts</h2>
        <div className="chart-controls">
          <label>
            Smoothing <output>{smoothing.toFixed(2)}</output>
            <input
              type="range"
              min={0}
              max={0.99}
              step={0.01}
              value={smoothing}
              onChange={(e) => setSmoothing(Number(e.target.value))}
            />
          </label>
          <label className="inline">
            <input type="checkbox" checked={logScale} onChange={(e) => setLogScale(e.target.checked)} /> Log scale
          </label>
        </div>
      </div>
      {rows.length === 0 && (
        <p className="muted">
          The charts appear when the first step finishes: reward, success and failure, final emotion, dialogue length,
          losses, entropy, KL, clip fraction, gradient norm and throughput.
        </p>
      )}
      <div className="chart-grid" hidden={rows.length === 0}>
        {charts.map(({ spec, series }) => (
          <div className="chart-cell" key={spec.title}>
            <LineChart
              title={spec.title}
              series={series}
              smoothing={smoothing}
              logScale={logScale}
              height={170}
              onPointClick={spec.title === 'Mean reward' ? openStep : undefined}
            />
            <p className="chart-help">{spec.help}</p>
          </div>
        ))}
      </div>
    </section>
  );
}
