/**
 * The lab's page: where it runs (the adapter line, with a plain notice on a software adapter or the
 * CPU fallback), then five views: the Lab (a shared run, configure, train, charts, the benchmark
 * before and after next to the reference policies, transcripts), the Runs kept in this browser,
 * Warm start (the supervised warm start with a demo dialogue), Play (a person
 * talks with a simulated user, then watches a policy talk with the same one), and Chat (any saved
 * policy, exported to ONNX and run by onnxruntime-web; the Lab also offers the ONNX download).
 * A run link in the URL fragment is read on load and whenever the fragment changes.
 */
import { useEffect } from 'react';
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
  const count = useRuns((s) => s.runs.length);
  return (
    <nav className="views" aria-label="Views">
      {VIEWS.map((v) => (
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
    void useRuns.getState().refresh();
    const read = () => useUi.getState().readFragment(window.location.hash);
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, [start]);

  return (
    <div className="app">
      <header className="app-header">
        <h1>Empathy RL Lab</h1>
        <p className="tagline">
          Train a small language model, on your own GPU, to be a better emotional-support partner. It talks with
          simulated users whose emotion score, moved by every reply for reasons they write out, is the reward.
        </p>
      </header>
      <AdapterStatus />
      <Nav />
      <main>
        {view === 'lab' && (
          <>
            <SharedRunPanel />
            <ConfigurePanel />
            <TrainPanel />
            <MetricsPanel />
            <EvaluatePanel />
            <TranscriptsPanel />
            <OnnxExportPanel />
          </>
        )}
        {view === 'runs' && (
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
        {view === 'play' && <PlayView />}
        {view === 'chat' && <ChatView />}
        {view === 'warm-start' && (
          <>
            <WarmStartPanel />
            <DemoPanel />
          </>
        )}
      </main>
      <ShortcutsDialog />
    </div>
  );
}
