// Rewrites one chunk without the lines delete requests remove (Loki's chunk rewriter).
import type { Labels } from '@logsvc/api';
import { type ChunkOptions, isColumnarChunk, MemChunk, recodeChunk } from '@logsvc/chunk';
import type { ChunkToStore } from '@logsvc/storage';
import type { LineDeletedFn } from './line-deleter';

export type RewriteResult =
  /** Nothing in the chunk is deleted: keep it. */
  | { readonly kind: 'unchanged' }
  /** Every line is deleted: drop the chunk. */
  | { readonly kind: 'empty'; readonly linesDeleted: number }
  /** The chunk without the deleted lines. */
  | { readonly kind: 'rewritten'; readonly chunk: ChunkToStore; readonly linesDeleted: number };

const END = (1n << 63n) - 1n;

/**
 * Reads every entry of the chunk and keeps those `deleted` does not remove, in the same order,
 * into a new chunk of the same encoding and chunk format (block size from `options`). Equal
 * input gives equal bytes, so a rewrite repeated after a crash produces the same chunk key.
 */
export function rewriteChunk(
  data: Buffer,
  labels: Labels,
  deleted: LineDeletedFn,
  options: Partial<ChunkOptions> = {},
): RewriteResult {
  const source = MemChunk.decode(data);
  const out = new MemChunk({ ...options, encoding: source.options.encoding, targetSize: 0 });
  const cursor = source.iterator(0n, END, 'forward');
  let kept = 0;
  let removed = 0;
  let fromNs = 0n;
  let throughNs = 0n;
  while (cursor.next()) {
    const ts = cursor.timestampNs;
    if (deleted(ts, cursor.line, cursor.structuredMetadata)) {
      removed++;
      continue;
    }
    if (!out.append(ts, Buffer.from(cursor.line), cursor.structuredMetadata)) continue;
    if (kept === 0) fromNs = ts;
    throughNs = ts;
    kept++;
  }
  if (removed === 0) return { kind: 'unchanged' };
  if (kept === 0) return { kind: 'empty', linesDeleted: removed };
  out.close();
  const rows = out.encode();
  const bytes = isColumnarChunk(data) ? recodeChunk(rows, 'columnar') : rows;
  return {
    kind: 'rewritten',
    linesDeleted: removed,
    chunk: {
      labels,
      fromNs,
      throughNs,
      entries: kept,
      uncompressedSize: out.uncompressedBytes,
      data: bytes,
    },
  };
}
