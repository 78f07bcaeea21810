/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// One config for the app (Vite) and the pure unit tests (Vitest, Node).
// Browser tests (kernels against their CPU references, the app end to end) run under Playwright: e2e/.

// Cross-origin isolation, so the page has SharedArrayBuffer and the wasm backend its threads. A host
// serving the build must send the same two headers (public/_headers says so to hosts that read it).
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [react()],
  base: './',
  server: { host: '127.0.0.1', strictPort: false, headers: ISOLATION },
  preview: { headers: ISOLATION },
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 2000 },
  worker: { format: 'es' },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    pool: 'forks',
  },
});
