import { labelsFromRecord } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { ChunkStore } from './chunk-store';
import { S3ObjectClient, type S3StorageConfig } from './s3-object-client';
import { describeObjectClientContract } from './testing/object-client-contract';
import { startS3rver } from './testing/s3rver-process';

const CREDENTIALS = { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' };

async function startS3(
  buckets: string[],
): Promise<{ config: S3StorageConfig; stop: () => Promise<void> }> {
  const server = await startS3rver(buckets);
  const config: S3StorageConfig = {
    endpoint: server.endpoint,
    insecure: true,
    region: 'us-east-1',
    bucketnames: buckets.join(','),
    s3forcepathstyle: true,
    ...CREDENTIALS,
  };
  return { config, stop: () => server.stop() };
}

/** s3rver writes each PUT in place, so its concurrent overwrites of one key may interleave. */
const S3RVER = { atomicOverwrites: false };

describeObjectClientContract(
  's3 (s3rver)',
  async () => {
    const s3 = await startS3(['logsvc-contract']);
    return {
      client: new S3ObjectClient(s3.config, { listPageSize: 7 }),
      listPageSize: 7,
      dispose: s3.stop,
    };
  },
  S3RVER,
);

describeObjectClientContract(
  's3 with two buckets (s3rver)',
  async () => {
    const s3 = await startS3(['logsvc-shard-a', 'logsvc-shard-b']);
    return {
      client: new S3ObjectClient(s3.config, { listPageSize: 7 }),
      listPageSize: 7,
      dispose: s3.stop,
    };
  },
  S3RVER,
);

describe('S3ObjectClient configuration', () => {
  it('requires a bucket', () => {
    expect(() => new S3ObjectClient({ bucketnames: ' , ' })).toThrow(/bucketnames/);
  });

  it('requires both halves of a static key', () => {
    expect(() => new S3ObjectClient({ bucketnames: 'b', access_key_id: 'only-id' })).toThrow(
      /access_key_id and secret_access_key/,
    );
  });

  it('turns an unreachable endpoint into a StorageError naming the operation', async () => {
    const sut = new S3ObjectClient({
      bucketnames: 'b',
      endpoint: '127.0.0.1:1',
      insecure: true,
      s3forcepathstyle: true,
      ...CREDENTIALS,
    });
    try {
      await expect(sut.put('t/x', Buffer.from('x'))).rejects.toThrow(/^put t\/x: /);
    } finally {
      await sut.close();
    }
  });
});

describe('ChunkStore on S3 (s3rver)', () => {
  it('writes chunks and index to the bucket; a fresh store reads them back', async () => {
    const s3 = await startS3(['logsvc-chunks']);
    const schema = {
      configs: [
        {
          from: '2024-01-01',
          object_store: 's3',
          schema: 'v13',
          index: { prefix: 'index_', period: 86_400_000 },
        },
      ],
    };
    const writer = new S3ObjectClient(s3.config);
    const reader = new S3ObjectClient(s3.config);
    try {
      const data = Buffer.from('opaque chunk bytes');
      const fromNs = 1_710_806_400_000_000_000n;
      const labels = labelsFromRecord({ app: 'api' });
      await new ChunkStore({ schema, objectClients: { s3: writer } }).putChunks('tenant-1', [
        { labels, fromNs, throughNs: fromNs + 1000n, entries: 3, uncompressedSize: 99, data },
      ]);
      const fresh = new ChunkStore({ schema, objectClients: { s3: reader } });
      const [series] = await fresh.getChunkRefs(
        'tenant-1',
        [{ type: '=', name: 'app', value: 'api' }],
        fromNs,
        fromNs,
      );
      expect(series.labels).toEqual(labels);
      expect((await fresh.fetchChunk('tenant-1', series.chunks[0])).equals(data)).toBe(true);
      const keys = (await reader.list('tenant-1/')).objects.map((o) => o.key);
      expect(keys).toEqual([
        series.chunks[0].key,
        expect.stringMatching(/^tenant-1\/index\/index_19801\/.+\.idx$/),
      ]);
    } finally {
      await writer.close();
      await reader.close();
      await s3.stop();
    }
  });
});
