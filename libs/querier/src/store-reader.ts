import type { ChunkStore, IndexReader } from '@logsvc/storage';

/**
 * What the querier reads from long-term storage: the index (this process's ChunkStore, or index
 * gateways) and chunk bytes (always straight from the object store).
 */
export type StoreReader = IndexReader & Pick<ChunkStore, 'fetchChunks'>;

/** The chunk store's chunks with the index served by `index` (e.g. index gateways). */
export function withIndex(store: ChunkStore, index: IndexReader): StoreReader {
  if (index === store) return store;
  return {
    getChunkRefs: (...a) => index.getChunkRefs(...a),
    labelNames: (...a) => index.labelNames(...a),
    labelValues: (...a) => index.labelValues(...a),
    series: (...a) => index.series(...a),
    stats: (...a) => index.stats(...a),
    volume: (...a) => index.volume(...a),
    fetchChunks: (...a) => store.fetchChunks(...a),
  };
}
