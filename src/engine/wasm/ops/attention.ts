/** Attention on the wasm backend: training forward and backward, and the cached decoding step. */
import { reference, type WasmEntries } from './reference';

export const attentionWasm = {
  attention: reference('attention'),
  attentionBackward: reference('attentionBackward'),
  attentionCached: reference('attentionCached'),
} satisfies WasmEntries;
