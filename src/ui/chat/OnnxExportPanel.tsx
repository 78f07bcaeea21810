/**
 * "Download ONNX": any saved policy (shipped warm start, the tab's warm start, a run's checkpoint, or
 * a checkpoint file) exported in the page by src/onnx/export.ts and saved as a .onnx file. Nothing
 * is uploaded: the export is pure TypeScript.
 */
import { useState } from 'react';
import { exportOnnx } from '../../onnx/export';
import { download } from '../state/runs';
import { parseCheckpoint, sourceBytes, usePolicySources } from './sources';
import './chat.css';
import { CheckpointFileInput } from '../components/CheckpointFileInput';

export function OnnxExportPanel() {
  const sources = usePolicySources();
  const [sourceId, setSourceId] = useState(sources[0].id);
  const [kvCache, setKvCache] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const source = sources.find((s) => s.id === sourceId) ?? sources[0];

  const save = (bytes: Uint8Array, name: string, slug: string) => {
    const ck = parseCheckpoint(bytes, name);
    const model = exportOnnx(ck, { kvCache });
    const file = `${slug}${kvCache ? '-kv' : ''}.onnx`;
    download(
      file,
      new Blob([model as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }),
      'application/octet-stream',
    );
    const c = ck.config;
    setMessage({
      ok: true,
      text: `Saved ${file} (${(model.length / 1e6).toFixed(2)} MB; opset 17; ${c.layers} layers, ${c.channels} channels, context ${c.contextLength}${kvCache ? '; with past/present K/V' : ''}).`,
    });
  };

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setMessage(null);
    try {
      await work();
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="onnx-export-h">
      <h2 id="onnx-export-h">Export to ONNX</h2>
      <p className="muted small">
        The policy as a standard ONNX model (opset 17): <code>input_ids</code> int64 [batch, seq] in,{' '}
        <code>logits</code> [batch, seq, vocab] and <code>values</code> out; its tokenizer and config ride along in the
        metadata. Runs in onnxruntime (web, Python, C++). Docs: docs/ONNX.md.
      </p>
      <div className="form-row">
        <label>
          Policy
          <select value={source.id} onChange={(e) => setSourceId(e.target.value)} data-testid="onnx-source">
            {sources.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label className="chat-check">
          <input type="checkbox" checked={kvCache} onChange={(e) => setKvCache(e.target.checked)} />
          with KV cache inputs/outputs
        </label>
        <button
          type="button"
          disabled={busy}
          onClick={() => void run(async () => save(await sourceBytes(source.id), source.label, source.slug))}
        >
          Download ONNX
        </button>
        <CheckpointFileInput
          disabled={busy}
          testId="onnx-file"
          onFile={(f) =>
            void run(async () =>
              save(new Uint8Array(await f.arrayBuffer()), f.name, f.name.replace(/\.[^.]*$/, '') || 'policy'),
            )
          }
        />
      </div>
      {message && (
        <p
          className={`notice ${message.ok ? 'notice-ok' : 'notice-bad'}`}
          role={message.ok ? 'status' : 'alert'}
          data-testid="onnx-export-message"
        >
          {message.text}
        </p>
      )}
    </section>
  );
}
