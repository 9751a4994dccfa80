import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const browserApi = fileURLToPath(new URL('../../libs/api/src/browser/index.ts', import.meta.url));

// The admin UI, served by the server's `ui` component under /ui/. Everything is bundled (no
// CDN); React's JSX is compiled by esbuild, so no plugin is needed.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  // Only the browser-safe part of @logsvc/api, straight from its sources.
  resolve: { alias: [{ find: /^@logsvc\/api\/browser$/, replacement: browserApi }] },
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      // react-query's "use client" lines are for server components, which this app has none of.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
