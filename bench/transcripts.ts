/**
 * `experiment`'s transcripts.jsonl (in its --out folder), as the bench scripts that look at a run's
 * replies read it: the same flags, the same reading, the same phases.
 */
import { readFileSync } from 'node:fs';
import { commandFlags, die } from '../src/cli/args';

/** `--transcripts A.jsonl[,B.jsonl...] [--json]`, the flags every such script takes. */
export function transcriptFlags(command: string): { files: string[]; json: boolean } {
  const f = commandFlags(
    command,
    {
      transcripts: { type: 'string', help: "comma-separated transcripts.jsonl files (experiment's --out folders)" },
      json: { type: 'boolean', help: 'print the figures as JSON' },
      help: { type: 'boolean', help: 'this message' },
    },
    ['transcripts'],
  );
  return { files: f.transcripts.split(',').filter(Boolean), json: Boolean(f.json) };
}

/** One row a dialogue; a file that cannot be read or parsed ends the command with its name and why. */
export function readTranscripts<T>(file: string): T[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as T);
  } catch (e) {
    return die(`${file}: ${(e as Error).message}`, 1);
  }
}

/** The benchmark's phases of a run, before and after training (a row without one is from before). */
export const PHASES = ['before', 'after'] as const;
export const inPhase = <T extends { phase?: string }>(rows: readonly T[], phase: string): T[] =>
  rows.filter((r) => (r.phase ?? 'before') === phase);
