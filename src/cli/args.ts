/**
 * A tiny, strict command-line flag parser shared by the lab's Node commands: known flags only,
 * typed values, and a usage message (exit 2) for anything else. `commandFlags` is what a command's
 * main calls (flags, --help, required flags, the usage on a mistake); `die` ends a command with a
 * message. Exit codes: 0 done (or --help), 1 a failure, 2 a usage error.
 */
import { readFileSync } from 'node:fs';
import { CheckpointError, loadCheckpoint, type Checkpoint } from '../engine/model/checkpoint';
import { REFERENCE_LM_FILE, ReferenceLm, ReferenceLmError } from '../rl/reference-lm';

/** End the command: `message` on stderr, exit `code` (1: a failure; 2: a usage error). */
export function die(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/**
 * Read and check a checkpoint file for a command: an unreadable or damaged file ends the command
 * through `end` (die by default) with the file's name and the reason (exit 1).
 */
export function readCheckpointFile(path: string, end: (message: string) => never = die): Checkpoint {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    end(`cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return loadCheckpoint(bytes);
  } catch (e) {
    if (e instanceof CheckpointError) end(`${path}: ${e.message}`);
    throw e;
  }
}

/**
 * The shipped reference model of the corpus's replies (public/reference-lm.json, src/rl/reference-lm.ts);
 * a missing or damaged file ends the command through `end` with the reason.
 */
export function readReferenceLm(end: (message: string) => never = die): ReferenceLm {
  const path = new URL(`../../public/${REFERENCE_LM_FILE}`, import.meta.url);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    end(`cannot read the reference model ${path.pathname}: ${(e as Error).message}`);
  }
  try {
    return ReferenceLm.parse(text, path.pathname);
  } catch (e) {
    if (e instanceof ReferenceLmError) end(e.message);
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

/** The usage message: each flag with its help, then `notes` (what the output means) when given. */
export function usage(command: string, spec: FlagSpec, notes = ''): string {
  const lines = Object.entries(spec).map(
    ([k, s]) => `${`  --${k}${s.type === 'boolean' ? '' : ` <${s.type}>`}`.padEnd(30)} ${s.help}`,
  );
  return `usage: ${command} [flags]\n${lines.join('\n')}${notes ? `\n\n${notes}` : ''}`;
}

/** What a command's arguments come to: its flags, the usage text it was asked for, or a usage error. */
/** Flags with the `R` ones known to be present. */
export type FlagsWith<S extends FlagSpec, R extends keyof S> = Flags<S> & { [K in R]-?: NonNullable<Flags<S>[K]> };

export type CommandArgs<S extends FlagSpec, R extends keyof S = never> =
  { kind: 'flags'; flags: FlagsWith<S, R> } | { kind: 'help'; text: string } | { kind: 'error'; message: string };

/**
 * Read `argv` for `command` (pure, for tests): --help (when the spec has it) gives the usage; an
 * unknown flag, a bad value or a missing `required` flag gives its reason followed by the usage.
 */
export function readCommandArgs<S extends FlagSpec, R extends keyof S & string = never>(
  command: string,
  spec: S,
  argv: readonly string[],
  required: readonly R[] = [],
  notes = '',
): CommandArgs<S, R> {
  let flags: Flags<S>;
  try {
    flags = parseFlags(argv, spec);
  } catch (e) {
    if (e instanceof UsageError) return { kind: 'error', message: `${e.message}\n${usage(command, spec)}` };
    throw e;
  }
  if ('help' in spec && (flags as Record<string, unknown>).help === true)
    return { kind: 'help', text: usage(command, spec, notes) };
  const missing = required.find((k) => flags[k] === undefined);
  if (missing) return { kind: 'error', message: `--${missing} is required\n${usage(command, spec)}` };
  return { kind: 'flags', flags: flags as FlagsWith<S, R> };
}

/**
 * The flags of the running command (process.argv); --help prints the usage and exits 0, a usage
 * error prints its reason and the usage and exits 2.
 */
export function commandFlags<S extends FlagSpec, R extends keyof S & string = never>(
  command: string,
  spec: S,
  required: readonly R[] = [],
  notes = '',
): FlagsWith<S, R> {
  const r = readCommandArgs(command, spec, process.argv.slice(2), required, notes);
  if (r.kind === 'error') die(r.message, 2);
  if (r.kind === 'help') {
    console.log(r.text);
    process.exit(0);
  }
  return r.flags;
}
