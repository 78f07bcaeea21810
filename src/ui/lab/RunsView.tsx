/**
 * Runs kept in this browser: each with its status, steps, last reward and size; open one to see its
 * charts and dialogues, resume one from its last checkpoint, export it (one JSON file, checkpoint
 * included) or its metrics (CSV), delete it; import a run file. Storage used is shown beside the
 * browser's own estimate. Tick two to four runs to compare them: their curves on the same charts,
 * each in its own colour-blind-safe colour and dash, labelled with its run and the settings that
 * differ; one can be pinned as the baseline (drawn first, solid).
 */
import { useEffect, useMemo, useState } from 'react';
import {
  baselineFirst,
  COMPARE_FIGURES,
  COMPARE_MAX,
  compareSeries,
  differenceLine,
  differingSettings,
  RUN_LETTERS,
  settingsLabel,
  type ComparedRun,
} from '../../lab/compare';
import type { RunSummary } from '../../lab/runs';
import { CHART_DASHES, CHART_PALETTE, LineChart } from '../charts/LineChart';
import { isOpen, useTraining } from '../state/training';
import { useRuns } from '../state/runs';
import { useUi } from '../state/ui';

function bytesText(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(1)} GB`;
}

function statusText(r: RunSummary, liveId: string | null, liveOpen: boolean): string {
  const live = r.id === liveId && liveOpen;
  if ((r.status === 'running' || r.status === 'paused') && !live) return 'interrupted';
  if (r.status === 'stopped' && r.note === 'reset') return 'reset';
  return r.status;
}

function RunRow({
  r,
  compared,
  onCompare,
  onProblem,
}: {
  r: RunSummary;
  compared: number;
  onCompare: (on: boolean) => void;
  onProblem: (text: string | null) => void;
}) {
  const liveId = useTraining((s) => s.runId);
  const liveOpen = useTraining((s) => isOpen(s.status));
  const { remove, exportJson, exportCsv, get } = useRuns();
  const setView = useUi((s) => s.setView);
  const [confirm, setConfirm] = useState(false);
  const live = r.id === liveId && liveOpen;
  const reward = r.lastMetrics?.['reward/mean'];
  const canResume =
    r.hasCheckpoint && r.status !== 'done' && (r.checkpointStep === undefined || r.checkpointStep < r.config.steps);
  const resume = async () => {
    const why = await useTraining.getState().resumeSaved(r.id);
    onProblem(why);
    if (why === null) {
      useUi.getState().showStep(null);
      setView('lab');
    }
  };
  const open = async () => {
    const run = await get(r.id);
    if (run) {
      // Its settings go into Configure, so Train (or a share link) starts from what it ran with.
      useTraining.getState().showSaved(run, { loadForm: true });
      useUi.getState().showStep(null);
      setView('lab');
    }
  };
  return (
    <tr data-run-id={r.id}>
      <td className="compare-cell">
        <label>
          <input type="checkbox" checked={compared >= 0} onChange={(e) => onCompare(e.target.checked)} />
          <span className="visually-hidden">Compare {r.name}</span>
          {compared >= 0 && (
            <span className={`compare-letter compare-letter-${compared}`} aria-hidden="true">
              {RUN_LETTERS[compared]}
            </span>
          )}
        </label>
      </td>
      <th scope="row">
        {r.name}
        <div className="muted small">{new Date(r.createdAt).toLocaleString()}</div>
      </th>
      <td>
        <span className={`run-state run-state-${statusText(r, liveId, liveOpen)}`}>
          {statusText(r, liveId, liveOpen)}
        </span>
        {r.note && r.note !== 'reset' && <div className="muted small clip">{r.note}</div>}
      </td>
      <td>
        {r.metricRows} / {r.config.steps}
      </td>
      <td>{reward === undefined ? '–' : reward.toFixed(3)}</td>
      <td>{r.benchmark?.after?.score === undefined ? '–' : r.benchmark.after.score.toFixed(1)}</td>
      <td>
        {bytesText(r.bytes)}
        {r.hasCheckpoint && <div className="muted small">with checkpoint</div>}
      </td>
      <td className="row-actions">
        <div>
          <button
            type="button"
            onClick={open}
            disabled={liveOpen}
            title={liveOpen ? 'Pause and reset the open run first' : undefined}
          >
            Open
          </button>
          {canResume && (
            <button
              type="button"
              onClick={() => void resume()}
              disabled={liveOpen}
              title={
                liveOpen
                  ? 'Pause and reset the open run first'
                  : `Go on training from the checkpoint${r.checkpointStep !== undefined ? ` of step ${r.checkpointStep}` : ''}`
              }
            >
              Resume
            </button>
          )}
          <button type="button" onClick={() => void exportJson(r.id)}>
            Export
          </button>
          <button type="button" onClick={() => void exportCsv(r.id)}>
            CSV
          </button>
          {confirm ? (
            <>
              <button type="button" className="danger" onClick={() => void remove(r.id)}>
                Delete it
              </button>
              <button type="button" onClick={() => setConfirm(false)}>
                Keep
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirm(true)} disabled={live}>
              Delete
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}

/** A swatch of a compared run's line: its colour and its dash, as the charts draw it. */
function LineKey({ index }: { index: number }) {
  return (
    <svg width="36" height="10" aria-hidden="true" className="compare-key">
      <line
        x1="1"
        x2="35"
        y1="5"
        y2="5"
        stroke={CHART_PALETTE[index]}
        strokeWidth="3"
        strokeDasharray={CHART_DASHES[index].length ? CHART_DASHES[index].join(' ') : undefined}
      />
    </svg>
  );
}

const DASH_NAMES = ['solid', 'dashed', 'dotted', 'dash-dot'];

function ComparePanel({ ids, onBaseline }: { ids: readonly string[]; onBaseline: (id: string) => void }) {
  const get = useRuns((s) => s.get);
  const smoothing = useUi((s) => s.smoothing);
  const [runs, setRuns] = useState<ComparedRun[] | null>(null);
  const key = ids.join('|');
  useEffect(() => {
    let live = true;
    void Promise.all(ids.map((id) => get(id))).then((got) => {
      if (live)
        setRuns(
          got.flatMap((r) =>
            r ? [{ name: r.name, metrics: r.metrics, benchmark: r.benchmark, config: r.config }] : [],
          ),
        );
    });
    return () => {
      live = false;
    };
  }, [key, get]);
  const configs = useMemo(() => (runs ?? []).flatMap((r) => (r.config ? [r.config] : [])), [runs]);
  const differ = useMemo(() => (configs.length === runs?.length ? differingSettings(configs) : []), [configs, runs]);
  const figures = useMemo(
    () => (runs ? COMPARE_FIGURES.map((f) => ({ f, series: compareSeries(runs, f.key) })) : []),
    [runs],
  );
  if (!runs) return null;
  return (
    <section className="compare" aria-labelledby="compare-h" data-testid="compare">
      <h3 id="compare-h">Compare {runs.length} runs</h3>
      {configs.length === runs.length && (
        <p className="compare-diff" data-testid="compare-diff">
          Settings that differ: {differenceLine(configs)}
        </p>
      )}
      <ul className="compare-legend">
        {runs.map((r, i) => (
          <li key={i}>
            <LineKey index={i} /> <strong>{RUN_LETTERS[i]}</strong> ({DASH_NAMES[i]}): {r.name}
            {r.config && differ.length > 0 && <span className="muted"> · {settingsLabel(r.config, differ)}</span>}
            {i === 0 && <span className="baseline-mark"> baseline</span>}
          </li>
        ))}
      </ul>
      <div className="form-row">
        <label>
          Baseline
          <select value={ids[0]} onChange={(e) => onBaseline(e.target.value)}>
            {runs.map((r, i) => (
              <option key={ids[i]} value={ids[i]}>
                {RUN_LETTERS[i]}: {r.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="chart-grid">
        {figures.map(({ f, series }) => (
          <div className="chart-cell" key={f.key}>
            <LineChart
              title={f.title}
              series={series}
              smoothing={f.key === 'benchmark' ? 0 : smoothing}
              height={170}
              {...(f.yMin !== undefined ? { yMin: f.yMin } : {})}
            />
            <p className="chart-help">{f.help}</p>
            {series.some((s) => s.points.length === 0) && (
              <p className="chart-help">
                {series
                  .filter((s) => s.points.length === 0)
                  .map((s) => s.label.split(':')[0])
                  .join(' and ')}{' '}
                {series.filter((s) => s.points.length === 0).length === 1 ? 'has' : 'have'} no points here yet.
              </p>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}

export function RunsView() {
  const { runs, loaded, bytes, estimate, error, importMessage, refresh, importText } = useRuns();
  const [compare, setCompare] = useState<string[]>([]);
  const [baselineId, setBaselineId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  // Ticked runs that were deleted meanwhile drop out.
  const alive = compare.filter((id) => runs.some((r) => r.id === id));
  // The pinned baseline first (letter A, solid), the others in the order they were ticked.
  const ticked = baselineFirst(alive, baselineId ? alive.indexOf(baselineId) : 0);
  const tick = (id: string, on: boolean) =>
    setCompare((c) => {
      const rest = c.filter((x) => x !== id && runs.some((r) => r.id === x));
      // COMPARE_MAX at most: one more tick replaces the oldest.
      return on ? [...rest, id].slice(-COMPARE_MAX) : rest;
    });

  return (
    <section className="panel" aria-labelledby="runs-h">
      <h2 id="runs-h">Runs in this browser</h2>
      <p className="muted">
        Every run is saved here as it trains (settings, metrics, the latest dialogues, checkpoints), so a reload loses
        nothing. Nothing leaves this browser unless you export it.
      </p>
      {error && (
        <p className="notice notice-bad" role="alert">
          {error}
        </p>
      )}
      <p className="storage-line" data-testid="storage-used">
        {runs.length} {runs.length === 1 ? 'run' : 'runs'}, {bytesText(bytes)}
        {estimate &&
          ` · this site uses ${bytesText(estimate.usage)} of the ${bytesText(estimate.quota)} the browser allows`}
      </p>
      {loaded && runs.length === 0 && <p className="muted">No runs yet: train one in the Lab, or import a run file.</p>}
      {problem && (
        <p className="notice notice-bad" role="alert">
          {problem}
        </p>
      )}
      {runs.length > 1 && <p className="muted small">Tick two to {COMPARE_MAX} runs to compare their curves.</p>}
      {runs.length > 0 && (
        <div className="table-wrap">
          <table className="runs-table runs-list">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Compare</span>
                </th>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col">Steps</th>
                <th scope="col">Last reward</th>
                <th scope="col">Benchmark</th>
                <th scope="col">Size</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <RunRow
                  key={r.id}
                  r={r}
                  compared={ticked.indexOf(r.id)}
                  onCompare={(on) => tick(r.id, on)}
                  onProblem={setProblem}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {ticked.length >= 2 && <ComparePanel ids={ticked} onBaseline={setBaselineId} />}
      <div className="form-row">
        <label>
          Import a run file
          <input
            type="file"
            accept=".json,application/json"
            onChange={async (e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) await importText(await file.text());
            }}
          />
        </label>
      </div>
      {importMessage && (
        <p
          className={importMessage.ok ? 'notice notice-ok' : 'notice notice-bad pre-line'}
          role={importMessage.ok ? undefined : 'alert'}
        >
          {importMessage.text}
        </p>
      )}
    </section>
  );
}
