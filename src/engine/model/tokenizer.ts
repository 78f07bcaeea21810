/**
 * Byte-level BPE tokenizer, trained by the project on its own corpus (GPT-2 style: text is split
 * into pre-tokens by a regex, each pre-token is its UTF-8 bytes, and learned merges join frequent
 * adjacent pairs). Any Unicode string round-trips: every byte has its own token.
 *
 * Ids: 0..255 are the bytes; then the special tokens (SPECIALS, in order); then one id per merge.
 * Special tokens are never produced from text by `encode` (a person typing "<think>" gets the
 * bytes of "<think>"): the dialogue formatter inserts them by id. `decode` renders them as their
 * names only when asked to.
 *
 * Not here: the dialogue format (which specials go where) is in format.ts.
 */

export const SPECIALS = [
  '<|pad|>',
  '<|system|>',
  '<|user|>',
  '<|agent|>',
  '<|end|>',
  '<think>',
  '</think>',
  '<|bos|>',
] as const;
export type SpecialName = (typeof SPECIALS)[number];
export const N_BYTES = 256;
export const DEFAULT_VOCAB = 1024;
const TOKENIZER_FORMAT_VERSION = 1;
const MAX_PIECE_BYTES = 64;

/** GPT-2's pre-tokenizer: contractions, letters, numbers, punctuation runs, whitespace. */
const PRETOKEN = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

export interface TokenizerJSON {
  format: 'empathy-lab-bpe';
  version: number;
  specials: string[];
  /** Merge k creates id N_BYTES + specials.length + k from the pair (a, b). */
  merges: [number, number][];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

export class Tokenizer {
  readonly merges: readonly [number, number][];
  readonly vocabSize: number;
  /** Bytes each id decodes to (specials decode to nothing unless shown). */
  private readonly bytesOf: Uint8Array[];
  /** Rank (merge index) of each pair, keyed a * 2^16 + b. */
  private readonly rank = new Map<number, number>();
  private readonly cache = new Map<string, number[]>();
  private readonly firstMergeId = N_BYTES + SPECIALS.length;

  constructor(merges: readonly [number, number][]) {
    this.merges = merges;
    this.vocabSize = this.firstMergeId + merges.length;
    this.bytesOf = [];
    for (let b = 0; b < N_BYTES; b++) this.bytesOf.push(Uint8Array.of(b));
    for (const s of SPECIALS) this.bytesOf.push(encoder.encode(s));
    merges.forEach(([a, b], k) => {
      const id = this.firstMergeId + k;
      if (!(a >= 0 && b >= 0 && a < id && b < id) || this.isSpecial(a) || this.isSpecial(b)) {
        throw new Error(`tokenizer merge ${k} (${a}, ${b}) refers to an id that is special or not yet defined`);
      }
      const joined = new Uint8Array(this.bytesOf[a].length + this.bytesOf[b].length);
      joined.set(this.bytesOf[a]);
      joined.set(this.bytesOf[b], this.bytesOf[a].length);
      this.bytesOf.push(joined);
      this.rank.set(a * 65536 + b, k);
    });
  }

  /** The id of a special token. */
  special(name: SpecialName): number {
    return N_BYTES + SPECIALS.indexOf(name);
  }

  isSpecial(id: number): boolean {
    return id >= N_BYTES && id < this.firstMergeId;
  }

  /** Token ids of plain text (no special tokens are ever produced). */
  encode(text: string): number[] {
    const out: number[] = [];
    for (const m of text.matchAll(PRETOKEN)) {
      const piece = m[0];
      let ids = this.cache.get(piece);
      if (!ids) {
        const bytes = encoder.encode(piece);
        // Merging is quadratic in the piece length: cut very long pieces (a 100k-letter "word" of
        // token soup) into fixed chunks, so encoding stays linear; still lossless.
        ids = [];
        for (let at = 0; at < bytes.length; at += MAX_PIECE_BYTES)
          ids.push(...this.encodePiece(bytes.subarray(at, at + MAX_PIECE_BYTES)));
        if (this.cache.size < 50_000) this.cache.set(piece, ids);
      }
      for (const id of ids) out.push(id);
    }
    return out;
  }

  /** Text of the ids. Specials are dropped unless `showSpecials`; invalid UTF-8 becomes U+FFFD. */
  decode(ids: readonly number[], { showSpecials = false } = {}): string {
    let n = 0;
    for (const id of ids) if (showSpecials || !this.isSpecial(id)) n += this.bytesOf[id]?.length ?? 0;
    const buf = new Uint8Array(n);
    let o = 0;
    for (const id of ids) {
      const b = this.bytesOf[id];
      if (!b) throw new Error(`token id ${id} is outside the vocabulary (${this.vocabSize})`);
      if (!showSpecials && this.isSpecial(id)) continue;
      buf.set(b, o);
      o += b.length;
    }
    return decoder.decode(buf);
  }

  /** Standard BPE on one pre-token: repeatedly merge the adjacent pair with the lowest rank. */
  private encodePiece(bytes: Uint8Array): number[] {
    const ids = Array.from(bytes);
    while (ids.length > 1) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 1 < ids.length; i++) {
        const r = this.rank.get(ids[i] * 65536 + ids[i + 1]);
        if (r !== undefined && r < bestRank) {
          bestRank = r;
          best = i;
        }
      }
      if (best < 0) break;
      ids.splice(best, 2, this.firstMergeId + bestRank);
    }
    return ids;
  }

  toJSON(): TokenizerJSON {
    return {
      format: 'empathy-lab-bpe',
      version: TOKENIZER_FORMAT_VERSION,
      specials: [...SPECIALS],
      merges: this.merges.map(([a, b]) => [a, b]),
    };
  }

  /** Rebuild from toJSON() output, with a clear message for anything else. */
  static fromJSON(json: unknown): Tokenizer {
    const j = json as Partial<TokenizerJSON> | null;
    if (!j || typeof j !== 'object' || j.format !== 'empathy-lab-bpe')
      throw new Error('not an Empathy RL Lab tokenizer (format field missing or wrong)');
    if (j.version !== TOKENIZER_FORMAT_VERSION)
      throw new Error(
        `tokenizer version ${String(j.version)} is not supported (this lab reads version ${TOKENIZER_FORMAT_VERSION})`,
      );
    if (!Array.isArray(j.specials) || j.specials.join('\u0000') !== SPECIALS.join('\u0000'))
      throw new Error("tokenizer special tokens differ from this lab's");
    if (
      !Array.isArray(j.merges) ||
      !j.merges.every((m) => Array.isArray(m) && m.length === 2 && m.every(Number.isInteger))
    ) {
      throw new Error('tokenizer merges must be a list of [id, id] pairs');
    }
    return new Tokenizer(j.merges as [number, number][]);
  }

  /**
   * Learn merges from a corpus until the vocabulary has `vocabSize` ids. Deterministic: the most
   * frequent pair wins; ties go to the smaller (a, b). Pre-token counts make it fast: each distinct
   * pre-token is merged once however often it occurs.
   */
  static train(texts: Iterable<string>, vocabSize = DEFAULT_VOCAB): Tokenizer {
    const firstMergeId = N_BYTES + SPECIALS.length;
    if (vocabSize < firstMergeId)
      throw new Error(`vocabulary ${vocabSize} is smaller than the ${firstMergeId} byte and special tokens`);
    const counts = new Map<string, number>();
    for (const t of texts) for (const m of t.matchAll(PRETOKEN)) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
    // Sorted so the result never depends on insertion order.
    const words = [...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const seqs = words.map(([w]) => Array.from(encoder.encode(w)));
    const freq = words.map(([, c]) => c);
    const merges: [number, number][] = [];
    while (firstMergeId + merges.length < vocabSize) {
      const pairs = new Map<number, number>();
      for (let w = 0; w < seqs.length; w++) {
        const s = seqs[w];
        for (let i = 0; i + 1 < s.length; i++) {
          const key = s[i] * 65536 + s[i + 1];
          pairs.set(key, (pairs.get(key) ?? 0) + freq[w]);
        }
      }
      let bestKey = -1;
      let bestCount = 1; // a pair seen once is not worth a token
      for (const [key, c] of pairs) {
        if (c > bestCount || (c === bestCount && bestKey >= 0 && key < bestKey)) {
          bestCount = c;
          bestKey = key;
        }
      }
      if (bestKey < 0) break; // nothing left to merge
      const a = Math.floor(bestKey / 65536);
      const b = bestKey % 65536;
      const id = firstMergeId + merges.length;
      merges.push([a, b]);
      for (let w = 0; w < seqs.length; w++) {
        const s = seqs[w];
        if (s.length < 2) continue;
        const out: number[] = [];
        for (let i = 0; i < s.length; i++) {
          if (i + 1 < s.length && s[i] === a && s[i + 1] === b) {
            out.push(id);
            i++;
          } else out.push(s[i]);
        }
        seqs[w] = out;
      }
    }
    return new Tokenizer(merges);
  }
}
