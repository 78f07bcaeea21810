/**
 * Writes the committed persona data: public/personas/train.json, benchmark.json, challenge.json
 * and profile.schema.json, from ./sets.ts and ./validate.ts. Run: npx tsx src/persona/build-sets.ts
 * (add --stats to print counts per intention, type and domain without writing).
 * Node-only script; the serialisers it uses live in ./sets.ts and ./validate.ts so the drift test can share them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchmarkProfiles, challengeProfiles, formatSetStats, serializeProfiles, trainingProfiles } from './sets.ts';
import { serializeSchema } from './validate.ts';

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public', 'personas');

const train = trainingProfiles();
const bench = benchmarkProfiles();
const challenge = challengeProfiles();
console.log(formatSetStats('train', train));
console.log(formatSetStats('benchmark', bench));
console.log(formatSetStats('challenge', challenge));
if (!process.argv.includes('--stats')) {
  mkdirSync(OUT_DIR, { recursive: true });
  const files: [string, string][] = [
    ['train.json', serializeProfiles(train)],
    ['benchmark.json', serializeProfiles(bench)],
    ['challenge.json', serializeProfiles(challenge)],
    ['profile.schema.json', serializeSchema()],
  ];
  for (const [name, body] of files) {
    writeFileSync(join(OUT_DIR, name), body);
    console.log(`wrote public/personas/${name} (${(body.length / 1024).toFixed(0)} KiB)`);
  }
}
