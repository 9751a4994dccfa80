/** Parsing of the benchmarks' `--name=value` command-line options. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export class OptionsError extends Error {}

/** The absolute path of a file that must exist (`--server=PATH`: another build's main.js). */
export function existingFile(name: string, text: string): string {
  const path = resolve(text);
  if (!existsSync(path)) throw new OptionsError(`--${name}: no file ${path}`);
  return path;
}

export function positiveInt(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new OptionsError(`--${name} must be a positive integer, got "${text}"`);
  return n;
}

export function positiveNumber(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0)
    throw new OptionsError(`--${name} must be a positive number, got "${text}"`);
  return n;
}

export function nonNegativeNumber(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0)
    throw new OptionsError(`--${name} must be a number of at least 0, got "${text}"`);
  return n;
}

export function bool(name: string, text: string | undefined): boolean {
  if (text === undefined || text === 'true') return true;
  if (text === 'false') return false;
  throw new OptionsError(`--${name} must be true or false, got "${text}"`);
}

/** `auto`, `all` or a CPU list such as `0-1,3` (as taskset takes it). */
export function cpusOption(name: string, text: string): string {
  if (!/^(auto|all|\d+(-\d+)?(,\d+(-\d+)?)*)$/.test(text))
    throw new OptionsError(`--${name} must be auto, all or a CPU list, got "${text}"`);
  return text;
}

/** One `--name[=value]` argument: `need()` is its value, refusing a missing or empty one. */
export interface OptionArg {
  readonly name: string;
  readonly value: string | undefined;
  need(): string;
}

/**
 * Hands every argument to `apply`, which returns false for a name it does not know; malformed
 * arguments and unknown names are OptionsErrors.
 */
export function forEachOption(argv: readonly string[], apply: (arg: OptionArg) => boolean): void {
  for (const text of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(text);
    if (!m) throw new OptionsError(`unexpected argument "${text}"`);
    const [, name, value] = m;
    const need = (): string => {
      if (value === undefined || value === '') throw new OptionsError(`--${name} needs a value`);
      return value;
    };
    if (!apply({ name, value, need })) throw new OptionsError(`unknown option --${name}`);
  }
}

/**
 * A benchmark's entry point: `--help` prints `usage`; bad options print the reason and the
 * usage and exit 1; a failed run prints its error and exits 1.
 */
export async function runCli<O>(
  argv: readonly string[],
  usage: string,
  parse: (argv: readonly string[]) => O,
  run: (options: O) => Promise<void>,
): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  let options: O;
  try {
    options = parse(argv);
  } catch (err) {
    if (!(err instanceof OptionsError)) throw err;
    process.stderr.write(`error: ${err.message}\n${usage}\n`);
    process.exitCode = 1;
    return;
  }
  try {
    await run(options);
  } catch (err) {
    process.stderr.write(`error: ${errorChain(err)}\n`);
    process.exitCode = 1;
  }
}

/** An error's message with its causes (fetch's "fetch failed" says why only in its cause). */
function errorChain(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e !== undefined && parts.length < 5;) {
    if (e instanceof Error) {
      parts.push(e.message);
      e = e.cause;
    } else {
      parts.push(String(e));
      break;
    }
  }
  return parts.join(': ');
}

/** Options both benchmarks take. */
export interface CommonBenchOptions {
  totalBytes: number;
  streams: number;
  seed: number;
  cpuProfDir?: string;
  serverFlags: string[];
  json: boolean;
}

/** The options of the benchmarks that can run the reference Loki beside logsvc. */
export interface LokiComparisonOptions {
  compareLoki: boolean;
  lokiBinary: string;
}

/**
 * Applies `--compare-<reference>` or `--<reference>=PATH` (which implies it), the options that run
 * a reference binary beside logsvc: `set` gets whether to compare, and the path when given.
 */
function applyReferenceOption(
  reference: string,
  { name, value, need }: OptionArg,
  set: (compare: boolean, binary?: string) => void,
): boolean {
  if (name === `compare-${reference}`) set(bool(name, value));
  else if (name === reference) set(true, need());
  else return false;
  return true;
}

/** Applies `--compare-loki` or `--loki=PATH` (which implies it); false for any other option. */
export function applyLokiOption(o: LokiComparisonOptions, arg: OptionArg): boolean {
  return applyReferenceOption('loki', arg, (compare, binary) => {
    o.compareLoki = compare;
    if (binary !== undefined) o.lokiBinary = binary;
  });
}

/** The options of the benchmarks that can run the reference VictoriaLogs beside logsvc. */
export interface VictoriaLogsComparisonOptions {
  compareVictoriaLogs: boolean;
  vlBinary: string;
}

/** Applies `--compare-victorialogs` or `--victorialogs=PATH` (which implies it). */
export function applyVictoriaLogsOption(o: VictoriaLogsComparisonOptions, arg: OptionArg): boolean {
  return applyReferenceOption('victorialogs', arg, (compare, binary) => {
    o.compareVictoriaLogs = compare;
    if (binary !== undefined) o.vlBinary = binary;
  });
}

/** Applies `arg` when it is one of the common options; false when it is not. */
export function applyCommonOption(
  o: CommonBenchOptions,
  { name, value, need }: OptionArg,
): boolean {
  switch (name) {
    case 'mb':
      o.totalBytes = positiveNumber(name, need()) * 1e6;
      return true;
    case 'streams':
      o.streams = positiveInt(name, need());
      return true;
    case 'seed':
      o.seed = positiveInt(name, need());
      return true;
    case 'cpu-prof':
      o.cpuProfDir = need();
      return true;
    case 'server-flag':
      o.serverFlags.push(need());
      return true;
    case 'json':
      o.json = bool(name, value);
      return true;
    default:
      return false;
  }
}
