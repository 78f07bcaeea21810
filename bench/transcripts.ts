/** `experiment`'s transcripts.jsonl (in its --out folder), read by the bench scripts that look at a run's replies. */
import { readFileSync } from 'node:fs';
import { die } from '../src/cli/args';

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
