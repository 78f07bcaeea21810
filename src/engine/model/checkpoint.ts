/**
 * The checkpoint file: a versioned binary format, validated on load.
 *
 *   bytes 0..7    magic "ERLCKPT\0"
 *   bytes 8..11   format version (u32 LE)
 *   bytes 12..15  header length H in bytes (u32 LE)
 *   bytes 16..    header: UTF-8 JSON {config, layout, tokenizer, meta[, optimizer]}, space-padded to a multiple of 4
 *   then          the parameter arena: layout.total little-endian f32
 *   version 2:    then AdamW's first and second moments, layout.total f32 each (header.optimizer
 *                 = {step}: the AdamW steps taken), so a run resumed from it goes on exactly as if
 *                 it had not stopped. Version 1 files (weights only) are still read and written
 *                 when there is no optimizer state.
 *   last 4 bytes  CRC-32 of everything before it (u32 LE)
 *
 * A wrong, truncated or damaged file, or one of another version, gets a message that says which.
 * readCheckpointHeader checks and reads the header alone (no checksum, no arenas), for the meta.
 * Pure: works on ArrayBuffers in the browser, the worker and Node.
 */
import { paramLayout, validateConfig, type ModelConfig } from './config';
import type { TokenizerJSON } from './tokenizer';

/** The newest format version (2: with optimizer state); version 1 (weights only) is still read and written. */
export const CHECKPOINT_VERSION = 2;
const WEIGHTS_ONLY_VERSION = 1;
const MAGIC = 'ERLCKPT\u0000';
const PREFIX = 16;

interface CheckpointHeader {
  config: ModelConfig;
  /** Name, shape and offset of each tensor in the arena (checked against paramLayout(config)). */
  layout: { name: string; shape: number[]; offset: number }[];
  tokenizer: TokenizerJSON;
  /** Free-form provenance: how it was made (command, seed, steps), shown to the user. */
  meta: Record<string, unknown>;
}

/**
 * What a resumed run needs beyond the weights: AdamW's state (the steps taken, its bias correction,
 * and both moments, arenas like the weights) and, with self-imitation on, the replies it draws
 * from (src/rl/imitation.ts: each a prompt and response as token ids, scored from `scoredFrom`).
 */
export interface OptimizerState {
  step: number;
  m: Float32Array;
  v: Float32Array;
  imitation?: ImitationRecord[];
}

/** One kept reply: its prompt and response token ids; the tokens from `scoredFrom` on are the reply. */
export interface ImitationRecord {
  ids: number[];
  scoredFrom: number;
}

export interface Checkpoint extends CheckpointHeader {
  /** The parameter arena (layout total, padding included). */
  weights: Float32Array;
  /** Present in a run's resumable checkpoints (format version 2). */
  optimizer?: OptimizerState;
}

/** Whether this host stores numbers little-endian (every browser and Node platform in practice): arenas are then copied whole. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Write `arena` as little-endian f32 at byte `o` of `out` (a whole-array copy where the host is little-endian and `o` aligned). */
function writeArena(out: Uint8Array, o: number, arena: Float32Array): void {
  if (LITTLE_ENDIAN && (out.byteOffset + o) % 4 === 0) {
    new Float32Array(out.buffer, out.byteOffset + o, arena.length).set(arena);
    return;
  }
  const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < arena.length; i++) dv.setFloat32(o + 4 * i, arena[i], true);
}

/** Read n little-endian f32 from byte `o` of `bytes` into a new array. */
function readArena(bytes: Uint8Array, o: number, n: number): Float32Array {
  if (LITTLE_ENDIAN && (bytes.byteOffset + o) % 4 === 0)
    return new Float32Array(bytes.buffer, bytes.byteOffset + o, n).slice();
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = dv.getFloat32(o + 4 * i, true);
  return x;
}

export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

export function saveCheckpoint(ck: Omit<Checkpoint, 'layout'>): Uint8Array {
  const layout = paramLayout(ck.config);
  if (ck.weights.length !== layout.total)
    throw new CheckpointError(`weights have ${ck.weights.length} values; the config needs ${layout.total}`);
  const opt = ck.optimizer;
  if (opt) {
    if (!Number.isInteger(opt.step) || opt.step < 0)
      throw new CheckpointError(`the optimizer's step count must be a whole number ≥ 0, got ${opt.step}`);
    if (opt.m.length !== layout.total || opt.v.length !== layout.total) {
      throw new CheckpointError(
        `the optimizer's moments have ${opt.m.length} and ${opt.v.length} values; the config needs ${layout.total} each`,
      );
    }
  }
  if (opt?.imitation) checkImitation(opt.imitation, ck.config.vocabSize);
  const header: CheckpointHeader & { optimizer?: { step: number; imitation?: ImitationRecord[] } } = {
    config: ck.config,
    layout: layout.entries.map((e) => ({ name: e.name, shape: e.shape, offset: e.offset })),
    tokenizer: ck.tokenizer,
    meta: ck.meta,
    ...(opt ? { optimizer: { step: opt.step, ...(opt.imitation ? { imitation: opt.imitation } : {}) } } : {}),
  };
  let json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil(json.length / 4) * 4;
  if (padded !== json.length) {
    const p = new Uint8Array(padded).fill(0x20);
    p.set(json);
    json = p;
  }
  const arenas = opt ? [ck.weights, opt.m, opt.v] : [ck.weights];
  const total = PREFIX + json.length + arenas.length * layout.total * 4 + 4;
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) out[i] = MAGIC.charCodeAt(i);
  dv.setUint32(8, opt ? CHECKPOINT_VERSION : WEIGHTS_ONLY_VERSION, true);
  dv.setUint32(12, json.length, true);
  out.set(json, PREFIX);
  let o = PREFIX + json.length;
  for (const arena of arenas) {
    writeArena(out, o, arena);
    o += arena.length * 4;
  }
  dv.setUint32(o, crc32(out.subarray(0, o)), true);
  return out;
}

/** What readCheckpointHeader gives: the header, the format version, and where the arenas begin. */
export interface CheckpointInfo extends CheckpointHeader {
  /** 1: weights only; 2: weights and AdamW's state. */
  version: number;
  /** AdamW's steps taken (version 2 only). */
  optimizerStep?: number;
  /** The self-imitation memory of a resumable run that had one (version 2 only). */
  imitation?: ImitationRecord[];
  /** Byte offset of the parameter arena. */
  arenaOffset: number;
}

function fail(m: string): never {
  throw new CheckpointError(m);
}

/**
 * Read and check a checkpoint's header without touching its arenas: magic, version, header JSON,
 * config and layout, and that the file is as long as they say. No checksum (that reads every
 * byte): for a page that wants the meta (a run's step count) of a file of hundreds of MB.
 * loadCheckpoint does these same checks first, then the checksum and the arenas.
 */
export function readCheckpointHeader(bytes: Uint8Array): CheckpointInfo {
  if (bytes.length < PREFIX) fail(`not an Empathy RL Lab checkpoint: the file is only ${bytes.length} bytes`);
  for (let i = 0; i < 8; i++)
    if (bytes[i] !== MAGIC.charCodeAt(i))
      fail('not an Empathy RL Lab checkpoint (the file does not start with ERLCKPT)');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== WEIGHTS_ONLY_VERSION && version !== CHECKPOINT_VERSION) {
    fail(
      `checkpoint format version ${version}; this lab reads versions ${WEIGHTS_ONLY_VERSION} and ${CHECKPOINT_VERSION} (a newer lab wrote it?)`,
    );
  }
  const headerLength = dv.getUint32(12, true);
  if (PREFIX + headerLength + 4 > bytes.length)
    fail(
      `the checkpoint is truncated: its header alone needs ${PREFIX + headerLength + 4} bytes, the file has ${bytes.length}`,
    );
  let header: CheckpointHeader & { optimizer?: { step?: unknown; imitation?: unknown } };
  try {
    header = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX, PREFIX + headerLength)),
    ) as CheckpointHeader;
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
    header.layout.every(
      (e, i) =>
        e.name === layout.entries[i].name &&
        e.offset === layout.entries[i].offset &&
        e.shape.join() === layout.entries[i].shape.join(),
    );
  if (!same) fail("the checkpoint's parameter layout does not match its config (written by an incompatible version?)");
  const optStep = header.optimizer?.step;
  const withOptimizer = version === CHECKPOINT_VERSION;
  if (withOptimizer && (typeof optStep !== 'number' || !Number.isInteger(optStep) || optStep < 0)) {
    fail('the checkpoint (version 2) has no valid optimizer step count in its header');
  }
  const imitation = withOptimizer ? header.optimizer?.imitation : undefined;
  if (imitation !== undefined) checkImitation(imitation, header.config.vocabSize);
  const arenas = withOptimizer ? 3 : 1;
  const expected = PREFIX + headerLength + arenas * layout.total * 4 + 4;
  if (bytes.length < expected) fail(`the checkpoint is truncated: expected ${expected} bytes, got ${bytes.length}`);
  if (bytes.length > expected) fail(`the checkpoint has ${bytes.length - expected} unexpected trailing bytes`);
  const { optimizer: _header, ...rest } = header;
  return {
    ...rest,
    version,
    arenaOffset: PREFIX + headerLength,
    ...(withOptimizer ? { optimizerStep: optStep as number } : {}),
    ...(imitation !== undefined ? { imitation: imitation as ImitationRecord[] } : {}),
  };
}

/** Throws a CheckpointError unless `x` is a list of kept replies of token ids below `vocabSize`. */
function checkImitation(x: unknown, vocabSize: number): void {
  if (!Array.isArray(x)) fail("the checkpoint's self-imitation memory is not a list");
  x.forEach((r: unknown, i) => {
    const rec = r as Partial<ImitationRecord> | null;
    const ids = rec?.ids;
    const from = rec?.scoredFrom;
    if (
      !Array.isArray(ids) ||
      !ids.every((t) => Number.isInteger(t) && t >= 0 && t < vocabSize) ||
      !Number.isInteger(from) ||
      (from as number) < 1 ||
      (from as number) >= ids.length
    )
      fail(
        `the checkpoint's self-imitation memory is damaged at reply ${i + 1}: it needs token ids below ${vocabSize} and a reply start inside them`,
      );
  });
}

export function loadCheckpoint(bytes: Uint8Array): Checkpoint {
  const { version, optimizerStep, imitation, arenaOffset, ...header } = readCheckpointHeader(bytes);
  const total = paramLayout(header.config).total;
  const withOptimizer = version === CHECKPOINT_VERSION;
  const crcAt = arenaOffset + (withOptimizer ? 3 : 1) * total * 4;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(crcAt, true) !== crc32(bytes.subarray(0, crcAt)))
    fail('the checkpoint is damaged: its checksum does not match its contents');
  const read = (a: number): Float32Array => readArena(bytes, arenaOffset + a * total * 4, total);
  const ck: Checkpoint = { ...header, weights: read(0) };
  if (withOptimizer)
    ck.optimizer = { step: optimizerStep as number, m: read(1), v: read(2), ...(imitation ? { imitation } : {}) };
  return ck;
}

let crcTables: Uint32Array[] | null = null;

/** CRC-32 (IEEE 802.3, as zlib), eight bytes a step ("slicing by 8": eight 256-entry tables). */
export function crc32(data: Uint8Array): number {
  if (!crcTables) {
    const t0 = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      t0[n] = c >>> 0;
    }
    crcTables = [t0];
    for (let k = 1; k < 8; k++) {
      const prev = crcTables[k - 1];
      crcTables.push(Uint32Array.from(prev, (c) => (c >>> 8) ^ t0[c & 0xff]));
    }
  }
  const [t0, t1, t2, t3, t4, t5, t6, t7] = crcTables;
  let crc = 0xffffffff;
  let i = 0;
  for (const end = data.length - 7; i < end; i += 8) {
    const lo = (crc ^ (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24))) >>> 0;
    const hi = data[i + 4] | (data[i + 5] << 8) | (data[i + 6] << 16) | (data[i + 7] << 24);
    crc =
      t7[lo & 0xff] ^
      t6[(lo >>> 8) & 0xff] ^
      t5[(lo >>> 16) & 0xff] ^
      t4[lo >>> 24] ^
      t3[hi & 0xff] ^
      t2[(hi >>> 8) & 0xff] ^
      t1[(hi >>> 16) & 0xff] ^
      t0[hi >>> 24];
  }
  for (; i < data.length; i++) crc = t0[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
