import { type LogEntry, parseLabels } from '@logsvc/api';
import { MemChunk } from '@logsvc/chunk';
import type { Ingester } from '@logsvc/ingester';
import type { ChunkStore } from '@logsvc/storage';
import { CHUNK_STORE } from '../src/modules/core/chunk-store.provider';
import { LocalIngesterClient } from '@logsvc/ingester';
import type { TestServer } from './harness';

/** `[timestamp ns, line]` rows of a test stream. */
export type Rows = ReadonlyArray<readonly [bigint, string]>;

const toEntries = (rows: Rows): LogEntry[] =>
  rows.map(([ts, line]) => ({ timestampNs: ts, line: Buffer.from(line), structuredMetadata: [] }));

export function chunkStoreOf(sut: TestServer): ChunkStore {
  return sut.server.app.get<ChunkStore>(CHUNK_STORE);
}

/** Writes one flushed chunk of `rows` for stream `labels` straight into the chunk store. */
export async function storeChunk(sut: TestServer, tenant: string, labels: string, rows: Rows) {
  const chunk = new MemChunk();
  for (const e of toEntries(rows)) chunk.append(e.timestampNs, e.line, e.structuredMetadata);
  const data = chunk.encode();
  await chunkStoreOf(sut).putChunks(tenant, [
    {
      labels: parseLabels(labels),
      fromNs: chunk.minTimeNs,
      throughNs: chunk.maxTimeNs,
      entries: chunk.entryCount,
      uncompressedSize: chunk.uncompressedBytes,
      data,
    },
  ]);
}

/** The server's in-process ingester (its ingester component runs). */
export async function ingesterOf(sut: TestServer): Promise<Ingester> {
  const ingester = sut.server.app.get(LocalIngesterClient).ingester;
  if (!ingester) throw new Error('no running ingester in this server');
  return ingester;
}

/** Puts `rows` of stream `labels` into the in-process ingester's memory. */
export async function pushToIngester(sut: TestServer, tenant: string, labels: string, rows: Rows) {
  const ingester = await ingesterOf(sut);
  const out = await ingester.push(tenant, {
    streams: [{ labels: parseLabels(labels), entries: toEntries(rows) }],
  });
  if (out.errors.length > 0) throw out.errors[0];
}

/** A GET with X-Scope-OrgID. */
export function getAs(
  sut: TestServer,
  tenant: string,
  path: string,
  params: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const qs = new URLSearchParams(params).toString();
  return fetch(`${sut.url}${path}${qs ? '?' + qs : ''}`, {
    headers: { 'X-Scope-OrgID': tenant, ...headers },
  });
}

/** A form POST with X-Scope-OrgID. */
export function postFormAs(sut: TestServer, tenant: string, path: string, form: URLSearchParams) {
  return fetch(sut.url + path, {
    method: 'POST',
    headers: { 'X-Scope-OrgID': tenant, 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
}

export const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;
export const MINUTE_NS = 60_000_000_000n;
