import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TESTING_ENTRIES } from './tools/scripts/layers.mjs';
import TestSequencer from './tools/scripts/test-sequencer.mjs';

const libsDir = fileURLToPath(new URL('./libs', import.meta.url));
// Tests import the libraries' TypeScript sources directly, so they need no build: `@logsvc/x`
// and a subpath entry `@logsvc/x/sub` (package.json "exports", e.g. `@logsvc/api/browser`,
// or a `testing` entry); the testing entries of apps and tools are listed in layers.mjs.
const alias = [
  ...Object.entries(TESTING_ENTRIES).map(([name, file]) => ({
    find: new RegExp(`^${name}$`),
    replacement: fileURLToPath(new URL(`./${file}`, import.meta.url)),
  })),
  { find: /^@logsvc\/([a-z-]+)\/([a-z-]+)$/, replacement: `${libsDir}/$1/src/$2/index.ts` },
  { find: /^@logsvc\/([a-z-]+)$/, replacement: `${libsDir}/$1/src/index.ts` },
];

// Worker threads the libraries start from their sources (the query and scan pools, the OTLP
// decoder) are `.ts` files there: every test process, and so each of its threads, loads
// TypeScript through tsx's require hook (a build starts the `.js` files beside them).
const execArgv = ['--require', 'tsx/cjs'];

// Specs that assert latencies, parallel speed-ups or a real control plane's pace: they run one
// at a time after the rest (in the sequential group with e2e), never beside another file.
const timingSensitive = [
  'apps/logsvc/test/index-volume.spec.ts',
  'apps/logsvc/test/push-large.spec.ts',
  'apps/logsvc/test/query-yields.spec.ts',
  'apps/logsvc/test/template-budgets.spec.ts',
  'apps/operator/test/controller.spec.ts',
  'apps/operator/test/crd-upgrade.spec.ts',
  'apps/operator/test/guarded.spec.ts',
  'libs/ingester/src/wal/dir-lock.spec.ts',
  'libs/logql/src/engine/hostile-queries.property.spec.ts',
  'libs/push/src/otlp-decode-thread.spec.ts',
  'libs/querier/src/query-pool/query-worker-pool.spec.ts',
  'libs/ring/src/etcd-kv.spec.ts',
  'libs/rpc/src/client/grpc-ingester-client.spec.ts',
];

export default defineConfig({
  resolve: { alias },
  test: {
    sequence: { sequencer: TestSequencer },
    // One test file per core (Vitest's default leaves a core idle, which on a 2-core machine
    // halves the suite's speed); timing-sensitive files run alone afterwards, then e2e.
    // In libs, apps and tools, `isolate: false` lets a worker keep the modules it transformed
    // for the next file: loading TypeScript through the transform cost the libs ~70 s and the
    // apps ~45 s of the suite when each file paid it again. Files leave no state behind that a
    // later one reads (fake timers are restored in afterEach; budgets are fixed, not
    // stack-dependent).
    // The serial files stay isolated: Vitest refuses two non-isolated projects of one group
    // that differ in maxWorkers, and they spend their time in tests, not in loading.
    maxWorkers: availableParallelism(),
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'libs',
          isolate: false,
          execArgv,
          include: ['libs/*/src/**/*.spec.ts'],
          exclude: [...timingSensitive, '**/node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'apps',
          isolate: false,
          execArgv,
          include: ['apps/*/src/**/*.spec.ts', 'apps/*/test/**/*.spec.ts'],
          exclude: [...timingSensitive, 'apps/admin-ui/**', '**/node_modules/**'],
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
          setupFiles: ['apps/admin-ui/src/test-setup.ts'],
          // Renders in jsdom take seconds on a loaded 2-core machine.
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'tools',
          isolate: false,
          include: ['tools/**/*.spec.ts'],
          testTimeout: 60_000,
          execArgv,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'serial',
          execArgv,
          include: timingSensitive,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          execArgv,
          include: ['e2e/**/*.spec.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Two e2e files at a time, in the order of tools/scripts/test-sequencer.mjs (the
          // operator's control-plane e2e mostly wait, the others mostly compute). Each worker
          // keeps its module state across files, so the shared test support is loaded once per
          // worker; each file starts and stops its own processes. The ports the e2e processes
          // listen on are picked below the kernel's ephemeral range, each worker in its own
          // slice (freePort): a port picked by listen(0) and released is free again until the
          // child listens, and processes of the file beside it that listen(0) themselves (the
          // failover e2e's operators on 0.0.0.0, the control-plane script) draw from that same
          // range; the likely way ruler-ring lost a ruler beside the failover e2e.
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
