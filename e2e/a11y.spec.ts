/**
 * Quality bars of the lab page in headless Chromium: an axe check (WCAG 2 A/AA rules) of each main
 * view with no serious or critical violation, in the light and the dark scheme, and no request
 * beyond the page's own origin while the views load.
 */
import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Page } from '@playwright/test';

async function axeSerious(page: Page, view: string): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${view}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious violation in the main views (${scheme}), and nothing leaves the origin`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    const origin = new URL(baseURL!).origin;
    const foreign: string[] = [];
    page.on('request', (req) => {
      const u = new URL(req.url());
      if (u.protocol !== 'data:' && u.protocol !== 'blob:' && u.origin !== origin) foreign.push(req.url());
    });
    await page.goto('/');
    await expect(page.getByTestId('adapter-line')).toContainText(/WebGPU adapter:|CPU/);
    const problems: string[] = [];
    problems.push(...(await axeSerious(page, 'Lab')));
    for (const [view, name] of [
      ['Runs', /^Runs/],
      ['Warm start', /^Warm start/],
    ] as const) {
      await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name }).click();
      problems.push(...(await axeSerious(page, view)));
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect(foreign, foreign.join('\n')).toEqual([]);
  });
}
