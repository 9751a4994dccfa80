import {
  type LabelPair,
  type Labels,
  type LogEntry,
  type PushRequest,
  sortLabels,
} from '@logsvc/api';
import { type LineFormat, LINE_FORMATS, renderLine } from './line-formats';
import { mixedLine } from './mixed-lines';
import { Prng } from './prng';
import { TimeFormatter } from './time-format';
import { LEVELS, type Level } from './vocabulary';

const APP_NAMES = [
  'api-gateway',
  'checkout',
  'payments',
  'search',
  'frontend',
  'inventory',
  'auth',
  'notifications',
];
const ENV_NAMES = ['prod', 'staging', 'dev', 'qa', 'canary'];

export interface GeneratorOptions {
  /** Same seed, same options → byte-identical output. */
  readonly seed: number;
  /** Number of distinct streams (label sets). */
  readonly streams: number;
  /** Distinct values of the `app` label (default: min(streams, 8)). */
  readonly apps?: number;
  /** Distinct values of the `env` label (default 3). */
  readonly envs?: number;
  /** Timestamp of each stream's first line, in ms since the epoch. */
  readonly startMs: number;
  /** Mean gap between two lines of one stream, in ms (default 1). */
  readonly spacingMs?: number;
  /** Line formats the apps use, assigned round-robin (default: all three). */
  readonly formats?: readonly LineFormat[];
  /**
   * Mixed streams (default false): every stream carries nginx, JSON and logfmt lines, the
   * format and level drawn per line (see mixed-lines.ts), and its labels are app, env and pod
   * only. `formats` is then ignored.
   */
  readonly mixedStreams?: boolean;
  /** Attach `trace_id` structured metadata to every entry (default false). */
  readonly structuredMetadata?: boolean;
  /**
   * When set, lines come from a pre-rendered pool of this many lines per format and level,
   * each stream walking it from its own offset, instead of being rendered one by one. Load
   * generators use it so that the client spends its CPU on encoding and sending, not on
   * building strings. Timestamps are still fresh and strictly increasing.
   */
  readonly linePool?: number;
}

/** One generated stream: its labels and the format its lines are in. */
export interface GeneratedStream {
  readonly labels: Labels;
  /** `mixed`: the format is drawn per line (GeneratorOptions.mixedStreams). */
  readonly format: LineFormat | 'mixed';
  /** `level` of the stream's lines (nginx streams: always info, and no level label). */
  readonly level: Level | 'mixed';
}

export interface GeneratedBatch {
  readonly request: PushRequest;
  readonly lines: number;
  /** Sum of the raw line lengths in bytes (what "MB/s ingested" counts). */
  readonly lineBytes: number;
}

interface StreamState {
  readonly rng: Prng;
  readonly pool: readonly Buffer[] | undefined;
  poolCursor: number;
  /** Nanoseconds since `startMs` of the stream's last line. */
  offsetNs: number;
}

/**
 * Deterministic log traffic: `streams` label sets over app × env × level × pod, each stream
 * with its own PRNG (so a stream's k-th line is the same whatever order streams are asked
 * for in) and strictly increasing timestamps.
 */
export class LogGenerator {
  readonly streams: readonly GeneratedStream[];
  private readonly states: StreamState[];
  private readonly time = new TimeFormatter();
  private readonly startNs: bigint;
  private readonly startMs: number;
  private readonly meanGapNs: number;

  constructor(private readonly options: GeneratorOptions) {
    const { streams: count, seed, startMs } = options;
    if (!Number.isInteger(count) || count < 1)
      throw new RangeError(`streams must be a positive integer, got ${count}`);
    const apps = options.apps ?? Math.min(count, APP_NAMES.length);
    const envs = options.envs ?? 3;
    if (!Number.isInteger(apps) || apps < 1) throw new RangeError(`apps must be ≥ 1, got ${apps}`);
    if (!Number.isInteger(envs) || envs < 1) throw new RangeError(`envs must be ≥ 1, got ${envs}`);
    const mixed = options.mixedStreams === true;
    const formats = options.formats ?? LINE_FORMATS;
    if (formats.length === 0) throw new RangeError('formats must not be empty');
    if (!Number.isFinite(startMs)) throw new RangeError(`startMs must be a number, got ${startMs}`);
    this.startMs = Math.round(startMs);
    this.startNs = BigInt(this.startMs) * 1_000_000n;
    this.meanGapNs = Math.max(1, Math.round((options.spacingMs ?? 1) * 1e6));

    const poolSize = options.linePool;
    if (poolSize !== undefined && (!Number.isInteger(poolSize) || poolSize < 1))
      throw new RangeError(`linePool must be a positive integer, got ${poolSize}`);
    const pools = new Map<string, Buffer[]>();
    const naming = new Prng(seed);
    const streams: GeneratedStream[] = [];
    this.states = [];
    for (let i = 0; i < count; i++) {
      const appIndex = i % apps;
      const app = nameAt(APP_NAMES, appIndex);
      const env = nameAt(ENV_NAMES, Math.floor(i / apps) % envs);
      const level = LEVELS[Math.floor(i / (apps * envs)) % LEVELS.length];
      const format = formats[appIndex % formats.length];
      // Kubernetes-style pod name; the stream index keeps it unique.
      const pod = `${app}-${naming.hex(9)}-${naming.hex(5)}${i.toString(36)}`;
      const pairs: LabelPair[] = [
        { name: 'app', value: app },
        { name: 'env', value: env },
        { name: 'pod', value: pod },
      ];
      if (format !== 'nginx' && !mixed) pairs.push({ name: 'level', value: level });
      streams.push({
        labels: sortLabels(pairs),
        format: mixed ? 'mixed' : format,
        level: mixed ? 'mixed' : format === 'nginx' ? 'info' : level,
      });
      const rng = new Prng((seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0);
      const pool =
        poolSize === undefined
          ? undefined
          : this.poolFor(pools, mixed ? 'mixed' : format, level, poolSize, seed);
      this.states.push({ rng, pool, poolCursor: pool ? rng.int(pool.length) : 0, offsetNs: 0 });
    }
    this.streams = streams;
  }

  /** The next `count` entries of one stream; returns their line bytes through `out`. */
  entries(streamIndex: number, count: number, out: LogEntry[]): number {
    const stream = this.streams[streamIndex];
    const state = this.states[streamIndex];
    if (!stream) throw new RangeError(`no stream ${streamIndex} (have ${this.streams.length})`);
    const meta = this.options.structuredMetadata === true;
    let bytes = 0;
    for (let k = 0; k < count; k++) {
      // Jittered gap of 0.5×–1.5× the mean, at least 1 ns, so timestamps strictly increase.
      state.offsetNs += Math.max(1, Math.round(this.meanGapNs * (0.5 + state.rng.next())));
      const ms = this.startMs + state.offsetNs / 1e6;
      let line: Buffer;
      if (state.pool) {
        line = state.pool[state.poolCursor];
        state.poolCursor = state.poolCursor + 1 === state.pool.length ? 0 : state.poolCursor + 1;
      } else {
        const text =
          stream.format === 'mixed' || stream.level === 'mixed'
            ? mixedLine(state.rng, this.time, ms)
            : renderLine(stream.format, state.rng, this.time, ms, stream.level);
        line = Buffer.from(text, 'utf8');
      }
      bytes += line.length;
      out.push({
        timestampNs: this.startNs + BigInt(state.offsetNs),
        line,
        structuredMetadata: meta ? [{ name: 'trace_id', value: state.rng.hex(32) }] : [],
      });
    }
    return bytes;
  }

  /** A push request with `linesPerStream` new entries for each of `streamIndexes`. */
  batch(streamIndexes: readonly number[], linesPerStream: number): GeneratedBatch {
    let lineBytes = 0;
    const streams = streamIndexes.map((i) => {
      const entries: LogEntry[] = [];
      lineBytes += this.entries(i, linesPerStream, entries);
      return { labels: this.streams[i].labels, entries };
    });
    return { request: { streams }, lines: streamIndexes.length * linesPerStream, lineBytes };
  }

  private poolFor(
    pools: Map<string, Buffer[]>,
    format: LineFormat | 'mixed',
    level: Level,
    size: number,
    seed: number,
  ): Buffer[] {
    const key = format === 'nginx' || format === 'mixed' ? format : `${format}/${level}`;
    let pool = pools.get(key);
    if (!pool) {
      const rng = new Prng((seed ^ Math.imul(pools.size + 1, 0x85ebca6b)) >>> 0);
      pool = [];
      for (let k = 0; k < size; k++) {
        const ms = this.startMs + k * (this.meanGapNs / 1e6);
        const text =
          format === 'mixed'
            ? mixedLine(rng, this.time, ms)
            : renderLine(format, rng, this.time, ms, level);
        pool.push(Buffer.from(text, 'utf8'));
      }
      pools.set(key, pool);
    }
    return pool;
  }

  /** Timestamp (ns) of the newest line generated so far across all streams. */
  newestNs(): bigint {
    let max = 0;
    for (const s of this.states) if (s.offsetNs > max) max = s.offsetNs;
    return this.startNs + BigInt(max);
  }
}

function nameAt(names: readonly string[], index: number): string {
  return index < names.length ? names[index] : `${names[index % names.length]}-${index}`;
}
