import { describe, expect, it } from 'vitest';
import {
  CHECKPOINT_VERSION,
  CheckpointError,
  crc32,
  loadCheckpoint,
  readCheckpointHeader,
  saveCheckpoint,
} from './checkpoint';
import type { ModelConfig } from './config';
import { Tokenizer } from './tokenizer';
import { initParams } from './transformer';

const CONFIG: ModelConfig = { vocabSize: 300, contextLength: 16, channels: 8, layers: 1, heads: 2 };
const tokenizer = Tokenizer.train(['hello there, hello again', 'there there'], 300).toJSON();

function sample(): Uint8Array {
  return saveCheckpoint({ config: CONFIG, tokenizer, weights: initParams(CONFIG, 1), meta: { seed: 1 } });
}

describe('checkpoint format', () => {
  it('round-trips config, tokenizer, meta and every weight bit for bit', () => {
    const weights = initParams(CONFIG, 1);
    const back = loadCheckpoint(sample());
    expect(back.config).toEqual(CONFIG);
    expect(back.tokenizer).toEqual(tokenizer);
    expect(back.meta).toEqual({ seed: 1 });
    expect(back.weights).toEqual(weights);
  });

  it('round-trips a model that reads the previous token (wprev in its layout); a bad previousToken is refused by name', () => {
    const config: ModelConfig = { ...CONFIG, previousToken: true };
    const weights = initParams(config, 2);
    const back = loadCheckpoint(saveCheckpoint({ config, tokenizer, weights, meta: {} }));
    expect(back.config).toEqual(config);
    expect(back.weights).toEqual(weights);
    expect(() =>
      saveCheckpoint({ config: { ...config, previousToken: 1 as unknown as boolean }, tokenizer, weights, meta: {} }),
    ).toThrow(/previousToken: must be true or false/);
  });

  it('is byte-for-byte deterministic', () => {
    expect(sample()).toEqual(sample());
  });

  it('computes the standard CRC-32, eight bytes a step the same as one byte a step', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    const bytewise = (d: Uint8Array): number => {
      let crc = 0xffffffff;
      for (const x of d) {
        crc ^= x;
        for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
      }
      return (crc ^ 0xffffffff) >>> 0;
    };
    let seed = 7;
    for (const n of [1, 7, 8, 9, 15, 16, 17, 1000, 4099]) {
      const d = Uint8Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
      expect(crc32(d), `length ${n}`).toBe(bytewise(d));
    }
  });

  it('rejects a file that is not a checkpoint', () => {
    expect(() => loadCheckpoint(new TextEncoder().encode('{"hello": "world"} and more bytes'))).toThrow(
      /not an Empathy RL Lab checkpoint/,
    );
    expect(() => loadCheckpoint(new Uint8Array(3))).toThrow(/only 3 bytes/);
  });

  it('reads a file at any byte offset (a view into a larger buffer) the same as an aligned one', () => {
    const bytes = saveCheckpoint({
      config: CONFIG,
      tokenizer,
      weights: initParams(CONFIG, 1),
      meta: {},
      optimizer: { step: 2, m: initParams(CONFIG, 2), v: initParams(CONFIG, 3) },
    });
    const shifted = new Uint8Array(bytes.length + 3).subarray(3);
    shifted.set(bytes);
    const [a, b] = [loadCheckpoint(bytes), loadCheckpoint(shifted)];
    expect(b.weights).toEqual(a.weights);
    expect(b.optimizer).toEqual(a.optimizer);
  });

  it('rejects another version', () => {
    const b = sample();
    new DataView(b.buffer).setUint32(8, CHECKPOINT_VERSION + 1, true);
    expect(() => loadCheckpoint(b)).toThrow(
      `checkpoint format version ${CHECKPOINT_VERSION + 1}; this lab reads versions 1 and 2`,
    );
  });

  it('keeps the optimizer state (version 2): step and both moments bit for bit; weights-only files stay version 1', () => {
    const weights = initParams(CONFIG, 1);
    const m = initParams(CONFIG, 2);
    const v = initParams(CONFIG, 3).map(Math.abs);
    const bytes = saveCheckpoint({
      config: CONFIG,
      tokenizer,
      weights,
      meta: { steps: 4 },
      optimizer: { step: 9, m, v },
    });
    expect(new DataView(bytes.buffer).getUint32(8, true)).toBe(2);
    expect(new DataView(sample().buffer).getUint32(8, true)).toBe(1);
    expect(bytes.length - sample().length).toBeGreaterThanOrEqual(2 * weights.length * 4);
    const back = loadCheckpoint(bytes);
    expect(back.weights).toEqual(weights);
    expect(back.optimizer?.step).toBe(9);
    expect(back.optimizer?.m).toEqual(m);
    expect(back.optimizer?.v).toEqual(v);
    expect(back.meta).toEqual({ steps: 4 });
    expect(Object.keys(back).sort()).toEqual(['config', 'layout', 'meta', 'optimizer', 'tokenizer', 'weights']);
    expect(loadCheckpoint(sample()).optimizer).toBeUndefined();
    // damaged or cut moments, bad state on save
    const cut = bytes.subarray(0, bytes.length - 4 * weights.length);
    expect(() => loadCheckpoint(cut)).toThrow(/truncated/);
    const flipped = bytes.slice();
    flipped[flipped.length - 20] ^= 1;
    expect(() => loadCheckpoint(flipped)).toThrow(/checksum/);
    const asV2 = sample();
    new DataView(asV2.buffer).setUint32(8, 2, true);
    expect(() => loadCheckpoint(asV2)).toThrow(/version 2\) has no valid optimizer step count/);
    expect(() =>
      saveCheckpoint({ config: CONFIG, tokenizer, weights, meta: {}, optimizer: { step: 1, m: m.subarray(1), v } }),
    ).toThrow(/moments have/);
    expect(() =>
      saveCheckpoint({ config: CONFIG, tokenizer, weights, meta: {}, optimizer: { step: -1, m, v } }),
    ).toThrow(/step count/);
  });

  it("keeps a resumable run's self-imitation memory beside AdamW's state, and refuses a damaged one", () => {
    const weights = initParams(CONFIG, 1);
    const m = initParams(CONFIG, 2);
    const v = initParams(CONFIG, 3).map(Math.abs);
    const imitation = [
      { ids: [1, 2, 3, 4], scoredFrom: 2 },
      { ids: [5, 6, 299], scoredFrom: 1 },
    ];
    const save = (memory: unknown) =>
      saveCheckpoint({
        config: CONFIG,
        tokenizer,
        weights,
        meta: {},
        optimizer: { step: 3, m, v, imitation: memory as typeof imitation },
      });
    const back = loadCheckpoint(save(imitation));
    expect(back.optimizer?.imitation).toEqual(imitation);
    expect(readCheckpointHeader(save(imitation)).imitation).toEqual(imitation);
    expect(back.optimizer?.m).toEqual(m);
    const none = loadCheckpoint(save(undefined)).optimizer!;
    expect('imitation' in none).toBe(false);
    for (const bad of [
      [{ ids: [1, 300], scoredFrom: 1 }], // a token outside the vocabulary
      [{ ids: [1, 2], scoredFrom: 2 }], // no reply
      [{ ids: [1, 2], scoredFrom: 0 }], // no prompt
      [{ ids: [1, 2.5], scoredFrom: 1 }],
      [null],
    ])
      expect(() => save(bad)).toThrow(/self-imitation memory is damaged at reply 1/);
    expect(() => save({})).toThrow(/self-imitation memory is not a list/);
    // The same checks on load: a memory edited in the header (same length, so the file still parses).
    const bytes = save(imitation);
    const text = new TextDecoder().decode(bytes);
    const at = text.indexOf('"ids":[5,6,299]');
    expect(at).toBeGreaterThan(0);
    const edited = bytes.slice();
    edited.set(new TextEncoder().encode('"ids":[5,6,999]'), at);
    expect(() => readCheckpointHeader(edited)).toThrow(/self-imitation memory is damaged at reply 2/);
  });

  it('rejects a truncated file', () => {
    const b = sample();
    expect(() => loadCheckpoint(b.subarray(0, b.length - 100))).toThrow(/truncated/);
    expect(() => loadCheckpoint(b.subarray(0, 40))).toThrow(/truncated/);
  });

  it('rejects a damaged file: a flipped bit in the weights or a broken header', () => {
    const b = sample();
    b[b.length - 50] ^= 0x10;
    expect(() => loadCheckpoint(b)).toThrow(/damaged: its checksum/);
    const c = sample();
    c[20] = 0xff;
    expect(() => loadCheckpoint(c)).toThrow(/header is damaged|header is missing/);
  });

  it('rejects trailing garbage', () => {
    const b = sample();
    const longer = new Uint8Array(b.length + 8);
    longer.set(b);
    expect(() => loadCheckpoint(longer)).toThrow(/trailing bytes/);
  });
});

describe('readCheckpointHeader', () => {
  it('gives the header and meta of a good file without reading its arenas', () => {
    const b = sample();
    const info = readCheckpointHeader(b);
    expect(info).toMatchObject({ config: CONFIG, tokenizer, meta: { seed: 1 }, version: 1 });
    expect(info.optimizerStep).toBeUndefined();
    // A flipped bit in the weights is the checksum's business (loadCheckpoint): the header still reads.
    b[b.length - 50] ^= 0x10;
    expect(readCheckpointHeader(b).meta).toEqual({ seed: 1 });
    const weights = initParams(CONFIG, 1);
    const m = new Float32Array(weights.length);
    const withOptimizer = saveCheckpoint({
      config: CONFIG,
      tokenizer,
      weights,
      meta: { kind: 'rl', steps: 7 },
      optimizer: { step: 21, m, v: m },
    });
    expect(readCheckpointHeader(withOptimizer)).toMatchObject({ version: 2, optimizerStep: 21, meta: { steps: 7 } });
  });

  it('refuses a truncated file, a wrong one and a damaged header, each with its own message', () => {
    const b = sample();
    expect(() => readCheckpointHeader(b.subarray(0, b.length - 100))).toThrow(/truncated: expected/);
    expect(() => readCheckpointHeader(b.subarray(0, 40))).toThrow(/truncated: its header alone/);
    expect(() => readCheckpointHeader(b.subarray(0, 8))).toThrow(/only 8 bytes/);
    const wrong = sample();
    wrong.set(new TextEncoder().encode('PK\u0003\u0004'), 0);
    expect(() => readCheckpointHeader(wrong)).toThrow(/does not start with ERLCKPT/);
    expect(() => readCheckpointHeader(new TextEncoder().encode('{"not": "a checkpoint at all"}'))).toThrow(
      CheckpointError,
    );
    const c = sample();
    c[20] = 0xff;
    expect(() => readCheckpointHeader(c)).toThrow(/header is damaged|header is missing/);
  });
});
