/**
 * The reference model of src/rl/reference-lm.ts against today's corpus. public/reference-lm.json is
 * frozen (every surprisal figure is read against it), so this script does not overwrite it unless
 * told to by name.
 *
 *   npx tsx src/rl/build-reference-lm.ts --check      compare the shipped file with a count of
 *                                                     today's corpus (writes nothing)
 *   npx tsx src/rl/build-reference-lm.ts --out FILE   write a model counted on today's corpus
 *
 * Deterministic: the same code gives the same bytes. The shipped file is this script's output on
 * the corpus as it was when the file was frozen (docs/CORPUS.md says at which commit).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { commandFlags } from '../cli/args';
import { corpusReplies, REFERENCE_LM_SHA256, ReferenceLm, referenceLmText } from './reference-lm';

const flags = commandFlags('npx tsx src/rl/build-reference-lm.ts', {
  check: { type: 'boolean', help: "compare the shipped file with a count of today's corpus (writes nothing)" },
  out: { type: 'string', help: "write a model counted on today's corpus to FILE" },
  help: { type: 'boolean', help: 'this message' },
} as const);
const out = flags.out;
if (Boolean(flags.check) === (out !== undefined)) {
  console.error('give one of --check and --out FILE (--help says what each does)');
  process.exit(2);
}
const replies = corpusReplies();
const text = referenceLmText(replies);
const built = ReferenceLm.parse(text, 'the rebuild');
if (out !== undefined) {
  writeFileSync(out, text);
  console.log(
    `wrote ${out}: ${text.length} bytes, ${built.vocab.length} tokens; held-out replies ${built.heldOut.surprisal.toFixed(3)} bits/word`,
  );
  if (/public[/\\]reference-lm\.json$/.test(out))
    console.log(
      'this replaces the frozen yardstick: update REFERENCE_LM_SHA256 in src/rl/reference-lm.ts, and every surprisal figure in docs/ no longer compares',
    );
} else {
  const path = new URL('../../public/reference-lm.json', import.meta.url);
  const shipped = readFileSync(path, 'utf8');
  const sha = createHash('sha256').update(shipped).digest('hex');
  const frozen = ReferenceLm.parse(shipped);
  const today = frozen.surprisal(replies.heldOut);
  console.log(
    `${path.pathname}: ${sha === REFERENCE_LM_SHA256 ? 'the frozen file' : 'NOT the frozen file (its SHA-256 differs)'}; ` +
      `a count of today's corpus ${shipped === text ? 'gives the same bytes' : 'differs'}`,
  );
  console.log(
    `held-out replies: frozen file's own ${frozen.heldOut.surprisal.toFixed(3)} bits/word; today's under the frozen file ` +
      `${today.surprisal.toFixed(3)}; today's under a count of today's corpus ${built.heldOut.surprisal.toFixed(3)}`,
  );
  if (sha !== REFERENCE_LM_SHA256) process.exit(1);
}
