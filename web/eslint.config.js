// ESLint (issue 17 item 4): TypeScript and React-hooks rules, and the import
// boundaries the code relies on: a feature never imports another feature (they meet
// only in `src/app`, the routes), shared code (`lib`, `components`, `config`) never
// imports a feature, and nothing outside `features/admin` and the routes reaches the
// console, so its code never leaks into the borrower bundle. Imports go through the
// `@/` alias (relative imports stay inside a folder), which is what the rule reads.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { readdirSync } from 'node:fs';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const tests = ['src/**/__tests__/**', 'src/testing/**', 'src/**/*.test.{ts,tsx}'];

/** `files` may not import any of `patterns` (aliases and relative climbs alike). */
const forbid = (files, patterns, message) => ({
  files,
  ignores: tests,
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'e2e/**', 'scripts/**', 'src/lib/api-schema.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['eslint.config.js'], languageOptions: { globals: globals.node } },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...features.map((feature) =>
    forbid(
      [`src/features/${feature}/**`],
      ['@/features/*', `!@/features/${feature}`, `!@/features/${feature}/**`],
      `features never import each other: move what ${feature} shares to src/lib or src/components`,
    ),
  ),
  forbid(
    ['src/lib/**', 'src/components/**', 'src/config/**', 'src/locales/**'],
    ['@/features/*', '@/features/**', '../features/*', '../features/**'],
    'shared code never imports a feature',
  ),
);
