import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { boundariesPlugin } from './tools/scripts/eslint-boundaries.mjs';

// Module boundaries (docs/architecture.md, "Boundaries"). The Nx tags in each project.json name
// the kinds (type:lib, type:app, type:tool, scope:browser); @nx/eslint-plugin is not installed,
// so ESLint's own rules enforce what the tags mean, per folder, and the local rule
// `logsvc/boundaries` the layer table of tools/scripts/layers.mjs.

/** What no library may import: the server app and its HTTP framework. */
const LIBRARY_RESTRICTIONS = [
  {
    group: ['@nestjs/*', 'fastify', 'fastify/*', '@fastify/*'],
    message: 'Libraries do not use Nest or Fastify: HTTP belongs to apps/logsvc.',
  },
];

const NODE_MODULES_MESSAGE = '@logsvc/api/browser runs in browsers: no Node modules.';
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Any specifier but `./x` and Node's modules (those have their own message). */
const OUTSIDE_FOLDER = `^(?!\\./|node:|(?:${builtinModules.map(escape).join('|')})$)`;

/** `@logsvc/api/browser` imports only its own files, and nothing of Node. */
const BROWSER_RESTRICTIONS = {
  paths: builtinModules.map((name) => ({ name, message: NODE_MODULES_MESSAGE })),
  patterns: [
    { group: ['node:*'], message: NODE_MODULES_MESSAGE },
    {
      regex: OUTSIDE_FOLDER,
      message: '@logsvc/api/browser imports only files of its own folder (./x).',
    },
  ],
};

const NODE_GLOBALS = [
  'Buffer',
  'process',
  'global',
  'require',
  'module',
  '__dirname',
  '__filename',
  'setImmediate',
  'clearImmediate',
].map((name) => ({ name, message: `@logsvc/api/browser runs in browsers: no ${name}.` }));

/** `@logsvc/operator-api` (the LogService schema) is imported by the admin UI too. */
const OPERATOR_API_MESSAGE = '@logsvc/operator-api runs in browsers too: no Node modules.';
const OPERATOR_API_RESTRICTIONS = {
  paths: builtinModules.map((name) => ({ name, message: OPERATOR_API_MESSAGE })),
  patterns: [
    { group: ['node:*'], message: OPERATOR_API_MESSAGE },
    {
      regex: `^(?!\\.\\.?/|node:|(?:${builtinModules.map(escape).join('|')})$)`,
      message: '@logsvc/operator-api imports only its own files.',
    },
  ],
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**', '.nx/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Which project may import which (tools/scripts/layers.mjs), and only by package name.
    files: ['libs/**/*.{ts,tsx}', 'apps/**/*.{ts,tsx}', 'tools/**/*.ts', 'e2e/**/*.ts'],
    plugins: { logsvc: boundariesPlugin },
    rules: { 'logsvc/boundaries': 'error' },
  },
  {
    files: ['libs/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: LIBRARY_RESTRICTIONS }] },
  },
  {
    // Its specs run under vitest in Node; the shipped files must not.
    files: ['libs/api/src/browser/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', BROWSER_RESTRICTIONS],
      'no-restricted-globals': ['error', ...NODE_GLOBALS],
    },
  },
  {
    files: ['libs/operator-api/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', OPERATOR_API_RESTRICTIONS],
      'no-restricted-globals': [
        'error',
        ...NODE_GLOBALS.map((g) => ({
          ...g,
          message: g.message.replace('@logsvc/api/browser', '@logsvc/operator-api'),
        })),
      ],
    },
  },
);
