/**
 * Writes public/reference-lm.json, the reference model of src/rl/reference-lm.ts: the trigram
 * counts of the agent replies of the default corpus's training split (`buildCorpus({ seed: 1 })`,
 * whatever corpus size a warm start trains on), and the corpus's own held-out replies scored by it.
 * Deterministic: the same code gives the same bytes (src/rl/reference-lm.test.ts checks the shipped
 * file against a rebuild). Run: npx tsx src/rl/build-reference-lm.ts [--check]
 * (--check writes nothing and fails if the shipped file differs).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { referenceLmText } from './reference-lm';

const path = new URL('../../public/reference-lm.json', import.meta.url);
const text = referenceLmText();
if (process.argv.includes('--check')) {
  let shipped = '';
  try {
    shipped = readFileSync(path, 'utf8');
  } catch {
    // missing: differs
  }
  if (shipped !== text) {
    console.error(`${path.pathname} differs from a rebuild: run npx tsx src/rl/build-reference-lm.ts`);
    process.exit(1);
  }
  console.log(`${path.pathname} is current (${text.length} bytes)`);
} else {
  writeFileSync(path, text);
  const f = JSON.parse(text) as { vocab: unknown[]; trigrams: unknown[]; heldOut: { surprisal: number } };
  console.log(
    `wrote ${path.pathname}: ${text.length} bytes, ${f.vocab.length} tokens, ${f.trigrams.length} trigram contexts; held-out replies ${f.heldOut.surprisal.toFixed(3)} bits/word`,
  );
}
