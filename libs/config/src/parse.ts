import * as path from 'node:path';
import type { z } from 'zod';
import { applyCommonConfig } from './apply-common';
import { ConfigError } from './errors';
import { show } from './fields';
import { type KeyWarning, sortKeys } from './key-walk';
import { memberlistToInmemory } from './memberlist';
import { type Config, configSchema } from './schema';
import { unsupportedSettings, withoutUnsupportedKeys } from './unsupported';
import { validateConfig } from './validate';

export type { KeyWarning } from './key-walk';

/** Where the document came from, to name the line of each problem. */
export interface ParseOptions {
  /** YAML line of each key written in the file, by dotted path (list indices as numbers). */
  readonly lines?: ReadonlyMap<string, number>;
  /** The file's name, as shown next to the line. */
  readonly source?: string;
}

/** A loaded configuration and the keys it accepted without effect (to log once at start). */
export interface ParsedConfig {
  readonly config: Config;
  readonly warnings: readonly KeyWarning[];
}

/** Appends ` (at <file>:<line>)` to each `config error: <path>: ...` line whose key was written. */
function withLines(problems: readonly string[], options: ParseOptions): string[] {
  const { lines, source = 'config file' } = options;
  if (lines === undefined || lines.size === 0) return [...problems];
  return problems.map((problem) => {
    const m = /^config error: ([^\s:]+): /.exec(problem);
    if (m === null) return problem;
    const parts = m[1].split('.');
    for (let n = parts.length; n > 0; n--) {
      const line = lines.get(parts.slice(0, n).join('.'));
      if (line !== undefined) return `${problem} (at ${source}:${line})`;
    }
    return problem;
  });
}

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
 * sorts out Loki's keys that logsvc does not have (accepted with a warning, or refused: see
 * key-classes.ts), applies defaults, rejects unknown keys and bad values, fills paths derived
 * from `common.path_prefix`, refuses settings that are not wired (see unsupported.ts), applies
 * `common` to the components (apply-common.ts) and runs `validateConfig`. Throws one
 * ConfigError naming every problem, one line each.
 */
export function parseConfig(raw: unknown, options: ParseOptions = {}): Config {
  return parseConfigReport(raw, options).config;
}

/** parseConfig, also returning the keys accepted without effect. */
export function parseConfigReport(raw: unknown, options: ParseOptions = {}): ParsedConfig {
  const input = raw === null || raw === undefined ? {} : dropNulls(raw);
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new ConfigError(`config error: expected a YAML map at the top level, got ${show(input)}`);
  }
  const doc = input as Record<string, unknown>;
  const warnings: KeyWarning[] = memberlistToInmemory(doc).map((key) => ({
    key,
    reason: 'memberlist with no join_members: logsvc runs on its in-memory ring (one process)',
  }));
  const sorted = sortKeys(doc);
  warnings.push(...sorted.warnings);
  const problems = sorted.problems.map((p) => `config error: ${p.path}: ${p.message}`);
  const fail = () => new ConfigError(withLines(problems, options).join('\n'));
  const result = configSchema.safeParse(doc, { reportInput: true });
  if (!result.success) {
    problems.push(...formatIssues(result.error.issues).split('\n'));
    throw fail();
  }
  for (const [id, client] of Object.entries(result.data.ruler.remote_write.clients)) {
    if (client.queue_config !== undefined) {
      warnings.push({
        key: `ruler.remote_write.clients.${id}.queue_config`,
        reason: 'queue tuning: logsvc sends each evaluation’s samples as they come',
      });
    }
  }
  const written = resolvePaths(result.data);
  // Defaults with the same path_prefix, so that directories written out in full still match.
  const defaults = resolvePaths(
    configSchema.parse({ common: { path_prefix: written.common.path_prefix } }),
  );
  const withCommon = (config: Config, d: unknown) => resolvePaths(applyCommonConfig(config, d));
  const config = withCommon(structuredClone(written), doc);
  // Loki's `aws` is another name of the `s3` object store.
  for (const period of config.schema_config.configs) {
    if (period.object_store === 'aws') period.object_store = 's3';
  }
  // A refused setting of the schema counts only when it changes something: its value differs
  // from the default and from what leaving it out gives once `common` is copied in (so that
  // `/config` output, which shows the copies, loads again).
  const leftOut = withoutUnsupportedKeys(doc);
  const baseline = withCommon(resolvePaths(configSchema.parse(leftOut)), leftOut);
  const changed = new Set(unsupportedSettings(config, baseline));
  problems.push(...unsupportedSettings(written, defaults).filter((line) => changed.has(line)));
  try {
    validateConfig(config);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(...err.message.split('\n'));
  }
  if (problems.length > 0) throw fail();
  return { config, warnings };
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
