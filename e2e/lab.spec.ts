/**
 * The lab end to end in headless Chromium on WebGPU (SwiftShader here; the test fails without an
 * adapter): configure a tiny ci run through the form, train, watch the status, the reward chart and
 * the transcripts fill in, pause, copy the share link and reproduce the run from it in a fresh
 * browser context (same first-step reward), reload mid-run and find the run in the run list, and
 * export it, import it again (refused: it is here) and after deleting it, open a damaged link; the same tiny run on the CPU (wasm, threads) with
 * ?backend=cpu, and the micro preset's default recipe a few steps there. An imported run's benchmark dialogues side by side in Evaluate, before and after.
 * Screenshots of each view go to e2e/screenshots/.
 */
import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Page } from '@playwright/test';
import { onWebGpu } from './chromium';
import { mkdirSync, readFileSync } from 'node:fs';

const SHOTS = new URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });

/** A step of this is a few seconds on SwiftShader: 1 profile x 2 dialogues, 2 replies of at most 8 tokens. */
const TINY: [label: string, value: string][] = [
  ['Steps', '30'],
  ['Profiles per step', '1'],
  ['Group size', '2'],
  ['Replies per dialogue', '2'],
  ['Tokens per reply', '8'],
  ['Minibatch size', '4'],
  // The benchmark is played before step 1 (and after the last): 2 users keep it to seconds.
  ['Benchmark users', '2'],
];

async function openLab(page: Page, path = '/'): Promise<void> {
  await page.goto(onWebGpu(path));
  // No adapter, no test: the lab would fall back to the CPU and this would not test WebGPU.
  await expect(page.getByTestId('adapter-line')).toContainText('WebGPU adapter:');
}

const status = (page: Page) => page.getByRole('status', { name: 'Training status' });
/** The settings drawer folds once a run starts: open it again to read the form. */
async function openSettings(page: Page): Promise<void> {
  if ((await page.locator('#settings-drawer').count()) === 0)
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const advanced = page.locator('#settings-drawer details.advanced');
  if ((await advanced.getAttribute('open')) === null) await advanced.locator('summary').click();
}
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
/** The reward chart's data table (visually hidden; the canvas is not readable): one row per step. */
const rewardRows = (page: Page) =>
  page.getByRole('figure', { name: 'Mean reward' }).getByRole('table').locator('tbody tr');

test('configure, train, pause, share, reproduce, reload, and a damaged link', async ({ page, browser, baseURL }) => {
  test.setTimeout(360_000);
  await openLab(page);

  // Configure through the form: preset, the basic knobs, then the Advanced ones.
  await field(page, 'Preset').selectOption('ci');
  await expect(field(page, 'Preset').locator('option')).toContainText(['ci (~0.2M parameters)', 'micro (~1.4M)']);
  await page.getByText(/^Advanced \(/).click();
  // A bad value is refused with the reason, and Train stays off.
  await field(page, 'Group size').fill('1');
  await expect(page.getByText('grpo needs groups of at least 2')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Train', exact: true })).toBeDisabled();
  for (const [label, value] of TINY) await field(page, label).fill(value);
  // The update keeps attention probabilities in halves: the run below trains through that path.
  await field(page, 'Saved attention precision').selectOption('f16');
  await expect(page.getByRole('button', { name: 'Train', exact: true })).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}lab-configure.png`, fullPage: true });

  // Train: the status counts steps, the reward chart gets points, transcripts appear.
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  // Before step 1: compiling the kernels (a tiny throwaway step) and the benchmark on 2 users.
  await expect(status(page)).toContainText('Step 1 of 30', { timeout: 150_000 });
  await expect(status(page)).toContainText('software GPU');
  await expect(status(page)).toContainText('Step 2 of 30', { timeout: 60_000 });
  await expect(rewardRows(page)).not.toHaveCount(0);
  const transcripts = page.getByRole('region', { name: 'Transcripts' });
  await expect(transcripts.locator('.dialogue').first()).toBeVisible();
  await expect(transcripts).toContainText('Hidden intention (the policy never sees it)');
  await expect(transcripts).toContainText('Inner reaction');
  // Evaluate: the starting policy's benchmark (played before step 1) next to the reference policies,
  // each with the fluency of its replies, and the corpus's own surprisal to read them against.
  const evaluate = page.getByRole('region', { name: 'Evaluate' });
  const cell = (row: string, col: string) => evaluate.locator(`tr[data-row="${row}"] td[data-col="${col}"]`);
  await expect(evaluate.locator('tr[data-row="before"] td').first()).toHaveText(/^\d+\.\d$/);
  await expect(evaluate.locator('tr[data-row="before"] td').nth(3)).toHaveText('2');
  await expect(evaluate.locator('tr[data-row="oracle"] td').first()).toHaveText(/^\d+\.\d$/);
  for (const row of ['before', 'reflective']) {
    await expect(cell(row, 'realWords')).toHaveText(/^\d+\.\d%$/);
    await expect(cell(row, 'hackingShare')).toHaveText(/^\d+\.\d%$/);
    await expect(cell(row, 'surprisal')).toHaveText(/^\d+\.\d\d$/);
    await expect(cell(row, 'distinct2')).toHaveText(/^\d\.\d{3}$/);
    await expect(cell(row, 'meanReplyWords')).toHaveText(/^\d+\.\d$/);
  }
  // Bits per word under the shipped reference model, beside the corpus's own replies (1.689): the
  // warm start writes corpus sentences, far closer to them than real words in random order.
  const surprisal = async (row: string) => Number(await cell(row, 'surprisal').textContent());
  expect(await surprisal('before')).toBeGreaterThan(0);
  expect(await surprisal('before')).toBeLessThan(await surprisal('random'));
  expect(await surprisal('corpus')).toBe(1.69);
  await expect(cell('corpus', 'realWords')).toHaveText('—');
  await expect(evaluate.getByRole('columnheader', { name: 'Real words' })).toHaveAttribute('title', /real word/);
  await expect(
    evaluate.getByRole('table', { name: 'Benchmark score by intention and personality type' }),
  ).toContainText('Personality type');
  await evaluate.screenshot({ path: `${SHOTS}lab-evaluate.png` });

  // Pause: the run stops between steps and stays there.
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(status(page)).toContainText(/Paused after step \d+/, { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Train', exact: true })).toBeVisible();
  const pausedAt = (await status(page).locator('.run-step').textContent())!;
  await page.waitForTimeout(1500);
  await expect(status(page).locator('.run-step')).toHaveText(pausedAt);
  const steps = await rewardRows(page).count();
  expect(steps).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: `${SHOTS}lab-training.png`, fullPage: true });
  await transcripts.screenshot({ path: `${SHOTS}lab-transcripts.png` });
  await page.locator('.train-panel').screenshot({ path: `${SHOTS}lab-train-panel.png` });
  await page
    .getByRole('heading', { name: 'Charts' })
    .locator('xpath=ancestor::section')
    .screenshot({ path: `${SHOTS}lab-charts.png` });

  // A click on the reward chart opens that step's dialogues (x = step 1 is the plot's left edge).
  const plot = page.getByRole('figure', { name: 'Mean reward' }).locator('.u-over');
  await plot.click({ position: { x: 2, y: 20 } });
  await expect(transcripts.getByRole('heading')).toHaveText('Transcripts — step 1');
  await expect(transcripts.locator('.dialogue').first()).toBeVisible();

  // Keyboard: ? lists the keys; Space does nothing while typing in a field.
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}lab-shortcuts.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Share: the link holds the config; a fresh browser (nothing stored) opens it and reproduces step 1.
  await page.getByRole('button', { name: 'Copy share link' }).click();
  const link = await page.getByLabel(/^Share link/).inputValue();
  expect(link).toContain('#run=2.');
  await page.getByLabel(/^Share link/).focus();
  await page.keyboard.press('Space');
  await expect(status(page)).toContainText('Paused');
  const firstReward = await rewardRows(page).first().locator('td').first().textContent();

  const other = await browser.newContext();
  try {
    const shared = await other.newPage();
    await openLab(shared, link.replace(baseURL!.replace(/\/$/, ''), ''));
    const panel = shared.getByTestId('shared-run');
    await expect(panel).toBeVisible();
    for (const [key, value] of [
      ['profilesPerStep', '1'],
      ['groupSize', '2'],
      ['maxAgentTurns', '2'],
      ['maxTurnTokens', '8'],
      ['steps', '30'],
      ['savedAttention', 'f16'],
    ]) {
      await expect(panel.locator(`tr[data-key="${key}"] td`).first()).toHaveText(value);
    }
    await shared.screenshot({ path: `${SHOTS}lab-shared-link.png`, fullPage: true });
    await panel.getByRole('button', { name: 'Reproduce this run' }).click();
    await openSettings(shared);
    await expect(field(shared, 'Profiles per step')).toHaveValue('1');
    await expect(field(shared, 'Group size')).toHaveValue('2');
    await expect(field(shared, 'Saved attention precision')).toHaveValue('f16');
    await expect(status(shared)).toContainText('Step 1 of 30', { timeout: 150_000 });
    await shared.getByRole('button', { name: 'Pause', exact: true }).click();
    // Same config, seed and starting weights on the same backend: the same first step.
    await expect(rewardRows(shared).first().locator('td').first()).toHaveText(firstReward!);
    await shared.getByRole('button', { name: 'Reset' }).click();
  } finally {
    await other.close();
  }

  // Reload mid-run: the run is in the run list, marked interrupted, with its steps kept.
  // (Space resumes it: the shortcut, away from any field.)
  await page.locator('h1').click();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect(status(page)).toContainText(/Training step \d+ of 30/);
  await page.reload();
  await expect(page.getByTestId('adapter-line')).toContainText('WebGPU adapter:');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Runs/ }).click();
  const row = page.locator('.runs-table tbody tr').first();
  await expect(row).toContainText('ci GRPO seed 1');
  await expect(row).toContainText('interrupted');
  // Cells: compare tick, status, steps, ...
  await expect(row.locator('td').nth(2)).toContainText(new RegExp(`^(${steps}|${steps + 1}|${steps + 2}) / 30`));
  await expect(page.getByTestId('storage-used')).toContainText(/\d+ runs?, [\d.]+ (B|KB|MB)/);
  await page.screenshot({ path: `${SHOTS}lab-runs.png`, fullPage: true });
  // Export it, then import the file: a second run with the same steps.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: 'Export' }).click(),
  ]);
  const file = await download.path();
  expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
    format: 'empathy-rl-lab/run',
    run: { config: { profilesPerStep: 1, groupSize: 2 } },
  });
  // Importing the run that is already here makes no second row.
  await page.getByLabel('Import a run file').setInputFiles(file);
  await expect(
    page.getByText(/^"ci GRPO seed 1" is already here \(\d+ steps\): nothing was imported\.$/),
  ).toBeVisible();
  await expect(page.locator('.runs-table tbody tr')).toHaveCount(1);
  // Deleted, then imported: it comes back from the file.
  await row.getByRole('button', { name: 'Delete' }).click();
  await row.getByRole('button', { name: 'Delete it' }).click();
  await expect(page.locator('.runs-table tbody tr')).toHaveCount(0);
  await page.getByLabel('Import a run file').setInputFiles(file);
  await expect(page.getByText(/^Imported "ci GRPO seed 1"/)).toBeVisible();
  await expect(page.locator('.runs-table tbody tr')).toHaveCount(1);
  // Open it: its charts and dialogues come back from storage.
  await row.getByRole('button', { name: 'Open' }).click();
  await expect(rewardRows(page)).not.toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Transcripts' }).locator('.dialogue').first()).toBeVisible();

  // A damaged link: a clear message in an alert; the form keeps what was typed; Train still works.
  await page.goto('/#run=1.@@@');
  await expect(page.getByRole('alert')).toContainText('This run link is damaged');
  await openSettings(page);
  await expect(field(page, 'Profiles per step')).toHaveValue('1');
  await expect(page.getByRole('button', { name: 'Train', exact: true })).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}lab-damaged-link.png`, fullPage: true });
  // The same page in the dark scheme (charts re-read their colours).
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}lab-dark.png`, fullPage: true });
});

test('with ?backend=cpu the lab trains on WebAssembly SIMD with threads, and says so', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/?backend=cpu');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const threads = Math.min(16, cores);
  await expect(page.getByTestId('adapter-line')).toContainText(
    `CPU (WebAssembly SIMD, ${threads} thread${threads === 1 ? '' : 's'})`,
  );
  await field(page, 'Preset').selectOption('ci');
  await page.getByText(/^Advanced \(/).click();
  for (const [label, value] of TINY) await field(page, label).fill(value);
  // On wasm a tiny step takes a fraction of a second: enough steps that Pause lands mid-run.
  await field(page, 'Steps').fill('2000');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/Step ([2-9]|\d{2,}) of 2000/, { timeout: 180_000 });
  await expect(status(page)).toContainText('CPU');
  await expect(rewardRows(page)).not.toHaveCount(0);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(status(page)).toContainText(/Paused after step \d+/, { timeout: 60_000 });
  const pausedAt = (await status(page).locator('.run-step').textContent())!;
  expect(Number(/Step (\d+)/.exec(pausedAt)?.[1])).toBeLessThan(2000);
});

test("the micro preset's default recipe trains on the CPU", async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/?backend=cpu');
  await expect(page.getByTestId('adapter-line')).toContainText('CPU (WebAssembly SIMD');
  await field(page, 'Preset').selectOption('micro');
  await page.getByText(/^Advanced \(/).click();
  // The recipe of docs/ALGORITHMS.md: each reply credited with its own change, under a KL leash
  // and replay of the warm start's text, imitating its own top-rewarded replies, charged for a
  // reply that repeats an earlier one.
  for (const [label, value] of [
    ['Steps', '160'],
    ['Profiles per step', '4'],
    ['Group size', '8'],
    ['Temperature', '0.7'],
    ['Gamma', '0'],
    ['KL coefficient', '0.1'],
    ['Replay weight', '0.3'],
    ['Self-imitation weight', '0.1'],
    ['Repeated reply penalty', '0.05'],
    ['Epochs', '2'],
  ] as const)
    await expect(field(page, label)).toHaveValue(value);
  await expect(page.locator('#cfg-reward')).toHaveValue('turn');
  // Only the benchmark played before step 1 is cut to one user: the steps are the recipe's own.
  await field(page, 'Benchmark users').fill('1');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/Step [2-9] of 160/, { timeout: 240_000 });
  await expect(status(page)).toContainText('CPU');
  expect(await rewardRows(page).count()).toBeGreaterThanOrEqual(2);
  // The chart says what the run credits: each reply's own change, not the final emotion alone.
  await expect(page.getByRole('region', { name: 'Reward' })).toContainText('each reply with its own emotion change');
  // Self-imitation is on: its loss has a chart of its own (a ci run without it has none).
  await expect(page.getByRole('figure', { name: 'Self-imitation' })).toBeVisible();
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(status(page)).toContainText(/Paused after step \d+/, { timeout: 120_000 });
  await page.screenshot({ path: `${SHOTS}lab-micro-default.png` });
});

test('grouped at the turn: the transcripts say which row is the dialogue and which hold the replies beside it', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto('/?backend=cpu');
  await field(page, 'Preset').selectOption('ci');
  await page.getByText(/^Advanced \(/).click();
  for (const [label, value] of TINY) await field(page, label).fill(value);
  await field(page, 'Steps').fill('2000');
  await field(page, 'Group at').selectOption('turn');
  // Sibling replies share the final emotion: the form asks for turn rewards and says why.
  const reward = page.getByRole('combobox', { name: 'Reward', exact: true });
  await reward.selectOption('final');
  await expect(page.getByText("turn scores each reply by its own emotion change (reward 'turn')")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Train', exact: true })).toBeDisabled();
  await reward.selectOption('turn');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/Step ([2-9]|\d{2,}) of 2000/, { timeout: 180_000 });
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(status(page)).toContainText(/Paused after step \d+/, { timeout: 60_000 });
  const transcripts = page.getByRole('region', { name: 'Transcripts' });
  const rows = transcripts.locator('.dialogue');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("The group's dialogue: its other rows are the replies written beside these");
  await expect(rows.nth(1)).toContainText('Reply 2 of the group at each turn: written to the same history');
  await rows.nth(1).locator('summary').first().click();
  await transcripts.screenshot({ path: `${SHOTS}lab-transcripts-siblings.png` });
});

test('a lost GPU device: an alert, then Resume from the last checkpoint loses nothing; the breakdown stays with the saved run', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await openLab(page, '/?testHooks=1');
  await field(page, 'Preset').selectOption('ci');
  await page.getByText(/^Advanced \(/).click();
  for (const [label, value] of TINY) await field(page, label).fill(value);
  await field(page, 'Steps').fill('3');
  await field(page, 'Checkpoint every').fill('1');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  // The pipelines are compiled first, under their own label.
  await expect(status(page)).toContainText('Compiling kernels', { timeout: 60_000 });
  await expect(status(page)).toContainText('Step 2 of 3', { timeout: 120_000 });

  await page.evaluate(() => window.__labTest!.loseDevice());
  const alert = page.getByTestId('device-lost-run');
  await expect(alert).toBeVisible({ timeout: 60_000 });
  await expect(alert).toHaveAttribute('role', 'alert');
  await expect(alert).toContainText('The GPU device was lost');
  await expect(status(page)).toHaveAttribute('data-status', 'failed');
  const resume = alert.getByRole('button', { name: /^Resume from step \d+$/ });
  await expect(resume).toBeEnabled({ timeout: 60_000 });
  await page.screenshot({ path: `${SHOTS}lab-device-lost.png`, fullPage: true });
  const from = Number((await resume.textContent())!.match(/step (\d+)/)![1]);
  expect(from).toBeGreaterThanOrEqual(1);
  await resume.click();
  await expect(status(page)).toContainText('Done: 3 steps', { timeout: 180_000 });
  // Nothing lost, nothing twice: one row per step 1..3.
  await expect(rewardRows(page)).toHaveCount(3);
  expect(await rewardRows(page).locator('th').allTextContents()).toEqual(['1', '2', '3']);
  await expect(page.getByTestId('device-lost-run')).toHaveCount(0);
  const evaluate = page.getByRole('region', { name: 'Evaluate' });
  await expect(evaluate.locator('tr[data-row="after"] td').first()).toHaveText(/^\d+\.\d$/);
  await expect(evaluate.locator('tr[data-row="after"] td[data-col="realWords"]')).toHaveText(/^\d+\.\d%$/);
  const byGroup = evaluate.getByRole('table', { name: 'Benchmark score by intention and personality type' });
  const afterCells = async () =>
    (await byGroup.locator('tr[data-group] td:nth-child(4)').allTextContents()).filter((t) => t !== '—');
  expect((await afterCells()).length).toBeGreaterThan(0);

  // Opened again from the run list (after a reload), the breakdown before and after is still there.
  await page.reload();
  await expect(page.getByTestId('adapter-line')).toContainText('WebGPU adapter:');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Runs/ }).click();
  const row = page.locator('.runs-table tbody tr').first();
  await expect(row).toContainText('done');
  await row.getByRole('button', { name: 'Open' }).click();
  await expect(byGroup).toBeVisible();
  expect((await afterCells()).length).toBeGreaterThan(0);
  await expect(evaluate.locator('tr[data-row="before"] td').first()).toHaveText(/^\d+\.\d$/);
  // The fluency figures are saved with the run.
  await expect(evaluate.locator('tr[data-row="after"] td[data-col="surprisal"]')).toHaveText(/^\d+\.\d\d$/);
});

/** A run file as the lab exports it (format 1), written here: three steps of metrics and the benchmark. */
function runFile(id: string, name: string, rewards: number[], before: number, after: number): string {
  const steps = rewards.map((_, i) => i + 1);
  return JSON.stringify({
    format: 'empathy-rl-lab/run',
    version: 1,
    run: {
      id,
      name,
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000,
      status: 'done',
      config: { version: 1, preset: 'ci', seed: 1, steps: rewards.length },
      metrics: {
        step: steps,
        'reward/mean': rewards,
        'emotion/success': rewards.map(() => 0),
        'emotion/final': rewards.map((r) => r * 100),
      },
      transcripts: [],
      benchmark: { before: { score: before }, after: { score: after } },
    },
  });
}

test('compare two saved runs: both curves on the same charts, told apart by colour, dash and label', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Runs/ }).click();
  const file = (name: string, text: string) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
  await page
    .getByLabel('Import a run file')
    .setInputFiles(file('a.json', runFile('cmp-a', 'GRPO <i>a</i>', [0.25, 0.5, 0.75], 20, 41.5)));
  await expect(page.getByText(/^Imported "GRPO <i>a<\/i>"/)).toBeVisible();
  await page
    .getByLabel('Import a run file')
    .setInputFiles(file('b.json', runFile('cmp-b', 'PPO b', [0.125, 0.25, 0.375], 18, 22)));
  await expect(page.locator('.runs-table tbody tr')).toHaveCount(2);
  await expect(page.getByTestId('compare')).toHaveCount(0);

  await page.getByLabel('Compare GRPO <i>a</i>').check();
  await page.getByLabel('Compare PPO b').check();
  const compare = page.getByTestId('compare');
  await expect(compare).toBeVisible();
  // The legend names each run with its letter and its line (text, never HTML).
  await expect(compare.locator('.compare-legend')).toContainText('A (solid): GRPO <i>a</i>');
  await expect(compare.locator('.compare-legend')).toContainText('B (dashed): PPO b');

  const reward = compare.getByRole('figure', { name: 'Mean reward' }).getByRole('table');
  const heads = await reward.locator('thead th').allTextContents();
  expect(heads).toContain('A: GRPO <i>a</i>');
  expect(heads).toContain('B: PPO b');
  await expect(reward.locator('tbody tr')).toHaveCount(3);
  const col = heads.indexOf('A: GRPO <i>a</i>');
  const colB = heads.indexOf('B: PPO b');
  const cells = async (c: number) => reward.locator(`tbody tr td:nth-child(${c + 1})`).allTextContents();
  expect((await cells(col)).map(Number)).toEqual([0.25, 0.5, 0.75]);
  expect((await cells(colB)).map(Number)).toEqual([0.125, 0.25, 0.375]);

  const bench = compare.getByRole('figure', { name: 'Benchmark score' }).getByRole('table');
  expect(await bench.locator('tbody th').allTextContents()).toEqual(['0', '3']);
  await expect(bench.locator('tbody tr').last()).toContainText('41.5');
  await expect(bench.locator('tbody tr').last()).toContainText('22');
  // The two lines really are drawn differently: uPlot's legend shows each series' colour and dash.
  const markers = compare.getByRole('figure', { name: 'Mean reward' }).locator('.u-legend .u-series .u-marker');
  const styles = await markers.evaluateAll((els) =>
    els.map((e) => {
      const s = getComputedStyle(e);
      return `${s.borderColor}|${s.borderStyle}`;
    }),
  );
  expect(new Set(styles.slice(1)).size).toBeGreaterThan(1);
  await page.screenshot({ path: `${SHOTS}runs-compare.png`, fullPage: true });
  // The run list with its ticks and the comparison pass axe (WCAG 2.1 A/AA) without a serious violation.
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect(serious, serious.join('\n')).toEqual([]);

  // Unticking one closes the comparison.
  await page.getByLabel('Compare PPO b').uncheck();
  await expect(page.getByTestId('compare')).toHaveCount(0);
});

/** One benchmark dialogue as a run file keeps it: the opening, then one reply per entry [reply, change]. */
function played(profileId: string, who: string, intention: string, replies: [reply: string, change: number][]) {
  let emotion = 40;
  const turns = replies.map(([reply, change], k) => {
    emotion += change;
    return {
      reply,
      think: null,
      wellFormed: true,
      change,
      emotion,
      line: `answer ${k + 1} of ${who}`,
      appraisal: {
        intent: change > 0 ? 'reflects what they said' : 'changes the subject',
        fit: change > 0 ? 'close to what they need' : 'far from what they need',
        inner: change > 0 ? 'feels heard' : 'feels brushed off',
        feeling: change > 0 ? 'calmer' : 'annoyed',
        reaction: change > 0 ? 'warm' : 'cold',
        needMet: false,
      },
    };
  });
  return {
    profileId,
    who,
    intention,
    opening: `opening of ${who}`,
    startEmotion: 40,
    finalEmotion: emotion,
    endReason: 'cap',
    turns,
  };
}

test('Evaluate shows one benchmark user before and after side by side, with every change and its reasons', async ({
  page,
}) => {
  const doc = JSON.parse(runFile('sbs', 'side by side', [0.25, 0.5, 0.75], 30, 55));
  doc.run.benchmark.after.step = 3;
  doc.run.benchmarkDialogues = {
    before: [
      played('b-1', 'Ana, 30: work', 'venting', [
        ['You should <b>relax</b>.', -5],
        ['Anyway.', -10],
      ]),
      played('b-2', 'Ben, 52: family', 'practical-advice', [['Hm.', 0]]),
    ],
    after: [
      played('b-1', 'Ana, 30: work', 'venting', [
        ['That sounds exhausting.', 10],
        ['Tell me more.', 12],
      ]),
    ],
  };
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Runs/ }).click();
  await page
    .getByLabel('Import a run file')
    .setInputFiles({ name: 'sbs.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
  await expect(page.getByText(/^Imported "side by side"/)).toBeVisible();
  await page.locator('.runs-table tbody tr').first().getByRole('button', { name: 'Open' }).click();

  const compare = page.getByRole('region', { name: 'One benchmark user, before and after' });
  const picker = compare.getByLabel('Benchmark user');
  await expect(picker.locator('option')).toHaveText([
    'Ana, 30: work · wants to be listened to while venting · 25 → 62',
    'Ben, 52: family · wants genuinely useful advice · 40 → —',
  ]);
  await expect(compare).toContainText(
    'Hidden intention (the policy never sees it): wants to be listened to while venting',
  );
  const before = compare.getByRole('region', { name: 'Starting policy' });
  const after = compare.getByRole('region', { name: 'Trained policy' });
  // Each reply with the user's change, emotion, feeling and the appraisal's reasons; text, never HTML.
  await expect(before.locator('.line-agent .text')).toHaveText(['You should <b>relax</b>.', 'Anyway.']);
  await expect(before.getByTestId('change')).toHaveText(['-5', '-10']);
  await expect(before.locator('.appraisal-head').first()).toHaveText('-5 → emotion 35: annoyed');
  await expect(before.locator('.kv dd').first()).toHaveText('changes the subject');
  await expect(before.getByTestId('compare-before-final')).toHaveText('25');
  await expect(after).toContainText('(the latest evaluated, step 3)');
  await expect(after.getByTestId('change')).toHaveText(['+10', '+12']);
  await expect(after.locator('.kv').first()).toContainText('close to what they need');
  await expect(after.getByTestId('compare-after-final')).toHaveText('62');
  await page.getByRole('region', { name: 'Evaluate' }).screenshot({ path: `${SHOTS}lab-evaluate-side-by-side.png` });
  const axe = await new AxeBuilder({ page })
    .include('.benchmark-compare')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect(serious, serious.join('\n')).toEqual([]);

  // A user the trained policy has not played yet says so; the dialogues come back after a reload.
  await picker.selectOption({ label: 'Ben, 52: family · wants genuinely useful advice · 40 → —' });
  await expect(before.locator('.line-agent .text')).toHaveText(['Hm.']);
  await expect(after).toContainText('Not evaluated yet');
  await page.reload();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Runs/ }).click();
  await page.locator('.runs-table tbody tr').first().getByRole('button', { name: 'Open' }).click();
  await expect(after.getByTestId('change')).toHaveText(['+10', '+12']);
});
