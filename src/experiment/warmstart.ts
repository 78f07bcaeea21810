/**
 * The warm-start pipeline: generate the corpus, train the tokenizer on it, initialise a preset,
 * run supervised next-token training, measure held-out perplexity before and after, and pack a
 * checkpoint. One function for the command line (src/cli/pretrain.ts) and the browser worker.
 * Deterministic: the same options on the same backend give the same checkpoint, byte for byte.
 */
import type { Backend } from '../engine/backend';
import { crc32, loadCheckpoint, saveCheckpoint, type Checkpoint } from '../engine/model/checkpoint';
import { hasPresetShape, PRESETS, type ModelConfig, type PresetName } from '../engine/model/config';
import { copyExamples, copyProbe, copyTask } from '../engine/model/copying';
import { encodeTrainingExamples, type Encoded } from '../engine/model/format';
import { perplexity, SFT_DEFAULTS, SftTrainer, type SftOptions, type SftStepMetrics } from '../engine/model/sft';
import { DEFAULT_VOCAB, Tokenizer } from '../engine/model/tokenizer';
import { Transformer } from '../engine/model/transformer';
import { buildCorpus, corpusTexts, type CorpusOptions } from '../corpus/build';
import { swapCorpus } from '../corpus/swap';

export interface WarmStartOptions {
  preset: PresetName;
  seed: number;
  steps: number;
  /** Dialogues in the generated corpus (train + held out). */
  dialogues: number;
  /** The corpus's dialogue lengths and reply mix (default: CORPUS_DEFAULTS'). */
  corpus?: Partial<
    Pick<CorpusOptions, 'maxTurns' | 'turnDecay' | 'pairShare' | 'needShare' | 'freshReplies' | 'names'>
  >;
  vocabSize: number;
  sft: Omit<SftOptions, 'steps' | 'seed'>;
  /**
   * Every this many steps, the held-out perplexity on the first HELDOUT_PROBE examples (0: never):
   * the curve that shows when more steps stop paying. Reads weights only, so the checkpoint is the
   * same bytes with or without it.
   */
  evalEvery?: number;
  /**
   * Share of the training dialogues whose story details and names are swapped for another training
   * story's (src/corpus/swap.ts), so that a reply's detail can only be predicted by copying it from
   * the user's lines (0 or absent: none; the held-out slice is never swapped).
   */
  swapShare?: number;
  /**
   * Share of the training examples that are the copying task instead of dialogues
   * (src/engine/model/copying.ts: a span of random tokens said again after a gap), added beside the
   * corpus's so that the model learns to copy (0 or absent: none).
   */
  copyShare?: number;
  /**
   * Tokens per copying row in training (absent: the training window, seqLen + 1). Shorter rows
   * are padded: a head then looks for the first copy among a few dozen tokens, not hundreds (a
   * curriculum); the probe keeps rows of the whole window.
   */
  copyWindow?: number;
  /** The model also reads the previous token's embedding (ModelConfig.previousToken; absent: false). */
  previousToken?: boolean;
  /**
   * Go on from this checkpoint instead of fresh weights: its model (config and weights, of this
   * preset's shape) and its tokenizer (byte-level, so it encodes any corpus; a first phase made
   * with the same seed and corpus options learned its merges on this one).
   * A second phase after a first: a copying-heavy start that grew an induction head, then the
   * dialogues. `label` is recorded in the meta (with the file's CRC-32) so the result can be remade.
   */
  from?: { checkpoint: Checkpoint; label: string; crc32: number };
}

/**
 * Why a checkpoint cannot be gone on from (`from`) under these options, or undefined when it can:
 * its model must be of the preset's shape, and read the previous token exactly when the options
 * ask for it (undefined: as the checkpoint does). The command line asks before it picks a backend.
 */
export function fromMismatch(config: ModelConfig, preset: PresetName, previousToken?: boolean): string | undefined {
  if (!hasPresetShape(config, preset))
    return `its model is not of the ${preset} preset's shape (${JSON.stringify(config)}); name its own preset`;
  const reads = config.previousToken ?? false;
  if (previousToken !== undefined && previousToken !== reads)
    return `its model ${reads ? 'reads' : 'does not read'} the previous token, and the options ask for one that ${previousToken ? 'does' : 'does not'}`;
  return undefined;
}

/**
 * A phase a preset's recipe runs after its first, from the first's checkpoint: the same model,
 * tokenizer and trainer options, on a corpus of its own (its dialogues and reply mix).
 */
interface WarmStartPhase {
  steps: number;
  dialogues: number;
  corpus: NonNullable<WarmStartOptions['corpus']>;
}

/** A preset's warm-start recipe: its first phase's options, and the phase that follows it, if any. */
export type WarmStartRecipe = Omit<WarmStartOptions, 'preset' | 'seed'> & { then?: WarmStartPhase };

/** Held-out examples the periodic perplexity reads (the final figure reads them all). */
const HELDOUT_PROBE = 256;

/**
 * Per preset: what trains in reasonable time where that preset is meant to run. ci and micro read
 * long dialogues (up to 10 turns, so every position of the context a rollout fills is trained) and
 * learn the agent's lines only (what RL shapes and what the users read); docs/MODEL.md has the
 * recipes' curves and fluency.
 */
export const WARM_START_DEFAULTS: Record<PresetName, WarmStartRecipe> = {
  // ci: about 5 minutes on 2 wasm threads. Twice the default vocabulary: a story detail the reply
  // copies from the user is then more often one token than three, and breaks less often.
  ci: {
    steps: 6000,
    dialogues: 20000,
    corpus: { maxTurns: 10, turnDecay: 0.5, freshReplies: true },
    vocabSize: 2 * DEFAULT_VOCAB,
    sft: { ...SFT_DEFAULTS, batchSize: 8, seqLen: 256, lr: 3e-3, warmupSteps: 20, lossOn: 'agent' },
  },
  // micro: about 36 minutes on 2 wasm threads; windows of the whole 512-token context, the corpus
  // read about once (a second pass learns the training users' details and breaks more words), and
  // 4096 tokens, so most story details a reply copies from the user are one token (2048: 95.3% of
  // replies in real words, 4096: 97.5%; docs/MODEL.md).
  micro: {
    steps: 4000,
    dialogues: 20000,
    corpus: { maxTurns: 10, turnDecay: 0.5 },
    vocabSize: 4 * DEFAULT_VOCAB,
    sft: { ...SFT_DEFAULTS, batchSize: 8, seqLen: 512, lr: 2e-3, warmupSteps: 50, lossOn: 'agent' },
    // Then about 21 minutes more on a corpus where three tenths of the replies follow the need the
    // user's lines show and half join two strategies (docs/CORPUS.md): GRPO from it meets five
    // needs and scores 58.3 ± 2.2 against 46.2 ± 3.8 (docs/RESULTS.md, "From the `micro` warm
    // start"). Its replies are longer, and fewer are all real words before RL (94.6% against 96.7%).
    then: { steps: 1000, dialogues: 20000, corpus: { maxTurns: 10, turnDecay: 0.5, pairShare: 0.5, needShare: 0.3 } },
  },
  mini: {
    steps: 1500,
    dialogues: 4000,
    vocabSize: DEFAULT_VOCAB,
    sft: { ...SFT_DEFAULTS, batchSize: 32, seqLen: 256, lr: 1e-3, warmupSteps: 50 },
  },
  small: {
    steps: 3000,
    dialogues: 4000,
    vocabSize: DEFAULT_VOCAB,
    sft: { ...SFT_DEFAULTS, batchSize: 32, seqLen: 512, lr: 6e-4, warmupSteps: 100 },
  },
};

export interface WarmStartProgress {
  phase:
    'corpus' | 'tokenizer' | 'init' | 'perplexity-before' | 'training' | 'held-out' | 'perplexity-after' | 'saving';
  step?: SftStepMetrics;
  /**
   * With phase 'held-out': the step just taken, the held-out perplexity after it, and the perplexity
   * of the copies in the copying probe (copying.ts): near 1 once the model copies, in the thousands
   * while it does not.
   */
  heldOut?: { step: number; perplexity: number; copyPerplexity: number };
  /** Which phase of a recipe this is (runPresetWarmStart; absent from runWarmStart). */
  stage?: { index: number; count: number };
}

export interface WarmStartResult {
  checkpoint: Uint8Array;
  perplexityBefore: number;
  perplexityAfter: number;
  /** Perplexity a uniform guess over the vocabulary would have. */
  uniformPerplexity: number;
  losses: number[];
  trainTokens: number;
}

/**
 * `afterFirstStep`: awaited once after the first training step, when every matmul shape of the run
 * has been seen (the lab's worker times the matmul kernels there on WebGPU; same bits either way).
 * `onProgress` may return a promise, which is awaited: the worker yields a task there so a Cancel
 * sent meanwhile is read (a CPU step never waits on anything), and it may throw to stop the run.
 */
export async function runWarmStart(
  be: Backend,
  opts: WarmStartOptions,
  onProgress: (p: WarmStartProgress) => void | Promise<void> = () => {},
  afterFirstStep?: () => Promise<void>,
): Promise<WarmStartResult> {
  const copyShare = opts.copyShare ?? 0;
  if (!(copyShare >= 0 && copyShare < 1)) throw new Error(`copyShare must be in [0, 1), got ${copyShare}`);
  if (opts.copyWindow !== undefined && !(Number.isInteger(opts.copyWindow) && opts.copyWindow >= 16))
    throw new Error(`copyWindow must be a whole number of at least 16 tokens, got ${opts.copyWindow}`);
  const from = opts.from?.checkpoint;
  const mismatch = from && fromMismatch(from.config, opts.preset, opts.previousToken);
  if (mismatch) throw new Error(`the checkpoint gone on from: ${mismatch}`);
  onProgress({ phase: 'corpus' });
  const corpus = swapCorpus(
    buildCorpus({ ...opts.corpus, seed: opts.seed, dialogues: opts.dialogues }),
    opts.seed,
    opts.swapShare ?? 0,
  );
  onProgress({ phase: 'tokenizer' });
  const tokenizer = from ? Tokenizer.fromJSON(from.tokenizer) : Tokenizer.train(corpusTexts(corpus), opts.vocabSize);
  const config: ModelConfig = from
    ? from.config
    : {
        ...PRESETS[opts.preset],
        vocabSize: tokenizer.vocabSize,
        ...(opts.previousToken ? { previousToken: true } : {}),
      };
  const seqLen = Math.min(opts.sft.seqLen, config.contextLength);
  // Think-mode dialogues become one example per turn, its history as rollouts show it (no earlier
  // thoughts), fitted to the training window of seqLen + 1 tokens.
  const encode = (ds: typeof corpus.train): Encoded[] =>
    ds.flatMap((d) => encodeTrainingExamples(tokenizer, d.turns, seqLen + 1));
  const task = copyTask(seqLen + 1, tokenizer.vocabSize);
  const trainTask = copyTask(Math.min(opts.copyWindow ?? seqLen + 1, seqLen + 1), tokenizer.vocabSize);
  const dialogues = encode(corpus.train);
  const train = copyShare
    ? [
        ...dialogues,
        ...copyExamples(Math.round((dialogues.length * copyShare) / (1 - copyShare)), opts.seed, trainTask),
      ]
    : dialogues;
  const heldOut = encode(corpus.heldOut);
  const probe = copyProbe(task);
  onProgress({ phase: 'init' });
  const model = from ? new Transformer(be, config, from.weights) : Transformer.create(be, config, opts.seed);
  // Its device memory, and the trainer's, go back to the pool for the run that follows, whatever happens.
  let trainer: SftTrainer | null = null;
  try {
    const sft: SftOptions = {
      ...opts.sft,
      steps: opts.steps,
      seed: opts.seed,
      seqLen,
    };
    const evalOpts = { batchSize: sft.batchSize, seqLen: sft.seqLen, lossOn: 'agent' as const };
    onProgress({ phase: 'perplexity-before' });
    const perplexityBefore = await perplexity(model, heldOut, evalOpts);
    trainer = new SftTrainer(model, train, sft);
    const losses: number[] = [];
    let trainTokens = 0;
    for (let i = 0; i < opts.steps; i++) {
      const m = await trainer.trainStep();
      if (!Number.isFinite(m.loss))
        throw new Error(`the loss became ${m.loss} at step ${m.step}; try a lower learning rate`);
      losses.push(m.loss);
      trainTokens += m.tokens;
      await onProgress({ phase: 'training', step: m });
      if (i === 0 && afterFirstStep) await afterFirstStep();
      if (opts.evalEvery && (i + 1) % opts.evalEvery === 0 && i + 1 < opts.steps) {
        const ppl = await perplexity(model, heldOut.slice(0, HELDOUT_PROBE), evalOpts);
        const copyPerplexity = await perplexity(model, probe, evalOpts);
        onProgress({ phase: 'held-out', heldOut: { step: i + 1, perplexity: ppl, copyPerplexity } });
      }
    }
    onProgress({ phase: 'perplexity-after' });
    const perplexityAfter = await perplexity(model, heldOut, evalOpts);
    onProgress({ phase: 'saving' });
    const checkpoint = saveCheckpoint({
      config,
      tokenizer: tokenizer.toJSON(),
      weights: await model.readParams(),
      meta: {
        kind: 'warm-start',
        preset: opts.preset,
        seed: opts.seed,
        steps: opts.steps,
        dialogues: opts.dialogues,
        ...(opts.corpus ? { corpus: opts.corpus } : {}),
        ...(opts.swapShare ? { swapShare: opts.swapShare } : {}),
        ...(copyShare ? { copyShare } : {}),
        ...(copyShare && opts.copyWindow ? { copyWindow: trainTask.window } : {}),
        ...(opts.from ? { from: { label: opts.from.label, crc32: opts.from.crc32, meta: from?.meta ?? {} } } : {}),
        lossOn: sft.lossOn,
        backend: be.name,
        perplexityBefore,
        perplexityAfter,
      },
    });
    return {
      checkpoint,
      perplexityBefore,
      perplexityAfter,
      uniformPerplexity: tokenizer.vocabSize,
      losses,
      trainTokens,
    };
  } finally {
    trainer?.release();
    model.release();
  }
}

/** The file a preset's first phase alone makes, and the label its second phase records it by. */
export const firstPhaseLabel = (preset: PresetName): string => `warmstart-${preset}.bin`;

export interface PresetWarmStartOptions {
  preset: PresetName;
  seed: number;
  /** Over the first phase's options (the lab's steps and dialogues; the command line's flags). */
  first?: Partial<Omit<WarmStartOptions, 'preset' | 'seed' | 'from'>>;
  /** 1: the first phase only (default: every phase of the recipe). */
  phases?: 1 | 2;
  /** The recipe (default: WARM_START_DEFAULTS[preset]). */
  recipe?: WarmStartRecipe;
}

export interface PresetWarmStartResult extends WarmStartResult {
  /** Each phase run: its steps and held-out perplexity on its own corpus, before and after. */
  phases: { steps: number; perplexityBefore: number; perplexityAfter: number }[];
}

/**
 * A preset's whole warm start: its first phase from fresh weights, then its `then` phase from the
 * first's checkpoint, recorded as `warmstart-<preset>.bin` with that checkpoint's CRC-32. The same
 * bytes as the first phase written to that file and then `npm run pretrain -- --from` it with the
 * second phase's steps and corpus. Progress carries `stage`; the last phase's perplexities and
 * checkpoint are the result's, the losses and tokens are both phases'.
 */
export async function runPresetWarmStart(
  be: Backend,
  o: PresetWarmStartOptions,
  onProgress: (p: WarmStartProgress) => void | Promise<void> = () => {},
  afterFirstStep?: () => Promise<void>,
): Promise<PresetWarmStartResult> {
  const { then, ...recipe } = o.recipe ?? WARM_START_DEFAULTS[o.preset];
  const first: WarmStartOptions = { ...recipe, ...o.first, preset: o.preset, seed: o.seed };
  const count = then && o.phases !== 1 ? 2 : 1;
  const phase = (r: WarmStartResult, steps: number) => ({
    steps,
    perplexityBefore: r.perplexityBefore,
    perplexityAfter: r.perplexityAfter,
  });
  const one = await runWarmStart(be, first, (p) => onProgress({ ...p, stage: { index: 1, count } }), afterFirstStep);
  if (!then || count === 1) return { ...one, phases: [phase(one, first.steps)] };
  const two = await runWarmStart(
    be,
    {
      preset: o.preset,
      seed: o.seed,
      steps: then.steps,
      dialogues: then.dialogues,
      corpus: then.corpus,
      vocabSize: first.vocabSize,
      sft: first.sft,
      ...(first.evalEvery ? { evalEvery: first.evalEvery } : {}),
      from: {
        checkpoint: loadCheckpoint(one.checkpoint),
        label: firstPhaseLabel(o.preset),
        crc32: crc32(one.checkpoint),
      },
    },
    (p) => onProgress({ ...p, stage: { index: 2, count } }),
  );
  return {
    ...two,
    losses: [...one.losses, ...two.losses],
    trainTokens: one.trainTokens + two.trainTokens,
    phases: [phase(one, first.steps), phase(two, then.steps)],
  };
}
