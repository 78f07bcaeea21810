/**
 * Store: the runs kept in this browser (IndexedDB through src/lab/runs.ts): the list with sizes,
 * storage used, delete, import and export. Writes of the live run come from the training store
 * through `saveQueue`, one after another, so rows land in order and the list never reads half a write.
 * Without IndexedDB (some private windows) the lab still trains; the list says why it is empty.
 */
import { create } from 'zustand';
import { exportRun, findDuplicate, importRun, metricsCsv } from '../../lab/runfile';
import { openRunStore, type RunRecord, type RunStore, type RunSummary } from '../../lab/runs';

let storePromise: Promise<RunStore> | null = null;

/** The one run store of the page, opened on first use. */
export function runStore(): Promise<RunStore> {
  storePromise ??= openRunStore();
  return storePromise;
}

let chain: Promise<unknown> = Promise.resolve();

/** Run `write` after every earlier write; a failure is shown in the run list, not thrown. */
export function saveQueue(write: (store: RunStore) => Promise<unknown>): Promise<void> {
  const next = chain
    .then(async () => write(await runStore()))
    .then(
      () => undefined,
      (e: unknown) =>
        useRuns.setState({ error: `Saving the run failed: ${e instanceof Error ? e.message : String(e)}` }),
    );
  chain = next;
  return next;
}

/** Ask once for persistent storage, so the browser does not evict saved runs under pressure. */
let persistAsked = false;
export function askPersistentStorage(): void {
  if (persistAsked) return;
  persistAsked = true;
  void navigator.storage?.persist?.().catch(() => false);
}

export function download(name: string, text: string | Blob, type = 'application/json'): void {
  const blob = typeof text === 'string' ? new Blob([text], { type }) : text;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

interface RunsState {
  runs: RunSummary[];
  loaded: boolean;
  /** Bytes of the runs (approximate) and, where the browser says, the origin's usage and quota. */
  bytes: number;
  estimate: { usage: number; quota: number } | null;
  error: string | null;
  /** The outcome of the last import, for the person who chose the file. */
  importMessage: { ok: boolean; text: string } | null;
  refresh(): Promise<void>;
  remove(id: string): Promise<void>;
  importText(text: string): Promise<void>;
  exportJson(id: string): Promise<void>;
  exportCsv(id: string): Promise<void>;
  get(id: string): Promise<RunRecord | undefined>;
}

export const useRuns = create<RunsState>((set, get) => ({
  runs: [],
  loaded: false,
  bytes: 0,
  estimate: null,
  error: null,
  importMessage: null,
  async refresh() {
    try {
      await chain;
      const store = await runStore();
      const [runs, usage] = await Promise.all([store.list(), store.usage()]);
      let estimate: RunsState['estimate'] = null;
      try {
        const e = await navigator.storage?.estimate?.();
        if (e && typeof e.usage === 'number' && typeof e.quota === 'number')
          estimate = { usage: e.usage, quota: e.quota };
      } catch {
        // no estimate in this browser
      }
      set({ runs, bytes: usage.bytes, estimate, loaded: true });
    } catch (e) {
      set({
        loaded: true,
        error: `The runs saved in this browser cannot be read: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  },
  async remove(id) {
    await saveQueue((s) => s.delete(id));
    await get().refresh();
  },
  async importText(text) {
    const r = importRun(text);
    if (!r.ok) {
      set({ importMessage: { ok: false, text: r.message } });
      return;
    }
    const store = await runStore();
    const same = findDuplicate(await store.list(), r.run);
    if (same) {
      set({
        importMessage: {
          ok: true,
          text: `"${r.run.name}" is already here (${same.metricRows} steps): nothing was imported.`,
        },
      });
      return;
    }
    // The same id in another state (it trained on after it was exported): kept beside it as a copy.
    const existing = await store.get(r.run.id);
    const run = existing ? { ...r.run, id: `${r.run.id}-imported-${Date.now().toString(36)}` } : r.run;
    await saveQueue(async (s) => {
      await s.put(run);
      if (r.checkpoint) await s.putCheckpoint(run.id, r.checkpoint, r.checkpointStep);
    });
    set({
      importMessage: {
        ok: true,
        text: `Imported "${run.name}": ${run.metrics.length} steps, ${run.transcripts.length} dialogues${r.checkpoint ? ', with its checkpoint' : ''}.`,
      },
    });
    askPersistentStorage();
    await get().refresh();
  },
  async exportJson(id) {
    const store = await runStore();
    const run = await store.get(id);
    if (!run) return;
    const step = (await store.list()).find((r) => r.id === id)?.checkpointStep;
    download(`${id}.json`, exportRun(run, await store.getCheckpoint(id), step));
  },
  async exportCsv(id) {
    const run = await (await runStore()).get(id);
    if (run) download(`${id}-metrics.csv`, metricsCsv(run.metrics), 'text/csv');
  },
  async get(id) {
    return (await runStore()).get(id);
  },
}));
