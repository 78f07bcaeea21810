/**
 * The peer benchmark's harness compares like with like (`npm run bench -- --peers`, bench/peers.ts):
 * at a tiny shape, from the same weights and batch, our engine and the TensorFlow.js transformer of
 * bench/peers-tfjs.ts give the same loss before any update and after one and two training steps
 * (so the forward, the backward, the clip and AdamW are the same computation), and onnxruntime-web
 * on the model exported by src/onnx/export.ts gives our logits. Behaviour only: no times asserted.
 */
import { test, expect, type Page } from '@playwright/test';

/** The peers page, ready (window.__peers set); page errors are printed. */
async function openPeers(page: Page): Promise<void> {
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[page] ${m.text()}`);
  });
  await page.goto('/bench/peers.html');
  try {
    await page.waitForFunction(() => Boolean(window.__peers), null, { timeout: 90_000 });
  } catch {
    // Vite may pre-bundle TFJS/onnxruntime on first sight and reload the page: load it again.
    await page.goto('/bench/peers.html');
    await page.waitForFunction(() => Boolean(window.__peers), null, { timeout: 90_000 });
  }
}

test('peers harness: TFJS and onnxruntime-web compute the same model as our engine', async ({ page }) => {
  await openPeers(page);
  const r = await page.evaluate(() => window.__peers.check());
  console.log(`  ${r.adapter}`);
  console.log(
    `  loss ours ${r.oursLoss.map((x) => x.toFixed(6)).join(' ')} | tfjs ${r.tfjsLoss.map((x) => x.toFixed(6)).join(' ')}; grad norm ${r.gradNorm.toFixed(3)}`,
  );
  expect(r.tfjsBackend).toBe('webgpu');
  expect(r.oursLoss).toHaveLength(3);
  expect(r.tfjsLoss).toHaveLength(3);
  for (let i = 0; i < 3; i++) {
    expect(Number.isFinite(r.oursLoss[i])).toBe(true);
    expect(
      Math.abs(r.oursLoss[i] - r.tfjsLoss[i]),
      `loss ${i}: ours ${r.oursLoss[i]}, tfjs ${r.tfjsLoss[i]}`,
    ).toBeLessThan(1e-4);
  }
  // The steps did something, and the clip was active, so a wrong optimiser or clip would show.
  expect(r.oursLoss[1]).toBeLessThan(r.oursLoss[0] - 0.05);
  expect(r.oursLoss[2]).toBeLessThan(r.oursLoss[1] - 0.05);
  expect(r.gradNorm).toBeGreaterThan(r.maxGradNorm);
  console.log(`  onnxruntime-web ${r.ortEp} EP: max |logit diff| ${r.ortMaxAbsDiff} (max |logit| ${r.ortMaxAbsLogit})`);
  expect(r.ortError ?? '', r.ortError).toBe('');
  expect(['webgpu', 'wasm']).toContain(r.ortEp);
  test.info().annotations.push({ type: 'onnxruntime-web EP', description: String(r.ortEp) });
  expect(r.ortMaxAbsLogit).toBeGreaterThan(0.1);
  expect(r.ortMaxAbsDiff).toBeLessThan(1e-4);
});

test("saved attention in halves: a training step keeps less on the device, by the probabilities' half, with the f32 forward", async ({
  page,
}) => {
  await openPeers(page);
  // micro (4 layers, 4 heads), B=2, T=32: the causal triangles, 2·4·(32·33/2) = 4,224 probabilities a layer.
  const r = await page.evaluate(() => window.__peers.savedAttention({ B: 2, T: 32, steps: 1 }));
  console.log(
    `  device bytes f32 ${r.f32.bytes}, f16 ${r.f16.bytes}; losses ${r.f32.loss.join(' ')} | ${r.f16.loss.join(' ')}`,
  );
  expect(r.f32.attentionBytes).toBe(4 * 4224 * 4);
  expect(r.f16.attentionBytes).toBe(4 * 2112 * 4);
  // The pool's peak footprint drops by the halved probabilities (the f32 scratch they are computed
  // in is the one the backward's own scratch reuses).
  expect(r.f32.bytes - r.f16.bytes).toBe(r.f32.attentionBytes - r.f16.attentionBytes);
  expect(r.f16.loss[0]).toBe(r.f32.loss[0]); // the forward's bits
  expect(Math.abs(r.f16.loss[1] - r.f32.loss[1])).toBeLessThan(1e-3);
  expect(r.f16.loss[1]).not.toBe(r.f16.loss[0]); // the step did something
});
