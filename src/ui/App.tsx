/**
 * The lab's page. For now: what the lab is, where it runs (the adapter line, a plain notice on a
 * software adapter or the CPU fallback, and what to do about it), and the supervised warm start.
 */
import { useEffect } from 'react';
import { useEngine } from './state/engine';
import { AdapterStatus } from './components/AdapterStatus';
import { WarmStartPanel } from './components/WarmStartPanel';
import { DemoPanel } from './components/DemoPanel';

export function App() {
  const start = useEngine((s) => s.start);
  useEffect(() => {
    const forceCpu = new URLSearchParams(window.location.search).get('backend') === 'cpu';
    start(forceCpu);
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
      <main>
        <AdapterStatus />
        <WarmStartPanel />
        <DemoPanel />
        <section className="panel" aria-labelledby="privacy-h">
          <h2 id="privacy-h">Everything stays in this tab</h2>
          <p>
            The model, the simulated users and the training all run in your browser. The lab sends nothing to any
            server and loads no weights or data from the internet.
          </p>
        </section>
      </main>
    </div>
  );
}
