/**
 * The live charts of a run, one LineChart per figure (the trainer's `namespace/name` keys), with
 * one smoothing slider and one log-scale switch for all. The mean reward has a place of its own
 * beside the dialogue being played (RewardChart); a click on it opens that step's dialogues in
 * Transcripts. A teacher link can hide any chart (`hide=charts:<id>`, or all with `hide=charts`).
 */
import { useMemo } from 'react';
import { LineChart, type LineSeries } from '../charts/LineChart';
import { useTraining, type MetricsRow } from '../state/training';
import { useUi } from '../state/ui';
import type { RunConfig } from '../../rl/config';
import { isHidden, type CHART_IDS } from '../../lab/teacher';

type ChartSpec = {
  /** Its name in a teacher link (`hide=charts:<id>`). */
  id: (typeof CHART_IDS)[number];
  title: string;
  /** Rates and shares: the axis stays at 0 or above. */
  yMin?: number;
  help: string;
  keys: [key: string, label: string][];
  when?: (c: RunConfig | null, rows: readonly MetricsRow[]) => boolean;
};

const has = (key: string) => (_c: RunConfig | null, rows: readonly MetricsRow[]) => rows.some((r) => key in r);

const CHARTS: ChartSpec[] = [
  {
    id: 'reward',
    title: 'Mean reward',
    help: "Final emotion / 100, averaged over the step's dialogues: what RL maximises. Click a point to read that step's dialogues.",
    keys: [['reward/mean', 'mean reward']],
  },
  {
    id: 'rates',
    title: 'Success and failure rates',
    yMin: 0,
    help: 'Share of dialogues ending at emotion 100 (success) or below 10 (failure).',
    keys: [
      ['emotion/success', 'success'],
      ['emotion/failure', 'failure'],
    ],
  },
  {
    id: 'emotion',
    title: 'Mean final emotion',
    help: "The simulated users' emotion (0 to 100) when the dialogue ended; training users start at 30.",
    keys: [['emotion/final', 'final emotion']],
  },
  {
    id: 'turns',
    title: 'Turns per dialogue',
    help: 'Agent replies per dialogue: a user leaves early when very happy or very upset.',
    keys: [['dialogue/turns', 'turns']],
  },
  {
    id: 'length',
    title: 'Reply length',
    help: 'Tokens per agent reply (the think block included).',
    keys: [['dialogue/reply_tokens', 'tokens per reply']],
  },
  {
    id: 'losses',
    title: 'Losses',
    help: 'The clipped policy-gradient loss (and, for PPO, the value loss) of the update.',
    keys: [
      ['losses/policy_loss', 'policy loss'],
      ['losses/value_loss', 'value loss'],
    ],
  },
  {
    id: 'variance',
    title: 'Explained variance',
    help: "PPO: how much of the returns' spread the critic predicted before the step (1 − Var(R − V) / Var(R)). 0 is the mean, below 0 worse than the mean; the critic warm-up steps raise it before the policy trusts it.",
    keys: [['value/explained_variance', 'explained variance']],
    when: (c) => !!c && c.algo === 'ppo',
  },
  {
    id: 'lr',
    title: 'Learning rate',
    help: 'The policy learning rate of each step: the warm-up ramp and the decay, when configured.',
    keys: [['train/lr', 'learning rate']],
    when: (c) => !!c && (c.lrWarmupSteps > 0 || c.lrDecay !== 'constant'),
  },
  {
    id: 'entropy',
    title: 'Entropy',
    help: 'Mean entropy of the policy over agent tokens: how spread its choices are.',
    keys: [['losses/entropy', 'entropy']],
  },
  {
    id: 'kl',
    title: 'KL',
    help: 'approx KL: how far one update moved the policy (k3). KL to the start: distance from the warm start, when the KL penalty is on.',
    keys: [
      ['losses/approx_kl', 'approx KL'],
      ['losses/kl_ref', 'KL to the start'],
    ],
  },
  {
    id: 'replay',
    title: 'Replay loss',
    help: "Next-token loss (nats per agent token) on the warm start's own training text, the replay term that keeps the language while RL changes the strategy. Flat is good; a rising line means RL is costing the language.",
    keys: [['losses/ptx_loss', 'replay loss']],
    when: (c) => !!c && c.ptxCoef > 0,
  },
  {
    id: 'imitate',
    title: 'Self-imitation',
    help: "Next-token loss (nats per reply token) on the run's own replies that the users rewarded with +10, each under the lines it answered: low when the policy would write them again unprompted.",
    keys: [['losses/imitate_loss', 'self-imitation loss']],
    when: (c) => !!c && c.imitateCoef > 0,
  },
  {
    id: 'clipfrac',
    title: 'Clip fraction',
    yMin: 0,
    help: 'Share of tokens whose probability ratio hit the clip range.',
    keys: [['losses/clipfrac', 'clip fraction']],
  },
  {
    id: 'gradnorm',
    title: 'Gradient norm',
    help: 'Global gradient norm before clipping.',
    keys: [['train/grad_norm', 'gradient norm']],
  },
  {
    id: 'throughput',
    title: 'Throughput',
    help: 'Tokens per second generated in rollouts, and processed in the update.',
    keys: [
      ['speed/rollout_tokens_per_s', 'generated tokens/s'],
      ['speed/train_tokens_per_s', 'trained tokens/s'],
    ],
  },
  {
    id: 'benchmark',
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

/** Open a step's dialogues in Transcripts (a click on the reward chart). */
function openStep(step: number): void {
  useUi.getState().showStep(step);
  document.getElementById('transcripts')?.scrollIntoView({ block: 'start' });
}

/** What the reward chart's line is to the run's credit: the final emotion is RL's reward, or where each reply's credited change adds up to. */
function rewardHelp(config: RunConfig | null, help: string): string {
  if (config?.reward === 'turn')
    return "Final emotion / 100, averaged over the step's dialogues. RL credits each reply with its own emotion change (Reward: turn); the final emotion is where those changes add up to. Click a point to read that step's dialogues.";
  if (config?.reward === 'both')
    return "Final emotion / 100, averaged over the step's dialogues: what RL maximises, with each reply's own emotion change credited besides (Reward: both). Click a point to read that step's dialogues.";
  return help;
}

/** The mean reward, the figure RL maximises: beside the dialogue being played, on the first screen. */
export function RewardChart() {
  const rows = useTraining((s) => s.rows);
  const config = useTraining((s) => s.config);
  const smoothing = useUi((s) => s.smoothing);
  const logScale = useUi((s) => s.logScale);
  const hidden = useUi((s) => isHidden(s.flags, 'charts:reward'));
  const spec = CHARTS[0];
  const series = useMemo(() => seriesOf(rows, spec, config), [rows, spec, config]);
  if (hidden) return null;
  return (
    <section className="panel reward-panel" aria-label="Reward" data-tour="reward">
      <LineChart
        title={spec.title}
        series={series}
        smoothing={smoothing}
        logScale={logScale}
        height={200}
        onPointClick={openStep}
      />
      <p className="chart-help">
        {rows.length === 0
          ? 'Each step adds a point: the mean reward of its dialogues (final emotion / 100). It should climb as the policy learns.'
          : rewardHelp(config, spec.help)}
      </p>
    </section>
  );
}

export function MetricsPanel() {
  const rows = useTraining((s) => s.rows);
  const config = useTraining((s) => s.config);
  const smoothing = useUi((s) => s.smoothing);
  const logScale = useUi((s) => s.logScale);
  const setSmoothing = useUi((s) => s.setSmoothing);
  const setLogScale = useUi((s) => s.setLogScale);
  const flags = useUi((s) => s.flags);
  const charts = useMemo(
    () =>
      CHARTS.slice(1)
        .filter((c) => (!c.when || c.when(config, rows)) && !isHidden(flags, `charts:${c.id}`))
        .map((c) => ({
          spec: c,
          series: seriesOf(rows, c, config),
        })),
    [rows, config, flags],
  );
  if (charts.length === 0) return null;

  return (
    <section className="panel" aria-labelledby="charts-h" data-tour="charts">
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
          The charts appear when the first step finishes: success and failure, final emotion, dialogue length, losses,
          entropy, KL, clip fraction, gradient norm and throughput.
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
              {...(spec.yMin !== undefined ? { yMin: spec.yMin } : {})}
            />
            <p className="chart-help">{spec.help}</p>
          </div>
        ))}
      </div>
    </section>
  );
}
