import * as path from 'node:path';
import type { z } from 'zod';
import { applyCommonConfig } from './apply-common';
import { ConfigError } from './errors';
import { show } from './fields';
import { takeMemberlist } from './memberlist';
import { type Config, configSchema } from './schema';
import { unsupportedSettings, withoutUnsupportedKeys } from './unsupported';
import { validateConfig } from './validate';

/** Formats zod issues as `config error: a.b.c: message` lines. */
export function formatIssues(issues: readonly z.core.$ZodIssue[], prefix = 'config error'): string {
  const lines: string[] = [];
  for (const issue of issues) {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        lines.push(`${prefix}: ${at ? `${at}.` : ''}${key}: unknown key`);
      }
      continue;
    }
    let message = issue.message;
    if (issue.code === 'invalid_type') {
      const expected =
        issue.expected === 'object'
          ? 'a map'
          : issue.expected === 'array'
            ? 'a list'
            : issue.expected;
      message = `expected ${expected}, got ${show(issue.input)}`;
    }
    lines.push(`${prefix}: ${at || '(root)'}: ${message}`);
  }
  return lines.join('\n');
}

/** YAML leaves an empty key as null; Loki then keeps the default, and so do we. */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== null) out[k] = dropNulls(v);
    }
    return out;
  }
  return value;
}

/**
 * Turns a raw YAML document (plus flag values already merged in) into a complete config:
 * applies defaults, rejects unknown keys and bad values, fills paths derived from
 * `common.path_prefix`, refuses settings that are not supported yet (see unsupported.ts) and a
 * `memberlist` block, applies `common` to the components (apply-common.ts) and runs
 * `validateConfig`. Throws ConfigError.
 */
export function parseConfig(raw: unknown): Config {
  const input = raw === null || raw === undefined ? {} : dropNulls(raw);
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new ConfigError(`config error: expected a YAML map at the top level, got ${show(input)}`);
  }
  const memberlist = takeMemberlist(input as Record<string, unknown>);
  if (memberlist !== undefined) throw new ConfigError(memberlist);
  const result = configSchema.safeParse(input, { reportInput: true });
  if (!result.success) throw new ConfigError(formatIssues(result.error.issues));
  const written = resolvePaths(result.data);
  // Defaults with the same path_prefix, so that directories written out in full still match.
  const defaults = resolvePaths(
    configSchema.parse({ common: { path_prefix: written.common.path_prefix } }),
  );
  const withCommon = (config: Config, doc: unknown) => resolvePaths(applyCommonConfig(config, doc));
  const config = withCommon(structuredClone(written), input);
  // An unsupported setting is refused when it changes something: its value differs from the
  // default and from what leaving it out gives once `common` is copied in (so that `/config`
  // output, which shows the copies, loads again).
  const leftOut = withoutUnsupportedKeys(input);
  const baseline = withCommon(resolvePaths(configSchema.parse(leftOut)), leftOut);
  const changed = new Set(unsupportedSettings(config, baseline));
  const unsupported = unsupportedSettings(written, defaults).filter((line) => changed.has(line));
  if (unsupported.length > 0) throw new ConfigError(unsupported.join('\n'));
  validateConfig(config);
  return config;
}

/** The configuration a file without any keys produces. */
export function defaultConfig(): Config {
  return parseConfig({});
}

/** Fills directory settings left empty with their place under `common.path_prefix`. */
function resolvePaths(config: Config): Config {
  const prefix = config.common.path_prefix;
  const under = (value: string, sub: string) => (value === '' ? path.join(prefix, sub) : value);
  config.ingester.wal.dir = under(config.ingester.wal.dir, 'wal');
  config.storage_config.filesystem.directory = under(
    config.storage_config.filesystem.directory,
    'chunks',
  );
  config.storage_config.tsdb_shipper.active_index_directory = under(
    config.storage_config.tsdb_shipper.active_index_directory,
    'tsdb-index',
  );
  config.storage_config.tsdb_shipper.cache_location = under(
    config.storage_config.tsdb_shipper.cache_location,
    'tsdb-cache',
  );
  config.ruler.rule_path = under(config.ruler.rule_path, 'rules-temp');
  config.ruler.storage.local.directory = under(config.ruler.storage.local.directory, 'rules');
  config.ruler.storage.filesystem.directory = under(
    config.ruler.storage.filesystem.directory,
    'rules',
  );
  config.compactor.working_directory = under(config.compactor.working_directory, 'compactor');
  return config;
}
