/**
 * The checkpoint file: a versioned binary format, validated on load.
 *
 *   bytes 0..7    magic "ERLCKPT\0"
 *   bytes 8..11   format version (u32 LE)
 *   bytes 12..15  header length H in bytes (u32 LE)
 *   bytes 16..    header: UTF-8 JSON {config, layout, tokenizer, meta}, space-padded to a multiple of 4
 *   then          the parameter arena: layout.total little-endian f32
 *   last 4 bytes  CRC-32 of everything before it (u32 LE)
 *
 * A wrong, truncated or damaged file, or one of another version, gets a message that says which.
 * Pure: works on ArrayBuffers in the browser, the worker and Node.
 */
import { paramLayout, validateConfig, type ModelConfig } from './config';
import type { TokenizerJSON } from './tokenizer';

export const CHECKPOINT_VERSION = 1;
const MAGIC = 'ERLCKPT\u0000';
const PREFIX = 16;

export interface CheckpointHeader {
  config: ModelConfig;
  /** Name, shape and offset of each tensor in the arena (checked against paramLayout(config)). */
  layout: { name: string; shape: number[]; offset: number }[];
  tokenizer: TokenizerJSON;
  /** Free-form provenance: how it was made (command, seed, steps), shown to the user. */
  meta: Record<string, unknown>;
}

export interface Checkpoint extends CheckpointHeader {
  /** The parameter arena (layout total, padding included). */
  weights: Float32Array;
}

export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

export function saveCheckpoint(ck: Omit<Checkpoint, 'layout'>): Uint8Array {
  const layout = paramLayout(ck.config);
  if (ck.weights.length !== layout.total) throw new CheckpointError(`weights have ${ck.weights.length} values; the config needs ${layout.total}`);
  const header: CheckpointHeader = {
    config: ck.config,
    layout: layout.entries.map((e) => ({ name: e.name, shape: e.shape, offset: e.offset })),
    tokenizer: ck.tokenizer,
    meta: ck.meta,
  };
  let json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil(json.length / 4) * 4;
  if (padded !== json.length) {
    const p = new Uint8Array(padded).fill(0x20);
    p.set(json);
    json = p;
  }
  const total = PREFIX + json.length + ck.weights.length * 4 + 4;
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) out[i] = MAGIC.charCodeAt(i);
  dv.setUint32(8, CHECKPOINT_VERSION, true);
  dv.setUint32(12, json.length, true);
  out.set(json, PREFIX);
  let o = PREFIX + json.length;
  for (let i = 0; i < ck.weights.length; i++, o += 4) dv.setFloat32(o, ck.weights[i], true);
  dv.setUint32(o, crc32(out.subarray(0, o)), true);
  return out;
}

export function loadCheckpoint(bytes: Uint8Array): Checkpoint {
  const fail = (m: string): never => {
    throw new CheckpointError(m);
  };
  if (bytes.length < PREFIX) fail(`not an Empathy RL Lab checkpoint: the file is only ${bytes.length} bytes`);
  for (let i = 0; i < 8; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) fail('not an Empathy RL Lab checkpoint (the file does not start with ERLCKPT)');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== CHECKPOINT_VERSION) fail(`checkpoint format version ${version}; this lab reads version ${CHECKPOINT_VERSION}`);
  const headerLength = dv.getUint32(12, true);
  if (PREFIX + headerLength + 4 > bytes.length) fail(`the checkpoint is truncated: its header alone needs ${PREFIX + headerLength + 4} bytes, the file has ${bytes.length}`);
  let header: CheckpointHeader;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX, PREFIX + headerLength))) as CheckpointHeader;
  } catch {
    return fail('the checkpoint header is damaged (not valid JSON)');
  }
  if (!header || typeof header !== 'object' || !header.config || !Array.isArray(header.layout) || !header.tokenizer) {
    fail('the checkpoint header is missing config, layout or tokenizer');
  }
  const configErrors = validateConfig(header.config);
  if (configErrors.length > 0) fail(`the checkpoint's model config is invalid: ${configErrors.join('; ')}`);
  const layout = paramLayout(header.config);
  const same =
    header.layout.length === layout.entries.length &&
    header.layout.every((e, i) => e.name === layout.entries[i].name && e.offset === layout.entries[i].offset && e.shape.join() === layout.entries[i].shape.join());
  if (!same) fail('the checkpoint\'s parameter layout does not match its config (written by an incompatible version?)');
  const expected = PREFIX + headerLength + layout.total * 4 + 4;
  if (bytes.length < expected) fail(`the checkpoint is truncated: expected ${expected} bytes, got ${bytes.length}`);
  if (bytes.length > expected) fail(`the checkpoint has ${bytes.length - expected} unexpected trailing bytes`);
  const crcAt = expected - 4;
  if (dv.getUint32(crcAt, true) !== crc32(bytes.subarray(0, crcAt))) fail('the checkpoint is damaged: its checksum does not match its contents');
  const weights = new Float32Array(layout.total);
  for (let i = 0, o = PREFIX + headerLength; i < layout.total; i++, o += 4) weights[i] = dv.getFloat32(o, true);
  return { ...header, weights };
}

let crcTable: Uint32Array | null = null;

/** CRC-32 (IEEE 802.3, as zlib). */
export function crc32(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = crcTable[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
