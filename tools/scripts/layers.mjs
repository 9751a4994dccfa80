// Which project may import which: the table docs/architecture.md ("Layers") shows, and the one
// tools/scripts/eslint-boundaries.mjs enforces. A library imports only libraries of lower
// layers; apps, tools and e2e import libraries, never each other's files.

/** Library layers, lowest first. */
export const LIBRARY_LAYERS = [
  { name: 'foundation', libs: ['errors', 'gocompat', 'operator-api'] },
  { name: 'model', libs: ['api', 'config', 'gotemplate'] },
  { name: 'formats', libs: ['chunk', 'push', 'storage', 'ring'] },
  { name: 'language', libs: ['logql'] },
  { name: 'codec', libs: ['query-codec'] },
  {
    name: 'components',
    libs: ['ingester', 'pattern', 'compactor', 'ruler', 'helm-render', 'operator-render'],
  },
  { name: 'paths', libs: ['distributor', 'querier'] },
  { name: 'frontend', libs: ['frontend'] },
  { name: 'wire', libs: ['rpc'] },
];

/** Layer index of each library, by folder name (= package name without `@logsvc/`). */
export const LAYER_OF = new Map(
  LIBRARY_LAYERS.flatMap((layer, index) => layer.libs.map((lib) => [lib, index])),
);

/**
 * What the other projects may import, by folder. `libs: 'all'` is any library; otherwise the
 * exact package specifiers. Testing entries (`@logsvc/x/testing`) are for tests only.
 */
export const OTHER_PROJECTS = {
  'apps/logsvc': { libs: 'all' },
  'apps/operator': { libs: 'all' },
  'apps/admin-ui': { libs: ['@logsvc/api/browser', '@logsvc/operator-api'] },
  tools: { libs: 'all' },
  e2e: { libs: 'all' },
};

/**
 * Test entry points of projects that are not libraries: the package specifier and the file it
 * stands for (vitest.config.ts and tsconfig.check.json map them the same way).
 */
export const TESTING_ENTRIES = {
  '@logsvc/bench/testing': 'tools/bench/src/testing/index.ts',
  '@logsvc/operator/testing': 'apps/operator/test/support/index.ts',
};
