import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemObjectClient, type ObjectClient, S3ObjectClient } from '@logsvc/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3rverProcess, startS3rver } from '@logsvc/storage/testing';
import { pushOk } from '../support/loki-api';
import { type ServerProcess, eventually, startServer } from '../support/server';
import { linesInChunkObjects } from '../support/store-reader';

const FLAGS = [
  '-compactor.retention-enabled=true',
  '-compactor.compaction-interval=1s',
  '-compactor.retention-delete-delay=0s',
  '-compactor.delete-request-cancel-period=3s',
];

async function push(url: string, app: string, entries: Array<[bigint, string]>): Promise<void> {
  await pushOk(url, [{ stream: { app }, values: entries.map(([t, l]) => [String(t), l]) }]);
}

async function lines(url: string, query: string): Promise<string[]> {
  const q = new URLSearchParams({ query, since: '72h', limit: '1000', direction: 'forward' });
  const body = (await (await fetch(`${url}/loki/api/v1/query_range?${q}`)).json()) as {
    data: { result: Array<{ values: Array<[string, string]> }> };
  };
  return body.data.result.flatMap((s) => s.values.map((v) => v[1])).sort();
}

async function deleteApi(
  url: string,
  method: string,
  params: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}/loki/api/v1/delete?${new URLSearchParams(params)}`, { method });
  return { status: res.status, text: await res.text() };
}

interface Listed {
  request_id: string;
  query: string;
  status: string;
}

async function list(url: string): Promise<Listed[]> {
  return (await (await fetch(`${url}/loki/api/v1/delete`)).json()) as Listed[];
}

/** One bucket per server on S3, so each test server has a store of its own. */
const BUCKETS = ['deletion', 'retention'] as const;
type Bucket = (typeof BUCKETS)[number];

/**
 * Where a test server keeps its chunks: the filesystem store under its data directory, or a
 * bucket of an s3rver started for the test (`schema_config` `object_store: s3`).
 */
interface StoreUnderTest {
  readonly name: string;
  setUp(): Promise<void>;
  /** The flags of a server on this store, writing to `bucket` on S3. */
  flags(bucket: Bucket): string[];
  /** An object client on the server's chunks (its data directory for the filesystem). */
  client(bucket: Bucket, dataDir: string): ObjectClient;
  tearDown(): Promise<void>;
}

function filesystemStore(): StoreUnderTest {
  return {
    name: 'filesystem',
    setUp: () => Promise.resolve(),
    flags: () => [],
    client: (_bucket, dataDir) => new FilesystemObjectClient(join(dataDir, 'chunks')),
    tearDown: () => Promise.resolve(),
  };
}

function s3Store(): StoreUnderTest {
  let s3: S3rverProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'logsvc-s3-config-'));
  const aws = (bucket: Bucket) => ({
    endpoint: s3!.endpoint,
    insecure: true,
    region: 'us-east-1',
    bucketnames: bucket,
    s3forcepathstyle: true,
    access_key_id: 'S3RVER',
    secret_access_key: 'S3RVER',
  });
  return {
    name: 's3 (s3rver)',
    async setUp() {
      s3 = await startS3rver(BUCKETS);
    },
    flags(bucket) {
      const file = join(dir, `${bucket}.yaml`);
      const config = {
        schema_config: {
          configs: [{ from: '2020-01-01', store: 'tsdb', object_store: 's3', schema: 'v13' }],
        },
        storage_config: { aws: aws(bucket) },
      };
      writeFileSync(file, JSON.stringify(config)); // JSON is YAML
      return [`-config.file=${file}`];
    },
    client: (bucket) => new S3ObjectClient(aws(bucket)),
    async tearDown() {
      await s3?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.each([filesystemStore(), s3Store()])('compactor on the $name store', (store) => {
  beforeAll(() => store.setUp(), 60_000);
  afterAll(() => store.tearDown());

  describe('log deletion through the compactor', () => {
    let sut: ServerProcess;
    let chunks: ObjectClient;
    beforeAll(async () => {
      sut = await startServer({ flags: [...store.flags('deletion'), ...FLAGS] });
      chunks = store.client('deletion', sut.dataDir);
    }, 60_000);
    afterAll(async () => {
      await chunks?.close?.();
      await sut?.dispose();
    });

    it('deletes lines matching a line filter: hidden at once, gone from the chunk files after processing', async () => {
      const t = BigInt(Date.now() - 60_000) * 1_000_000n;
      await push(sut.url, 'api', [
        [t, 'user=alice ok'],
        [t + 1n, 'user=bob secret'],
        [t + 2n, 'user=carol ok'],
      ]);
      await push(sut.url, 'web', [[t, 'user=bob web']]);
      const start = String(Math.floor(Date.now() / 1000) - 600);
      const created = await deleteApi(sut.url, 'POST', {
        query: '{app="api"} |= "bob"',
        start,
      });
      expect(created.status).toBe(204);
      // At once, before any processing: log and metric queries no longer see the line.
      expect(await lines(sut.url, '{app="api"}')).toEqual(['user=alice ok', 'user=carol ok']);
      expect(await lines(sut.url, '{app="web"}')).toEqual(['user=bob web']);
      const q = new URLSearchParams({ query: 'sum(count_over_time({app="api"}[10m]))' });
      const metric = (await (await fetch(`${sut.url}/loki/api/v1/query?${q}`)).json()) as {
        data: { result: Array<{ value: [number, string] }> };
      };
      expect(metric.data.result[0].value[1]).toBe('2');

      expect((await fetch(`${sut.url}/flush`, { method: 'POST' })).status).toBe(204);
      expect(await linesInChunkObjects(chunks)).toContain('user=bob secret');
      await eventually(
        async () => ((await list(sut.url))[0]?.status === 'processed' ? true : undefined),
        'the delete request to be processed',
      );
      await eventually(
        async () =>
          (await linesInChunkObjects(chunks)).includes('user=bob secret') ? undefined : true,
        'the old chunk to be swept',
      );
      expect(await linesInChunkObjects(chunks)).toEqual([
        'user=alice ok',
        'user=bob web',
        'user=carol ok',
      ]);
      expect(await lines(sut.url, '{app="api"}')).toEqual(['user=alice ok', 'user=carol ok']);
      const metrics = await (await fetch(`${sut.url}/metrics`)).text();
      expect(metrics).toContain('loki_compactor_deleted_lines{user="fake"} 1');
      // Loki's pending gauges: nothing left over its cancel period and unprocessed.
      expect(metrics).toMatch(/^loki_compactor_pending_delete_requests_count 0$/m);
      expect(metrics).toMatch(/^loki_compactor_oldest_pending_delete_request_age_seconds 0$/m);
    }, 60_000);

    it('cancels within the cancel period, and after it only with force', async () => {
      const start = String(Math.floor(Date.now() / 1000) - 600);
      expect((await deleteApi(sut.url, 'PUT', { query: '{app="none1"}', start })).status).toBe(204);
      const id1 = (await list(sut.url)).find((r) => r.query === '{app="none1"}')!.request_id;
      expect(await deleteApi(sut.url, 'DELETE', { request_id: id1 })).toEqual({
        status: 204,
        text: '',
      });
      expect((await list(sut.url)).some((r) => r.request_id === id1)).toBe(false);

      expect((await deleteApi(sut.url, 'PUT', { query: '{app="none2"}', start })).status).toBe(204);
      const id2 = (await list(sut.url)).find((r) => r.query === '{app="none2"}')!.request_id;
      await new Promise((r) => setTimeout(r, 3100));
      const refused = await deleteApi(sut.url, 'DELETE', { request_id: id2 });
      if (refused.status === 400 && refused.text.startsWith('Unable to cancel')) {
        expect(refused.text).toBe(
          'Unable to cancel partially completed delete request. To force, use the ?force query parameter\n',
        );
        const forced = await deleteApi(sut.url, 'DELETE', { request_id: id2, force: 'true' });
        // Processing may have finished meanwhile: then it stays, listed as processed.
        expect([204, 400]).toContain(forced.status);
      } else {
        expect(refused).toEqual({
          status: 400,
          text: 'deletion of request which is in process or already processed is not allowed\n',
        });
      }
      expect(await deleteApi(sut.url, 'DELETE', { request_id: 'ffffffff' })).toEqual({
        status: 404,
        text: 'could not find delete request with given id\n',
      });
    }, 30_000);
  });

  describe('retention', () => {
    let sut: ServerProcess;
    let chunks: ObjectClient;
    beforeAll(async () => {
      sut = await startServer({
        flags: [...store.flags('retention'), ...FLAGS, '-store.retention=24h'],
      });
      chunks = store.client('retention', sut.dataDir);
    }, 60_000);
    afterAll(async () => {
      await chunks?.close?.();
      await sut?.dispose();
    });

    it('removes a day of expired data: index entries and chunk files', async () => {
      const old = BigInt(Date.now() - 50 * 3_600_000) * 1_000_000n;
      const fresh = BigInt(Date.now() - 60_000) * 1_000_000n;
      // Separate streams: retention works on whole chunks, by their last entry (as Loki).
      await push(sut.url, 'ret-old', [[old, 'two days old']]);
      await push(sut.url, 'ret-new', [[fresh, 'fresh']]);
      expect((await fetch(`${sut.url}/flush`, { method: 'POST' })).status).toBe(204);
      await eventually(
        async () =>
          (await linesInChunkObjects(chunks)).includes('two days old') ? undefined : true,
        'the expired chunk to be deleted',
      );
      expect(await linesInChunkObjects(chunks)).toEqual(['fresh']);
      expect(await lines(sut.url, '{app=~"ret-.*"}')).toEqual(['fresh']);
    }, 60_000);
  });
});
