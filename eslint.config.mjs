// ESLint's flat config (npm run lint): JavaScript's and typescript-eslint's recommended rules,
// React's hooks rules (with the React Compiler's checks: no setState straight in an effect, no ref
// read in render, no mutated props), and jsx-a11y's recommended accessibility rules for the components.
// Formatting is Prettier's business (.prettierrc.json), not ESLint's.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  // Built, installed, derived or generated: not written by hand.
  globalIgnores([
    '.next/',
    'node_modules/',
    'data/',
    '.bench/',
    'test-results/',
    'playwright-report/',
    'docs/screens/',
    'next-env.d.ts',
    'schemas/brand.types.ts',
    'schemas/api.types.ts',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{jsx,tsx}'],
    extends: [jsxA11y.flatConfigs.recommended],
    rules: {
      // Components take an autoFocus prop and move focus themselves (a dialog's first control).
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
    },
  },
  {
    files: ['**/*.{js,mjs,jsx,ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks a parameter or binding kept on purpose (a signature, a skipped tuple slot).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // `ok && run()` and `a ? b() : c()` as statements are this code's idiom; a bare expression
      // that does nothing is still an error.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
    },
  },
]);
