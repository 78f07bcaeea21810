/**
 * Browser tests in real headless Chromium with WebGPU (`--enable-unsafe-webgpu`; on a machine
 * without a GPU that is the SwiftShader software adapter). Two servers: the Vite dev server for the
 * kernel harness (e2e/harness/*.html loads engine sources directly), and the built app under
 * `vite preview` for the end-to-end tests. Tests run serially: SwiftShader is CPU-bound and parallel
 * WebGPU pages flake there.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './chromium';

// Ports can be moved (PW_DEV_PORT, PW_PREVIEW_PORT) so two runs can share a machine; PW_SERVERS=dev
// starts only the dev server, for iterating on kernels without building the app.
const DEV_PORT = Number(process.env.PW_DEV_PORT ?? 5391);
const PREVIEW_PORT = Number(process.env.PW_PREVIEW_PORT ?? 5392);
const ONLY_DEV = process.env.PW_SERVERS === 'dev';
const executablePath = findChromium();

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 300_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
    headless: true,
  },
  projects: [
    { name: 'kernels', testMatch: /(kernels|onnx|peers)\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${DEV_PORT}` } },
    {
      name: 'app',
      testMatch: /(app|lab|play|a11y|chat|classroom)\.spec\.ts$/,
      use: { baseURL: `http://127.0.0.1:${PREVIEW_PORT}` },
    },
  ],
  webServer: [
    {
      command: `npx vite --port ${DEV_PORT} --strictPort --host 127.0.0.1`,
      url: `http://127.0.0.1:${DEV_PORT}/e2e/harness/gpu.html`,
      reuseExistingServer: false,
      timeout: 120_000,
      cwd: '..',
    },
    ...(ONLY_DEV
      ? []
      : [
          {
            command: `npx vite build --logLevel warn && npx vite preview --port ${PREVIEW_PORT} --strictPort --host 127.0.0.1`,
            url: `http://127.0.0.1:${PREVIEW_PORT}/`,
            reuseExistingServer: false,
            timeout: 300_000,
            cwd: '..',
          },
        ]),
  ],
});
