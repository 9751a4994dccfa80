// Fails the build when the UI's JavaScript, gzipped, exceeds the budget of issue 20 (a first
// load under 300 KB of gzipped JS). Prints the measured size either way.
/* global process, console, URL */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const BUDGET_BYTES = 300 * 1024;

/** Gzipped bytes of every .js file under dist/assets. */
export function gzippedJsBytes(dist) {
  const assets = join(dist, 'assets');
  return readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .reduce((n, f) => n + gzipSync(readFileSync(join(assets, f)), { level: 9 }).length, 0);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = new URL('../dist', import.meta.url).pathname;
  const bytes = gzippedJsBytes(dist);
  const kb = (bytes / 1024).toFixed(1);
  if (bytes > BUDGET_BYTES) {
    console.error(`admin UI: ${kb} KB of gzipped JS, over the ${BUDGET_BYTES / 1024} KB budget`);
    process.exit(1);
  }
  console.log(`admin UI: ${kb} KB of gzipped JS (budget ${BUDGET_BYTES / 1024} KB)`);
}
