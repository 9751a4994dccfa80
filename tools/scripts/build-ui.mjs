// Builds the admin UI (apps/admin-ui) unless its inputs are unchanged since the last build:
// `npm start` then takes seconds instead of rebuilding the bundle every time. The inputs are
// the UI's own files, the browser part of @logsvc/api it bundles, and package-lock.json; their
// hash is kept in apps/admin-ui/dist/.inputs-sha256. `--force` always builds.
/* global process, console */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const ui = join(root, 'apps/admin-ui');
const stamp = join(ui, 'dist/.inputs-sha256');
const INPUTS = [
  'apps/admin-ui/index.html',
  'apps/admin-ui/package.json',
  'apps/admin-ui/tsconfig.json',
  'apps/admin-ui/vite.config.ts',
  'apps/admin-ui/src',
  'apps/admin-ui/scripts',
  'libs/api/src/browser',
  'package-lock.json',
];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

const hash = createHash('sha256');
for (const input of INPUTS) {
  for (const file of files(join(root, input))) {
    if (file.endsWith('.spec.ts') || file.endsWith('.spec.tsx')) continue;
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
}
const digest = hash.digest('hex');
const built = existsSync(join(ui, 'dist/index.html')) && existsSync(stamp);
if (!process.argv.includes('--force') && built && readFileSync(stamp, 'utf8').trim() === digest) {
  console.error('logsvc: admin UI unchanged, not rebuilt');
  process.exit(0);
}
console.error('logsvc: building the admin UI');
const result = spawnSync('npm', ['run', '--silent', '-w', '@logsvc/admin-ui', 'build'], {
  cwd: root,
  stdio: 'inherit',
});
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(stamp, `${digest}\n`);
