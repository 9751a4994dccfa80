import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildInfo } from '@logsvc/api';

/**
 * Build information. Version comes from the server's package.json; revision, branch, user and
 * date from LOGSVC_REVISION, LOGSVC_BRANCH, LOGSVC_BUILD_USER, LOGSVC_BUILD_DATE when a release
 * build sets them. `goVersion` (Loki's field name) carries the Node.js version.
 */
export function readBuildInfo(env: NodeJS.ProcessEnv = process.env): BuildInfo {
  let version = 'unknown';
  try {
    // Same relative place from src/ (tests) and dist/ (built server).
    const pkg = JSON.parse(
      readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
    ) as {
      version?: string;
    };
    version = pkg.version ?? version;
  } catch {
    // Keep 'unknown' when the package file is not shipped.
  }
  return {
    version,
    revision: env.LOGSVC_REVISION ?? '',
    branch: env.LOGSVC_BRANCH ?? '',
    buildUser: env.LOGSVC_BUILD_USER ?? '',
    buildDate: env.LOGSVC_BUILD_DATE ?? '',
    goVersion: process.version,
  };
}
