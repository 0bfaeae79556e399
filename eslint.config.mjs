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

// The engine's wings, lowest first. A wing may import (values) only from the wings before it in this
// list; `import type` may cross anywhere (types vanish at build). tests/unit/engine-wings.test.ts
// checks the same order on the whole import graph (dynamic imports included). Nothing in engine/ imports blocks/,
// pages/ or scripts/.
//   browser   what blocks' components may import: pure, browser-safe (no node: modules, no other wing)
//   process   the process itself: how it stops and closes what it opened, its memory and logs, deadlines
//   keys      the keys that seal personal data (lead keys, the form-trace key pair)
//   errors    error reports (DSN, envelope, the browser's reporter script)
//   validate  JSON documents checked with file, line:column and JSON pointer
//   cache     the page cache handlers (in memory, Redis)
//   store     the database: connection, migrations, every table and its queries
//   geo       states, cities, place names, time zones, where loans are served, the geocoder's index
//   content   the content client (embedded store, Strapi, Markdown)
//   site      catalog, hosts, routes and their parameters, the page model, SEO files, page policy
//   http      what every API route uses (the declaration helper, rate limits), the geocoder API
//   leads     a loan request: recorded, its destinations, its environment, the form trace
//   sale      buyers, eligibility, ping and post, the wire format, the sale's keys
//   outbox    background work: the delivery worker, the lead and sale workers, notices, postbacks
//   traffic   visits and funnel events, their API and queries
//   console   the operator console: auth, queries, forms, exports
//   frontDoor the front door: decides every request, so it may ask any wing
export const ENGINE_WINGS = [
  'browser',
  'process',
  'keys',
  'errors',
  'validate',
  'cache',
  'store',
  'geo',
  'content',
  'site',
  'http',
  'leads',
  'sale',
  'outbox',
  'traffic',
  'console',
  'frontDoor',
];
const OUTSIDE_ENGINE = { regex: '(^|/)(blocks|pages|scripts)/', caseSensitive: true, message: 'engine/ never imports blocks/, pages/ or scripts/.' };
/** A specifier that names a module of one of these wings, from anywhere inside engine/. */
const wingsPattern = (wings, message) => ({ regex: `(^|/)(${wings.join('|')})/`, caseSensitive: true, allowTypeImports: true, message });
const NODE_BUILTINS = [
  'node:',
  ...[
    'assert',
    'buffer',
    'child_process',
    'crypto',
    'dns',
    'events',
    'fs',
    'http',
    'https',
    'module',
    'net',
    'os',
    'path',
    'stream',
    'tls',
    'url',
    'util',
    'worker_threads',
    'zlib',
  ].map((m) => `${m}$`),
];
const wingBoundaries = ENGINE_WINGS.map((wing, i) => ({
  files: [`engine/${wing}/**`],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          OUTSIDE_ENGINE,
          ...(wing === 'browser'
            ? [
                wingsPattern(ENGINE_WINGS.slice(1), 'engine/browser/ reaches the browser: it imports no other wing (types excepted).'),
                { regex: `^(${NODE_BUILTINS.join('|')})`, caseSensitive: true, message: 'engine/browser/ reaches the browser: no Node modules.' },
              ]
            : i + 1 < ENGINE_WINGS.length
              ? [
                  wingsPattern(
                    ENGINE_WINGS.slice(i + 1),
                    `engine/${wing}/ may import only the wings below it (${ENGINE_WINGS.slice(0, i).join(', ')}); see eslint.config.mjs.`,
                  ),
                ]
              : []),
        ],
      },
    ],
  },
}));

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
  ...wingBoundaries,
  {
    // A block's components run in the browser: from engine/ they import only engine/browser/ (types
    // from anywhere). Its spec (what the engine knows of it) and the generated maps are engine-side.
    files: ['blocks/**'],
    ignores: ['blocks/*/spec.ts', 'blocks/generated/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)engine/(?!browser/)',
              caseSensitive: true,
              allowTypeImports: true,
              message: "A block's components import from engine/ only engine/browser/ (import type from anywhere).",
            },
          ],
        },
      ],
    },
  },
]);
