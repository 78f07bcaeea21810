/**
 * The shipped warm start (public/warmstart-micro.bin) is what `npm run pretrain` makes with its
 * defaults: same config, same tokenizer (retrained here from the seed-1 corpus), same provenance.
 * The full byte-for-byte rerun takes an hour on one core: `npm run pretrain -- --out /tmp/m.bin`
 * then `cmp /tmp/m.bin public/warmstart-micro.bin`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCorpus, corpusTexts } from '../corpus/build';
import { loadCheckpoint } from '../engine/model/checkpoint';
import { PRESETS } from '../engine/model/config';
import { Tokenizer } from '../engine/model/tokenizer';
import { WARM_START_DEFAULTS } from './warmstart';

describe('the shipped micro warm start', () => {
  const ck = loadCheckpoint(readFileSync(new URL('../../public/warmstart-micro.bin', import.meta.url)));

  it('records the defaults of npm run pretrain', () => {
    expect(ck.meta).toMatchObject({ kind: 'warm-start', preset: 'micro', seed: 1, steps: WARM_START_DEFAULTS.micro.steps, dialogues: WARM_START_DEFAULTS.micro.dialogues, backend: 'cpu' });
    expect(ck.config).toEqual({ ...PRESETS.micro, vocabSize: ck.config.vocabSize });
  });

  it('carries the tokenizer the current corpus and trainer produce', () => {
    const tok = Tokenizer.train(corpusTexts(buildCorpus({ seed: 1, dialogues: WARM_START_DEFAULTS.micro.dialogues })), WARM_START_DEFAULTS.micro.vocabSize);
    expect(ck.tokenizer).toEqual(tok.toJSON());
  }, 60_000);
});
