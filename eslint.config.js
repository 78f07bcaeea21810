// ESLint holds the layers (docs/ARCHITECTURE.md): the engine imports nothing above it, React and the
// DOM stay in src/ui, and no runtime import forms a cycle. Formatting is Prettier's (npm run format);
// unused exports are knip's (knip.json). Both run in `npm run lint`, which `npm test` runs first.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

/** The layers above the engine: src/engine may import none of them. */
const ABOVE_ENGINE = ['rl', 'persona', 'worker', 'ui', 'lab', 'cli', 'corpus', 'experiment', 'onnx'];

/** Browser-page globals: code outside src/ui (and the browser harnesses) must not reach for them. */
const DOM_GLOBALS = [
  'window',
  'document',
  'localStorage',
  'sessionStorage',
  'alert',
  'confirm',
  'prompt',
  'HTMLElement',
  'Element',
  'DOMParser',
  'MutationObserver',
  'getComputedStyle',
  'requestAnimationFrame',
].map((name) => ({ name, message: 'The DOM belongs to src/ui: pass what you need in from there.' }));

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.device/',
      'device-out/',
      'test-results/',
      'playwright-report/',
      'public/',
      // AssemblyScript (compiled by asc, not tsc) and its generated output.
      'src/engine/wasm/asm/',
      'src/engine/wasm/gen/',
    ],
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
    plugins: { 'import-x': importX, '@typescript-eslint': tseslint.plugin },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Type-only imports vanish at run time, so they may point both ways.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: ABOVE_ENGINE.map((layer) => ({
            target: './src/engine',
            from: `./src/${layer}`,
            message: 'src/engine is the bottom layer: it runs in a Worker, in Node and in tests on its own.',
          })),
        },
      ],
    },
  },
  {
    // React, its DOM renderer and the stores are the UI's; main.tsx is the page's entry into it.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/ui/**', 'src/main.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(react|react-dom|zustand|uplot)(/.*)?$',
              message: 'React, zustand and the chart library belong to src/ui.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', ...DOM_GLOBALS],
    },
  },
  {
    // The engine is the part other code is held to: no `any` in it.
    files: ['src/engine/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
);
