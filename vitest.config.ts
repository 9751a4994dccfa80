import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const libsDir = fileURLToPath(new URL('./libs', import.meta.url));
// Tests import the libraries' TypeScript sources directly, so they need no build: `@logsvc/x`
// and a subpath entry `@logsvc/x/sub` (package.json "exports", e.g. `@logsvc/api/browser`).
const alias = [
  { find: /^@logsvc\/([a-z-]+)\/([a-z-]+)$/, replacement: `${libsDir}/$1/src/$2/index.ts` },
  { find: /^@logsvc\/([a-z-]+)$/, replacement: `${libsDir}/$1/src/index.ts` },
];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'libs', include: ['libs/*/src/**/*.spec.ts'], testTimeout: 20_000 },
      },
      {
        resolve: { alias },
        test: {
          name: 'apps',
          include: ['apps/*/src/**/*.spec.ts', 'apps/*/test/**/*.spec.ts'],
          exclude: ['apps/admin-ui/**', '**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The admin UI's component tests: React in jsdom, JSX compiled by esbuild as in its build.
        resolve: { alias },
        esbuild: { jsx: 'automatic' },
        test: {
          name: 'admin-ui',
          include: ['apps/admin-ui/src/**/*.spec.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
      {
        resolve: { alias },
        test: { name: 'tools', include: ['tools/**/*.spec.ts'], testTimeout: 60_000 },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
