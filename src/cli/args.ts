/**
 * A tiny, strict command-line flag parser shared by the lab's Node commands: known flags only,
 * typed values, and a usage message (exit 2) for anything else.
 */
import { readFileSync } from 'node:fs';
import { CheckpointError, loadCheckpoint, type Checkpoint } from '../engine/model/checkpoint';

/**
 * Read and check a checkpoint file for a command: an unreadable or damaged file ends the command
 * through `die` with the file's name and the reason (exit 1).
 */
export function readCheckpointFile(path: string, die: (message: string) => never): Checkpoint {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    die(`cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return loadCheckpoint(bytes);
  } catch (e) {
    if (e instanceof CheckpointError) die(`${path}: ${e.message}`);
    throw e;
  }
}

export type FlagSpec = Record<string, { type: 'string' | 'number' | 'boolean'; help: string }>;
export type Flags<S extends FlagSpec> = {
  [K in keyof S]?: S[K]['type'] extends 'number' ? number : S[K]['type'] extends 'boolean' ? boolean : string;
};

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseFlags<S extends FlagSpec>(argv: readonly string[], spec: S): Flags<S> {
  const out: Record<string, string | number | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument "${a}"`);
    const [name, inline] = a.slice(2).split('=', 2);
    const s = spec[name];
    if (!s) throw new UsageError(`unknown flag --${name}`);
    if (s.type === 'boolean') {
      out[name] = inline === undefined ? true : inline !== 'false';
      continue;
    }
    const raw = inline ?? argv[++i];
    if (raw === undefined) throw new UsageError(`--${name} needs a value`);
    if (s.type === 'number') {
      const n = Number(raw);
      if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${raw}"`);
      out[name] = n;
    } else out[name] = raw;
  }
  return out as Flags<S>;
}

export function usage(command: string, spec: FlagSpec): string {
  const lines = Object.entries(spec).map(
    ([k, s]) => `${`  --${k}${s.type === 'boolean' ? '' : ` <${s.type}>`}`.padEnd(30)} ${s.help}`,
  );
  return `usage: ${command} [flags]\n${lines.join('\n')}`;
}
