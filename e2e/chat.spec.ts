/**
 * Chat and ONNX download, end to end in the built app (headless Chromium; SwiftShader is a software
 * adapter, so the chat's "auto" runtime picks onnxruntime-web's wasm EP here, and says so). A round
 * trip with the person writing, one with a simulated user scoring the policy's replies, a damaged
 * checkpoint refused with its reason, the ONNX download from the Lab, and no request leaving the
 * origin (onnxruntime-web's wasm comes from the app). Screenshot: e2e/screenshots/chat.png.
 */
import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

const SHOTS = new URL('./screenshots/', import.meta.url).pathname;

function watchOrigin(page: Page, baseURL: string): string[] {
  const foreign: string[] = [];
  const origin = new URL(baseURL).origin;
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) foreign.push(u);
  });
  return foreign;
}

async function openChat(page: Page) {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat' }).click();
  await expect(page.getByRole('heading', { name: 'Chat with a policy' })).toBeVisible();
}

test('chat: load a shipped policy through onnxruntime-web, talk with it, then let a simulated user score it', async ({
  page,
  baseURL,
}) => {
  const foreign = watchOrigin(page, baseURL!);
  await openChat(page);
  await page.getByTestId('chat-source').selectOption({ label: 'Shipped warm start (ci)' });
  await page.getByRole('button', { name: 'Load policy' }).click();
  const loaded = page.getByTestId('chat-loaded');
  await expect(loaded).toBeVisible({ timeout: 120_000 });
  await expect(loaded).toContainText('2 layers, 48 channels, context 256');
  const ep = await page.getByTestId('chat-ep').textContent();
  expect(['wasm', 'webgpu']).toContain(ep);
  console.log(`  chat runs on ${ep}: ${await loaded.textContent()}`);

  // The person writes; the policy answers.
  await page.getByLabel('Your message').fill('I failed my driving test again today and I feel like an idiot.');
  await page.getByRole('button', { name: 'Send' }).click();
  const reply = page.getByTestId('chat-agent').first();
  await expect(reply).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('chat-user').first()).toContainText('driving test');
  const text = (await reply.locator('.text').textContent())?.trim() ?? '';
  expect(text.length, 'the policy replied with some text').toBeGreaterThan(0);
  await expect(reply.locator('.chat-meta').first()).toHaveText(/^ · \d+ tokens, (\d+ ms|\d+\.\d s)$/);
  console.log(`  policy: ${text}`);
  await page.getByLabel('Your message').fill('Thanks. I just do not know what to do next.');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('chat-agent')).toHaveCount(2, { timeout: 120_000 });
  await page.screenshot({ path: `${SHOTS}chat.png`, fullPage: true });

  // A simulated user talks with it and scores each reply.
  await page.getByRole('radio', { name: 'A simulated user' }).check();
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByTestId('chat-user')).toHaveCount(1);
  await page.getByRole('button', { name: 'Next reply' }).click();
  const scored = page.getByTestId('chat-agent').first();
  await expect(scored).toBeVisible({ timeout: 120_000 });
  await expect(scored.getByTestId('change')).toHaveText(/^[+-]?\d+$/);
  const emotion = Number(await scored.getByTestId('chat-emotion').textContent());
  expect(emotion).toBeGreaterThanOrEqual(0);
  expect(emotion).toBeLessThanOrEqual(100);
  await expect(page.getByTestId('chat-score')).toContainText(`Emotion 40 → ${emotion}`);
  await expect(page.getByTestId('chat-user')).toHaveCount(2); // the user's answer to the reply
  await page.screenshot({ path: `${SHOTS}chat-simulated.png`, fullPage: true });
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(' | ')})`);
  expect(serious, serious.join('\n')).toEqual([]);
  await expect(page.getByTestId('chat-error')).toHaveCount(0);
  expect(foreign).toEqual([]);
});

test('chat: a damaged checkpoint file is refused with its reason', async ({ page }) => {
  await openChat(page);
  await page.getByTestId('chat-file').setInputFiles({
    name: 'notes.bin',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('hello, not a checkpoint'),
  });
  await expect(page.getByTestId('chat-error')).toContainText('notes.bin: not an Empathy RL Lab checkpoint');
  const good = readFileSync(new URL('../public/warmstart-ci.bin', import.meta.url));
  const bad = Buffer.from(good);
  bad[bad.length - 100] ^= 0xff;
  await page
    .getByTestId('chat-file')
    .setInputFiles({ name: 'flipped.bin', mimeType: 'application/octet-stream', buffer: bad });
  await expect(page.getByTestId('chat-error')).toContainText(
    'flipped.bin: the checkpoint is damaged: its checksum does not match',
  );
  await expect(page.getByTestId('chat-loaded')).toHaveCount(0);
});

test('lab: Download ONNX saves the shipped policy as an ONNX model', async ({ page, baseURL }) => {
  const foreign = watchOrigin(page, baseURL!);
  await page.goto('/');
  const panel = page.getByRole('region', { name: 'Export to ONNX' });
  await panel.getByTestId('onnx-source').selectOption({ label: 'Shipped warm start (ci)' });
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download ONNX' }).click(),
  ]);
  expect(dl.suggestedFilename()).toBe('warmstart-ci.onnx');
  const bytes = readFileSync((await dl.path())!);
  expect(bytes[0]).toBe(0x08); // ModelProto field 1 (ir_version), varint
  expect(bytes[1]).toBe(8); // IR version 8
  expect(bytes.length).toBeGreaterThan(400_000); // the ci weights (~0.1M floats) are inside
  expect(bytes.includes(Buffer.from('LayerNormalization'))).toBe(true);
  await expect(panel.getByTestId('onnx-export-message')).toContainText('Saved warmstart-ci.onnx');
  await panel
    .getByTestId('onnx-file')
    .setInputFiles({ name: 'junk.bin', mimeType: 'application/octet-stream', buffer: Buffer.from('junk') });
  await expect(panel.getByTestId('onnx-export-message')).toContainText('junk.bin: not an Empathy RL Lab checkpoint');
  expect(foreign).toEqual([]);
});
