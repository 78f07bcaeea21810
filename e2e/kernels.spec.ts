/**
 * Every WebGPU kernel held to its CPU reference, in real headless Chromium. The list of tests comes
 * from e2e/harness/gpu-tests.ts; each runs in the page (e2e/harness/gpu.ts) and must return
 * passing reports. No adapter means every test fails: a GPU test never reads as passed without a GPU.
 */
import { test, expect, type Page } from '@playwright/test';
import { GPU_TESTS } from './harness/gpu-tests';

let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[page] ${m.text()}`);
  });
  await page.goto('/e2e/harness/gpu.html');
  await page.waitForFunction(() => Boolean(window.__gpuHarness));
});

test.afterAll(async () => {
  await page?.close();
});

test('a WebGPU adapter is found (the software one counts)', async () => {
  const ready = await page.evaluate(() => window.__gpuHarness.ready);
  expect(ready.failure ?? '', 'requestAdapter() must succeed: run Chromium with --enable-unsafe-webgpu').toBe('');
  expect(ready.ok).toBe(true);
  console.log(`  ${ready.adapter}`);
});

test('the page lists the same GPU tests as Node', async () => {
  const names = await page.evaluate(() => window.__gpuHarness.names);
  expect(names).toEqual(GPU_TESTS.map((t) => t.name));
  expect(names.length).toBeGreaterThan(0);
});

for (const { name } of GPU_TESTS) {
  test(`kernel: ${name}`, async () => {
    const result = await page.evaluate((n) => window.__gpuHarness.run(n), name);
    expect(result.error ?? '', result.error).toBe('');
    expect(result.reports.length, 'a GPU test must compare at least one output').toBeGreaterThan(0);
    for (const r of result.reports) {
      expect(r.ok, r.summary).toBe(true);
    }
  });
}
