/**
 * Model presets and the parameter layout. One pure function, `paramLayout(config)`, gives every
 * parameter's name, shape and offset in the arena; parameters, gradients and both Adam moments use
 * the same layout in four arenas. A checkpoint is one arena readback plus this layout.
 *
 * Shape legend: V vocab, C channels, L layers, H heads, T context (max tokens), F = 4C (MLP).
 */
import { VIEW_ALIGN } from '../backend';

export interface ModelConfig {
  /** Vocabulary size (bytes + special tokens + BPE merges). */
  vocabSize: number;
  /** Maximum tokens the model sees at once (learned positions). */
  contextLength: number;
  /** Width of the residual stream. */
  channels: number;
  /** Number of transformer blocks. */
  layers: number;
  /** Attention heads; channels % heads === 0. */
  heads: number;
  /**
   * Each position also reads the previous token's embedding through a learned C × C map (`wprev`):
   * x[t] += wte[ids[t−1]] · wprev. A head that copies (an induction head) then needs one rule, "attend
   * where the previous token is the current one", instead of a previous-token head learned position
   * by position. Absent or false: the GPT-2 embeddings alone.
   */
  previousToken?: boolean;
}

export type PresetName = 'ci' | 'micro' | 'mini' | 'small';

/** Presets from a CI-sized model to one a discrete GPU trains comfortably (nanoGPT's "baby GPT" idea). */
export const PRESETS: Record<PresetName, ModelConfig> = {
  /** ~0.1M parameters (0.17M with the ci warm start's 2048 tokens): tests and the CPU backend. */
  ci: { vocabSize: 1024, contextLength: 256, channels: 48, layers: 2, heads: 4 },
  /** ~1M parameters (1.35M with the micro warm start's 3,863 tokens): the default; trains in minutes on a laptop GPU. */
  micro: { vocabSize: 1024, contextLength: 512, channels: 128, layers: 4, heads: 4 },
  /** ~5M. */
  mini: { vocabSize: 1024, contextLength: 512, channels: 256, layers: 6, heads: 8 },
  /** ~25M: a discrete GPU. */
  small: { vocabSize: 1024, contextLength: 512, channels: 512, layers: 8, heads: 8 },
};

interface ParamEntry {
  name: string;
  shape: number[];
  /** Element offset in the arena (a multiple of VIEW_ALIGN). */
  offset: number;
  size: number;
}

export interface ParamLayout {
  entries: ParamEntry[];
  byName: Record<string, ParamEntry>;
  /** Arena length in elements, padding included. */
  total: number;
  /** Parameters proper, padding excluded. */
  count: number;
}

/**
 * Whether a model is one of a preset's: its layers, channels, heads and context. The vocabulary is
 * its tokenizer's and reading the previous token an option of the embeddings, so neither counts.
 */
export function hasPresetShape(c: ModelConfig, preset: PresetName): boolean {
  const want = PRESETS[preset];
  return (['contextLength', 'channels', 'layers', 'heads'] as const).every((k) => c[k] === want[k]);
}

export function validateConfig(c: ModelConfig): string[] {
  const errors: string[] = [];
  const posInt = (k: Exclude<keyof ModelConfig, 'previousToken'>) => {
    if (!Number.isInteger(c[k]) || c[k] < 1) errors.push(`${k}: must be a positive integer (got ${String(c[k])})`);
  };
  (['vocabSize', 'contextLength', 'channels', 'layers', 'heads'] as const).forEach(posInt);
  if (c.previousToken !== undefined && typeof c.previousToken !== 'boolean')
    errors.push(`previousToken: must be true or false (got ${String(c.previousToken)})`);
  if (errors.length === 0 && c.channels % c.heads !== 0)
    errors.push(`heads: channels (${c.channels}) must be divisible by heads (${c.heads})`);
  return errors;
}

/** Names and shapes in arena order (GPT-2 naming, so a reader can cross-check with nanoGPT). */
function paramShapes(c: ModelConfig): [string, number[]][] {
  const { vocabSize: V, contextLength: T, channels: C, layers: L } = c;
  const out: [string, number[]][] = [
    ['wte', [V, C]], // token embedding, tied with the output head
    ['wpe', [T, C]], // learned positions
  ];
  if (c.previousToken) out.push(['wprev', [C, C]]); // the previous token's embedding, mapped
  for (let l = 0; l < L; l++) {
    out.push(
      [`h${l}.ln1.w`, [C]],
      [`h${l}.ln1.b`, [C]],
      [`h${l}.attn.qkv.w`, [C, 3 * C]],
      [`h${l}.attn.qkv.b`, [3 * C]],
      [`h${l}.attn.proj.w`, [C, C]],
      [`h${l}.attn.proj.b`, [C]],
      [`h${l}.ln2.w`, [C]],
      [`h${l}.ln2.b`, [C]],
      [`h${l}.mlp.fc.w`, [C, 4 * C]],
      [`h${l}.mlp.fc.b`, [4 * C]],
      [`h${l}.mlp.proj.w`, [4 * C, C]],
      [`h${l}.mlp.proj.b`, [C]],
    );
  }
  out.push(['lnf.w', [C]], ['lnf.b', [C]], ['value.w', [C, 1]], ['value.b', [1]]);
  return out;
}

export function paramLayout(c: ModelConfig): ParamLayout {
  const errors = validateConfig(c);
  if (errors.length > 0) throw new Error(`bad model config: ${errors.join('; ')}`);
  const entries: ParamEntry[] = [];
  let offset = 0;
  let count = 0;
  for (const [name, shape] of paramShapes(c)) {
    const size = shape.reduce((a, b) => a * b, 1);
    entries.push({ name, shape, offset, size });
    offset += Math.ceil(size / VIEW_ALIGN) * VIEW_ALIGN;
    count += size;
  }
  return { entries, byName: Object.fromEntries(entries.map((e) => [e.name, e])), total: offset, count };
}
