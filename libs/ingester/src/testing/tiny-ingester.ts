import type { Labels } from '@logsvc/api';
import { parseLabels } from '@logsvc/api';
import { DEFAULT_INGESTER_CONFIG } from '../config';
import { Ingester } from '../ingester';

/**
 * An ingester for read-path tests: tiny blocks and chunks, so that a few dozen lines give a
 * stream closed chunks, cut blocks and a head block; no WAL, no background loops, and flushed
 * chunks go nowhere. Call `start()` before pushing.
 */
export function tinyChunkIngester(): Ingester {
  return new Ingester({
    config: {
      ...DEFAULT_INGESTER_CONFIG,
      chunk_block_size: 64,
      chunk_target_size: 400,
      wal: { ...DEFAULT_INGESTER_CONFIG.wal, enabled: false },
    },
    sink: { putChunks: async () => undefined },
    backgroundLoops: false,
  });
}

/** A pushed line of a test stream. */
export interface TestRow {
  readonly ts: bigint;
  readonly line: string;
  readonly sm: Labels;
}

/** Pushes `rows` as one request to the stream `{app="a<stream>"}`. */
export async function pushRows(
  ingester: Ingester,
  tenant: string,
  stream: number,
  rows: readonly TestRow[],
): Promise<void> {
  await ingester.push(tenant, {
    streams: [
      {
        labels: parseLabels(`{app="a${stream}"}`),
        entries: rows.map((r) => ({
          timestampNs: r.ts,
          line: Buffer.from(r.line),
          structuredMetadata: r.sm,
        })),
      },
    ],
  });
}
