/**
 * The lab's page: the title and where it runs (one line that opens its details), then five views:
 * the Lab, the Runs kept in this browser, Warm start (the supervised warm start with a demo
 * dialogue), Play (a person talks with a simulated user, then watches a policy talk with the same
 * one), and Chat (any saved policy, exported to ONNX and run by onnxruntime-web).
 *
 * The Lab is laid out for watching: the settings in a drawer at the side (open on a first visit,
 * folded once a run starts), and on the first screen the Train controls with the status, the mean
 * reward and the dialogue being played; the other charts, the transcripts, the benchmark and the
 * ONNX download below. On a narrow screen everything is one column.
 *
 * The URL fragment holds a run link and the teacher flags (src/lab/teacher.ts) and the view: it is
 * read on load, on Back and Forward, and whenever it changes. After a reload the Lab reopens the
 * run last on screen.
 */
import { useEffect } from 'react';
import { isHidden } from '../lab/teacher';
import { useTraining } from './state/training';
import { LiveDialogue } from './lab/LiveDialogue';
import { RewardChart } from './lab/MetricsPanel';
import { Autoplay, FlagProblems } from './lab/Autoplay';
import { Tour, TourButton } from './lab/Tour';
import { useEngine } from './state/engine';
import { useRuns } from './state/runs';
import { useUi, type View } from './state/ui';
import { AdapterStatus } from './components/AdapterStatus';
import { WarmStartPanel } from './components/WarmStartPanel';
import { DemoPanel } from './components/DemoPanel';
import { ConfigurePanel } from './lab/ConfigurePanel';
import { TrainPanel } from './lab/TrainPanel';
import { MetricsPanel } from './lab/MetricsPanel';
import { TranscriptsPanel } from './lab/TranscriptsPanel';
import { EvaluatePanel } from './lab/EvaluatePanel';
import { SharedRunPanel } from './lab/SharedRunPanel';
import { RunsView } from './lab/RunsView';
import { PlayView } from './play/PlayView';
import { ChatView } from './chat/ChatView';
import { OnnxExportPanel } from './chat/OnnxExportPanel';
import { ShortcutsDialog, useShortcuts } from './lab/Shortcuts';
import './lab/lab.css';
import { sendToWorker } from './state/worker';

declare global {
  interface Window {
    /** End-to-end test hooks, present only with ?testHooks=1 in the URL. */
    __labTest?: { loseDevice(): void };
  }
}

const VIEWS: { view: View; label: string }[] = [
  { view: 'lab', label: 'Lab' },
  { view: 'runs', label: 'Runs' },
  { view: 'warm-start', label: 'Warm start' },
  { view: 'play', label: 'Play' },
  { view: 'chat', label: 'Chat' },
];

function Nav() {
  const view = useUi((s) => s.view);
  const setView = useUi((s) => s.setView);
  const flags = useUi((s) => s.flags);
  const count = useRuns((s) => s.runs.length);
  return (
    <nav className="views" aria-label="Views">
      {VIEWS.filter((v) => v.view === 'lab' || !isHidden(flags, v.view)).map((v) => (
        <button
          key={v.view}
          type="button"
          aria-current={view === v.view ? 'page' : undefined}
          onClick={() => setView(v.view)}
        >
          {v.label}
          {v.view === 'runs' && count > 0 && <span className="count">{count}</span>}
        </button>
      ))}
      {!isHidden(flags, 'tour') && <TourButton />}
      <button
        type="button"
        className="keys-button"
        onClick={() => useUi.getState().setShortcutsOpen(true)}
        aria-label="Keyboard shortcuts"
      >
        ?
      </button>
    </nav>
  );
}

export function App() {
  const start = useEngine((s) => s.start);
  const view = useUi((s) => s.view);
  useShortcuts();
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    // ?backend=cpu: the CPU path; ?backend=webgpu: WebGPU even on a software adapter.
    const asked = query.get('backend');
    const force = asked === 'cpu' || asked === 'webgpu' ? asked : null;
    // Lose the GPU device on purpose, as a driver reset would: for the device-lost test.
    if (query.get('testHooks') === '1')
      window.__labTest = { loseDevice: () => sendToWorker({ type: 'test-lose-device' }) };
    start(force);
    const read = () => useUi.getState().readFragment(window.location.hash);
    read();
    // After a reload (a closed tab, a lost device), the run last on screen comes back as it was.
    void useRuns
      .getState()
      .refresh()
      .then(async () => {
        const ui = useUi.getState();
        const t = useTraining.getState();
        if (!ui.lastRunId || ui.flags.autoplay || t.status !== 'idle') return;
        const run = await useRuns.getState().get(ui.lastRunId);
        if (run && useTraining.getState().status === 'idle') useTraining.getState().showSaved(run);
      });
    window.addEventListener('hashchange', read);
    window.addEventListener('popstate', read);
    return () => {
      window.removeEventListener('hashchange', read);
      window.removeEventListener('popstate', read);
    };
  }, [start]);
  const flags = useUi((s) => s.flags);
  const settingsOpen = useUi((s) => s.settingsOpen);
  const drawer = settingsOpen && !isHidden(flags, 'settings');
  const shown = view === 'lab' || !isHidden(flags, view) ? view : 'lab';

  return (
    <div className="app">
      <header className="app-header">
        <div className="app-title">
          <h1>Empathy RL Lab</h1>
          <p className="tagline">
            A small language model learns, in your browser, to support people: simulated users score every reply with
            their emotion, and that is the reward.
          </p>
        </div>
        <AdapterStatus />
      </header>
      <Nav />
      <main>
        {shown === 'lab' && (
          <>
            <FlagProblems />
            <SharedRunPanel />
            <Autoplay />
            <div className={`lab-layout${drawer ? ' with-drawer' : ''}`}>
              {drawer && (
                <aside className="settings-drawer" id="settings-drawer" aria-label="Settings">
                  <ConfigurePanel />
                </aside>
              )}
              <div className="lab-main">
                <TrainPanel />
                <div className="watch-grid">
                  <RewardChart />
                  <LiveDialogue />
                </div>
                <MetricsPanel />
                {!isHidden(flags, 'transcripts') && <TranscriptsPanel />}
                {!isHidden(flags, 'evaluate') && <EvaluatePanel />}
                {!isHidden(flags, 'onnx') && <OnnxExportPanel />}
              </div>
            </div>
          </>
        )}
        {shown === 'runs' && (
          <>
            <RunsView />
            <section className="panel" aria-labelledby="privacy-h">
              <h2 id="privacy-h">Everything stays in this tab</h2>
              <p>
                The model, the simulated users and the training all run in your browser. The lab sends nothing to any
                server and loads no weights or data from the internet.
              </p>
            </section>
          </>
        )}
        {shown === 'play' && <PlayView />}
        {shown === 'chat' && <ChatView />}
        {shown === 'warm-start' && (
          <>
            <WarmStartPanel />
            <DemoPanel />
          </>
        )}
      </main>
      <ShortcutsDialog />
      {shown === 'lab' && <Tour />}
    </div>
  );
}
