/**
 * The built lab end to end in headless Chromium: it finds the WebGPU adapter (SwiftShader here),
 * says plainly that it is a software fallback, checks the GPU against the CPU, times the software
 * adapter against the CPU and trains on the faster with a link to the other, falls back to the CPU
 * backend with a visible notice where there is no adapter, requests nothing beyond its own origin,
 * and leaves a screenshot in e2e/screenshots/.
 */
import { test, expect, chromium, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { CHROMIUM_ARGS, findChromium, onWebGpu } from './chromium';

const SHOTS = new URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });

test('the lab shows the adapter it runs on, and a screenshot is saved', async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== new URL(baseURL!).origin) foreign.push(r.url());
  });
  await page.goto(onWebGpu());
  const line = page.getByTestId('adapter-line');
  await expect(line).toContainText('WebGPU adapter:');
  // The adapter is one line in the header; its details open below it.
  await page.getByRole('button', { name: /^Where the lab runs/ }).click();
  await expect(page.getByTestId('self-test')).toContainText('match the CPU reference');
  // SwiftShader here: the lab must say it is a software fallback.
  const adapterText = await line.textContent();
  if (/swiftshader|software/i.test(adapterText ?? '')) {
    await expect(page.getByTestId('fallback-notice')).toBeVisible();
    await expect(page.locator('.badge')).toHaveText('software GPU');
  }
  await page.screenshot({ path: `${SHOTS}lab.png`, fullPage: true });
  expect(foreign, "requests beyond the lab's own origin").toEqual([]);
});

test('on a software adapter the lab times it against the CPU, trains on the faster, and links to the other', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: /^Where the lab runs/ }).click();
  const choice = page.getByTestId('backend-choice');
  await expect(choice).toContainText(
    /One short step took \d+ ms on it and \d+ ms on the CPU, so the lab trains on the (CPU|software GPU)\./,
    {
      timeout: 60_000,
    },
  );
  const onCpu = /trains on the CPU/.test((await choice.textContent()) ?? '');
  await expect(page.locator('.badge')).toHaveText(onCpu ? 'CPU' : 'software GPU');
  await expect(page.getByTestId('adapter-line')).toContainText(
    onCpu ? 'faster here than the software WebGPU adapter' : 'faster here than the CPU',
  );
  await page.screenshot({ path: `${SHOTS}lab-backend-choice.png`, fullPage: true });
  await page.getByTestId('backend-switch').click();
  await expect(page).toHaveURL(onCpu ? /\?backend=webgpu$/ : /\?backend=cpu$/);
  await expect(page.locator('.badge')).toHaveText(onCpu ? 'software GPU' : 'CPU');
});

test('?backend=cpu runs on the CPU backend with a visible notice', async ({ page }) => {
  await page.goto('/?backend=cpu');
  await page.getByRole('button', { name: /^Where the lab runs/ }).click();
  await expect(page.getByTestId('cpu-notice')).toContainText('Running on the CPU backend');
  await expect(page.locator('.badge')).toHaveText('CPU');
  // The dev server sends the isolation headers, so the wasm backend has its threads.
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await expect(page.getByTestId('adapter-line')).toHaveText(
    cores > 1
      ? `CPU (WebAssembly SIMD, ${Math.min(16, cores)} threads) (chosen in the URL: ?backend=cpu)`
      : 'CPU (WebAssembly SIMD, 1 thread) (chosen in the URL: ?backend=cpu)',
  );
});

test('without WebGPU enabled, the lab explains why and falls back to the CPU', async ({ baseURL }) => {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: CHROMIUM_ARGS.filter((a) => a !== '--enable-unsafe-webgpu'),
  });
  try {
    const page = await browser.newPage();
    await page.goto(baseURL!);
    await page.getByRole('button', { name: /^Where the lab runs/ }).click();
    const notice = page.getByTestId('cpu-notice');
    await expect(notice).toBeVisible();
    // Headless Chromium without the flag has navigator.gpu but no adapter; either message is specific.
    await expect(notice).toContainText(/no GPU adapter was found|This browser has no WebGPU/);
    await page.screenshot({ path: `${SHOTS}lab-cpu-fallback.png`, fullPage: true });
  } finally {
    await browser.close();
  }
});

/** The warm start and the demo dialogue have a view of their own. */
async function openWarmStartView(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Warm start' }).click();
}

test('the warm start trains in the engine worker on WebGPU and offers the checkpoint', async ({ page }) => {
  await page.goto(onWebGpu());
  await expect(page.getByTestId('adapter-line')).toContainText('WebGPU adapter:');
  await openWarmStartView(page);
  await page.getByLabel('Steps').fill('0');
  await expect(page.getByRole('alert')).toContainText('steps must be between 1 and 100000');
  await expect(page.getByTestId('warm-start-button')).toBeDisabled();
  await page.getByLabel('Steps').fill('4');
  await page.getByLabel('Dialogues').fill('120');
  await page.getByTestId('warm-start-button').click();
  await expect(page.getByTestId('warm-start-progress')).toBeVisible();
  const result = page.getByTestId('warm-start-result');
  await expect(result).toContainText('Held-out perplexity', { timeout: 240_000 });
  await expect(result).toContainText('on the GPU');
  await expect(result.getByRole('link', { name: 'Download checkpoint' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}warm-start.png`, fullPage: true });
  // The model just trained talks with a benchmark user; every reply carries its appraisal.
  await page.getByRole('combobox', { name: 'Policy' }).selectOption('last');
  await page.getByRole('combobox', { name: 'Replies' }).selectOption('1');
  await page.getByTestId('demo-button').click();
  const transcript = page.getByTestId('demo-transcript');
  await expect(transcript).toBeVisible({ timeout: 120_000 });
  await expect(transcript.locator('.line-agent')).toHaveCount(1);
  await expect(transcript.locator('.appraisal summary').first()).toContainText('emotion');
  await expect(page.getByTestId('demo-final')).toContainText('started at 40');
  await transcript.locator('.appraisal summary').first().click();
  await page.getByTestId('demo-transcript').screenshot({ path: `${SHOTS}demo-dialogue.png` });
});

test('the shipped warm start loads in the browser and writes readable replies', async ({ page }) => {
  await page.goto(onWebGpu());
  await expect(page.getByTestId('adapter-line')).toContainText('WebGPU adapter:');
  await openWarmStartView(page);
  await page.getByRole('combobox', { name: 'Replies' }).selectOption('2');
  await page.getByTestId('demo-button').click();
  const transcript = page.getByTestId('demo-transcript');
  await expect(transcript).toBeVisible({ timeout: 180_000 });
  const replies = await transcript.locator('.line-agent .text').allTextContents();
  expect(replies.length).toBeGreaterThan(0);
  // Readable: most of what it writes are dictionary-shaped words, not byte soup.
  const words = replies.join(' ').split(/\s+/).filter(Boolean);
  const wordy = words.filter((w) => /^[A-Za-z'’,.!?-]+$/.test(w));
  expect(wordy.length / words.length, replies.join(' | ')).toBeGreaterThan(0.8);
  await page.screenshot({ path: `${SHOTS}shipped-warm-start.png`, fullPage: true });
});
