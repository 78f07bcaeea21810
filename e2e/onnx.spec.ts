/**
 * Parity of the ONNX export in headless Chromium: each preset that fits is exported with random
 * weights and run by onnxruntime-web, on the WebGPU execution provider (SwiftShader here) and on
 * wasm; its logits and values must match our engine's CPU forward to 1e-4, one-shot and through
 * the KV cache. The WebGPU EP is tried for every preset; where it fails the test says so and the
 * wasm result stands (wasm must always pass). The page must fetch nothing from another origin
 * (onnxruntime-web's wasm binary comes from the dev server).
 */
import { test, expect, type Page } from '@playwright/test';
import type { ParityResult } from './harness/onnx';

const TOLERANCE = 1e-4;
/** Presets and shapes that fit CI time on a software adapter (small: the Node test, src/onnx/export.test.ts). */
const CASES = [
  { preset: 'ci', B: 2, T: 12 },
  { preset: 'micro', B: 2, T: 8 },
  { preset: 'mini', B: 1, T: 6 },
] as const;

let page: Page;
const foreign: string[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, baseURL }) => {
  page = await browser.newPage();
  const origin = new URL(baseURL!).origin;
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) foreign.push(u);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[page] ${m.text()}`);
  });
  await page.goto('/e2e/harness/onnx.html');
  await page.waitForFunction(() => Boolean(window.__onnxHarness));
});

test.afterAll(async () => {
  await page?.close();
});

function check(r: ParityResult): void {
  expect(r.maxLogit, 'the logits are not near zero (the comparison means something)').toBeGreaterThan(0.5);
  expect(r.logitsDiff, `${r.preset} on ${r.ep}: logits`).toBeLessThan(TOLERANCE);
  expect(r.valuesDiff, `${r.preset} on ${r.ep}: values`).toBeLessThan(TOLERANCE);
  expect(r.kvLogitsDiff, `${r.preset} on ${r.ep}: logits through the KV cache`).toBeLessThan(TOLERANCE);
}

for (const { preset, B, T } of CASES) {
  test(`${preset}: onnxruntime-web logits match the engine to 1e-4 (WebGPU EP where it works, wasm always)`, async () => {
    const hasGpu = await page.evaluate(() => window.__onnxHarness.hasGpu);
    expect(hasGpu, 'navigator.gpu must exist: run Chromium with --enable-unsafe-webgpu').toBe(true);
    const gpu = await page.evaluate(([p, b, t]) => window.__onnxHarness.parity(p as 'ci', 'webgpu', b, t), [
      preset,
      B,
      T,
    ] as const);
    const wasm = await page.evaluate(([p, b, t]) => window.__onnxHarness.parity(p as 'ci', 'wasm', b, t), [
      preset,
      B,
      T,
    ] as const);
    expect(wasm.error ?? '', 'the wasm EP must run the model').toBe('');
    expect(wasm.ep).toBe('wasm');
    check(wasm);
    const line = (r: ParityResult) =>
      r.ep
        ? `${r.ep}: logits ${r.logitsDiff.toExponential(2)}, values ${r.valuesDiff.toExponential(2)}, KV ${r.kvLogitsDiff.toExponential(2)} (max |logit| ${r.maxLogit.toFixed(2)}, ${Math.round(r.ms)} ms)`
        : `${r.requested}: FAILED (${r.error}) -> fell back to wasm`;
    console.log(`  ${preset} ${B}x${T}  ${line(gpu)}\n  ${preset} ${B}x${T}  ${line(wasm)}`);
    test.info().annotations.push({
      type: 'execution provider',
      description: `${preset}: ${gpu.ep === 'webgpu' ? 'webgpu and wasm' : `wasm only (webgpu failed: ${gpu.error})`}`,
    });
    if (gpu.ep === 'webgpu') check(gpu);
  });
}

test('no request left the origin (onnxruntime-web served by us)', async () => {
  expect(foreign).toEqual([]);
});
