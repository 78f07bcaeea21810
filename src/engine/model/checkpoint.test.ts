import { describe, expect, it } from 'vitest';
import { CHECKPOINT_VERSION, crc32, loadCheckpoint, saveCheckpoint } from './checkpoint';
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

  it('is byte-for-byte deterministic', () => {
    expect(sample()).toEqual(sample());
  });

  it('computes the standard CRC-32', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('rejects a file that is not a checkpoint', () => {
    expect(() => loadCheckpoint(new TextEncoder().encode('{"hello": "world"} and more bytes'))).toThrow(/not an Empathy RL Lab checkpoint/);
    expect(() => loadCheckpoint(new Uint8Array(3))).toThrow(/only 3 bytes/);
  });

  it('rejects another version', () => {
    const b = sample();
    new DataView(b.buffer).setUint32(8, CHECKPOINT_VERSION + 1, true);
    expect(() => loadCheckpoint(b)).toThrow(`checkpoint format version ${CHECKPOINT_VERSION + 1}; this lab reads version ${CHECKPOINT_VERSION}`);
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
