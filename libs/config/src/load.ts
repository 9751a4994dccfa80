import { readFileSync } from 'node:fs';
import { ConfigError } from './errors';
import { expandEnv } from './expand-env';
import { type ParsedArgs, parseArgs, setPath } from './flags';
import { type ParsedConfig, parseConfigReport } from './parse';
import type { Config } from './schema';
import { parseYamlWithLines } from './yaml-lines';

export interface LoadOptions {
  /** Environment for `-config.expand-env`; defaults to process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Reads the config file; defaults to fs.readFileSync as UTF-8. */
  readFile?: (path: string) => string;
}

/** Parses YAML text into a raw document, turning syntax errors into ConfigError. */
export function parseYamlDocument(text: string, source: string): Record<string, unknown> {
  return parseYamlDocumentWithLines(text, source).doc;
}

function parseYamlDocumentWithLines(
  text: string,
  source: string,
): { doc: Record<string, unknown>; lines: Map<string, number> } {
  const parsed = parseYamlWithLines(text);
  if (parsed.error !== undefined) {
    throw new ConfigError(`config error: ${source}: invalid YAML: ${parsed.error}`);
  }
  const doc = parsed.value;
  const lines = parsed.lines;
  if (doc === null || doc === undefined) return { doc: {}, lines };
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError(`config error: ${source}: expected a YAML map at the top level`);
  }
  return { doc: doc as Record<string, unknown>, lines };
}

/**
 * Builds the configuration the way Loki does: defaults, then the `-config.file` YAML (with
 * `${VAR}` expansion when `-config.expand-env=true`), then the flags given on the command line.
 */
export function loadConfig(argv: readonly string[], options: LoadOptions = {}): Config {
  return loadConfigReport(argv, options).config;
}

/** loadConfig, also returning the keys accepted without effect and the parsed arguments. */
export function loadConfigReport(
  argv: readonly string[],
  options: LoadOptions = {},
): ParsedConfig & { readonly args: ParsedArgs } {
  const args = parseArgs(argv);
  let doc: Record<string, unknown> = {};
  let lines = new Map<string, number>();
  if (args.configFile !== undefined) {
    let text: string;
    try {
      text = (options.readFile ?? ((p) => readFileSync(p, 'utf8')))(args.configFile);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new ConfigError(`config error: cannot read config file ${args.configFile}: ${why}`);
    }
    if (args.expandEnv) text = expandEnv(text, options.env ?? process.env);
    ({ doc, lines } = parseYamlDocumentWithLines(text, args.configFile));
  }
  for (const setting of args.settings) {
    setPath(doc, setting.path, setting.value);
    lines.delete(setting.path);
  }
  return { ...parseConfigReport(doc, { lines, source: args.configFile }), args };
}
