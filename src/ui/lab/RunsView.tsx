/**
 * Runs kept in this browser: each with its status, steps, last reward and size; open one to see its
 * charts and dialogues, export it (one JSON file, checkpoint included) or its metrics (CSV), delete
 * it; import a run file. Storage used is shown beside the browser's own estimate.
 */
import { useEffect, useState } from 'react';
import type { RunSummary } from '../../lab/runs';
import { isOpen, useTraining } from '../state/training';
import { useRuns } from '../state/runs';
import { useUi } from '../state/ui';

export function bytesText(n: number): string {
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

function RunRow({ r }: { r: RunSummary }) {
  const liveId = useTraining((s) => s.runId);
  const liveOpen = useTraining((s) => isOpen(s.status));
  const { remove, exportJson, exportCsv, get } = useRuns();
  const setView = useUi((s) => s.setView);
  const [confirm, setConfirm] = useState(false);
  const live = r.id === liveId && liveOpen;
  const reward = r.lastMetrics?.['reward/mean'];
  const open = async () => {
    const run = await get(r.id);
    if (run) {
      useTraining.getState().showSaved(run);
      useUi.getState().showStep(null);
      setView('lab');
    }
  };
  return (
    <tr data-run-id={r.id}>
      <th scope="row">
        {r.name}
        <div className="muted small">{new Date(r.createdAt).toLocaleString()}</div>
      </th>
      <td>
        <span className={`run-state run-state-${statusText(r, liveId, liveOpen)}`}>{statusText(r, liveId, liveOpen)}</span>
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
        <button type="button" onClick={open} disabled={liveOpen} title={liveOpen ? 'Pause and reset the open run first' : undefined}>
          Open
        </button>
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

export function RunsView() {
  const { runs, loaded, bytes, estimate, error, importMessage, refresh, importText } = useRuns();
  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <section className="panel" aria-labelledby="runs-h">
      <h2 id="runs-h">Runs in this browser</h2>
      <p className="muted">
        Every run is saved here as it trains (settings, metrics, the latest dialogues, checkpoints), so a reload loses nothing. Nothing
        leaves this browser unless you export it.
      </p>
      {error && (
        <p className="notice notice-bad" role="alert">
          {error}
        </p>
      )}
      <p className="storage-line" data-testid="storage-used">
        {runs.length} {runs.length === 1 ? 'run' : 'runs'}, {bytesText(bytes)}
        {estimate && ` · this site uses ${bytesText(estimate.usage)} of the ${bytesText(estimate.quota)} the browser allows`}
      </p>
      {loaded && runs.length === 0 && <p className="muted">No runs yet: train one in the Lab, or import a run file.</p>}
      {runs.length > 0 && (
        <div className="table-wrap">
          <table className="runs-table">
            <thead>
              <tr>
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
                <RunRow key={r.id} r={r} />
              ))}
            </tbody>
          </table>
        </div>
      )}
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
        <p className={importMessage.ok ? 'notice notice-ok' : 'notice notice-bad pre-line'} role={importMessage.ok ? undefined : 'alert'}>
          {importMessage.text}
        </p>
      )}
    </section>
  );
}
