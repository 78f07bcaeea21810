// Bundles bench/dawn.ts (and TensorFlow.js, which Node's ESM loader cannot import from its
// published dist) into one ES module for Node: `node bench/dawn-bundle.mjs [OUTFILE] [ENTRY]`
// (default node_modules/.cache/bench-dawn.mjs from bench/dawn.ts). `webgpu` (Dawn's native addon)
// stays external. Used by `npm run bench:dawn` and bench/device/pack.sh (which also bundles
// bench/device/gpu-tests.ts).
import { build } from 'esbuild';

const outfile = process.argv[2] ?? 'node_modules/.cache/bench-dawn.mjs';
const entry = process.argv[3] ?? 'bench/dawn.ts';
await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['webgpu'],
  outfile,
  logLevel: 'warning',
  // CommonJS inside the bundle (TensorFlow.js's) calls require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
