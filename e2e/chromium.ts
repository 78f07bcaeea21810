/**
 * Finding a Chromium for the browser tests and benchmarks: $CHROME_PATH, then a system chromium,
 * then an installed Chrome, then Playwright's own download. With none, a message says how to get one.
 * Node only (used by the Playwright config and bench/run.ts).
 */
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { chromium } from '@playwright/test';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
];

export const HOW_TO_GET_CHROMIUM = [
  'No Chromium found for the browser tests. Do one of:',
  '  - Debian/Ubuntu: sudo apt-get install chromium   (CI does this in .ci/run)',
  '  - set CHROME_PATH=/path/to/chrome-or-chromium',
  "  - npx playwright install chromium   (needs access to Playwright's download server)",
].join('\n');

export function findChromium(): string {
  const env = process.env.CHROME_PATH;
  if (env) {
    if (!existsSync(env))
      throw new Error(`CHROME_PATH is set to ${env}, which does not exist.\n${HOW_TO_GET_CHROMIUM}`);
    return env;
  }
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      const p = execFileSync('which', [name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      if (p && existsSync(p)) return p;
    } catch {
      // not on PATH
    }
  }
  for (const p of CANDIDATES) if (existsSync(p)) return p;
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // Playwright's browser is not installed
  }
  throw new Error(HOW_TO_GET_CHROMIUM);
}

/** Flags: WebGPU on (a software adapter where there is no GPU), and quiet in a closed network. */
export const CHROMIUM_ARGS = [
  '--enable-unsafe-webgpu',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

/**
 * `path` with `backend=webgpu` in its query: the lab on the WebGPU adapter even where it is a
 * software one (which the lab would otherwise time against the CPU), for tests of the WebGPU path.
 */
export function onWebGpu(path = '/'): string {
  const u = new URL(path, 'http://lab.test');
  u.searchParams.set('backend', 'webgpu');
  return `${u.pathname}${u.search}${u.hash}`;
}
