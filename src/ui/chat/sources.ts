/**
 * The policies the Chat view and the ONNX download can use: the shipped warm starts (files of this
 * app), the warm start trained in this tab, the runs kept in this browser that have a checkpoint,
 * and a checkpoint file the person picks. Each loads as checkpoint bytes, validated by
 * loadCheckpoint (a wrong or damaged file gets its message).
 */
import { useMemo } from 'react';
import { CheckpointError, loadCheckpoint, type Checkpoint } from '../../engine/model/checkpoint';
import { useRuns, runStore } from '../state/runs';
import { useWarmStart } from '../state/warmstart';

export interface PolicySource {
  id: string;
  label: string;
  /** A short name for files made from it. */
  slug: string;
}

const SHIPPED: PolicySource[] = [
  { id: 'shipped:micro', label: 'Shipped warm start (micro)', slug: 'warmstart-micro' },
  { id: 'shipped:ci', label: 'Shipped warm start (ci)', slug: 'warmstart-ci' },
];

/** The sources on offer now (the tab's warm start and saved runs appear when they exist). */
export function usePolicySources(): PolicySource[] {
  const runs = useRuns((s) => s.runs);
  const tabWarmStart = useWarmStart((s) => s.checkpoint !== null);
  return useMemo(() => {
    const out = [...SHIPPED];
    if (tabWarmStart) out.push({ id: 'tab:warmstart', label: 'Warm start trained in this tab', slug: 'warmstart-tab' });
    for (const r of runs) {
      if (!r.hasCheckpoint) continue;
      const step = r.checkpointStep !== undefined ? `, step ${r.checkpointStep}` : '';
      out.push({
        id: `run:${r.id}`,
        label: `Run "${r.name}"${step}`,
        slug: `run-${r.name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40) || r.id}`,
      });
    }
    return out;
  }, [runs, tabWarmStart]);
}

/** The bytes of a source's checkpoint, or an Error whose message says why not. */
export async function sourceBytes(id: string): Promise<Uint8Array> {
  if (id.startsWith('shipped:')) {
    const file = `warmstart-${id.slice('shipped:'.length)}.bin`;
    const url = new URL(`${import.meta.env.BASE_URL}${file}`, document.baseURI).href;
    const res = await fetch(url);
    if (!res.ok) throw new Error(`could not fetch ${file} from this app (HTTP ${res.status})`);
    return new Uint8Array(await res.arrayBuffer());
  }
  if (id === 'tab:warmstart') {
    const blob = useWarmStart.getState().checkpoint;
    if (!blob) throw new Error('no warm start has been trained in this tab');
    return new Uint8Array(await blob.arrayBuffer());
  }
  if (id.startsWith('run:')) {
    const runId = id.slice('run:'.length);
    const bytes = await (await runStore()).getCheckpoint(runId);
    if (!bytes) throw new Error('this run has no checkpoint');
    return bytes;
  }
  throw new Error(`unknown policy source "${id}"`);
}

/** Parse checkpoint bytes with a message that names the file on failure. */
export function parseCheckpoint(bytes: Uint8Array, name: string): Checkpoint {
  try {
    return loadCheckpoint(bytes);
  } catch (e) {
    if (e instanceof CheckpointError) throw new Error(`${name}: ${e.message}`);
    throw e;
  }
}
