import type { Labels } from '@logsvc/api';
import { parseLabels } from '@logsvc/api';
import { LocalIngesterClient } from '../client';
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

/** Pushes every stream's batches, one request each; stream i is `{app="a<i>"}`. */
export async function pushStreams(
  ingester: Ingester,
  tenant: string,
  streams: readonly (readonly (readonly TestRow[])[])[],
): Promise<void> {
  for (let s = 0; s < streams.length; s++)
    for (const batch of streams[s]!) await pushRows(ingester, tenant, s, batch);
}

/**
 * Runs `body` with a started `tinyChunkIngester` attached to an in-process client, and shuts
 * the ingester down (without flushing) after, whatever `body` does.
 */
export async function withTinyIngester(
  body: (ingester: Ingester, client: LocalIngesterClient) => Promise<void>,
): Promise<void> {
  const ingester = tinyChunkIngester();
  await ingester.start();
  const client = new LocalIngesterClient(ingester);
  try {
    await body(ingester, client);
  } finally {
    await ingester.shutdown({ flush: false });
  }
}
