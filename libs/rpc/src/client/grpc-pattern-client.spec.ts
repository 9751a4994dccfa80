import { labelsFromRecord, labelsToString } from '@logsvc/api';
import { PatternIngester } from '@logsvc/pattern';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrpcServer, type RunningGrpcServer } from '../server/grpc-server';
import { patternGrpcServices } from '../server/grpc-services';
import { GrpcPatternClient } from './grpc-pattern-client';

describe('GrpcPatternClient', () => {
  const ingester = new PatternIngester();
  let server: RunningGrpcServer;
  let sut: GrpcPatternClient;
  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      maxRecvMsgSize: 4 << 20,
      maxSendMsgSize: 4 << 20,
      services: patternGrpcServices(ingester),
    });
    sut = new GrpcPatternClient(`127.0.0.1:${server.port}`);
  });
  afterAll(async () => {
    sut.close();
    await server.stop(0);
  });

  it('pushes lines to a remote pattern ingester and reads its patterns back', async () => {
    const labels = labelsFromRecord({ app: 'api' });
    const t0 = 1_700_000_010_000;
    const entries = Array.from({ length: 3 }, (_, i) => ({
      timestampNs: BigInt(t0 + i) * 1_000_000n,
      line: Buffer.from(`worker ${i} finished job ${100 + i} in ${i}ms`),
      structuredMetadata: [],
    }));
    await sut.push('acme', [{ labels, entries, labelsText: labelsToString(labels) }]);
    const query = { fromMs: t0, throughMs: t0 + 60_000, stepMs: 10_000 };
    const got = await sut.query('acme', {
      ...query,
      matchers: [{ type: '=', name: 'app', value: 'api' }],
    });
    expect(got).toEqual([
      { pattern: 'worker <_> finished job <_> in <_>', samples: [{ timestampMs: t0, value: 3 }] },
    ]);
    expect(await sut.query('other', { ...query, matchers: [] })).toEqual([]);
  });
});
