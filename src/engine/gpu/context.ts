/**
 * WebGPU acquisition: adapter, device with limits raised from the adapter's, optional features,
 * and a distinct, plain-language failure for each way it can go wrong (no WebGPU in this browser,
 * no adapter, the adapter throwing, a limit too low, device creation failing). The lost-device
 * promise is exposed so the caller can pause and explain. Runs in a Worker or a page (no DOM use).
 * Not here: buffers, pipelines (see backend.ts).
 */

/** Limits the engine cannot work without (the WebGPU defaults, which every conformant adapter meets). */
export const REQUIRED_LIMITS = {
  maxStorageBuffersPerShaderStage: 8,
  maxComputeWorkgroupStorageSize: 16384,
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupSizeX: 256,
  maxStorageBufferBindingSize: 64 * 1024 * 1024,
} as const;

/** Limits we ask to raise to whatever the adapter offers. */
const RAISED_LIMITS = [
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxStorageBuffersPerShaderStage',
  'maxComputeWorkgroupsPerDimension',
] as const;

const OPTIONAL_FEATURES = ['shader-f16', 'subgroups', 'timestamp-query'] as const;

export interface AdapterSummary {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** A software implementation (SwiftShader, WARP, lavapipe): correct but slow. */
  isFallback: boolean;
  features: string[];
  limits: Record<string, number>;
}

export interface GpuContext {
  adapter: GPUAdapter;
  device: GPUDevice;
  summary: AdapterSummary;
  /** Resolves when the device is lost (driver reset, out of memory, tab in background on some OSes). */
  lost: Promise<GPUDeviceLostInfo>;
}

type GpuFailureKind = 'no-webgpu' | 'no-adapter' | 'adapter-error' | 'limits' | 'device-error';

export interface GpuFailure {
  kind: GpuFailureKind;
  /** One sentence a person can act on. */
  message: string;
  /** Technical detail for the diagnostics box. */
  detail?: string;
}

export type GpuAcquisition = { ok: true; ctx: GpuContext } | { ok: false; failure: GpuFailure };

export function describeAdapter(info: GPUAdapterInfo | undefined, adapter: GPUAdapter): AdapterSummary {
  const vendor = info?.vendor || 'unknown vendor';
  const architecture = info?.architecture || '';
  const device = info?.device || '';
  const description = info?.description || [vendor, architecture, device].filter(Boolean).join(' ');
  // isFallbackAdapter moved from GPUAdapter to GPUAdapterInfo; read both.
  const legacy = (adapter as unknown as { isFallbackAdapter?: boolean }).isFallbackAdapter;
  const infoFlag = (info as unknown as { isFallbackAdapter?: boolean } | undefined)?.isFallbackAdapter;
  const looksSoftware = /swiftshader|llvmpipe|lavapipe|warp|software/i.test(
    `${vendor} ${architecture} ${device} ${description}`,
  );
  const limits: Record<string, number> = {};
  for (const k of RAISED_LIMITS) limits[k] = Number(adapter.limits[k]);
  return {
    vendor,
    architecture,
    device,
    description,
    isFallback: Boolean(infoFlag ?? legacy ?? false) || looksSoftware,
    features: [...adapter.features].map(String).sort(),
    limits,
  };
}

/** The one line the lab shows about where it runs. */
export function adapterLine(s: AdapterSummary): string {
  const name = [s.vendor, s.architecture, s.device].filter(Boolean).join(' ') || s.description;
  return s.isFallback
    ? `WebGPU adapter: ${name} — a software fallback: correct but slow (no GPU acceleration)`
    : `WebGPU adapter: ${name}`;
}

export async function acquireGpu(
  gpu: GPU | undefined = (globalThis.navigator as Navigator | undefined)?.gpu,
  opts: { powerPreference?: GPUPowerPreference } = {},
): Promise<GpuAcquisition> {
  if (!gpu) {
    return fail(
      'no-webgpu',
      'This browser has no WebGPU. Use a recent Chrome or Edge (113+), Safari 26, or Firefox 141+ on Windows; the lab runs on the CPU backend meanwhile.',
    );
  }
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: opts.powerPreference ?? 'high-performance' });
  } catch (e) {
    return fail(
      'adapter-error',
      'The browser refused to hand out a GPU adapter (the GPU may be blocklisted). On Linux Chrome, try chrome://flags/#enable-unsafe-webgpu; the lab runs on the CPU backend meanwhile.',
      String(e),
    );
  }
  if (!adapter) {
    return fail(
      'no-adapter',
      'WebGPU is present but no GPU adapter was found (common on Linux, or with the GPU disabled). Enable chrome://flags/#enable-unsafe-webgpu or update the graphics driver; the lab runs on the CPU backend meanwhile.',
    );
  }
  const info = adapter.info;
  const summary = describeAdapter(info, adapter);
  const low = (Object.keys(REQUIRED_LIMITS) as (keyof typeof REQUIRED_LIMITS)[]).filter(
    (k) => Number(adapter.limits[k]) < REQUIRED_LIMITS[k],
  );
  if (low.length > 0) {
    return fail(
      'limits',
      `This GPU's limits are too low for the lab (${low.map((k) => `${k} ${adapter.limits[k]} < ${REQUIRED_LIMITS[k]}`).join(', ')}); only the CPU presets will run.`,
      JSON.stringify(summary.limits),
    );
  }
  const requiredLimits: Record<string, number> = {};
  for (const k of RAISED_LIMITS) requiredLimits[k] = Number(adapter.limits[k]);
  const requiredFeatures = OPTIONAL_FEATURES.filter((f) => adapter.features.has(f)) as GPUFeatureName[];
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredLimits, requiredFeatures, label: 'empathy-rl-lab' });
  } catch (e) {
    return fail(
      'device-error',
      'The GPU adapter was found but creating a device on it failed; the lab runs on the CPU backend meanwhile.',
      String(e),
    );
  }
  return { ok: true, ctx: { adapter, device, summary, lost: device.lost } };
}

/** The message for a lost device (shown while the run pauses). */
export function lostMessage(info: GPUDeviceLostInfo): string {
  if (info.reason === 'destroyed') return 'The GPU device was closed by the lab.';
  return `The GPU device was lost (${info.message || 'no reason given'}). This happens after a driver reset or when the GPU runs out of memory. The run is paused; resume from the last checkpoint, or pick a smaller preset.`;
}

function fail(kind: GpuFailureKind, message: string, detail?: string): GpuAcquisition {
  return { ok: false, failure: { kind, message, detail } };
}
