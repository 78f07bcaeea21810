/**
 * The reference language model: a word trigram model with interpolated modified Kneser-Ney
 * smoothing [Chen & Goodman 1999], counted on the agent replies of the warm-start corpus's training
 * split (`buildCorpus({ seed: 1 })`, its default 4,000 dialogues), frozen in
 * public/reference-lm.json. It scores how surprising a policy's replies are as the corpus's replies
 * (`surprisal`, in bits per word, src/rl/fluency.ts): a reply in the corpus's language scores near
 * the corpus's own held-out replies (`heldOut.surprisal` in the file), salad and non-words far above.
 * Frozen: every surprisal figure is read against the same file, so the file does not follow the
 * corpus when the users or the templates change; src/rl/reference-lm.test.ts pins its bytes and
 * checks that today's corpus still reads as the corpus it was counted on. `npx tsx
 * src/rl/build-reference-lm.ts --check` compares it with a count of today's corpus.
 *
 * Why this model. It is a fixed yardstick, so it must not be one of the policies: a neural model
 * would be a policy of its own, with a backend and weights to pin. Words, not the policy's BPE
 * tokens, so figures of presets with different tokenizers compare. A trigram, because the corpus's
 * replies hold about 73,000 words over about 530 word types: enough for trigram contexts, too few
 * for 4-grams, whose contexts would be mostly seen once. Kneser-Ney because it is the best-known
 * smoothing of n-gram counts on small data (Chen & Goodman's comparison), interpolated so that
 * every trigram's probability also draws on its bigram and unigram, and modified (three discounts
 * per order) as KenLM and SRILM do it. The file holds the trigram counts alone; every lower order,
 * the discounts and the backoff weights follow from them when it is read (a few milliseconds).
 *
 * Tokens: a reply's words as the simulated users read them (readReply: lower case, letters,
 * digits, apostrophes), then `</s>`; each reply starts from two `<s>`. A word of the user's own
 * story (the people's names, the details, the words of the event, problem and accomplishment: the
 * users' lexiconOf; with a possessive ending too) is read as the one token `<story>`, in the corpus and in the replies scored:
 * the benchmark users live situations whose words the training users never had, and echoing them is
 * what a good reply does; the model measures the language around them. A word outside the
 * vocabulary is `<unk>`, which gets the unigram level's uniform share only: a non-word costs at
 * least 11.5 bits wherever it stands, a word where the corpus uses it 0 to 5.
 *
 * Not here: reading the file from disk or the network (the callers do; the build script writes it).
 */
import { buildCorpus, CORPUS_DEFAULTS, type CorpusDialogue } from '../corpus/build';
import { lexiconOf, readReply } from '../persona/detectors/index';
import type { Profile } from '../persona/profile';
import { trainingProfiles } from '../persona/sets';

const FORMAT = 'empathy-rl-lab/reference-lm';
const REFERENCE_LM_VERSION = 1;
/** The file under public/ (served beside the warm starts). */
export const REFERENCE_LM_FILE = 'reference-lm.json';
const ORDER = 3;

/** Token ids of the special tokens: the first four entries of the vocabulary, in this order. */
const BOS = 0;
const EOS = 1;
const UNK = 2;
const STORY = 3;
const SPECIALS = ['<s>', '</s>', '<unk>', '<story>'] as const;

/** What the file says about the text it was counted on. */
interface ReferenceSource {
  /** How the corpus was made, in words a reader can run. */
  corpus: string;
  seed: number;
  dialogues: number;
  /** Agent replies counted, and their words. */
  replies: number;
  words: number;
}

/** The corpus's own held-out agent replies scored by the model: what a policy's surprisal is read against. */
interface HeldOutFigures {
  replies: number;
  /** Words and one `</s>` per reply. */
  tokens: number;
  /** Mean bits per token. */
  surprisal: number;
  /** Share of the tokens outside the vocabulary. */
  oov: number;
}

interface ReferenceLmFile {
  format: typeof FORMAT;
  version: number;
  order: number;
  smoothing: string;
  source: ReferenceSource;
  heldOut: HeldOutFigures;
  /** The special tokens, then every word of the corpus's replies in code-unit order. */
  vocab: string[];
  /**
   * One entry per trigram context (u, v), contexts in increasing order of (u, v):
   * [u, v, w1, c1, w2, c2, ...] with w increasing and c = count(u v w) >= 1.
   */
  trigrams: number[][];
}

/** A reply to count or score: its words (readReply) and the words of its user's story. */
export interface LmText {
  words: readonly string[];
  story: ReadonlySet<string>;
}

/** A reference model file that cannot be read, with what is wrong with it. */
export class ReferenceLmError extends Error {
  override name = 'ReferenceLmError';
}

/** The words of a user's story that read as `<story>` (see the file header). */
export function storyWords(profile: Profile): Set<string> {
  const l = lexiconOf(profile);
  return new Set([...l.names, ...l.details.flatMap((d) => d.words), ...l.storyWords, ...l.accomplishmentWords]);
}

/** A word of the story, or one with a possessive ending ("Bilal's"), reads as <story>. */
function isStory(w: string, story: ReadonlySet<string>): boolean {
  return story.has(w) || story.has(w.replace(/'s$|'$/, ''));
}

/** A context's totals at one order: sum of counts, and how many followers were seen once, twice, 3+ times. */
interface ContextTotals {
  total: number;
  n1: number;
  n2: number;
  n3: number;
}

/** Modified Kneser-Ney discounts D(1), D(2), D(3+) of one order [Chen & Goodman 1999, eq. 26]. */
type Discounts = readonly [number, number, number];

/**
 * The discounts from the counts of counts n1..n4 of one order. Degenerate counts (a tiny corpus
 * where some n_k is 0) fall back to one absolute discount Y = n1 / (n1 + 2 n2), or 0.5 without
 * singletons; each D(k) is kept in [0, k].
 */
function discountsOf(values: Iterable<number>): Discounts {
  const n = [0, 0, 0, 0, 0];
  for (const c of values) if (c <= 4) n[c]++;
  const y = n[1] + 2 * n[2] > 0 ? n[1] / (n[1] + 2 * n[2]) : 0.5;
  if (n[1] === 0 || n[2] === 0 || n[3] === 0 || n[4] === 0) return [y, Math.min(2, y), Math.min(3, y)];
  const clamp = (d: number, k: number) => Math.min(k, Math.max(0, d));
  return [
    clamp(1 - (2 * y * n[2]) / n[1], 1), // D1
    clamp(2 - (3 * y * n[3]) / n[2], 2), // D2
    clamp(3 - (4 * y * n[4]) / n[3], 3), // D3+
  ];
}

const discountOf = (d: Discounts, c: number): number => (c <= 0 ? 0 : c === 1 ? d[0] : c === 2 ? d[1] : d[2]);

function totalsOf(counts: Iterable<number>): ContextTotals {
  const t = { total: 0, n1: 0, n2: 0, n3: 0 };
  for (const c of counts) {
    t.total += c;
    if (c === 1) t.n1++;
    else if (c === 2) t.n2++;
    else t.n3++;
  }
  return t;
}

/** gamma: the probability mass a context's discounts set free for the lower order. */
const backoffOf = (t: ContextTotals, d: Discounts): number => (d[0] * t.n1 + d[1] * t.n2 + d[2] * t.n3) / t.total;

export class ReferenceLm {
  readonly vocab: readonly string[];
  readonly source: ReferenceSource;
  readonly heldOut: HeldOutFigures;
  private readonly ids: Map<string, number>;
  private readonly V: number;
  /** count(u v w), keyed (u V + v) V + w. */
  private readonly c3 = new Map<number, number>();
  private readonly ctx3 = new Map<number, ContextTotals>();
  /** Adjusted bigram counts: distinct u before (v, w); the raw count where v = <s> (KenLM's rule). */
  private readonly a2 = new Map<number, number>();
  private readonly ctx2 = new Map<number, ContextTotals>();
  /** Adjusted unigram counts: distinct v before w. */
  private readonly a1: Float64Array;
  private readonly uni: ContextTotals;
  private readonly d3: Discounts;
  private readonly d2: Discounts;
  private readonly d1: Discounts;

  private constructor(file: ReferenceLmFile) {
    this.vocab = file.vocab;
    this.source = file.source;
    this.heldOut = file.heldOut;
    const V = (this.V = file.vocab.length);
    this.ids = new Map(file.vocab.map((w, i) => [w, i]));
    const followers3 = new Map<number, number[]>();
    const left2 = new Map<number, number>();
    for (const row of file.trigrams) {
      const [u, v] = row;
      const counts: number[] = [];
      for (let i = 2; i < row.length; i += 2) {
        const w = row[i];
        const c = row[i + 1];
        this.c3.set((u * V + v) * V + w, c);
        counts.push(c);
        const k = v * V + w;
        left2.set(k, (left2.get(k) ?? 0) + (v === BOS ? c : 1));
      }
      followers3.set(u * V + v, counts);
    }
    for (const [k, counts] of followers3) this.ctx3.set(k, totalsOf(counts));
    const followers2 = new Map<number, number[]>();
    this.a1 = new Float64Array(V);
    for (const [k, a] of left2) {
      this.a2.set(k, a);
      const v = Math.floor(k / V);
      const list = followers2.get(v);
      if (list) list.push(a);
      else followers2.set(v, [a]);
      this.a1[k - v * V]++;
    }
    for (const [v, counts] of followers2) this.ctx2.set(v, totalsOf(counts));
    this.uni = totalsOf(Array.from(this.a1).filter((a) => a > 0));
    this.d3 = discountsOf(this.c3.values());
    this.d2 = discountsOf(this.a2.values());
    this.d1 = discountsOf(Array.from(this.a1).filter((a) => a > 0));
  }

  /** Read and check a file's text; a bad file throws ReferenceLmError saying what is wrong. */
  static parse(text: string, name = REFERENCE_LM_FILE): ReferenceLm {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new ReferenceLmError(`${name} is not JSON (${(e as Error).message}): ${REBUILD}`);
    }
    return new ReferenceLm(checkFile(raw, name));
  }

  /** Tokens a model predicts: every vocabulary entry but <s> (the uniform share of the unigram level). */
  private get predictable(): number {
    return this.V - 1;
  }

  /** p(w) at the unigram level, interpolated with the uniform distribution. */
  private p1(w: number): number {
    const a = this.a1[w];
    return Math.max(a - discountOf(this.d1, a), 0) / this.uni.total + backoffOf(this.uni, this.d1) / this.predictable;
  }

  private p2(w: number, v: number): number {
    const t = this.ctx2.get(v);
    if (!t) return this.p1(w);
    const a = this.a2.get(v * this.V + w) ?? 0;
    return Math.max(a - discountOf(this.d2, a), 0) / t.total + backoffOf(t, this.d2) * this.p1(w);
  }

  /** p(w | u v), interpolated modified Kneser-Ney. */
  prob(w: number, u: number, v: number): number {
    const t = this.ctx3.get(u * this.V + v);
    if (!t) return this.p2(w, v);
    const c = this.c3.get((u * this.V + v) * this.V + w) ?? 0;
    return Math.max(c - discountOf(this.d3, c), 0) / t.total + backoffOf(t, this.d3) * this.p2(w, v);
  }

  /** A reply's token ids: story words as <story>, unknown words as <unk>, then </s>. */
  encode(text: LmText): number[] {
    const out = text.words.map((w) => (isStory(w, text.story) ? STORY : (this.ids.get(w) ?? UNK)));
    out.push(EOS);
    return out;
  }

  /** Bits of each token of a reply (its words, then </s>), and how many were <unk>. */
  score(text: LmText): { bits: number; tokens: number; oov: number } {
    const ids = this.encode(text);
    let bits = 0;
    let oov = 0;
    let u = BOS;
    let v = BOS;
    for (const w of ids) {
      bits -= Math.log2(this.prob(w, u, v));
      if (w === UNK) oov++;
      [u, v] = [v, w];
    }
    return { bits, tokens: ids.length, oov };
  }

  /** Mean bits per token over many replies (pooled: every token weighs the same), and the <unk> share. */
  surprisal(texts: readonly LmText[]): { surprisal: number; tokens: number; oov: number } {
    let bits = 0;
    let tokens = 0;
    let oov = 0;
    for (const t of texts) {
      const s = this.score(t);
      bits += s.bits;
      tokens += s.tokens;
      oov += s.oov;
    }
    return { surprisal: tokens > 0 ? bits / tokens : NaN, tokens, oov: tokens > 0 ? oov / tokens : NaN };
  }

  /** Token ids of the vocabulary (for tests): the specials, then the words. */
  idOf(token: string): number | undefined {
    return this.ids.get(token);
  }

  /**
   * Count the trigrams of `train`, freeze them, and score `heldOut` with the result: the file's
   * text, byte for byte the same for the same input (the file under public/ is this).
   */
  static build(
    train: readonly LmText[],
    heldOut: readonly LmText[],
    source: Omit<ReferenceSource, 'replies' | 'words'>,
  ): string {
    const words = new Set<string>();
    for (const t of train) for (const w of t.words) if (!isStory(w, t.story)) words.add(w);
    const vocab = [...SPECIALS, ...[...words].sort()];
    const ids = new Map(vocab.map((w, i) => [w, i]));
    const V = vocab.length;
    const counts = new Map<number, number>();
    let nWords = 0;
    for (const t of train) {
      nWords += t.words.length;
      const seq = [BOS, BOS, ...t.words.map((w) => (isStory(w, t.story) ? STORY : ids.get(w)!)), EOS];
      for (let i = 2; i < seq.length; i++) {
        const k = (seq[i - 2] * V + seq[i - 1]) * V + seq[i];
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
    }
    const trigrams: number[][] = [];
    for (const k of [...counts.keys()].sort((a, b) => a - b)) {
      const w = k % V;
      const ctx = (k - w) / V;
      const [u, v] = [Math.floor(ctx / V), ctx % V];
      const last = trigrams[trigrams.length - 1];
      if (last && last[0] === u && last[1] === v) last.push(w, counts.get(k)!);
      else trigrams.push([u, v, w, counts.get(k)!]);
    }
    const file: ReferenceLmFile = {
      format: FORMAT,
      version: REFERENCE_LM_VERSION,
      order: ORDER,
      smoothing: 'interpolated modified Kneser-Ney',
      source: { ...source, replies: train.length, words: nWords },
      heldOut: { replies: 0, tokens: 0, surprisal: 0, oov: 0 },
      vocab,
      trigrams,
    };
    const s = new ReferenceLm(file).surprisal(heldOut);
    file.heldOut = { replies: heldOut.length, tokens: s.tokens, surprisal: s.surprisal, oov: s.oov };
    return serialise(file);
  }
}

/** SHA-256 of public/reference-lm.json, the frozen yardstick (see the file header). */
export const REFERENCE_LM_SHA256 = '3da443f838a8265fb65162ec4ca51c09e931131fe7e408b2b76cc120e7273ee5';

/** The agent replies of today's default corpus (`buildCorpus({ seed: 1 })`), split as it splits them. */
export function corpusReplies(): { train: LmText[]; heldOut: LmText[] } {
  const corpus = buildCorpus({ seed: CORPUS_DEFAULTS.seed });
  const byId = new Map(trainingProfiles().map((p) => [p.id, p]));
  const replies = (ds: readonly CorpusDialogue[]): LmText[] =>
    ds.flatMap((d) => {
      const story = storyWords(byId.get(d.profileId)!);
      return d.turns.filter((t) => t.role === 'agent').map((t) => ({ words: readReply(t.text).words, story }));
    });
  return { train: replies(corpus.train), heldOut: replies(corpus.heldOut) };
}

/**
 * A model counted on the training split of today's corpus (or of `replies`, its corpusReplies())
 * and scored on the held-out split, as a file's text (about 6 s, most of it building the corpus).
 * The shipped file is this text as the corpus was when it was frozen.
 */
export function referenceLmText(replies = corpusReplies()): string {
  const seed = CORPUS_DEFAULTS.seed;
  const { train, heldOut } = replies;
  return ReferenceLm.build(train, heldOut, {
    corpus: `buildCorpus({ seed: ${seed} }), training split, agent replies`,
    seed,
    dialogues: CORPUS_DEFAULTS.dialogues,
  });
}

const REBUILD = 'restore the shipped file (git checkout public/reference-lm.json)';

/** The file's text: the header fields pretty, one trigram context a line (readable diffs). */
function serialise(f: ReferenceLmFile): string {
  const { trigrams, vocab, ...head } = f;
  const top = JSON.stringify(head, null, 2).slice(0, -2); // without the closing "\n}"
  return `${top},\n  "vocab": ${JSON.stringify(vocab)},\n  "trigrams": [\n${trigrams.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]\n}\n`;
}

function checkFile(raw: unknown, name: string): ReferenceLmFile {
  const bad = (what: string): never => {
    throw new ReferenceLmError(`${name}: ${what}; ${REBUILD}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('not a JSON object');
  const f = raw as Partial<Record<keyof ReferenceLmFile, unknown>>;
  if (f.format !== FORMAT) return bad(`not a reference model (format ${JSON.stringify(f.format)}, want "${FORMAT}")`);
  if (f.version !== REFERENCE_LM_VERSION)
    return bad(`format version ${JSON.stringify(f.version)}, this lab reads version ${REFERENCE_LM_VERSION}`);
  if (f.order !== ORDER) return bad(`order ${JSON.stringify(f.order)}, this lab reads trigram models (3)`);
  const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;
  const src = f.source as Partial<ReferenceSource> | undefined;
  if (typeof src?.corpus !== 'string' || ![src.seed, src.dialogues, src.replies, src.words].every(isCount))
    return bad('"source" must be {corpus, seed, dialogues, replies, words}');
  const h = f.heldOut as Partial<HeldOutFigures> | undefined;
  if (!h || !isCount(h.replies) || !isCount(h.tokens) || !Number.isFinite(h.surprisal) || !Number.isFinite(h.oov))
    return bad('"heldOut" must be {replies, tokens, surprisal, oov}, all numbers');
  const vocab = f.vocab;
  if (!Array.isArray(vocab) || !vocab.every((w) => typeof w === 'string'))
    return bad('"vocab" must be a list of words');
  if (SPECIALS.some((s, i) => vocab[i] !== s)) return bad(`"vocab" must start with ${SPECIALS.join(' ')}`);
  for (let i = SPECIALS.length + 1; i < vocab.length; i++)
    if (!((vocab[i - 1] as string) < (vocab[i] as string)))
      return bad(`"vocab" must be sorted and without repeats (at ${JSON.stringify(vocab[i])})`);
  const V = vocab.length;
  if (!Array.isArray(f.trigrams) || f.trigrams.length === 0) return bad('"trigrams" must be a non-empty list');
  let prev = -1;
  let total = 0;
  f.trigrams.forEach((row: unknown, r) => {
    const at = `trigram context ${r + 1}`;
    if (!Array.isArray(row) || row.length < 4 || row.length % 2 !== 0 || !row.every(isCount))
      return bad(`${at} must be [u, v, w, count, ...] of whole numbers`);
    const [u, v] = row as number[];
    if (u >= V || v >= V || v === EOS || u === EOS || (u !== BOS && v === BOS))
      return bad(`${at} has a context that cannot occur (${u}, ${v})`);
    if (u * V + v <= prev) return bad(`${at} is out of order or repeated`);
    prev = u * V + v;
    let w0 = -1;
    for (let i = 2; i < row.length; i += 2) {
      const [w, c] = [row[i] as number, row[i + 1] as number];
      if (w >= V || w === BOS || w === UNK) return bad(`${at} predicts token ${w}, which cannot be predicted`);
      if (w <= w0) return bad(`${at} lists its words out of order`);
      if (c < 1) return bad(`${at} has a count below 1`);
      w0 = w;
      total += c;
    }
  });
  if (total !== (src.replies as number) + (src.words as number))
    return bad(`the counts hold ${total} tokens, the source says ${src.replies} replies of ${src.words} words`);
  return f as ReferenceLmFile;
}
