import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { labelsFromRecord } from '@logsvc/api';
import { afterEach, beforeEach } from 'vitest';
import { MemChunk } from '@logsvc/chunk';
import { ChunkStore, FilesystemObjectClient, type SchemaConfig } from '@logsvc/storage';
import { Compactor, type CompactorOptions } from '../compactor';
import { DeleteRequestsApi } from '../delete-requests-api';
import { DeleteRequestsStore } from '../delete-requests-store';
import { ChunkMarkers } from '../markers';

export const DAY_MS = 86_400_000;
export const NS = 1_000_000n;

export const schema: SchemaConfig = {
  configs: [
    {
      from: '2024-01-01',
      object_store: 'filesystem',
      schema: 'v13',
      index: { prefix: 'index_', period: DAY_MS },
    },
  ],
};

/** A store on a temporary directory. */
export async function tempStore(): Promise<{
  dir: string;
  store: (uploader?: string) => ChunkStore;
  client: FilesystemObjectClient;
  cleanup: () => Promise<void>;
}> {
  const dir = await mkdtemp(path.join(tmpdir(), 'compactor-'));
  const client = new FilesystemObjectClient(path.join(dir, 'chunks'));
  return {
    dir,
    client,
    store: (uploader = 'ingester-1') =>
      new ChunkStore({ schema, objectClients: { filesystem: client }, uploader }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Stores one chunk of `lines` (one per ms from `fromMs`) for the stream. */
export async function putLines(
  store: ChunkStore,
  tenant: string,
  labels: Record<string, string>,
  fromMs: number,
  lines: readonly string[],
): Promise<void> {
  const c = new MemChunk();
  lines.forEach((l, i) => c.append(BigInt(fromMs + i) * NS, Buffer.from(l), []));
  c.close();
  await store.putChunks(tenant, [
    {
      labels: labelsFromRecord(labels),
      fromNs: BigInt(fromMs) * NS,
      throughNs: BigInt(fromMs + lines.length - 1) * NS,
      entries: lines.length,
      uncompressedSize: c.uncompressedBytes,
      data: c.encode(),
    },
  ]);
}

/** Every line the store holds for the stream selector, in time order. */
export async function readLines(
  store: ChunkStore,
  tenant: string,
  app: string,
  fromMs = 0,
  throughMs = 4_102_444_800_000,
): Promise<string[]> {
  const series = await store.getChunkRefs(
    tenant,
    [{ type: '=', name: 'app', value: app }],
    BigInt(fromMs) * NS,
    BigInt(throughMs) * NS,
  );
  const out: string[] = [];
  for (const s of series) {
    for (const ref of s.chunks) {
      const cur = MemChunk.decode(await store.fetchChunk(tenant, ref)).iterator(
        0n,
        (1n << 63n) - 1n,
        'forward',
      );
      while (cur.next()) out.push(cur.line.toString());
    }
  }
  return out;
}

/**
 * A compactor over `env`'s store as the tests run it: every tenant `filter-and-delete`, retention
 * on with nothing expiring, a one-minute cancel period, markers under `<dir>/work`.
 */
export function testCompactor(
  env: Awaited<ReturnType<typeof tempStore>>,
  nowMs: () => number,
  over: Partial<CompactorOptions> = {},
) {
  const store = env.store('compactor-host');
  const requests = new DeleteRequestsStore(env.client);
  return {
    store,
    requests,
    api: new DeleteRequestsApi({
      store: requests,
      deletionMode: () => 'filter-and-delete',
      cancelPeriodMs: 60_000,
      maxIntervalMs: 0,
      nowMs,
    }),
    compactor: new Compactor({
      store,
      requests,
      markers: new ChunkMarkers(path.join(env.dir, 'work')),
      limits: () => ({
        retention_period: 0,
        retention_stream: [],
        deletion_mode: 'filter-and-delete',
      }),
      retentionEnabled: true,
      retentionDeleteDelayMs: 0,
      deleteRequestCancelPeriodMs: 60_000,
      nowMs,
      ...over,
    }),
  };
}

/** A fresh temporary store per test, and a clock that starts at `startMs` (tests move it). */
export function compactorTestEnv(startMs: number): {
  env: Awaited<ReturnType<typeof tempStore>>;
  now: number;
} {
  const state = { now: startMs } as { env: Awaited<ReturnType<typeof tempStore>>; now: number };
  beforeEach(async () => {
    state.env = await tempStore();
    state.now = startMs;
  });
  afterEach(() => state.env.cleanup());
  return state;
}
