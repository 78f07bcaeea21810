/**
 * The lab in a classroom, end to end in headless Chromium on the CPU backend (wasm; fast enough to
 * watch whole steps): at 1280×720 the first screen holds Train, the status, the reward chart and a
 * dialogue without scrolling, and a chart of one step draws its point; the status shows progress
 * inside a step; a reload mid-run brings the run back with Resume; Reset leaves no row; opening a
 * saved run loads its settings; importing it twice makes one row; Evaluate now fills in "after";
 * errors stay until fixed; a teacher link hides the settings and starts training after a countdown;
 * Back and Forward move between views; damaged flags get a message; the tour runs to its end and
 * resumes where it was left; Play's End and reveal; charts save as PNG and SVG, a transcript as
 * Markdown. Screenshots at 1280×720, 1440×900 and 390×844 go to e2e/screenshots/.
 */
import { test, expect, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { onWebGpu } from './chromium';
import { encodeShareLink } from '../src/lab/share';
import { defaultRunConfig } from '../src/rl/config';

const SHOTS = new URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });

const status = (page: Page) => page.getByRole('status', { name: 'Training status' });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const rewardRows = (page: Page) =>
  page.getByRole('figure', { name: 'Mean reward' }).getByRole('table').locator('tbody tr');
const nav = (page: Page, name: RegExp | string) =>
  page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name });

/** A few seconds a step on wasm: 1 user × 2 dialogues, 2 replies of at most 8 tokens, 2 benchmark users. */
const TINY: [label: string, value: string][] = [
  ['Profiles per step', '1'],
  ['Group size', '2'],
  ['Replies per dialogue', '2'],
  ['Tokens per reply', '8'],
  ['Minibatch size', '4'],
  ['Benchmark users', '2'],
];

async function configure(page: Page, steps: number, extra: [string, string][] = [], where = 'CPU'): Promise<void> {
  await expect(page.getByTestId('adapter-line')).toContainText(where);
  if ((await page.locator('#settings-drawer').count()) === 0)
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByText(/^Advanced \(/).click();
  for (const [label, value] of [...TINY, ['Steps', String(steps)], ...extra]) await field(page, label).fill(value);
}

/** Whether the element is wholly inside the viewport, the page not scrolled. */
async function onFirstScreen(page: Page, selector: ReturnType<Page['locator']>): Promise<boolean> {
  const box = await selector.boundingBox();
  const { w, h, y } = await page.evaluate(() => ({ w: innerWidth, h: innerHeight, y: scrollY }));
  return !!box && y === 0 && box.y >= 0 && box.x >= 0 && box.y + box.height <= h && box.x + box.width <= w;
}

/** Pixels of the reward chart's canvas in its line colour (#0072B2): a drawn point or line has some. */
async function linePixels(page: Page): Promise<number> {
  return page
    .getByRole('figure', { name: 'Mean reward' })
    .locator('canvas')
    .evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4)
        if (Math.abs(d[i] - 0) < 40 && Math.abs(d[i + 1] - 114) < 40 && Math.abs(d[i + 2] - 178) < 40 && d[i + 3] > 100)
          n++;
      return n;
    });
}

test('at 1280×720 the first screen shows the run: Train, status, reward chart, a dialogue; one step draws a point', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?backend=cpu');
  // A first visit: the settings drawer is open beside the run.
  await expect(page.locator('#settings-drawer')).toBeVisible();
  await configure(page, 6);
  await page.screenshot({ path: `${SHOTS}classroom-1280-settings.png` });
  // Errors in plain words, with the range, and both stay until fixed.
  await field(page, 'Steps').fill('-5');
  await field(page, 'Learning rate').fill('abc');
  await expect(page.getByText('Steps must be a whole number from 1 to 100,000.')).toBeVisible();
  await expect(page.getByText('Learning rate must be a number from 0.000001 to 0.1.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Train', exact: true })).toBeDisabled();
  await field(page, 'Learning rate').fill('0.0005');
  await expect(page.getByText('Steps must be a whole number from 1 to 100,000.')).toBeVisible();
  await field(page, 'Steps').fill('6');
  await expect(page.locator('.field-error')).toHaveCount(0);

  // One step, then paused: the chart of one point draws it.
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  // The settings fold once a run starts.
  await expect(page.locator('#settings-drawer')).toHaveCount(0);
  await expect(status(page)).toContainText(/Paused after step 1/, { timeout: 120_000 });
  await expect(rewardRows(page)).toHaveCount(1);
  await expect.poll(() => linePixels(page), { timeout: 5_000 }).toBeGreaterThan(10);

  // Train: progress inside the step, and the dialogue being played, all on the first screen.
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(page.getByTestId('run-live')).toContainText(
    /reply \d: \d of 2 dialogues over|users done|dialogues played/,
    {
      timeout: 60_000,
    },
  );
  const dialogue = page.getByTestId('live-dialogue');
  await expect(dialogue.locator('.line-agent').first()).toBeVisible({ timeout: 60_000 });
  for (const el of [
    page.getByRole('button', { name: 'Pause', exact: true }),
    status(page),
    page.getByRole('figure', { name: 'Mean reward' }),
    dialogue.locator('.line-user').first(),
  ])
    expect(await onFirstScreen(page, el)).toBe(true);
  await page.screenshot({ path: `${SHOTS}classroom-1280x720.png` });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${SHOTS}classroom-1440x900.png` });
  await expect(status(page)).toContainText('Done: 6 steps', { timeout: 180_000 });
  // The transcripts come right after the charts, above the benchmark tables.
  const transcriptsBox = await page.getByRole('region', { name: 'Transcripts' }).boundingBox();
  const evaluateBox = await page.getByRole('region', { name: 'Evaluate' }).boundingBox();
  expect(transcriptsBox!.y).toBeLessThan(evaluateBox!.y);

  // Exports for slides: each chart as PNG and SVG, a transcript as Markdown.
  const reward = page.getByRole('figure', { name: 'Mean reward' });
  const [png] = await Promise.all([page.waitForEvent('download'), reward.getByRole('button', { name: /PNG/ }).click()]);
  expect(png.suggestedFilename()).toBe('mean-reward.png');
  expect(
    readFileSync(await png.path())
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');
  const [svg] = await Promise.all([page.waitForEvent('download'), reward.getByRole('button', { name: /SVG/ }).click()]);
  expect(svg.suggestedFilename()).toBe('mean-reward.svg');
  const svgText = readFileSync(await svg.path(), 'utf8');
  expect(svgText).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
  expect(svgText).toContain('Mean reward');
  const transcripts = page.getByRole('region', { name: 'Transcripts' });
  const [md] = await Promise.all([
    page.waitForEvent('download'),
    transcripts.getByRole('button', { name: 'Save as Markdown' }).first().click(),
  ]);
  expect(readFileSync(await md.path(), 'utf8')).toContain('Hidden intention (the policy never sees it)');

  // What the update reinforces: every policy token coloured, each reply with its sum and a legend.
  await transcripts.getByLabel('What the update reinforces').check();
  await expect(page.getByTestId('credit-legend')).toContainText('likelier');
  const first = transcripts.locator('.dialogue').first();
  await expect(first.locator('.credit-line').first()).toBeVisible();
  expect(await first.locator('.credit-token').count()).toBeGreaterThan(2);
  await expect(first.getByTestId('credit-sum').first()).toHaveText(/^[+−]\d+\.\d\d$/);
  await first.screenshot({ path: `${SHOTS}classroom-update-colours.png` });
});

test('a reload mid-run brings the run back with Resume; Start over; Reset leaves no row; edits survive', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto('/?backend=cpu');
  await configure(page, 400);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  // Every backend checkpoints after the first step: wait for a few steps, then reload mid-run.
  await expect(status(page)).toContainText(/Step ([3-9]|\d{2,}) of 400/, { timeout: 120_000 });
  await page.reload();
  // The run comes back as it was: its charts, a dialogue, and Resume from its checkpoint.
  const resume = page.getByRole('button', { name: /^Resume from step \d+$/ });
  await expect(resume).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Start over' })).toBeVisible();
  await expect(rewardRows(page)).not.toHaveCount(0);
  await expect(page.getByTestId('live-dialogue').locator('.line-agent').first()).toBeVisible();
  await expect(status(page)).toContainText('interrupted');
  await page.screenshot({ path: `${SHOTS}classroom-reloaded.png` });
  const from = Number((await resume.textContent())!.match(/step (\d+)/)![1]);
  await resume.click();
  // It trains on from there (a step on the CPU can take well under the poll interval, so any later step counts).
  await expect
    .poll(async () => Number((await status(page).textContent())?.match(/Step (\d+) of 400/)?.[1] ?? 0), {
      timeout: 120_000,
    })
    .toBeGreaterThan(from);
  // Reset ends it and takes its row away: the run list is as before the run.
  await page.getByRole('button', { name: 'Reset' }).click();
  await nav(page, /^Runs/).click();
  await expect(page.getByText('No runs yet')).toBeVisible();

  // An edit in the form survives a reload (nothing was started with it).
  await nav(page, 'Lab').click();
  if ((await page.locator('#settings-drawer').count()) === 0)
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await field(page, 'Seed').fill('4242');
  await page.reload();
  if ((await page.locator('#settings-drawer').count()) === 0)
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(field(page, 'Seed')).toHaveValue('4242');
});

test('on WebGPU too, a reload mid-run brings the run back with Resume from its first checkpoint', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto(onWebGpu());
  await configure(page, 400, [], 'WebGPU adapter:');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/Step ([2-9]|\d{2,}) of 400/, { timeout: 240_000 });
  await page.reload();
  await expect(page.getByRole('button', { name: /^Resume from step \d+$/ })).toBeVisible({ timeout: 30_000 });
  await expect(status(page).locator('.run-badge')).toHaveText('software GPU');
  await expect(rewardRows(page)).not.toHaveCount(0);
});

/** A run file as the lab exports it, three steps, with its own settings. */
function runFile(id: string, name: string, lr = 0.0007, rewards = [0.2, 0.3, 0.4]): string {
  return JSON.stringify({
    format: 'empathy-rl-lab/run',
    version: 1,
    run: {
      id,
      name,
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000,
      status: 'stopped',
      config: { version: 1, preset: 'ci', seed: 77, steps: 9, lr, algo: 'ppo', groupSize: 2 },
      metrics: { step: [1, 2, 3], 'reward/mean': rewards, 'emotion/success': [0, 0.25, 0.5] },
      transcripts: [],
      backend: 'webgpu',
      softwareGpu: true,
    },
  });
}

test('a saved run opens with its settings and backend; importing it again makes no second row', async ({ page }) => {
  await page.goto('/?backend=cpu');
  await nav(page, /^Runs/).click();
  const file = { name: 'r.json', mimeType: 'application/json', buffer: Buffer.from(runFile('r-1', 'PPO lr 7e-4')) };
  await page.getByLabel('Import a run file').setInputFiles(file);
  await expect(page.getByText(/^Imported "PPO lr 7e-4"/)).toBeVisible();
  await page.getByLabel('Import a run file').setInputFiles(file);
  await expect(page.getByText('"PPO lr 7e-4" is already here (3 steps): nothing was imported.')).toBeVisible();
  await expect(page.locator('.runs-table tbody tr')).toHaveCount(1);
  await page.locator('.runs-table tbody tr').getByRole('button', { name: 'Open' }).click();
  // Its backend on the status line, its steps on the chart (opening reads the store: wait for it), its settings in the form.
  await expect(status(page).locator('.run-badge')).toHaveText('software GPU');
  await expect(rewardRows(page)).toHaveCount(3);
  if ((await page.locator('#settings-drawer').count()) === 0)
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(field(page, 'Seed')).toHaveValue('77');
  await expect(field(page, 'Steps')).toHaveValue('9');
  await expect(field(page, 'Algorithm')).toHaveValue('ppo');
  // Evaluate now on a run with no checkpoint says why not.
  await page.getByRole('button', { name: 'Evaluate now' }).click();
  await expect(page.getByRole('alert')).toContainText('has no checkpoint to evaluate');
});

test('compare four runs: each its colour and dash, the legend names what differs, one pinned as baseline', async ({
  page,
}) => {
  await page.goto('/?backend=cpu');
  await nav(page, /^Runs/).click();
  const lrs = [0.001, 0.003, 0.0005, 0.002];
  for (const [i, lr] of lrs.entries()) {
    const text = runFile(`c-${i}`, `run ${i}`, lr, [0.1 * (i + 1), 0.2, 0.3]);
    await page
      .getByLabel('Import a run file')
      .setInputFiles({ name: `${i}.json`, mimeType: 'application/json', buffer: Buffer.from(text) });
    await expect(page.getByText(new RegExp(`^Imported "run ${i}"`))).toBeVisible();
  }
  for (const i of [0, 1, 2, 3]) await page.getByLabel(`Compare run ${i}`).check();
  const compare = page.getByTestId('compare');
  await expect(compare.getByRole('heading')).toHaveText('Compare 4 runs');
  await expect(page.getByTestId('compare-diff')).toHaveText('Settings that differ: lr 1e-3 vs 3e-3 vs 5e-4 vs 2e-3');
  await expect(compare.locator('.compare-legend li')).toHaveText([
    /A \(solid\): run 0 · lr 1e-3 baseline/,
    /B \(dashed\): run 1 · lr 3e-3/,
    /C \(dotted\): run 2 · lr 5e-4/,
    /D \(dash-dot\): run 3 · lr 2e-3/,
  ]);
  // Pin run 2 as the baseline: it becomes A, the others keep their order.
  await compare.getByLabel('Baseline').selectOption({ label: 'C: run 2' });
  await expect(compare.locator('.compare-legend li').first()).toContainText('A (solid): run 2 · lr 5e-4 baseline');
  // The chart's table follows the legend (awaited: it is redrawn after it).
  await expect(
    compare
      .getByRole('figure', { name: 'Mean reward' })
      .getByRole('table')
      .locator('thead th')
      .filter({ hasNotText: 'smoothed' }),
  ).toHaveText(['Step', 'A: run 2', 'B: run 0', 'C: run 1', 'D: run 3']);
  // Four lines told apart: each legend marker its own colour and dash.
  const markers = compare.getByRole('figure', { name: 'Mean reward' }).locator('.u-legend .u-series .u-marker');
  const styles = await markers.evaluateAll((els) => els.map((e) => getComputedStyle(e).borderColor));
  expect(new Set(styles.slice(1)).size).toBeGreaterThanOrEqual(4);
  await page.screenshot({ path: `${SHOTS}classroom-compare.png`, fullPage: true });
});

test('Evaluate now scores a run stopped early: "after" fills in with its step', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/?backend=cpu');
  await configure(page, 400);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/Step ([2-9]|\d{2,}) of 400/, { timeout: 120_000 });
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toContainText(/Stopped after step \d+/, { timeout: 60_000 });
  const evaluate = page.getByRole('region', { name: 'Evaluate' });
  await expect(evaluate.locator('tr[data-row="after"] td').first()).toHaveText('—');
  await page.getByRole('button', { name: 'Evaluate now' }).click();
  await expect(evaluate.locator('tr[data-row="after"] td').first()).toHaveText(/^\d+\.\d$/, { timeout: 60_000 });
  await expect(status(page)).toContainText(/Evaluated the policy of step \d+/);
});

test('a teacher link hides the settings and starts training after a countdown; Cancel stops it', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/?backend=cpu#hide=settings&autoplay=1');
  const countdown = page.getByTestId('autoplay');
  await expect(countdown).toContainText(/Training starts in \d s/);
  await expect(page.locator('#settings-drawer')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Settings', exact: true })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}classroom-teacher-link.png` });
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(status(page)).toContainText(/Training step|Evaluating|Step \d/);
  await page.getByRole('button', { name: 'Reset' }).click();

  // The same link, cancelled: nothing starts (a fresh load: a new fragment alone is not a new page).
  await page.goto('/?backend=cpu#hide=settings,charts:kl&autoplay=1&lock=1');
  await page.reload();
  await page.getByTestId('autoplay').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('autoplay')).toHaveCount(0);
  await page.waitForTimeout(6_000);
  await expect(status(page)).toHaveAttribute('data-status', 'idle');
  await expect(page.getByRole('figure', { name: 'KL' })).toHaveCount(0);
});

test('a teacher link with a run and autoplay=1 trains that run, the settings hidden', async ({ page }) => {
  test.setTimeout(180_000);
  const config = {
    ...defaultRunConfig('ci'),
    seed: 11,
    steps: 2,
    profilesPerStep: 1,
    groupSize: 2,
    maxAgentTurns: 2,
    maxTurnTokens: 8,
    minibatchSize: 4,
    evalProfiles: 2,
  };
  const link = encodeShareLink(config, 'http://lab.test/?backend=cpu') + '&hide=settings&autoplay=1';
  await page.goto(link.replace('http://lab.test', ''));
  await expect(page.getByTestId('shared-run')).toBeVisible();
  await expect(page.getByTestId('autoplay')).toContainText(/Training starts in \d s/);
  await expect(status(page)).toContainText('Done: 2 steps', { timeout: 150_000 });
  await expect(page.getByTestId('shared-run')).toHaveCount(0);
  await expect(page.locator('#settings-drawer')).toHaveCount(0);
  // The link's own run: its seed is in the run's name.
  await nav(page, /^Runs/).click();
  await expect(page.locator('.runs-table tbody tr').first()).toContainText('ci GRPO seed 11');
});

test('views live in the URL (Back and Forward), damaged flags get a message, the share dialog writes flags', async ({
  page,
}) => {
  await page.goto('/?backend=cpu#view=runs&hide=bogus&autoplay=maybe');
  const alert = page.getByTestId('flag-error');
  await expect(page.getByRole('heading', { name: 'Runs in this browser' })).toBeVisible();
  await nav(page, 'Lab').click();
  await expect(alert).toContainText('hide= names "bogus"');
  await expect(alert).toContainText('autoplay= is "maybe"');
  await expect(alert).toContainText('The rest of the link opened');
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await nav(page, 'Play').click();
  await expect(page).toHaveURL(/#.*view=play/);
  await nav(page, /^Runs/).click();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Play the agent' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Train' })).toBeVisible();
  // A message dismissed stays dismissed as the person moves back and forth.
  await expect(page.getByTestId('flag-error')).toHaveCount(0);
  await page.goForward();
  await expect(page.getByRole('heading', { name: 'Play the agent' })).toBeVisible();
  await nav(page, 'Lab').click();

  // The share dialog: ticks become flags in the link.
  await page.getByRole('button', { name: 'Copy share link' }).click();
  const dialog = page.getByTestId('share-dialog');
  await dialog.getByRole('button', { name: 'For a class: hide the settings, start on open' }).click();
  await expect(page.getByLabel(/^Share link/)).toHaveValue(/#run=2\.[^&]+&hide=settings&autoplay=1$/);
  await dialog.getByLabel('open the guided tour').check();
  await expect(page.getByLabel(/^Share link/)).toHaveValue(/&hide=settings&autoplay=1&tutorial=1$/);
  await page.screenshot({ path: `${SHOTS}classroom-share-dialog.png` });
});

test('the tour runs to its end, and a tour left midway resumes where it was', async ({ page }) => {
  await page.goto('/?backend=cpu#tutorial=1');
  const tour = page.getByTestId('tour');
  await expect(tour).toContainText('Tour · 1 of 6');
  await expect(page.locator('.tour-target')).toHaveCount(1);
  await tour.getByRole('button', { name: 'Next' }).click();
  await tour.getByRole('button', { name: 'Next' }).click();
  await expect(tour).toContainText('Tour · 3 of 6');
  await tour.getByRole('button', { name: 'Leave the tour' }).click();
  await expect(tour).toHaveCount(0);
  // The page again without the link: the tour waits to be resumed at its place.
  await page.goto('/?backend=cpu');
  await page.getByRole('button', { name: 'Resume the tour (3)' }).click();
  await expect(tour).toContainText('Tour · 3 of 6');
  for (const title of ['Emotion and its reasons', 'The reward', 'What GRPO does with it', 'What to watch']) {
    await expect(tour.getByRole('heading')).toHaveText(title);
    if (title !== 'What to watch') await tour.getByRole('button', { name: 'Next' }).click();
  }
  await page.screenshot({ path: `${SHOTS}classroom-tour.png` });
  await tour.getByRole('button', { name: 'Finish' }).click();
  await expect(tour).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Take the tour' })).toBeVisible();
});

test('at 390 px every view is one column, nothing wider than the screen; Play ends and reveals', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?backend=cpu');
  await expect(page.getByTestId('adapter-line')).toContainText('CPU');
  await page.screenshot({ path: `${SHOTS}classroom-390x844-lab.png` });
  for (const view of ['Lab', /^Runs/, 'Warm start', 'Play', 'Chat'] as const) {
    await nav(page, view).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toBeInViewport();
  }
  await nav(page, 'Play').click();
  await page.getByTestId('play-start').click();
  await page.getByRole('textbox', { name: 'Your reply' }).fill('That sounds really hard. What happened?');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('button', { name: 'End and reveal' }).click();
  await expect(page.getByTestId('play-end')).toContainText('you ended it');
  await expect(page.getByTestId('play-end')).toContainText('Hidden intention:');
  await page.screenshot({ path: `${SHOTS}classroom-390x844-play.png`, fullPage: true });
});

test('the warm start can be cancelled: it stops between steps and keeps nothing', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/?backend=cpu');
  await nav(page, 'Warm start').click();
  await page.getByLabel('Steps').fill('3000');
  await page.getByLabel('Dialogues').fill('120');
  await page.getByTestId('warm-start-button').click();
  await expect(page.getByTestId('warm-start-progress')).toContainText(/step \d+ \/ 3000/, { timeout: 120_000 });
  await page.getByTestId('warm-start-cancel').click();
  await expect(page.getByTestId('warm-start-progress')).toContainText('Cancelled: nothing was kept', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('warm-start-result')).toHaveCount(0);
  await expect(page.getByTestId('warm-start-button')).toBeEnabled();
});
