import { datasizeParseString, strconvParseBool } from '@logsvc/gocompat';
import { parseDuration } from './duration';
import { ConfigError } from './errors';
import { FLAG_TABLE, type FlagSpec } from './flag-table';
import { LOKI_KEYS } from './loki-reference';

/** A flag value ready to be merged into the raw YAML document at `path`. */
export interface FlagSetting {
  readonly flag: string;
  readonly path: string;
  readonly value: unknown;
}

/** What the command line asked for. */
export interface ParsedArgs {
  configFile?: string;
  expandEnv: boolean;
  /** `-verify-config`: load and validate the config, print the outcome and exit. */
  verifyConfig: boolean;
  /** `-print-config-stderr`: print the loaded config to stderr at start. */
  printConfigStderr: boolean;
  /** `-log-config-reverse-order`: print it with the keys in reverse order. */
  logConfigReverseOrder: boolean;
  settings: FlagSetting[];
}

/** Flags about loading the config itself, which do not map to a YAML key. */
const LOADER_FLAGS: Readonly<Record<string, 'string' | 'bool'>> = {
  'config.file': 'string',
  'config.expand-env': 'bool',
  'verify-config': 'bool',
  'print-config-stderr': 'bool',
  'log-config-reverse-order': 'bool',
};

/**
 * Flags of Loki's reference keys that logsvc's schema does not have (`-tracing.enabled`): their
 * text goes to the key, which the loader then accepts with a warning or refuses.
 */
const REFERENCE_FLAGS: ReadonlyMap<string, string> = (() => {
  const flags = new Map<string, string>();
  for (const key of LOKI_KEYS.values()) {
    const name = key.flag.replace(/^-/, '');
    if (name !== '' && !name.includes('<') && !key.path.includes('[]') && !flags.has(name)) {
      flags.set(name, key.path);
    }
  }
  return flags;
})();

const flagError = (flag: string, value: string, why: string) =>
  new ConfigError(`invalid value ${JSON.stringify(value)} for flag -${flag}: ${why}`);

function parseBool(flag: string, value: string): boolean {
  const b = strconvParseBool(value);
  if (b === undefined) throw flagError(flag, value, 'expected true or false');
  return b;
}

function convert(flag: string, spec: FlagSpec, value: string): unknown {
  switch (spec.kind) {
    case 'bool':
      return parseBool(flag, value);
    case 'int': {
      if (!/^-?\d+$/.test(value)) throw flagError(flag, value, 'expected an integer');
      return Number(value);
    }
    case 'float': {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n))
        throw flagError(flag, value, 'expected a number');
      return n;
    }
    case 'duration':
      if (parseDuration(value) === undefined)
        throw flagError(flag, value, 'expected a duration like 5m');
      return value;
    case 'size':
      if (datasizeParseString(value) === undefined)
        throw flagError(flag, value, 'expected a size like 256KB');
      return value;
    case 'list':
      return value === '' ? [] : value.split(',').map((s) => s.trim());
    case 'string':
      return value;
  }
}

/**
 * Parses Loki-style flags: `-name=value`, `--name=value`, `-name value`, and a bare `-name` for
 * booleans. Unknown flags and bad values throw ConfigError.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const result: ParsedArgs = {
    expandEnv: false,
    verifyConfig: false,
    printConfigStderr: false,
    logConfigReverseOrder: false,
    settings: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-') || arg === '-' || arg === '--') {
      throw new ConfigError(
        `unexpected argument ${JSON.stringify(arg)}: flags look like -name=value`,
      );
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    let value: string | undefined = eq >= 0 ? body.slice(eq + 1) : undefined;
    const loaderKind = LOADER_FLAGS[name];
    const spec = FLAG_TABLE[name];
    const referencePath = spec === undefined ? REFERENCE_FLAGS.get(name) : undefined;
    if (!loaderKind && !spec && referencePath === undefined) {
      throw new ConfigError(`flag provided but not defined: -${name}`);
    }
    const isBool =
      loaderKind === 'bool' ||
      spec?.kind === 'bool' ||
      (referencePath !== undefined && LOKI_KEYS.get(referencePath)?.type === 'boolean');
    if (value === undefined) {
      if (isBool) {
        value = 'true';
      } else if (i + 1 < argv.length) {
        value = argv[++i];
      } else {
        throw new ConfigError(`flag needs an argument: -${name}`);
      }
    }
    if (name === 'config.file') result.configFile = value;
    else if (name === 'config.expand-env') result.expandEnv = parseBool(name, value);
    else if (name === 'verify-config') result.verifyConfig = parseBool(name, value);
    else if (name === 'print-config-stderr') result.printConfigStderr = parseBool(name, value);
    else if (name === 'log-config-reverse-order') {
      result.logConfigReverseOrder = parseBool(name, value);
    } else if (referencePath !== undefined) {
      result.settings.push({ flag: name, path: referencePath, value });
    } else result.settings.push({ flag: name, path: spec.path, value: convert(name, spec, value) });
  }
  return result;
}

/** Sets `value` at a dotted path inside a raw YAML document, creating maps on the way. */
export function setPath(doc: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = doc;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
}
