import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from './errors';
import { expandEnv } from './expand-env';
import { parseArgs, setPath } from './flags';
import { parseConfig } from './parse';
import type { Config } from './schema';

export interface LoadOptions {
  /** Environment for `-config.expand-env`; defaults to process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Reads the config file; defaults to fs.readFileSync as UTF-8. */
  readFile?: (path: string) => string;
}

/** Parses YAML text into a raw document, turning syntax errors into ConfigError. */
export function parseYamlDocument(text: string, source: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new ConfigError(`config error: ${source}: invalid YAML: ${why}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError(`config error: ${source}: expected a YAML map at the top level`);
  }
  return doc as Record<string, unknown>;
}

/**
 * Builds the configuration the way Loki does: defaults, then the `-config.file` YAML (with
 * `${VAR}` expansion when `-config.expand-env=true`), then the flags given on the command line.
 */
export function loadConfig(argv: readonly string[], options: LoadOptions = {}): Config {
  const args = parseArgs(argv);
  let doc: Record<string, unknown> = {};
  if (args.configFile !== undefined) {
    let text: string;
    try {
      text = (options.readFile ?? ((p) => readFileSync(p, 'utf8')))(args.configFile);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new ConfigError(`config error: cannot read config file ${args.configFile}: ${why}`);
    }
    if (args.expandEnv) text = expandEnv(text, options.env ?? process.env);
    doc = parseYamlDocument(text, args.configFile);
  }
  for (const setting of args.settings) setPath(doc, setting.path, setting.value);
  return parseConfig(doc);
}
