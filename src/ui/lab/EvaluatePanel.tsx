/**
 * Evaluate: the benchmark played on the starting policy (before step 1) and on the trained one
 * (after the last step), next to the reference policies on the same benchmark users, each with the
 * fluency of its replies (src/rl/fluency.ts), then the score broken down by the users' hidden
 * intention and personality type, then one user's dialogues before and after side by side
 * (BenchmarkComparison.tsx). Text only.
 */
import { useMemo } from 'react';
import type { Breakdown, Figures } from '../../lab/breakdown';
import { referenceRows, type FluencyFigures } from '../../lab/reference';
import { REFERENCE_SURPRISAL_CORPUS } from '../../lab/referenceFluency';
import { INTENTIONS, type IntentionId } from '../../persona/profile';
import { BENCHMARK_COUNT } from '../../persona/sets';
import { BENCHMARK_REDRAWS } from '../../rl/config';
import { useTraining } from '../state/training';
import { BenchmarkComparison } from './BenchmarkComparison';

const score = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(1));
const share = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : `${Math.round(x * 100)}%`);
const fixed = (k: number) => (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(k));
/** Fluency is read near 100% and 0%: one decimal. */
const fine = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : `${(x * 100).toFixed(1)}%`);

/** A summary posted by the worker (score, success, failure, dialogues, ...) as figures. */
const fromSummary = (s: Record<string, number> | null): Figures | null =>
  s ? { score: s.score, success: s.success, failure: s.failure, n: s.dialogues ?? NaN } : null;

/** A worker summary's fluency figures (runs saved before the lab measured them have none: dashes). */
const fluencyOf = (s: Record<string, number> | null): Partial<FluencyFigures> | null =>
  s
    ? {
        realWords: s.realWords,
        hackingShare: s.hackingShare,
        surprisal: s.surprisal,
        distinct2: s.distinct2,
        meanReplyWords: s.meanReplyWords,
      }
    : null;

type Row = {
  key: string;
  label: string;
  note: string;
  figures: Figures | null;
  fluency: Partial<FluencyFigures> | null;
};

/** The fluency columns: header, what it means (the header's tooltip), how a figure prints. */
const FLUENCY_COLUMNS: [key: keyof FluencyFigures, header: string, help: string, show: (x?: number) => string][] = [
  [
    'realWords',
    'Real words',
    "Share of replies whose every word is a real word to the user: English, or a word of the user's story or lines (the users' own non-word check).",
    fine,
  ],
  [
    'hackingShare',
    'Flagged',
    'Share of replies the reward-hacking check flags: spam, non-language, or talking to the scorer.',
    fine,
  ],
  [
    'surprisal',
    'Surprisal',
    "Mean bits per word under a word trigram model of the corpus's replies (lower reads more like the corpus; its own held-out replies score the corpus row).",
    fixed(2),
  ],
  [
    'distinct2',
    'Distinct-2',
    'Distinct word pairs over all word pairs of all replies (lower: more repetition).',
    fixed(3),
  ],
  ['meanReplyWords', 'Words/reply', 'Mean words per reply.', fixed(1)],
];

function groupRows(
  kind: 'byIntention' | 'byType',
  before: Breakdown | null,
  after: Breakdown | null,
  oracle: Breakdown | undefined,
) {
  const keys = [...new Set([...Object.keys(before?.[kind] ?? {}), ...Object.keys(after?.[kind] ?? {})])].sort();
  return keys.map((k) => ({
    key: k,
    n: before?.[kind][k]?.n ?? after?.[kind][k]?.n ?? 0,
    before: before?.[kind][k],
    after: after?.[kind][k],
    oracle: oracle?.[kind][k],
  }));
}

export function EvaluatePanel() {
  const config = useTraining((s) => s.config);
  const benchmarkBefore = useTraining((s) => s.benchmarkBefore);
  const benchmarkAfter = useTraining((s) => s.benchmarkAfter);
  const breakdownBefore = useTraining((s) => s.breakdownBefore);
  const breakdownAfter = useTraining((s) => s.breakdownAfter);
  const n = config ? (config.evalProfiles === 0 ? BENCHMARK_COUNT : config.evalProfiles) : BENCHMARK_COUNT;
  const refs = useMemo(() => referenceRows(n), [n]);
  const oracle = refs.find((r) => r.policy === 'oracle')?.breakdown;
  const hasRun = benchmarkBefore !== null || benchmarkAfter !== null;

  const rows: Row[] = [
    {
      key: 'before',
      label: 'before',
      note: 'the starting policy',
      figures: breakdownBefore?.overall ?? fromSummary(benchmarkBefore),
      fluency: fluencyOf(benchmarkBefore),
    },
    {
      key: 'after',
      label: 'after',
      note: 'the trained policy',
      figures: breakdownAfter?.overall ?? fromSummary(benchmarkAfter),
      fluency: fluencyOf(benchmarkAfter),
    },
    ...refs.map((r) => ({
      key: r.policy,
      label: r.policy,
      note: 'reference',
      figures: r.breakdown.overall,
      fluency: r.fluency,
    })),
    {
      key: 'corpus',
      label: 'corpus',
      note: 'its held-out replies',
      figures: null,
      fluency: { surprisal: REFERENCE_SURPRISAL_CORPUS },
    },
  ];
  const groups: [title: string, kind: 'byIntention' | 'byType', name: (k: string) => string][] = [
    ['Hidden intention', 'byIntention', (k) => (k in INTENTIONS ? `${k}: ${INTENTIONS[k as IntentionId].summary}` : k)],
    ['Personality type', 'byType', (k) => k],
  ];

  return (
    <section className="panel evaluate-panel" aria-label="Evaluate">
      <h2>Evaluate</h2>
      <p className="muted">
        The first {n} of the {BENCHMARK_COUNT} held-out benchmark users (moderate difficulty), played by the starting
        policy before step 1 and by the trained policy after the last step, next to the scripted reference policies on
        the same users. The policies sample at temperature 0.7, and a reply that repeats an earlier one is drawn again
        up to {BENCHMARK_REDRAWS} times. Score: mean final emotion (0 to 100); success: the emotion reached 100;
        failure: it fell below 10. Then how the replies read: real words, the share whose every word the user can read;
        flagged, the share the reward-hacking check flags; surprisal, bits per word under a fixed model of the
        warm-start corpus's replies (the corpus row: its own held-out replies); distinct-2, the share of distinct word
        pairs; words per reply. Hover a column's name for more.
        {!hasRun && ' Train a run to fill in before and after.'}
      </p>
      <div className="table-wrap">
        <table className="runs-table evaluate-table" aria-label="Benchmark scores">
          <thead>
            <tr>
              <th scope="col">Policy</th>
              <th scope="col">Score</th>
              <th scope="col">Success</th>
              <th scope="col">Failure</th>
              <th scope="col">Users</th>
              {FLUENCY_COLUMNS.map(([key, header, help]) => (
                <th scope="col" key={key} title={help}>
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.key}
                data-row={r.key}
                className={r.note === 'reference' || r.key === 'corpus' ? 'reference' : undefined}
              >
                <th scope="row">
                  {r.label} <span className="muted">({r.note})</span>
                </th>
                <td>{r.figures ? score(r.figures.score) : '—'}</td>
                <td>{r.figures ? share(r.figures.success) : '—'}</td>
                <td>{r.figures ? share(r.figures.failure) : '—'}</td>
                <td>{r.figures && Number.isFinite(r.figures.n) ? r.figures.n : '—'}</td>
                {FLUENCY_COLUMNS.map(([key, , , show]) => (
                  <td key={key} data-col={key}>
                    {show(r.fluency?.[key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {(breakdownBefore || breakdownAfter) && (
        <div className="table-wrap" style={{ marginTop: '1.25rem' }}>
          <table className="runs-table evaluate-table" aria-label="Benchmark score by intention and personality type">
            <thead>
              <tr>
                <th scope="col">Group of users</th>
                <th scope="col">n</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
                <th scope="col">Change</th>
                <th scope="col">Oracle (reference)</th>
              </tr>
            </thead>
            {groups.map(([title, kind, name]) => (
              <tbody key={kind}>
                <tr>
                  <th scope="colgroup" colSpan={6}>
                    {title}
                  </th>
                </tr>
                {groupRows(kind, breakdownBefore, breakdownAfter, oracle).map((g) => (
                  <tr key={g.key} data-group={g.key}>
                    <th scope="row">{name(g.key)}</th>
                    <td>{g.n}</td>
                    <td>{score(g.before?.score)}</td>
                    <td>{score(g.after?.score)}</td>
                    <td>
                      {g.before && g.after
                        ? `${g.after.score >= g.before.score ? '+' : ''}${(g.after.score - g.before.score).toFixed(1)}`
                        : '—'}
                    </td>
                    <td>{score(g.oracle?.score)}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      )}
      <BenchmarkComparison />
    </section>
  );
}
