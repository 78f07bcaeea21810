/**
 * Play end to end in headless Chromium: a person talks with benchmark user bench-001 (the user runs
 * in the page), sees each change with its appraisal and the user's next line, is brushed off for a
 * bare backchannel, keeps a draft across a tab switch, then watches the shipped warm start play the
 * same user through the engine worker (SwiftShader or the CPU here). Screenshot: e2e/screenshots/play.png;
 * a reply about another user's story: e2e/screenshots/play-foreign.png.
 */
import { test, expect } from '@playwright/test';
import { onWebGpu } from './chromium';
import { mkdirSync } from 'node:fs';

const SHOTS = new URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });

test('a person plays bench-001, sees every change and its reasons, then watches the policy', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Play' }).click();

  const profile = page.getByRole('combobox', { name: 'Profile' });
  await expect(profile).toHaveValue('bench-001');
  await expect(profile.locator('option')).toHaveCount(100);
  await page.getByTestId('play-start').click();

  const transcript = page.getByTestId('play-transcript');
  await expect(transcript.locator('.line-user').first()).not.toBeEmpty();
  const reply = page.getByRole('textbox', { name: 'Your reply' });
  await expect(reply).toBeFocused();

  // Shift+Enter is a new line; Enter sends.
  await reply.fill('That sounds exhausting.');
  await reply.press('Shift+Enter');
  await expect(reply).toHaveValue('That sounds exhausting.\n');
  await reply.fill("That sounds exhausting. What's been the hardest part?");
  await reply.press('Enter');
  const turns = page.getByTestId('play-transcript-turn');
  await expect(turns).toHaveCount(1);
  await expect(reply).toHaveValue('');
  const first = turns.nth(0);
  await expect(first.getByTestId('change')).toHaveText(/^[+-]?\d+$/);
  const appraisal = first.getByTestId('play-transcript-appraisal');
  await expect(appraisal).toContainText('emotion');
  for (const part of ['What the reply tries', 'Fit to the hidden need', 'Inner reaction'])
    await expect(appraisal).toContainText(part);
  await expect(appraisal.locator('dd').first()).not.toBeEmpty();
  // The fit names the hidden need, so it waits for the end of the dialogue.
  await expect(appraisal.locator('dd').nth(1)).toContainText('shown when your dialogue ends');
  await expect(first.locator('.line-user .text')).not.toBeEmpty();

  // A draft survives a tab switch.
  await reply.fill('Okay.');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Lab' }).click();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Play' }).click();
  await expect(page.getByRole('textbox', { name: 'Your reply' })).toHaveValue('Okay.');

  // A bare backchannel reads as a brush-off: the change is negative.
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(turns).toHaveCount(2);
  const change = Number(await turns.nth(1).getByTestId('change').textContent());
  expect(change).toBeLessThan(0);
  await expect(turns.nth(1).locator('.line-user .text')).not.toBeEmpty();
  await expect(page.getByRole('img', { name: /Your dialogue: emotion 40 → \d+ → \d+/ })).toBeVisible();

  // The shipped warm start plays the same user, as many replies as the person made (two).
  await expect(page.getByTestId('watch-button')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('watch-button').click();
  const policy = page.getByTestId('policy-transcript');
  await expect(policy).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('policy-transcript-turn')).toHaveCount(2);
  await expect(policy.locator('.line-user').first()).toHaveText(
    (await transcript.locator('.line-user').first().textContent()) ?? '',
  );
  await expect(page.getByTestId('policy-transcript-appraisal').first()).toContainText('Fit to the hidden need');
  await expect(page.getByTestId('policy-final')).toContainText('started at 40');

  await page.screenshot({ path: `${SHOTS}play.png`, fullPage: true });

  // Brushed off again and again, the user gives up (or the turn cap ends it): the hidden intention is revealed.
  const end = page.getByTestId('play-end');
  for (let i = 0; i < 8 && !(await end.isVisible()); i++) {
    await page.getByRole('textbox', { name: 'Your reply' }).fill(i % 2 ? 'Hm.' : 'Okay.');
    await page.getByRole('textbox', { name: 'Your reply' }).press('Enter');
    await expect(turns).toHaveCount(3 + i);
  }
  await expect(end).toContainText('The dialogue is over');
  await expect(end).toContainText(/Hidden intention: \S/);
  await expect(end).toContainText(/Final emotion \d+/);
  await expect(turns.nth(0).getByTestId('play-transcript-appraisal').locator('dd').nth(1)).not.toContainText(
    'shown when',
  );
  await expect(page.getByRole('textbox', { name: 'Your reply' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}play-end.png`, fullPage: true });

  // A user of one's own: the form is checked against the schema, field by field; a valid one plays.
  await page.getByRole('button', { name: 'Write a user of your own…' }).click();
  await page.getByLabel('Age', { exact: true }).fill('7');
  await page.getByLabel('Details', { exact: true }).fill('only one');
  await page.getByRole('button', { name: 'Check and use this user' }).click();
  await expect(page.getByTestId('profile-form-errors')).toContainText('2 fields need attention');
  await expect(page.getByLabel('Age', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Age', { exact: true }).fill('29');
  await page.getByLabel('Details', { exact: true }).fill('the school gate\nthe bedtime talk');
  await page.getByLabel('Name', { exact: true }).fill('Robin');
  await page.getByLabel('Opening line', { exact: true }).fill('I keep replaying what the other parents said.');
  await page.getByRole('button', { name: 'Check and use this user' }).click();
  await expect(page.getByTestId('profile-form-ok')).toContainText('Robin (custom-bench-001) matches the schema');
  await expect(profile).toHaveValue('custom-bench-001');
  await page.getByTestId('play-start').click();
  await expect(transcript.locator('.line-user').first()).toHaveText(
    'user' + 'I keep replaying what the other parents said.',
  );
  await page.getByRole('textbox', { name: 'Your reply' }).fill('That sounds painful. What did they say?');
  await page.getByRole('textbox', { name: 'Your reply' }).press('Enter');
  await expect(turns).toHaveCount(1);
  // A policy can play the user written in the form: it opens with that user's own line.
  await expect(page.getByTestId('watch-button')).toBeEnabled();
  await page.getByTestId('watch-button').click();
  await expect(page.getByTestId('policy-transcript').locator('.line-user').first()).toHaveText(
    'user' + 'I keep replaying what the other parents said.',
    { timeout: 120_000 },
  );
  await page.screenshot({ path: `${SHOTS}play-custom.png`, fullPage: true });
});

const TINY: [label: string, value: string][] = [
  ['Steps', '1'],
  ['Profiles per step', '1'],
  ['Group size', '2'],
  ['Replies per dialogue', '2'],
  ['Tokens per reply', '8'],
  ['Minibatch size', '4'],
  ['Benchmark users', '1'],
];

test("a reply about somebody else's story: the user earns it nothing and says so", async ({ page }) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Play' }).click();
  await expect(page.getByRole('combobox', { name: 'Profile' })).toHaveValue('bench-001');
  await page.getByTestId('play-start').click();
  const reply = page.getByRole('textbox', { name: 'Your reply' });
  await expect(reply).toBeFocused();
  // bench-001's story is a school's call about her daughter; the trampoline is another user's.
  await reply.fill('It makes complete sense that the trampoline got to you. That sounds exhausting.');
  await reply.press('Enter');
  const turn = page.getByTestId('play-transcript-turn').first();
  expect(Number(await turn.getByTestId('change').textContent())).toBeLessThanOrEqual(0);
  await expect(turn.getByTestId('play-transcript-appraisal')).toContainText('mixed up with someone else');
  await expect(turn.locator('.line-user .text')).toContainText(
    /I never said anything about that|what are you talking about|thinking of someone else|not what happened to me/,
  );
  await page.screenshot({ path: `${SHOTS}play-foreign.png`, fullPage: true });
});

test('a user written in Play is used for training: the run trains on them, and the share link carries them', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  await page.goto(onWebGpu());
  await expect(page.getByTestId('adapter-line')).toContainText('WebGPU adapter:');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Play' }).click();
  await page.getByRole('button', { name: 'Write a user of your own…' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Robin <script>');
  await page.getByLabel('Id', { exact: true }).fill('custom-robin');
  await page.getByRole('button', { name: 'Check and use this user' }).click();
  await expect(page.getByTestId('profile-form-ok')).toContainText('matches the schema');
  await page.getByRole('button', { name: 'Use for training' }).click();
  await expect(page.getByTestId('train-user-set')).toContainText('Robin <script> (custom-robin) is the training user');

  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Lab' }).click();
  await expect(page.getByTestId('train-users')).toContainText('Your own user Robin <script> (custom-robin');
  await page.getByLabel('Preset', { exact: true }).selectOption('ci');
  await page.getByText(/^Advanced \(/).click();
  for (const [label, value] of TINY) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  const status = page.getByRole('status', { name: 'Training status' });
  await expect(status).toContainText('Done: 1 steps', { timeout: 180_000 });
  const dialogues = page.getByRole('region', { name: 'Transcripts' }).locator('.dialogue-who');
  await expect(dialogues.first()).toBeVisible();
  // Every training dialogue was with the person's user (shown as text, never HTML).
  for (const who of await dialogues.allTextContents()) expect(who).toMatch(/^Robin <script>, \d+: /);

  // The share link carries the user; a fresh browser opens it and sees who the run trained on.
  await page.getByRole('button', { name: 'Copy share link' }).click();
  const link = await page.getByLabel(/^Share link/).inputValue();
  expect(link).toMatch(/#run=2\.[\w-]+&users=1\.[\w-]+$/);
  expect(link.length).toBeLessThan(2000);
  const other = await browser.newContext();
  try {
    const shared = await other.newPage();
    await shared.goto(link.replace(baseURL!.replace(/\/$/, ''), ''));
    await expect(shared.getByTestId('shared-users')).toContainText('Robin <script> (custom-robin)');
    await shared.getByRole('button', { name: 'Load into the form' }).click();
    await expect(shared.getByTestId('train-users')).toContainText('Your own user Robin <script>');
  } finally {
    await other.close();
  }

  // Play: watch the policy this run trained (its checkpoint), on a benchmark user.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Play' }).click();
  await page.getByRole('combobox', { name: 'Profile' }).selectOption('bench-001');
  const policy = page.getByRole('combobox', { name: 'Policy', exact: true });
  const option = policy.locator('option', { hasText: '(the run in the Lab)' });
  await expect(option).toHaveText(/Robin <script>, step 1 \(the run in the Lab\)/);
  await policy.selectOption({ value: (await option.getAttribute('value'))! });
  await page.getByRole('combobox', { name: 'Policy replies' }).selectOption('2');
  await page.getByTestId('watch-button').click();
  await expect(page.getByTestId('policy-transcript')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('policy-transcript-turn')).toHaveCount(2);
  await expect(page.getByTestId('policy-source')).toContainText('RL checkpoint, step 1');
  await page.screenshot({ path: `${SHOTS}play-rl-policy.png`, fullPage: true });
});
