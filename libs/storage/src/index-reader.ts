import type { Labels, Matcher } from '@logsvc/api';
import type { IndexStats, SeriesVolume } from './chunk-store';
import type { SeriesChunkRefs } from './index-model';

/**
 * The read-only index part of ChunkStore: what a querier asks the index, wherever it is served
 * (the ChunkStore of this process, or an index gateway over gRPC). Chunk bytes are not part of
 * it: queriers read chunks from the object store themselves.
 */
export interface IndexReader {
  /** Series the matchers select, each with its chunk refs overlapping [fromNs, throughNs]. */
  getChunkRefs(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<SeriesChunkRefs[]>;
  /** Label names of series with data in range (selected by `matchers` when given), sorted. */
  labelNames(
    tenant: string,
    fromNs: bigint,
    throughNs: bigint,
    matchers?: readonly Matcher[],
  ): Promise<string[]>;
  /** Values of label `name` in range (on series selected by `matchers` when given), sorted. */
  labelValues(
    tenant: string,
    name: string,
    fromNs: bigint,
    throughNs: bigint,
    matchers?: readonly Matcher[],
  ): Promise<string[]>;
  /** Distinct label sets selected by any of the matcher lists (none: all series), sorted. */
  series(
    tenant: string,
    matchersList: readonly (readonly Matcher[])[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<Labels[]>;
  /** Counts over the chunks overlapping the range (whole chunks, each counted once). */
  stats(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<IndexStats>;
  /** Per selected series: uncompressed bytes, entries and chunks overlapping the range. */
  volume(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<SeriesVolume[]>;
}
