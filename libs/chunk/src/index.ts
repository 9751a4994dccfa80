export {
  BLOCKS_PER_CHUNK_WITHOUT_TARGET,
  CHUNK_ENCODINGS,
  ChunkOptionsError,
  DEFAULT_CHUNK_OPTIONS,
  resolveChunkOptions,
} from './options';
export type { ChunkEncoding, ChunkOptions } from './options';
export { ChunkFormatError, ReadOnlyChunkError } from './errors';
export type {
  ChunkCursor,
  CursorOptions,
  Direction,
  EntryCursor,
  MetadataEquals,
  ScanCounters,
} from './cursor';
export { prefilterOptions, WholeLineCursor } from './cursor';
export {
  type ChunkCheckpointParts,
  type ChunkSnapshot,
  type ChunkSplit,
  MemChunk,
} from './mem-chunk';
export type { SharedBlocks } from './shared-blocks';
export { SourceMergeCursor } from './source-merge-cursor';
export { HeadBlock } from './head-block';
export { SymbolTable } from './symbols';
export type { EntryRun } from './entry-run';
export type { CursorSummary, RunSummary, RunTimes } from './run-summary';
export { joinSummaries, offsetsOf, reportingTo } from './run-summary';
export { SlabPool, type SlabPoolOptions } from './slab-pool';
export { BlockSpill } from './block-spill';
export { BlockRunCache, entryRunBytes } from './block-run-cache';
export {
  CHUNK_FORMATS,
  type ChunkFormatName,
  decodeColumnarChunk,
  isColumnarChunk,
  recodeChunk,
} from './columnar-format';
export { TokenFilter } from './token-filter';
