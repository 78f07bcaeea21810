/**
 * Store: the Chat view. A saved policy is exported to ONNX in the page (with past/present K/V) and
 * run by onnxruntime-web (WebGPU execution provider on a real GPU, wasm otherwise or where WebGPU
 * fails); then either the person talks with it (they write the user's lines), or a simulated
 * benchmark user talks with it and scores every reply live (change, emotion, appraisal), one reply
 * per click or to the dialogue's end.
 *
 * Prompts follow the training format (format.ts, non-think system line); a dialogue longer than the
 * context keeps its system line and drops its oldest turns. Decoding: greedy, or sampled with a
 * temperature and top-p from a seeded generator (same seed, same replies).
 */
import { create } from 'zustand';
import type { ModelConfig } from '../../engine/model/config';
import { agentTurnPrefix, encodeDialogue, parseAgentTurn, SYSTEM_LINE, type Turn } from '../../engine/model/format';
import type { SamplingOptions } from '../../engine/model/sampler';
import { Tokenizer } from '../../engine/model/tokenizer';
import { Rng } from '../../engine/rng';
import { exportOnnx } from '../../onnx/export';
import { createPolicySession, generateOnnx, type ExecutionProvider, type PolicySession } from '../../onnx/session';
import { START_EMOTION, type EndReason } from '../../persona/dynamics';
import { benchmarkProfiles } from '../../persona/sets';
import { createSimulatedUser, restoreSimulatedUser, type UserState } from '../../persona/user';
import { parseCheckpoint, sourceBytes } from './sources';

/** Tokens per reply at most (the benchmark's cap). */
const CHAT_REPLY_TOKENS = 64;
export const CHAT_TURN_CAP = 10;

export type Runtime = 'auto' | ExecutionProvider;

export interface ChatTurn {
  role: 'user' | 'agent';
  text: string;
  /** Agent turns: tokens generated and the time they took. */
  tokens?: number;
  ms?: number;
  /** Agent turns scored by a simulated user. */
  change?: number;
  emotion?: number;
  appraisal?: { intent: string; fit: string; inner: string };
}

interface LoadedPolicy {
  label: string;
  config: ModelConfig;
  ep: ExecutionProvider;
  /** Why WebGPU was not used, when it was tried and not used. */
  fallback: string | null;
  loadMs: number;
  onnxBytes: number;
}

interface SimulatedDialogue {
  profileId: string;
  user: UserState;
  endReason: EndReason | null;
  startEmotion: number;
}

interface ChatState {
  sourceId: string;
  runtime: Runtime;
  status: 'idle' | 'loading' | 'ready' | 'busy';
  error: string | null;
  policy: LoadedPolicy | null;
  mode: 'you' | 'simulated';
  greedy: boolean;
  temperature: number;
  topP: number;
  seed: number;
  profileId: string;
  draft: string;
  turns: ChatTurn[];
  sim: SimulatedDialogue | null;
  setSource(id: string): void;
  setRuntime(r: Runtime): void;
  setMode(m: 'you' | 'simulated'): void;
  setDecoding(d: Partial<Pick<ChatState, 'greedy' | 'temperature' | 'topP' | 'seed'>>): void;
  setProfile(id: string): void;
  setDraft(text: string): void;
  load(label?: string): Promise<void>;
  loadFile(file: File): Promise<void>;
  clear(): void;
  send(): Promise<void>;
  startSimulated(): void;
  nextReply(): Promise<void>;
  playToEnd(): Promise<void>;
}

interface Live {
  ps: PolicySession;
  tok: Tokenizer;
  config: ModelConfig;
}

let live: Live | null = null;
let rng = new Rng(0);

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The WebGPU EP on a real adapter; wasm on a software adapter (SwiftShader) or without WebGPU. */
async function autoProviders(): Promise<ExecutionProvider[]> {
  try {
    const adapter = await navigator.gpu?.requestAdapter();
    if (!adapter) return ['wasm'];
    const info = (adapter as GPUAdapter & { info?: { isFallbackAdapter?: boolean } }).info;
    return info?.isFallbackAdapter ? ['wasm'] : ['webgpu', 'wasm'];
  } catch {
    return ['wasm'];
  }
}

/** The prompt for the next agent turn: bos, system, as many recent turns as fit, <|agent|>. */
function chatPrompt(tok: Tokenizer, config: ModelConfig, turns: readonly ChatTurn[]): number[] {
  const system: Turn = { role: 'system', text: SYSTEM_LINE };
  const budget = config.contextLength - CHAT_REPLY_TOKENS - 1;
  let history: Turn[] = turns.map((t) => ({ role: t.role, text: t.text }));
  for (;;) {
    const ids = [...encodeDialogue(tok, [system, ...history]).ids, ...agentTurnPrefix(tok)];
    if (ids.length <= budget) return ids;
    if (history.length <= 1) return [...ids.slice(0, 1), ...ids.slice(ids.length - budget + 1)];
    history = history.slice(1);
  }
}

export const useChat = create<ChatState>((set, get) => {
  const sampling = (): SamplingOptions => {
    const s = get();
    return s.greedy ? { temperature: 0, topK: 0, topP: 1 } : { temperature: s.temperature, topK: 0, topP: s.topP };
  };

  /** One policy reply to the dialogue so far. */
  const reply = async (turns: readonly ChatTurn[]): Promise<ChatTurn> => {
    if (!live) throw new Error('load a policy first');
    const { ort } = await import('../../onnx/ortBrowser');
    const { tok, config, ps } = live;
    const t0 = performance.now();
    const out = await generateOnnx(ort, ps, config, chatPrompt(tok, config, turns), {
      maxNewTokens: CHAT_REPLY_TOKENS,
      stop: [tok.special('<|end|>')],
      sampling: sampling(),
      rng,
    });
    return {
      role: 'agent',
      text: parseAgentTurn(tok, out, false).reply,
      tokens: out.length,
      ms: performance.now() - t0,
    };
  };

  const install = async (bytes: Uint8Array, label: string) => {
    const t0 = performance.now();
    const ck = parseCheckpoint(bytes, label);
    const tok = Tokenizer.fromJSON(ck.tokenizer);
    const onnx = exportOnnx(ck, { kvCache: true, values: false });
    const { ort } = await import('../../onnx/ortBrowser');
    const runtime = get().runtime;
    const eps: ExecutionProvider[] = runtime === 'auto' ? await autoProviders() : [runtime];
    let ps = await createPolicySession(ort, onnx, eps);
    let fallback =
      ps.fallbacks.length > 0
        ? ps.fallbacks.join('; ')
        : runtime === 'auto' && eps[0] === 'wasm'
          ? 'no hardware WebGPU adapter (software or none)'
          : null;
    // A first token here, so a provider that loads but cannot run is found now, not mid-dialogue.
    try {
      await generateOnnx(ort, ps, ck.config, [tok.special('<|bos|>')], {
        maxNewTokens: 1,
        stop: [],
        sampling: { temperature: 0, topK: 0, topP: 1 },
        rng: new Rng(0),
      });
    } catch (e) {
      if (ps.ep !== 'webgpu' || !eps.includes('wasm')) throw e;
      await ps.session.release();
      fallback = `webgpu: ${message(e)}`;
      ps = await createPolicySession(ort, onnx, ['wasm']);
    }
    if (live) await live.ps.session.release().catch(() => undefined);
    live = { ps, tok, config: ck.config };
    rng = new Rng(get().seed);
    set({
      status: 'ready',
      error: null,
      turns: [],
      sim: null,
      policy: { label, config: ck.config, ep: ps.ep, fallback, loadMs: performance.now() - t0, onnxBytes: onnx.length },
    });
  };

  const guarded = async (busy: 'loading' | 'busy', work: () => Promise<void>) => {
    const before = get().status;
    if (before === 'loading' || before === 'busy') return;
    set({ status: busy, error: null });
    try {
      await work();
      if (get().status === busy) set({ status: live ? 'ready' : 'idle' });
    } catch (e) {
      set({ status: live ? 'ready' : 'idle', error: message(e) });
    }
  };

  return {
    sourceId: 'shipped:micro',
    runtime: 'auto',
    status: 'idle',
    error: null,
    policy: null,
    mode: 'you',
    greedy: true,
    temperature: 0.7,
    topP: 0.9,
    seed: 1,
    profileId: benchmarkProfiles()[0].id,
    draft: '',
    turns: [],
    sim: null,
    setSource: (sourceId) => set({ sourceId }),
    setRuntime: (runtime) => set({ runtime }),
    setMode: (mode) => set({ mode, turns: [], sim: null }),
    setDecoding: (d) => set(d),
    setProfile: (profileId) => set({ profileId }),
    setDraft: (draft) => set({ draft }),
    load: (label) =>
      guarded('loading', async () => install(await sourceBytes(get().sourceId), label ?? get().sourceId)),
    loadFile: (file) => guarded('loading', async () => install(new Uint8Array(await file.arrayBuffer()), file.name)),
    clear() {
      rng = new Rng(get().seed);
      set({ turns: [], sim: null, error: null });
    },
    send: () =>
      guarded('busy', async () => {
        const text = get().draft.trim();
        if (text === '') return;
        const turns: ChatTurn[] = [...get().turns, { role: 'user', text }];
        set({ draft: '', turns });
        const r = await reply(turns);
        set({ turns: [...turns, r] });
      }),
    startSimulated() {
      const profile = benchmarkProfiles().find((p) => p.id === get().profileId);
      if (!profile) return set({ error: `No benchmark profile "${get().profileId}".` });
      const user = createSimulatedUser(profile, { seed: 0, difficulty: 'moderate', mode: 'benchmark' });
      rng = new Rng(get().seed);
      set({
        error: null,
        turns: [{ role: 'user', text: user.opening }],
        sim: { profileId: profile.id, user: user.state, endReason: null, startEmotion: START_EMOTION.benchmark },
      });
    },
    nextReply: () =>
      guarded('busy', async () => {
        const sim = get().sim;
        if (!sim || sim.endReason !== null) return;
        const profile = benchmarkProfiles().find((p) => p.id === sim.profileId)!;
        const r = await reply(get().turns);
        const user = restoreSimulatedUser(profile, sim.user);
        const res = user.respond(r.text);
        const a = res.appraisal;
        const scored: ChatTurn = {
          ...r,
          change: res.change,
          emotion: res.emotion,
          appraisal: { intent: a.intent, fit: a.fit, inner: a.inner },
        };
        const turns: ChatTurn[] = [...get().turns, scored];
        if (res.line.trim() !== '') turns.push({ role: 'user', text: res.line });
        set({ turns, sim: { ...sim, user: user.state, endReason: res.endReason } });
      }),
    async playToEnd() {
      for (let i = 0; i < CHAT_TURN_CAP; i++) {
        const s = get().sim;
        if (!s || s.endReason !== null || get().error) return;
        await get().nextReply();
      }
    },
  };
});
