import type { Labels, Matcher, ShardRef } from '@logsvc/api';
import type { Direction, EntryCursor, MetadataEquals } from '@logsvc/chunk';
import type { ChunkStats, QueryStats } from './stats';

// One stream's cursor and the read direction are @logsvc/chunk's: chunk and ingester cursors
// are what the engine reads.
export type { Direction, EntryCursor } from '@logsvc/chunk';

/** What the engine asks a source for: the streams of one tenant matching a selector. */
export interface SelectParams {
  readonly tenant: string;
  readonly matchers: readonly Matcher[];
  /** Entries with `fromNs <= ts < throughNs`. */
  readonly fromNs: bigint;
  readonly throughNs: bigint;
  readonly direction: Direction;
  /** Counters the source adds to (chunks, bytes, lines). */
  readonly stats: QueryStats;
  /**
   * Bytes every returned line must contain, when the query's pipeline starts with a line
   * filter that implies them (`|= "x"`, or a regex with a required literal). Sources may use
   * it to skip lines early (chunk cursors search whole blocks for it); the pipeline still
   * applies the full filter, so a source may also ignore it.
   */
  readonly lineContains?: Buffer;
  /**
   * Without `lineContains`: byte strings of which every returned line must contain one, when
   * the pipeline starts with an alternation of literals (`|~ "a|b"`). Used and ignored as
   * `lineContains` is.
   */
  readonly lineContainsAny?: readonly Buffer[];
  /**
   * Structured metadata every returned entry has, from label filters at the start of the
   * pipeline (`| trace_id="abc"`), for streams without a label of that name. Sources may skip
   * chunk blocks that hold no such entry; used and ignored as `lineContains` is.
   */
  readonly metadataEquals?: readonly MetadataEquals[];
  /**
   * Set when the engine keeps no line view of a stream's cursor past the cursor's next
   * `next()` (metric queries, and log queries, which copy a line out before moving its cursor
   * on): sources may then decompress lines into reused buffers
   * (`CursorOptions.transientLines`).
   */
  readonly transientLines?: boolean;
  /** Set when the query is aborted (timeout, client gone); sources stop early. */
  readonly signal?: AbortSignal;
  /**
   * Log queries: the entries the query returns at most, so it may stop long before the end.
   * A source may then fetch its data as the query reads it (its cursors may `wait`); without
   * it, every cursor holds all its entries.
   */
  readonly limit?: number;
  /** Only the streams of this query shard (a sub-query of the query frontend). */
  readonly shard?: ShardRef;
}

/** One stream from a source. Its labels are sorted; its entries are in `direction` order. */
export interface SourceStream {
  readonly labels: Labels;
  readonly entries: EntryCursor;
  /**
   * Set by a multi-tenant source: the stream's tenant, which the engine adds as `__tenant_id__`
   * to the labels the query's pipeline yields for it.
   */
  readonly tenant?: string;
  /**
   * Where the lines the query keeps from this stream count (`postFilterLines`): an ingester
   * source's `stats.ingester.store.chunk`, as Loki counts them in the ingester. Default: the
   * querier's store stats.
   */
  readonly stats?: ChunkStats;
}

/**
 * Where the engine reads entries from: the ingesters, the chunk store, or several of them
 * combined. Two sources may return the same stream with overlapping entries (a chunk that is
 * flushed but still in memory); the engine's combinator merges them and drops duplicates.
 */
export interface LogSource {
  select(params: SelectParams): Promise<SourceStream[]>;
}
