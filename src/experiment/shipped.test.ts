/**
 * The shipped warm starts (public/warmstart-micro.bin, the lab's default, and public/warmstart-ci.bin,
 * the start of CPU-sized RL runs) are what `npm run pretrain [-- --preset ci] --backend cpu` makes
 * with its defaults: same config, same tokenizer (retrained here from the seed-1 corpus), same
 * provenance. The ci one is remade in about 3 minutes (`npm run pretrain -- --preset ci --backend
 * cpu --out /tmp/ci.bin`); the micro byte-for-byte rerun takes an hour on one core:
 * `npm run pretrain -- --backend cpu --out /tmp/m.bin`
 * then `cmp /tmp/m.bin public/warmstart-micro.bin`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCorpus, corpusTexts } from '../corpus/build';
import { loadCheckpoint } from '../engine/model/checkpoint';
import { PRESETS } from '../engine/model/config';
import { Tokenizer } from '../engine/model/tokenizer';
import { WARM_START_DEFAULTS } from './warmstart';

for (const preset of ['micro', 'ci'] as const) {
  describe(`the shipped ${preset} warm start`, () => {
    const ck = loadCheckpoint(readFileSync(new URL(`../../public/warmstart-${preset}.bin`, import.meta.url)));
    const d = WARM_START_DEFAULTS[preset];

    it('records the defaults of npm run pretrain', () => {
      expect(ck.meta).toMatchObject({
        kind: 'warm-start',
        preset,
        seed: 1,
        steps: d.steps,
        dialogues: d.dialogues,
        backend: 'cpu',
      });
      expect(ck.config).toEqual({ ...PRESETS[preset], vocabSize: ck.config.vocabSize });
    });

    it('carries the tokenizer the current corpus and trainer produce', () => {
      const tok = Tokenizer.train(corpusTexts(buildCorpus({ seed: 1, dialogues: d.dialogues })), d.vocabSize);
      expect(ck.tokenizer).toEqual(tok.toJSON());
    }, 240_000);
  });
}
