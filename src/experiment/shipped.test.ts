/**
 * The shipped warm starts (public/warmstart-micro.bin, the lab's default, and public/warmstart-ci.bin,
 * the start of CPU-sized RL runs) are what `npm run pretrain` makes with its defaults: same config,
 * same corpus and tokenizer (retrained here from the seed-1 corpus), same provenance. Both are made
 * on wasm (`npm run pretrain -- --preset P --backend wasm`; docs/MODEL.md gives the time each takes), whose
 * bits do not depend on the thread count; a rerun matches them byte for byte (`cmp`). micro's recipe
 * has two phases: the second goes on from the first's checkpoint, which the meta records.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCorpus, corpusTexts } from '../corpus/build';
import { loadCheckpoint } from '../engine/model/checkpoint';
import { PRESETS } from '../engine/model/config';
import { Tokenizer } from '../engine/model/tokenizer';
import { firstPhaseLabel, WARM_START_DEFAULTS } from './warmstart';

for (const preset of ['micro', 'ci'] as const) {
  describe(`the shipped ${preset} warm start`, () => {
    const ck = loadCheckpoint(readFileSync(new URL(`../../public/warmstart-${preset}.bin`, import.meta.url)));
    const d = WARM_START_DEFAULTS[preset];

    it('records the defaults of npm run pretrain', () => {
      const first = {
        kind: 'warm-start',
        preset,
        seed: 1,
        steps: d.steps,
        dialogues: d.dialogues,
        backend: 'wasm',
        lossOn: d.sft.lossOn,
        ...(d.corpus ? { corpus: d.corpus } : {}),
      };
      // A two-phase recipe (micro's): the second phase's steps and corpus, gone on from the first's file.
      expect(ck.meta).toMatchObject(
        d.then
          ? {
              ...first,
              steps: d.then.steps,
              dialogues: d.then.dialogues,
              corpus: d.then.corpus,
              from: { label: firstPhaseLabel(preset), meta: first },
            }
          : first,
      );
      if (!d.then) expect(ck.meta.from).toBeUndefined();
      // The model's vocabulary is its tokenizer's: the size asked for, or fewer where the corpus
      // runs out of pairs that occur twice (micro's 4096 learn 3,863).
      const learned = Tokenizer.fromJSON(ck.tokenizer).vocabSize;
      expect(learned).toBeLessThanOrEqual(d.vocabSize);
      expect(learned).toBeGreaterThan(d.vocabSize / 2);
      expect(ck.config).toEqual({ ...PRESETS[preset], vocabSize: learned });
    });

    it('carries the tokenizer the current corpus and trainer produce', () => {
      const tok = Tokenizer.train(
        corpusTexts(buildCorpus({ ...d.corpus, seed: 1, dialogues: d.dialogues })),
        d.vocabSize,
      );
      expect(ck.tokenizer).toEqual(tok.toJSON());
    }, 240_000);
  });
}
