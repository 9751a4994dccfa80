// Builds the native addons (re2, zstd-napi) from source with node-gyp after `npm ci`.
// Their own install scripts first try to download prebuilt binaries from GitHub; the project
// allows no download outside npm and apt, so package.json's `allowScripts` denies those
// scripts and this step builds the same addons from the sources npm installed.
/* global process, console */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ADDONS = [
  { pkg: 're2', binary: 'build/Release/re2.node' },
  { pkg: 'zstd-napi', binary: 'build/Release/binding.node' },
];

function nodeGypScript() {
  if (process.env.npm_config_node_gyp) return process.env.npm_config_node_gyp;
  return join(
    dirname(process.execPath),
    '../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  );
}

for (const { pkg, binary } of ADDONS) {
  let dir;
  try {
    dir = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    continue; // not installed (e.g. a partial install); nothing to build
  }
  if (existsSync(join(dir, binary))) continue;
  console.log(`building ${pkg} from source with node-gyp`);
  const result = spawnSync(process.execPath, [nodeGypScript(), 'rebuild', '-j', 'max'], {
    cwd: dir,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(`building ${pkg} failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
}
