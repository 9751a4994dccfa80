import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3rverProcess, startS3rver } from '@logsvc/storage/testing';
import { type TestServer, pushAndFlush, readFromStore, startTestServer } from './harness';

const BUCKET = 'logsvc-app';

describe('the server on the S3 object store (s3rver on 127.0.0.1)', () => {
  let s3: S3rverProcess;
  let sut: TestServer;
  let config: Record<string, unknown>;

  beforeAll(async () => {
    s3 = await startS3rver([BUCKET]);
    config = {
      auth_enabled: false,
      schema_config: { configs: [{ from: '2020-01-01', object_store: 's3' }] },
      storage_config: {
        aws: {
          endpoint: s3.endpoint,
          insecure: true,
          region: 'us-east-1',
          bucketnames: BUCKET,
          s3forcepathstyle: true,
          access_key_id: 'S3RVER',
          secret_access_key: 'S3RVER',
        },
      },
    };
    sut = await startTestServer({ config });
  });
  afterAll(async () => {
    await sut?.close();
    await s3?.stop();
  });

  it('flushes pushed entries to the bucket, where a fresh reader finds them', async () => {
    const lines = ['first to s3', 'second to s3'];
    expect(await pushAndFlush(sut, '{app="s3-app"}', lines)).toEqual({ push: 204, flush: 204 });

    const stored = await readFromStore(sut.config, 'fake', '{app="s3-app"}');
    expect(stored.map((e) => e.line)).toEqual(lines);
  });
});
