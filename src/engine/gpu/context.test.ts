import { describe, expect, it } from 'vitest';
import { acquireGpu, adapterLine, describeAdapter, lostMessage, REQUIRED_LIMITS } from './context';

/** A fake adapter with the given limits and info; only what acquireGpu reads. */
function fakeAdapter(
  opts: {
    limits?: Partial<Record<string, number>>;
    info?: Partial<GPUAdapterInfo> & { isFallbackAdapter?: boolean };
    deviceThrows?: boolean;
  } = {},
) {
  const limits: Record<string, number> = {
    maxStorageBufferBindingSize: 1 << 30,
    maxBufferSize: 1 << 30,
    maxComputeWorkgroupStorageSize: 32768,
    maxComputeInvocationsPerWorkgroup: 1024,
    maxComputeWorkgroupSizeX: 1024,
    maxComputeWorkgroupSizeY: 1024,
    maxStorageBuffersPerShaderStage: 10,
    maxComputeWorkgroupsPerDimension: 65535,
    ...opts.limits,
  };
  let requested: GPUDeviceDescriptor | undefined;
  const adapter = {
    limits,
    features: new Set(['subgroups']),
    info: { vendor: 'acme', architecture: 'rdna9', device: 'x1', description: '', ...opts.info },
    async requestDevice(d: GPUDeviceDescriptor) {
      requested = d;
      if (opts.deviceThrows) throw new Error('boom');
      return { lost: new Promise(() => {}), limits } as unknown as GPUDevice;
    },
  };
  return { adapter: adapter as unknown as GPUAdapter, requested: () => requested };
}

const fakeGpu = (requestAdapter: () => Promise<GPUAdapter | null>) => ({ requestAdapter }) as unknown as GPU;

describe('acquireGpu', () => {
  it('says the browser has no WebGPU when navigator.gpu is missing', async () => {
    const r = await acquireGpu(undefined);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.failure.kind).toBe('no-webgpu');
      expect(r.failure.message).toMatch(/no WebGPU/);
    }
  });

  it('says no adapter was found when requestAdapter returns null', async () => {
    const r = await acquireGpu(fakeGpu(async () => null));
    expect(r.ok || r.failure.kind).toBe('no-adapter');
  });

  it('treats a throwing requestAdapter as its own case', async () => {
    const r = await acquireGpu(
      fakeGpu(async () => {
        throw new Error('blocklisted');
      }),
    );
    expect(r.ok || r.failure.kind).toBe('adapter-error');
    if (!r.ok) expect(r.failure.detail).toContain('blocklisted');
  });

  it('names each limit that is too low', async () => {
    const { adapter } = fakeAdapter({
      limits: { maxStorageBuffersPerShaderStage: 4, maxComputeWorkgroupStorageSize: 8192 },
    });
    const r = await acquireGpu(fakeGpu(async () => adapter));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.failure.kind).toBe('limits');
      expect(r.failure.message).toContain('maxStorageBuffersPerShaderStage 4 < 8');
      expect(r.failure.message).toContain('maxComputeWorkgroupStorageSize 8192 < 16384');
    }
  });

  it('reports a failed device creation', async () => {
    const { adapter } = fakeAdapter({ deviceThrows: true });
    const r = await acquireGpu(fakeGpu(async () => adapter));
    expect(r.ok || r.failure.kind).toBe('device-error');
  });

  it("raises limits to the adapter's and requests only the optional features it has", async () => {
    const { adapter, requested } = fakeAdapter();
    const r = await acquireGpu(fakeGpu(async () => adapter));
    expect(r.ok).toBe(true);
    const d = requested()!;
    expect((d.requiredLimits as Record<string, number>).maxStorageBufferBindingSize).toBe(1 << 30);
    expect((d.requiredLimits as Record<string, number>).maxComputeWorkgroupStorageSize).toBe(32768);
    expect([...(d.requiredFeatures ?? [])]).toEqual(['subgroups']);
    for (const [k, v] of Object.entries(REQUIRED_LIMITS))
      expect((d.requiredLimits as Record<string, number>)[k]).toBeGreaterThanOrEqual(v);
  });
});

describe('adapter description', () => {
  it('flags a software adapter from the info flag or its name', () => {
    const a = fakeAdapter({ info: { vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true } }).adapter;
    const s = describeAdapter(a.info, a);
    expect(s.isFallback).toBe(true);
    expect(adapterLine(s)).toMatch(/software fallback/);
    const b = fakeAdapter({ info: { vendor: 'google', architecture: 'swiftshader' } }).adapter;
    expect(describeAdapter(b.info, b).isFallback).toBe(true);
    const c = fakeAdapter().adapter;
    expect(describeAdapter(c.info, c).isFallback).toBe(false);
    expect(adapterLine(describeAdapter(c.info, c))).toBe('WebGPU adapter: acme rdna9 x1');
  });

  it('explains a lost device and tells the user what to do', () => {
    expect(lostMessage({ reason: 'unknown', message: 'driver reset' } as GPUDeviceLostInfo)).toMatch(
      /lost \(driver reset\).*checkpoint/,
    );
  });
});
