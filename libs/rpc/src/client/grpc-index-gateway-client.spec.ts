import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelsFromRecord, type Matcher } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import {
  ChunkStore,
  FilesystemObjectClient,
  type ChunkToStore,
  type SchemaConfig,
} from '@logsvc/storage';
import { startGrpcServer, type RunningGrpcServer } from '../server/grpc-server';
import { indexGatewayGrpcServices } from '../server/grpc-services';
import { GrpcIndexGatewayClient } from './grpc-index-gateway-client';

const DAY_MS = 86_400_000;
const DAY0 = 19_800; // 2024-03-19
const schema: SchemaConfig = {
  configs: [
    {
      from: '2024-01-01',
      object_store: 'filesystem',
      schema: 'v13',
      index: { prefix: 'index_', period: DAY_MS },
    },
  ],
};
const at = (day: number, hour: number): bigint =>
  BigInt(day * DAY_MS + hour * 3_600_000) * 1_000_000n;

function chunk(labels: Record<string, string>, fromNs: bigint, throughNs: bigint): ChunkToStore {
  const data = Buffer.from(`${JSON.stringify(labels)}|${fromNs}|${throughNs}`);
  return {
    labels: labelsFromRecord(labels),
    fromNs,
    throughNs,
    entries: 10 + data.length,
    uncompressedSize: data.length * 3,
    data,
  };
}

const eq = (name: string, value: string): Matcher => ({ type: '=', name, value });
const re = (name: string, value: string): Matcher => ({ type: '=~', name, value });

describe('GrpcIndexGatewayClient against a ChunkStore on the filesystem', () => {
  let dir: string;
  let store: ChunkStore;
  let server: RunningGrpcServer;
  let sut: GrpcIndexGatewayClient;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rpc-index-gateway-'));
    store = new ChunkStore({
      schema,
      objectClients: { filesystem: new FilesystemObjectClient(dir) },
      uploader: 'ingester-1',
    });
    await store.putChunks('tenant-a', [
      chunk({ app: 'api', env: 'prod' }, at(DAY0, 1), at(DAY0, 2)),
      chunk({ app: 'api', env: 'prod' }, at(DAY0, 3), at(DAY0 + 1, 4)),
      chunk({ app: 'web', env: 'dev' }, at(DAY0, 1), at(DAY0, 5)),
      chunk({ app: 'db', env: 'prod', shard: '7' }, at(DAY0 + 1, 2), at(DAY0 + 1, 3)),
    ]);
    await store.putChunks('tenant-b', [chunk({ app: 'other' }, at(DAY0, 1), at(DAY0, 2))]);
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      maxRecvMsgSize: 1 << 20,
      maxSendMsgSize: 1 << 20,
      services: indexGatewayGrpcServices(store),
    });
    sut = new GrpcIndexGatewayClient(`127.0.0.1:${server.port}`, { timeoutMs: 5_000 });
  });
  afterAll(async () => {
    sut.close();
    await server.stop(0);
    await rm(dir, { recursive: true, force: true });
  });

  const ranges: [bigint, bigint][] = [
    [at(DAY0, 0), at(DAY0 + 2, 0)],
    [at(DAY0, 2), at(DAY0, 3)],
    [at(DAY0 + 1, 3), at(DAY0 + 1, 23)],
  ];
  const selections: Matcher[][] = [
    [eq('env', 'prod')],
    [re('app', 'api|web')],
    [eq('app', 'nope')],
    [{ type: '!=', name: 'shard', value: '' }],
  ];

  it('gives the same chunk refs, stats and volume as the store read directly', async () => {
    let refs = 0;
    for (const [from, through] of ranges) {
      for (const matchers of selections) {
        const direct = await store.getChunkRefs('tenant-a', matchers, from, through);
        expect(await sut.getChunkRefs('tenant-a', matchers, from, through)).toEqual(direct);
        refs += direct.reduce((n, s) => n + s.chunks.length, 0);
        expect(await sut.stats('tenant-a', matchers, from, through)).toEqual(
          await store.stats('tenant-a', matchers, from, through),
        );
        expect(await sut.volume('tenant-a', matchers, from, through)).toEqual(
          await store.volume('tenant-a', matchers, from, through),
        );
      }
    }
    expect(refs).toBeGreaterThan(5);
    const [api] = await sut.getChunkRefs('tenant-a', [eq('app', 'api')], at(DAY0, 0), at(DAY0, 2));
    expect(typeof api.chunks[0].fromNs).toBe('bigint');
    expect(api.chunks[0].key).toMatch(/^tenant-a\/chunks\//);
  });

  it('gives the same label names, values and series as the store read directly', async () => {
    for (const [from, through] of ranges) {
      expect(await sut.labelNames('tenant-a', from, through)).toEqual(
        await store.labelNames('tenant-a', from, through),
      );
      expect(await sut.labelValues('tenant-a', 'app', from, through)).toEqual(
        await store.labelValues('tenant-a', 'app', from, through),
      );
      for (const matchers of selections) {
        expect(await sut.labelNames('tenant-a', from, through, matchers)).toEqual(
          await store.labelNames('tenant-a', from, through, matchers),
        );
        expect(await sut.labelValues('tenant-a', 'env', from, through, matchers)).toEqual(
          await store.labelValues('tenant-a', 'env', from, through, matchers),
        );
      }
      for (const lists of [[], selections, [[eq('app', 'db')]]]) {
        expect(await sut.series('tenant-a', lists, from, through)).toEqual(
          await store.series('tenant-a', lists, from, through),
        );
      }
    }
    expect(await sut.labelNames('tenant-a', at(DAY0, 0), at(DAY0 + 2, 0))).toEqual([
      'app',
      'env',
      'shard',
    ]);
    expect(await sut.labelValues('tenant-b', 'app', at(DAY0, 0), at(DAY0 + 2, 0))).toEqual([
      'other',
    ]);
  });

  it('fails as the store does: a bad matcher is a 400 with the same text', async () => {
    const bad = [re('app', '(')];
    const direct = await store.series('tenant-a', [bad], at(DAY0, 0), at(DAY0, 5)).catch((e) => e);
    const remote = await sut.series('tenant-a', [bad], at(DAY0, 0), at(DAY0, 5)).catch((e) => e);
    expect(direct).toBeInstanceOf(LogsvcError);
    expect(remote).toBeInstanceOf(LogsvcError);
    expect([remote.kind, remote.message, remote.httpStatus]).toEqual([
      direct.kind,
      direct.message,
      400,
    ]);
  });
});
