/**
 * Evaluate: the benchmark played on the starting policy (before step 1) and on the trained one
 * (after the last step), next to the reference policies on the same benchmark users, then the
 * score broken down by the users' hidden intention and personality type. Text only.
 */
import { useMemo } from 'react';
import type { Breakdown, Figures } from '../../lab/breakdown';
import { referenceRows } from '../../lab/reference';
import { INTENTIONS, type IntentionId } from '../../persona/profile';
import { BENCHMARK_COUNT } from '../../persona/sets';
import { useTraining } from '../state/training';

const score = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(1));
const share = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : `${Math.round(x * 100)}%`);

/** A summary posted by the worker (score, success, failure, dialogues, ...) as figures. */
const fromSummary = (s: Record<string, number> | null): Figures | null =>
  s ? { score: s.score, success: s.success, failure: s.failure, n: s.dialogues ?? NaN } : null;

type Row = { key: string; label: string; note: string; figures: Figures | null };

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
    },
    {
      key: 'after',
      label: 'after',
      note: 'the trained policy',
      figures: breakdownAfter?.overall ?? fromSummary(benchmarkAfter),
    },
    ...refs.map((r) => ({ key: r.policy, label: r.policy, note: 'reference', figures: r.breakdown.overall })),
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
        the same users. Score: mean final emotion (0 to 100); success: the emotion reached 100; failure: it fell below
        10.
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
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-row={r.key} className={r.note === 'reference' ? 'reference' : undefined}>
                <th scope="row">
                  {r.label} <span className="muted">({r.note})</span>
                </th>
                <td>{r.figures ? score(r.figures.score) : '—'}</td>
                <td>{r.figures ? share(r.figures.success) : '—'}</td>
                <td>{r.figures ? share(r.figures.failure) : '—'}</td>
                <td>{r.figures && Number.isFinite(r.figures.n) ? r.figures.n : '—'}</td>
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
    </section>
  );
}
