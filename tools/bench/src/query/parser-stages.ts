/**
 * Per-core speed of metric queries with parser stages, in-process:
 * `node tools/bench/dist/query/parser-stages.js [--mb=20] [--runs=5] [--only=json]
 * [--format=columnar|blocks] [--modes=before,scratch,after,views]` (chunks as flushed, the
 * default, or as the ingester cuts them; the ways to read, default all four).
 *
 * Generates the mixed data set of `bench:query --data=mixed` (nginx, JSON and logfmt lines in
 * 100 streams over an hour, `detected_level` metadata as the distributor adds it), cuts it
 * into chunks as the ingester does, and runs the issue 13 metric queries on the event loop
 * over a source that decodes those chunks as the store source does, in four ways taking
 * turns: `before` (fresh line buffers, every entry's metadata read), `scratch` (line buffers
 * reused when the engine allows, `transientLines`), `after` (also no metadata for blocks the
 * query cannot see it in, `metadataNames`) and `views` (`after`, but each line handed out as a
 * Buffer of its own, so nothing reads lines in place). Prints, per query and way, the median
 * CPU time of `--runs` runs (after one warm-up), the line MB per CPU-second and the ratio to
 * the first way (the answers must be equal): no server, no HTTP, no other process in the way,
 * so far less noise than `bench:query`. Run it under `node --cpu-prof` to see where a query's
 * time goes.
 */
import { isDeepStrictEqual } from 'node:util';
import { compileMatcher, type Labels, type LogEntry } from '@logsvc/api';
import {
  type ChunkFormatName,
  type CursorSummary,
  type EntryCursor,
  MemChunk,
  prefilterOptions,
  recodeChunk,
} from '@logsvc/chunk';
import { DEFAULT_CONFIG } from '@logsvc/config';
import { MergedCursor } from '@logsvc/ingester';
import { runQuery, type LogSource, type SourceStream } from '@logsvc/logql';
import { LevelDetector } from '@logsvc/push';
import { LogGenerator } from '../gen';
import { spreadGenerator } from '../ingest/batches';
import { forEachOption, positiveInt, positiveNumber } from '../cli-options';

const QUERIES: readonly { name: string; query: string }[] = [
  { name: 'logfmt', query: 'sum by (level) (count_over_time({env=~".+"} | logfmt [3h]))' },
  {
    name: 'json',
    query: 'sum by (level) (count_over_time({env=~".+"} | json | latency_ms > 500 [3h]))',
  },
  { name: 'regex', query: 'sum(count_over_time({env=~".+"} |~ "timeout|declined" [3h]))' },
  { name: 'line', query: 'sum(count_over_time({env=~".+"} |= "upstream timeout" [3h]))' },
  { name: 'rate', query: 'sum by (pod) (count_over_time({env=~".+"} [3h]))' },
];

interface Options {
  mb: number;
  runs: number;
  only: string[];
  /** The chunks' format: as the ingester cuts them (blocks), or as flushed (columnar). */
  format: ChunkFormatName;
  /** The ways to read, taking turns (default all). */
  modes: readonly ReadMode[];
}

function parseArgs(argv: readonly string[]): Options {
  const o: Options = { mb: 20, runs: 5, only: [], format: 'columnar', modes: MODES };
  forEachOption(argv, (arg) => {
    if (arg.name === 'mb') o.mb = positiveNumber('mb', arg.need());
    else if (arg.name === 'runs') o.runs = positiveInt('runs', arg.need());
    else if (arg.name === 'only') o.only.push(arg.need());
    else if (arg.name === 'modes') {
      const modes = arg.need().split(',');
      for (const m of modes) {
        if (!(MODES as readonly string[]).includes(m)) {
          throw new Error(`--modes takes ${MODES.join(', ')}`);
        }
      }
      o.modes = modes as ReadMode[];
    } else if (arg.name === 'format') {
      const v = arg.need();
      if (v !== 'blocks' && v !== 'columnar')
        throw new Error('--format must be blocks or columnar');
      o.format = v;
    } else return false;
    return true;
  });
  return o;
}

interface StoredStream {
  readonly labels: Labels;
  readonly chunks: Buffer[];
}

/** The mixed data set as encoded chunks per stream, and its line bytes. */
function buildData(
  mb: number,
  startMs: number,
  format: ChunkFormatName,
): { streams: StoredStream[]; lineBytes: number } {
  const streamCount = 100;
  const gen = new LogGenerator(
    spreadGenerator({
      seed: 42,
      streams: streamCount,
      totalBytes: mb * 1e6,
      startMs,
      spanMs: 3_600_000,
      mixedStreams: true,
    }),
  );
  const levels = new LevelDetector(DEFAULT_CONFIG.limits_config.log_level_fields);
  const metadata = new Map<string, Labels>();
  const perStream = (mb * 1e6) / streamCount;
  const streams: StoredStream[] = [];
  let lineBytes = 0;
  for (let s = 0; s < streamCount; s++) {
    const chunks: Buffer[] = [];
    let chunk = new MemChunk();
    let bytes = 0;
    while (bytes < perStream) {
      const entries: LogEntry[] = [];
      bytes += gen.entries(s, 100, entries);
      for (const e of entries) {
        const level = levels.fromLine(e.line);
        let sm = metadata.get(level);
        if (sm === undefined) {
          sm = [{ name: 'detected_level', value: level }];
          metadata.set(level, sm);
        }
        chunk.append(e.timestampNs, e.line, sm);
        if (chunk.isFull()) {
          chunks.push(recodeChunk(chunk.encode(), format));
          chunk = new MemChunk();
        }
      }
    }
    if (chunk.entryCount > 0) chunks.push(recodeChunk(chunk.encode(), format));
    lineBytes += bytes;
    streams.push({ labels: gen.streams[s].labels, chunks });
  }
  return { streams, lineBytes };
}

/**
 * How the source reads chunks: as before issue 45's fifth wave (fresh line buffers, every
 * entry's metadata decoded), with scratch line buffers when the engine allows them, or with
 * those and no metadata for blocks the query cannot see it in.
 */
type ReadMode = 'before' | 'scratch' | 'after' | 'views';
const MODES: readonly ReadMode[] = ['before', 'scratch', 'after', 'views'];

/**
 * A cursor passed through, showing its blocks' metadata names only when `names` (so every
 * mode reads through the same one layer).
 */
class ModeCursor implements EntryCursor {
  constructor(
    private readonly inner: EntryCursor,
    private readonly names: boolean,
    /** Each line as a view of its own (`lineSource` the line): no reading in place. */
    private readonly views: boolean,
  ) {}
  next(): boolean {
    return this.inner.next();
  }
  get timestampNs(): bigint {
    return this.inner.timestampNs;
  }
  get line(): Buffer {
    return this.inner.line;
  }
  get lineSource(): Buffer {
    return this.views ? this.inner.line : this.inner.lineSource;
  }
  get lineStart(): number {
    return this.views ? 0 : this.inner.lineStart;
  }
  get lineEnd(): number {
    return this.views ? this.inner.line.length : this.inner.lineEnd;
  }
  get structuredMetadata(): Labels {
    return this.inner.structuredMetadata;
  }
  get metadataNames(): readonly string[] | undefined {
    return this.names ? this.inner.metadataNames : undefined;
  }
  summarize(): CursorSummary | null {
    return this.inner.summarize?.() ?? null;
  }
}

/** Decodes a stream's chunks as the store source does on the event loop, read as `mode` says. */
function chunkSource(streams: readonly StoredStream[], mode: ReadMode): LogSource {
  return {
    select(params): Promise<SourceStream[]> {
      const matchers = params.matchers.map((m) => ({ name: m.name, test: compileMatcher(m) }));
      // As the store source: one literal, or else any of several (`|~ "a|b"`).
      const options = prefilterOptions({
        ...params,
        transientLines: mode !== 'before' && params.transientLines === true,
      });
      const out: SourceStream[] = [];
      for (const s of streams) {
        if (!matchers.every((m) => m.test.matches(labelValue(s.labels, m.name)))) continue;
        const cursors = s.chunks.map((c) =>
          MemChunk.decode(c).iterator(params.fromNs, params.throughNs, params.direction, options),
        );
        const entries =
          cursors.length === 1 ? cursors[0] : new MergedCursor(cursors, params.direction);
        const names = mode === 'after' || mode === 'views';
        out.push({ labels: s.labels, entries: new ModeCursor(entries, names, mode === 'views') });
      }
      return Promise.resolve(out);
    },
  };
}

function labelValue(labels: Labels, name: string): string {
  for (const p of labels) if (p.name === name) return p.value;
  return '';
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const endMs = Date.now() - 60_000;
  const { streams, lineBytes } = buildData(o.mb, endMs - 3_600_000, o.format);
  const mb = lineBytes / 1e6;
  console.log(`${mb.toFixed(1)} MB of mixed lines in ${streams.length} streams (${o.format})`);
  const endNs = BigInt(endMs) * 1_000_000n;
  for (const q of QUERIES) {
    if (o.only.length > 0 && !o.only.some((n) => q.name.includes(n))) continue;
    const run = (mode: ReadMode) =>
      runQuery({
        query: q.query,
        kind: 'instant',
        startNs: endNs,
        endNs,
        limit: 100,
        direction: 'forward',
        tenants: 'bench',
        source: chunkSource(streams, mode),
      });
    const first = await run(o.modes[0]);
    const cpuMs = new Map<ReadMode, number[]>(o.modes.map((m) => [m, []]));
    // The modes take turns, so the machine's load falls on each alike.
    for (let i = 0; i < o.runs; i++) {
      for (const mode of o.modes) {
        const before = process.cpuUsage();
        const answer = await run(mode);
        const used = process.cpuUsage(before);
        cpuMs.get(mode)!.push((used.user + used.system) / 1000);
        if (!isDeepStrictEqual(answer.result, first.result)) {
          throw new Error(`${q.name}: the ${mode} answer differs`);
        }
      }
    }
    const sum =
      first.result.type === 'vector' ? first.result.samples.reduce((a, s) => a + s.value, 0) : NaN;
    const medians = new Map<ReadMode, number>();
    for (const mode of o.modes) {
      const ms = cpuMs.get(mode)!.sort((a, b) => a - b);
      const median = ms[Math.floor(ms.length / 2)];
      medians.set(mode, median);
      const ratio = median / medians.get(o.modes[0])!;
      console.log(
        `${q.name.padEnd(7)} ${mode.padEnd(8)} ${median.toFixed(0).padStart(6)} ms CPU  ${(mb / (median / 1000)).toFixed(1).padStart(6)} MB per CPU-s  ×${ratio.toFixed(2)}  (min ${ms[0].toFixed(0)} ms; sum ${sum})`,
      );
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
