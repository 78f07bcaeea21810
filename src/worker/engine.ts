/**
 * The engine behind the worker: acquires WebGPU (or falls back to the CPU backend), checks the GPU
 * against the CPU reference on a small problem, and reports where the lab runs; then runs what the
 * page asks for: the supervised warm start, a demo dialogue (demo.ts), or an RL run (training.ts),
 * one at a time. engine.worker.ts only wires it to `self`; tests drive it in Node with their own `post`,
 * GPU acquisition and checkpoint loader.
 *
 * Every way of checking the GPU ends with a backend chosen: no WebGPU, no adapter, and also an
 * acquisition that throws (a browser bug, a blocklist that throws instead of answering null) fall
 * back to the CPU, so a run asked for meanwhile always starts.
 *
 * A lost device ends the open run (it says so, with the step reached) and the engine asks for a new
 * device at once; the page resumes the run from its last checkpoint on it.
 */
import { acquireGpu, adapterLine, lostMessage, type GpuAcquisition, type GpuContext } from '../engine/gpu/context';
import { WebGpuBackend } from '../engine/gpu/backend';
import { CpuBackend } from '../engine/cpu/backend';
import type { Backend } from '../engine/backend';
import { WasmBackend } from '../engine/wasm/backend';
import { PRESETS } from '../engine/model/config';
import { Transformer } from '../engine/model/transformer';
import { Rng } from '../engine/rng';
import { runPresetWarmStart, WARM_START_DEFAULTS } from '../experiment/warmstart';
import { LAB_MATMUL_TUNING, tuneMatmuls } from '../engine/ops/matmul';
import type {
  DemoRequest,
  EvaluateRequest,
  FromWorker,
  SelfTest,
  ToWorker,
  TrainAction,
  TrainStartRequest,
  WarmStartRequest,
} from './protocol';
import { playDemo } from './demo';
import { evaluateCheckpoint } from './evaluate';
import { ReferenceLm } from '../rl/reference-lm';
import { TrainSession } from './training';

export interface EngineIO {
  post(m: FromWorker, transfer?: Transferable[]): void;
  /** WebGPU acquisition (acquireGpu in the browser; tests pass their own). */
  acquire?(): Promise<GpuAcquisition>;
  /** Bytes of a checkpoint URL on the lab's origin (fetch in the worker). */
  fetchBytes?(url: string): Promise<Uint8Array>;
  /** The CPU path's backend (WasmBackend.create in the browser; tests pass their own). */
  createWasm?(): Promise<Backend>;
  /** The worker's own origin: checkpoints load only from it. */
  origin?: string;
}

export interface Engine {
  handle(msg: ToWorker): void;
  /** Resolves with the backend once the probe has chosen one (for tests). */
  readonly backendReady: Promise<Backend>;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A run that failed this shortly before the device was reported lost is counted as lost with it. */
const LOSS_ATTRIBUTION_MS = 10_000;

/**
 * Milliseconds of one short forward pass of the ci model (B = 1, T = 32) on `be`, after one
 * untimed pass (which compiles a GPU's pipelines): how the lab compares a software WebGPU adapter
 * with the CPU before it chooses.
 */
async function timeShortStep(be: Backend): Promise<number> {
  const model = Transformer.create(be, PRESETS.ci, 'probe');
  const T = 32;
  const ids = be.fromArray(
    Int32Array.from({ length: T }, (_, i) => (i * 37) % PRESETS.ci.vocabSize),
    [1, T],
  );
  try {
    await be.read(model.forward(ids, 1, T).logits);
    const t0 = performance.now();
    await be.read(model.forward(ids, 1, T).logits);
    return performance.now() - t0;
  } finally {
    be.release(ids);
    model.release();
  }
}

/** A residual add and a scale on 1,000 random values, on both backends; must agree to f32 rounding. */
async function selfTest(gpu: Backend): Promise<SelfTest> {
  const cpu = new CpuBackend();
  const rng = new Rng('self-test');
  const n = 1000;
  const a = Float32Array.from({ length: n }, () => rng.normal());
  const b = Float32Array.from({ length: n }, () => rng.normal());
  const run = async (be: Backend) => {
    const ta = be.fromArray(a, [n]);
    const tb = be.fromArray(b, [n]);
    const out = be.zeros([n]);
    be.add(out, ta, tb);
    be.scale(out, 0.5);
    return be.read(out);
  };
  const [want, got] = [await run(cpu), await run(gpu)];
  let maxAbsErr = 0;
  for (let i = 0; i < n; i++) maxAbsErr = Math.max(maxAbsErr, Math.abs(want[i] - got[i]));
  const ok = maxAbsErr <= 1e-6;
  return {
    ok,
    maxAbsErr,
    detail: ok ? 'GPU results match the CPU reference' : `GPU results differ from the CPU reference by ${maxAbsErr}`,
  };
}

async function defaultFetch(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`could not load ${new URL(url).pathname} (HTTP ${res.status})`);
  return new Uint8Array(await res.arrayBuffer());
}

export function createEngine(io: EngineIO): Engine {
  const post = io.post;
  const acquire = io.acquire ?? (() => acquireGpu());
  const fetchBytes = io.fetchBytes ?? defaultFetch;
  /** The backend the probe chose; training runs on it. */
  let backend: Backend | null = null;
  let gpu: GpuContext | null = null;
  let busy = false;
  /** The checkpoint of the last warm start, for the demo and as a start of RL runs. */
  let lastCheckpoint: Uint8Array | null = null;
  /** The RL run, while it has not ended (paused included: it holds the model). */
  let session: TrainSession | null = null;
  /** Resolves once the probe has chosen a backend, so a run asked for early waits for it. */
  let backendChosen: (be: Backend) => void = () => {};
  let backendReady = new Promise<Backend>((r) => (backendChosen = r));
  /** Starting checkpoints fetched this session, by URL: Reset and the next run start without a download. */
  const fetched = new Map<string, Uint8Array>();
  /** A test asked for the loss (the device is then 'destroyed', which is otherwise the lab's own doing). */
  let lossForced = false;

  const activeSession = () => (session && !session.ended ? session : null);

  const choose = (be: Backend) => {
    backend = be;
    backendChosen(be);
  };

  /** The CPU path: the wasm backend (threads where the page is cross-origin isolated), else the JavaScript one. */
  const cpuBackend = async (): Promise<Backend> => {
    try {
      return await (io.createWasm ?? (() => WasmBackend.create()))();
    } catch {
      return new CpuBackend();
    }
  };

  const toCpu = async (
    why: string,
    failure: {
      kind: 'no-webgpu' | 'no-adapter' | 'adapter-error' | 'limits' | 'device-error';
      message: string;
      detail?: string;
    },
  ) => {
    gpu = null;
    const be = await cpuBackend();
    choose(be);
    post({
      type: 'backend',
      backend: be.name,
      line: `${be.description} (${why})`,
      adapter: null,
      failure,
      selfTest: null,
    });
  };

  async function probe(force: 'cpu' | 'webgpu' | null): Promise<void> {
    if (force === 'cpu') {
      await toCpu('chosen in the URL: ?backend=cpu', {
        kind: 'no-adapter',
        message: 'The CPU backend was requested in the URL (?backend=cpu); remove it to use WebGPU.',
      });
      return;
    }
    let acq: GpuAcquisition;
    let be: WebGpuBackend;
    try {
      acq = await acquire();
      if (!acq.ok) {
        await toCpu('no WebGPU', acq.failure);
        return;
      }
      be = new WebGpuBackend(acq.ctx);
    } catch (e) {
      // Not "no adapter" but a throw: still a choice, or a run asked for now would wait for ever.
      await toCpu('checking the GPU failed', {
        kind: 'adapter-error',
        message: `Checking the GPU failed with an error (${messageOf(e)}); the lab runs on the CPU backend meanwhile. Reload to try the GPU again.`,
        detail: e instanceof Error && e.stack ? e.stack : messageOf(e),
      });
      return;
    }
    const ctx = acq.ctx;
    gpu = ctx;
    void ctx.lost.then((info) =>
      onLost(ctx, lossForced ? 'The GPU device was lost (forced by the test hook).' : lostMessage(info)),
    );
    let test: SelfTest;
    try {
      test = await selfTest(be);
    } catch (e) {
      test = { ok: false, maxAbsErr: Infinity, detail: `GPU self-test failed: ${messageOf(e)}` };
    }
    if (ctx.summary.isFallback && force !== 'webgpu') {
      // A software adapter: train where one short step is faster (SwiftShader is often slower than the CPU).
      const cpu = await cpuBackend();
      const [gpuMs, cpuMs] = [await timeShortStep(be), await timeShortStep(cpu)];
      const chosen = cpuMs < gpuMs ? cpu : be;
      const choice = { chose: chosen.name, cpuMs, gpuMs, adapter: adapterLine(ctx.summary) };
      const line =
        chosen === cpu
          ? `${cpu.description}, faster here than the software WebGPU adapter`
          : `${adapterLine(ctx.summary)}; faster here than the CPU`;
      if (chosen === cpu) {
        gpu = null;
        ctx.device.destroy();
      } else if (cpu instanceof WasmBackend) cpu.dispose();
      choose(chosen);
      post({
        type: 'backend',
        backend: chosen.name,
        line,
        adapter: ctx.summary,
        failure: null,
        selfTest: test,
        choice,
      });
      return;
    }
    choose(be);
    // Rollouts on this device sample with f16 KV caches and half copies of the weights
    // (Backend.defaultKvCache, defaultDecodeWeights): say so where it is the case.
    const half = [
      be.defaultDecodeWeights === 'f16' ? 'half copies of the weights' : '',
      be.defaultKvCache === 'f16' ? 'f16 KV caches' : '',
    ].filter(Boolean);
    const line = adapterLine(ctx.summary) + (half.length ? `; rollouts decode with ${half.join(' and ')}` : '');
    post({ type: 'backend', backend: 'webgpu', line, adapter: ctx.summary, failure: null, selfTest: test });
  }

  /** The device is gone: end the open run, tell the page, and ask for a new device for what comes next. */
  function onLost(ctx: GpuContext, message: string): void {
    if (gpu !== ctx) return;
    lossForced = false;
    gpu = null;
    backend = null;
    backendReady = new Promise<Backend>((r) => (backendChosen = r));
    const open = activeSession();
    open?.lose(message);
    // A read on the lost device can fail before `lost` resolves: a run that failed just now failed of this.
    const victim =
      open ??
      (session &&
      session.state === 'failed' &&
      session.endedAt !== null &&
      performance.now() - session.endedAt < LOSS_ATTRIBUTION_MS
        ? session
        : null);
    post({ type: 'device-lost', message, ...(victim ? { runId: victim.runId, step: victim.step } : {}) });
    // Queued work of the lost device settles first; then a new device (or the CPU) takes over.
    const next = open ? open.finished : Promise.resolve();
    void next.then(() => probe(null)).catch((e) => post({ type: 'error', message: messageOf(e) }));
  }

  /** How often a warm start on the CPU yields a task between its steps (a GPU step waits on the GPU anyway). */
  const YIELD_EVERY_MS = 100;
  /** Cancel asked for the warm start in progress: its next progress report throws this. */
  let warmCancel = false;
  class WarmStartCancelled extends Error {}

  /** The supervised warm start on this worker's backend, with progress at most ~10 times a second. */
  async function warmStart(req: WarmStartRequest): Promise<void> {
    if (!backend) throw new Error('the engine is still checking the GPU; try again in a moment');
    if (busy) throw new Error('a run is already in progress');
    if (activeSession()) throw new Error('an RL run is open in the lab; stop or reset it first');
    busy = true;
    warmCancel = false;
    try {
      const t0 = performance.now();
      let lastPost = 0;
      let lastYield = performance.now();
      // The preset's whole recipe: the first phase of the steps and dialogues asked for, then its
      // second phase (micro's) as the recipe has it; progress counts the steps of both.
      const then = WARM_START_DEFAULTS[req.preset].then;
      const totalSteps = req.steps + (then?.steps ?? 0);
      const gpu = backend instanceof WebGpuBackend ? backend : null;
      const result = await runPresetWarmStart(
        backend,
        { preset: req.preset, seed: req.seed, first: { steps: req.steps, dialogues: req.dialogues } },
        (p) => {
          // Between steps (and phases): the model and trainer are released by runWarmStart's own finally.
          if (warmCancel) throw new WarmStartCancelled('cancelled');
          const now = performance.now();
          // A task between training steps, now and then, so a Cancel sent meanwhile is read.
          const yieldTask =
            p.phase === 'training' && now - lastYield >= YIELD_EVERY_MS
              ? new Promise<void>((r) => setTimeout(r, 0)).then(() => {
                  lastYield = performance.now();
                  if (warmCancel) throw new WarmStartCancelled('cancelled');
                })
              : undefined;
          const step = p.step ? p.step.step + (p.stage?.index === 2 ? req.steps : 0) : 0;
          const last = step === totalSteps;
          if (p.phase === 'training' && !last && now - lastPost < 100) return yieldTask;
          lastPost = now;
          post({
            type: 'warm-start-progress',
            phase: p.phase,
            step,
            steps: totalSteps,
            loss: p.step?.loss ?? null,
          });
          return yieldTask;
        },
        // As an RL run does: after the first step, time the big-matmul kernels on its shapes.
        gpu ? async () => void (await tuneMatmuls(gpu, LAB_MATMUL_TUNING)) : undefined,
      );
      lastCheckpoint = result.checkpoint;
      const checkpoint = result.checkpoint.slice().buffer as ArrayBuffer; // a copy to transfer; the worker keeps its own
      post(
        {
          type: 'warm-start-done',
          report: {
            backend: backend.name,
            seconds: (performance.now() - t0) / 1000,
            perplexityBefore: result.perplexityBefore,
            perplexityAfter: result.perplexityAfter,
            uniformPerplexity: result.uniformPerplexity,
            losses: result.losses,
            checkpoint,
          },
        },
        [checkpoint],
      );
    } finally {
      busy = false;
    }
  }

  /** Controls of a paused run that came while a demo dialogue played beside it: applied when it ends. */
  let heldControls: TrainAction[] | null = null;

  /**
   * Play one benchmark user against a checkpoint and report the dialogue with every appraisal. A
   * paused RL run may stay open meanwhile (its controls wait for the dialogue to end).
   */
  async function demoDialogue(req: DemoRequest): Promise<void> {
    if (!backend) throw new Error('the engine is still checking the GPU; try again in a moment');
    if (busy) throw new Error('a run is already in progress');
    const open = activeSession();
    if (open && open.state !== 'paused') throw new Error('an RL run is training in the lab; pause it first');
    busy = true;
    heldControls = [];
    try {
      const bytes = req.checkpointBytes ? new Uint8Array(req.checkpointBytes) : await loadStart(req.checkpoint);
      post({ type: 'demo-done', report: await playDemo(backend, bytes, req) });
    } finally {
      busy = false;
      const held = heldControls ?? [];
      heldControls = null;
      for (const action of held) session?.control(action);
    }
  }

  /** Score a saved run's checkpoint on the benchmark (no session open for it; not beside another job). */
  async function evaluateSaved(req: EvaluateRequest): Promise<void> {
    if (!backend) throw new Error('the engine is still checking the GPU; try again in a moment');
    if (busy) throw new Error('the warm start or a demo dialogue is running; try again when it has finished');
    const open = activeSession();
    if (open && open.state !== 'paused') throw new Error('an RL run is training in the lab; pause it first');
    busy = true;
    heldControls = [];
    try {
      const lm = req.referenceModel
        ? ReferenceLm.parse(new TextDecoder().decode(await loadStart(req.referenceModel)), 'reference model')
        : null;
      const r = await evaluateCheckpoint(backend, req, lm);
      post({
        type: 'evaluate-done',
        runId: req.runId,
        step: r.step,
        summary: r.summary,
        breakdown: r.breakdown,
        dialogues: r.dialogues,
      });
    } finally {
      busy = false;
      const held = heldControls ?? [];
      heldControls = null;
      for (const action of held) session?.control(action);
    }
  }

  /** A checkpoint from the lab's own origin (fetched once per URL), or the warm start trained in this tab. */
  async function loadStart(start: string): Promise<Uint8Array> {
    if (start === 'last') {
      if (!lastCheckpoint) throw new Error('no warm start has been trained in this tab yet');
      return lastCheckpoint;
    }
    const url = new URL(start);
    if (io.origin !== undefined && url.origin !== io.origin)
      throw new Error("checkpoints load only from the lab's own origin");
    const known = fetched.get(url.href);
    if (known) return known;
    const bytes = await fetchBytes(url.href);
    fetched.set(url.href, bytes);
    return bytes;
  }

  /** Controls for runs whose start is still waiting (for the probe, or for the last run to end). */
  const earlyControls = new Map<string, TrainAction[]>();

  /**
   * Start an RL run once the backend is chosen; one at a time, and not beside a warm start or demo.
   * A run that was asked to stop or reset ends first (its step in flight finishes), so Reset then
   * Train in quick succession just works.
   */
  async function trainStart(req: TrainStartRequest): Promise<void> {
    earlyControls.set(req.runId, []);
    try {
      const open = activeSession();
      if (open?.ending) await open.finished;
      else if (open) throw new Error('another run is still open; stop or reset it first');
      const be = await backendReady;
      if (busy) throw new Error('the warm start or a demo dialogue is running; try again when it has finished');
      session = new TrainSession(be, req, { post, load: loadStart });
      for (const action of earlyControls.get(req.runId) ?? []) session.control(action);
    } finally {
      earlyControls.delete(req.runId);
    }
  }

  return {
    get backendReady() {
      return backendReady;
    },
    handle(msg) {
      if (msg.type === 'probe') {
        probe(msg.force).catch((e) => post({ type: 'error', message: messageOf(e) }));
      } else if (msg.type === 'warm-start') {
        warmStart(msg.request).catch((e) =>
          post(
            e instanceof WarmStartCancelled
              ? { type: 'warm-start-cancelled' }
              : { type: 'warm-start-failed', message: messageOf(e) },
          ),
        );
      } else if (msg.type === 'warm-start-cancel') {
        warmCancel = true;
      } else if (msg.type === 'demo-dialogue') {
        demoDialogue(msg.request).catch((e) => post({ type: 'demo-failed', message: messageOf(e) }));
      } else if (msg.type === 'evaluate-checkpoint') {
        evaluateSaved(msg.request).catch((e) =>
          post({ type: 'evaluate-failed', runId: msg.request.runId, message: messageOf(e) }),
        );
      } else if (msg.type === 'train-start') {
        trainStart(msg.request).catch((e) => {
          post({ type: 'train-error', runId: msg.request.runId, step: 0, message: messageOf(e) });
          post({
            type: 'train-progress',
            runId: msg.request.runId,
            state: 'failed',
            phase: `Could not start: ${messageOf(e)}`,
            step: 0,
            steps: msg.request.config.steps,
            rows: [],
            dialogues: [],
          });
        });
      } else if (msg.type === 'train-control') {
        if (session?.runId === msg.runId && heldControls) heldControls.push(msg.action);
        else if (session?.runId === msg.runId) session.control(msg.action);
        else earlyControls.get(msg.runId)?.push(msg.action);
      } else if (msg.type === 'test-lose-device') {
        if (!gpu)
          return post({
            type: 'error',
            message: 'test hook: there is no GPU device to lose (the lab runs on the CPU)',
          });
        lossForced = true;
        gpu.device.destroy();
      }
    },
  };
}
