/**
 * Where the lab runs, as one line: a badge ("GPU", "software GPU", "CPU") and the adapter line,
 * a button that opens the details: the reason for a fallback with what to do, where the only
 * adapter is a software one the timing that chose between it and the CPU (with a link to the
 * other), the self-check, the adapter's limits, and a "copy diagnostics" button for reports. A lost
 * device or an engine error shows under the line whether the details are open or not.
 */
import { useState } from 'react';
import { isCpu, useEngine } from '../state/engine';

export function AdapterStatus() {
  const { phase, backend, line, adapter, failure, selfTest, choice, problem } = useEngine();
  const [copied, setCopied] = useState(false);
  const [open, setOpen] = useState(false);

  const badge =
    phase === 'checking' ? 'checking' : isCpu(backend) ? 'CPU' : adapter?.isFallback ? 'software GPU' : 'GPU';

  const diagnostics = () =>
    JSON.stringify(
      { userAgent: navigator.userAgent, backend, line, adapter, failure, selfTest, choice, problem },
      null,
      2,
    );

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(diagnostics());
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <div className="where">
      <button
        type="button"
        className="where-toggle"
        aria-expanded={open}
        aria-controls="where-details"
        onClick={() => setOpen(!open)}
        title={line}
      >
        <span className="visually-hidden">Where the lab runs: </span>
        <span className={`badge badge-${badge.replace(' ', '-').toLowerCase()}`}>{badge}</span>
        <span className="adapter-line" data-testid="adapter-line" aria-live="polite">
          {line}
        </span>
        <span className="where-more" aria-hidden="true">
          {open ? 'Hide details ▴' : 'Details ▾'}
        </span>
      </button>
      {phase === 'lost' && (
        <p className="notice notice-bad" role="alert" data-testid="device-lost">
          {problem}
        </p>
      )}
      {phase === 'error' && (
        <p className="notice notice-bad" role="alert">
          {problem}
        </p>
      )}
      <section className="panel where-details" id="where-details" aria-labelledby="where-h" hidden={!open}>
        <h2 id="where-h">Where the lab runs</h2>
        <p className="adapter-full">{line}</p>
        {backend === 'webgpu' && adapter?.isFallback && (
          <p className="notice notice-warn" data-testid="fallback-notice">
            This is a software WebGPU adapter: every result is correct, but training is many times slower than on a GPU.
            Only the smallest presets are practical here.
          </p>
        )}
        {choice && (
          <p className="notice" data-testid="backend-choice">
            The only WebGPU adapter here is a software one. One short step took {choice.gpuMs.toFixed(0)} ms on it and{' '}
            {choice.cpuMs.toFixed(0)} ms on the CPU, so the lab trains on the{' '}
            {choice.chose === 'webgpu' ? 'software GPU' : 'CPU'}.{' '}
            <a href={`?backend=${choice.chose === 'webgpu' ? 'cpu' : 'webgpu'}`} data-testid="backend-switch">
              Use the {choice.chose === 'webgpu' ? 'CPU' : 'software GPU'} instead
            </a>
          </p>
        )}
        {isCpu(backend) && failure && (
          <div className="notice notice-warn" data-testid="cpu-notice" role="status">
            <p>
              <strong>Running on the CPU backend.</strong> {failure.message}
            </p>
            <p>
              It computes the same thing as a GPU would
              {backend === 'wasm' ? ', with WebAssembly SIMD on every thread the page may use' : ''}, more slowly: the
              smallest presets suit it.
            </p>
          </div>
        )}
        {selfTest && (
          <p className={selfTest.ok ? 'notice notice-ok' : 'notice notice-bad'} data-testid="self-test">
            Self-check: {selfTest.detail}.
          </p>
        )}
        {adapter && (
          <details>
            <summary>Adapter details</summary>
            <dl className="kv">
              <dt>Vendor</dt>
              <dd>{adapter.vendor}</dd>
              <dt>Architecture</dt>
              <dd>{adapter.architecture || '—'}</dd>
              <dt>Optional features</dt>
              <dd>
                {['shader-f16', 'subgroups', 'timestamp-query']
                  .map((f) => `${f}: ${adapter.features.includes(f) ? 'yes' : 'no'}`)
                  .join(', ')}
              </dd>
              <dt>Max storage buffer</dt>
              <dd>{(adapter.limits.maxStorageBufferBindingSize / 2 ** 20).toFixed(0)} MiB</dd>
              <dt>Workgroup memory</dt>
              <dd>{(adapter.limits.maxComputeWorkgroupStorageSize / 1024).toFixed(0)} KiB</dd>
            </dl>
          </details>
        )}
        {phase !== 'checking' && (
          <button type="button" onClick={copy}>
            {copied ? 'Diagnostics copied' : 'Copy diagnostics'}
          </button>
        )}
      </section>
    </div>
  );
}
