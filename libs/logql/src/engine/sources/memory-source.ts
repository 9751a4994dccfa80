/**
 * A LogSource over streams held in memory: for tests and for callers that already have the
 * entries (e.g. a small ingest buffer). Selects by matchers, time range and tenant, returns
 * entries in the requested direction, and counts what it returns as processed lines.
 */
import {
  labelsFromRecord,
  matchesLabels,
  parseLabels,
  type Labels,
  type LogEntry,
} from '@logsvc/api';
import { WholeLineCursor } from '@logsvc/chunk';
import type { Direction, LogSource, SelectParams, SourceStream } from '../source';
import type { ChunkStats } from '../stats';

/** One entry as a test writes it: `line` and metadata may be plain strings and records. */
export interface MemoryEntry {
  readonly timestampNs: bigint;
  readonly line: string | Buffer;
  readonly structuredMetadata?: Labels | Readonly<Record<string, string>>;
}

export interface MemoryStream {
  /** Sorted labels, a selector string `{a="b"}`, or a record. */
  readonly labels: Labels | string | Readonly<Record<string, string>>;
  readonly entries: readonly MemoryEntry[];
  /** The stream's tenant; a stream without one is visible to every tenant. */
  readonly tenant?: string;
}

export interface MemorySourceOptions {
  /**
   * Which counters the returned lines add to: `store` (chunks decompressed by the querier,
   * the default) or `ingester` (head chunks read by ingesters).
   */
  readonly countAs?: 'store' | 'ingester';
}

interface StoredStream {
  readonly labels: Labels;
  readonly tenant: string | undefined;
  /** Sorted by timestamp (stable, so equal timestamps keep their push order). */
  readonly entries: readonly LogEntry[];
}

export class MemorySource implements LogSource {
  private readonly streams: StoredStream[];

  constructor(
    streams: readonly MemoryStream[],
    private readonly options: MemorySourceOptions = {},
  ) {
    this.streams = streams.map((s) => ({
      labels: toLabels(s.labels),
      tenant: s.tenant,
      entries: s.entries
        .map(toEntry)
        .sort((a, b) =>
          a.timestampNs < b.timestampNs ? -1 : a.timestampNs > b.timestampNs ? 1 : 0,
        ),
    }));
  }

  select(params: SelectParams): Promise<SourceStream[]> {
    const out: SourceStream[] = [];
    const chunk =
      this.options.countAs === 'ingester'
        ? params.stats.ingester.store.chunk
        : params.stats.querier.store.chunk;
    const head = this.options.countAs === 'ingester';
    for (const s of this.streams) {
      if (s.tenant !== undefined && s.tenant !== params.tenant) continue;
      if (!matchesLabels(params.matchers, s.labels)) continue;
      const from = lowerBound(s.entries, params.fromNs);
      const to = lowerBound(s.entries, params.throughNs);
      if (from >= to) continue;
      out.push({
        labels: s.labels,
        entries: new ArrayCursor(s.entries, from, to, params.direction, chunk, head),
      });
    }
    return Promise.resolve(out);
  }
}

/** First index whose timestamp is >= ts. */
function lowerBound(entries: readonly LogEntry[], ts: bigint): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid].timestampNs < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class ArrayCursor extends WholeLineCursor {
  timestampNs = 0n;
  line: Buffer = Buffer.alloc(0);
  structuredMetadata: Labels = [];
  private i: number;

  constructor(
    private readonly entries: readonly LogEntry[],
    private readonly from: number,
    private readonly to: number,
    private readonly direction: Direction,
    private readonly stats: ChunkStats,
    private readonly head: boolean,
  ) {
    super();
    this.i = direction === 'forward' ? from - 1 : to;
  }

  next(): boolean {
    if (this.direction === 'forward') {
      if (++this.i >= this.to) return false;
    } else if (--this.i < this.from) {
      return false;
    }
    const e = this.entries[this.i];
    this.timestampNs = e.timestampNs;
    this.line = e.line;
    this.structuredMetadata = e.structuredMetadata;
    const smBytes = metadataBytes(e.structuredMetadata);
    if (this.head) {
      this.stats.headChunkLines++;
      this.stats.headChunkBytes += e.line.length;
      this.stats.headChunkStructuredMetadataBytes += smBytes;
    } else {
      this.stats.decompressedLines++;
      this.stats.decompressedBytes += e.line.length;
      this.stats.decompressedStructuredMetadataBytes += smBytes;
    }
    return true;
  }
}

function metadataBytes(sm: Labels): number {
  let n = 0;
  for (const p of sm) n += p.name.length + p.value.length;
  return n;
}

function toLabels(labels: MemoryStream['labels']): Labels {
  if (typeof labels === 'string') return parseLabels(labels);
  if (Array.isArray(labels)) return labels as Labels;
  return labelsFromRecord(labels as Readonly<Record<string, string>>);
}

function toEntry(e: MemoryEntry): LogEntry {
  const sm = e.structuredMetadata;
  return {
    timestampNs: e.timestampNs,
    line: typeof e.line === 'string' ? Buffer.from(e.line) : e.line,
    structuredMetadata:
      sm === undefined
        ? []
        : Array.isArray(sm)
          ? (sm as Labels)
          : labelsFromRecord(sm as Readonly<Record<string, string>>),
  };
}
