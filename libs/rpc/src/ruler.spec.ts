import type { RuleGroupJson } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcRulerClient, type RulesCallRequest } from './ruler';
import { startGrpcServer, type RunningGrpcServer } from './server/grpc-server';
import { rulerGrpcServices } from './server/grpc-services';

const GROUP: RuleGroupJson = {
  name: 'g',
  file: 'ns',
  rules: [
    {
      name: 'r',
      query: 'sum(rate({app="a"}[1m]))',
      labels: {},
      health: 'ok',
      lastError: '',
      type: 'recording',
      lastEvaluation: '2025-01-01T00:00:00Z',
      evaluationTime: 0.001,
    },
  ],
  interval: 60,
  limit: 0,
  lastEvaluation: '2025-01-01T00:00:00Z',
  evaluationTime: 0.002,
};

describe('ruler.Ruler/Rules', () => {
  const asked: Array<[string, RulesCallRequest]> = [];
  let server: RunningGrpcServer;
  let sut: GrpcRulerClient;
  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      maxRecvMsgSize: 4 << 20,
      maxSendMsgSize: 4 << 20,
      services: rulerGrpcServices({
        rules: (tenant, request) => {
          if (tenant === 'broken') throw new LogsvcError('unavailable', 'ruler not running');
          asked.push([tenant, request]);
          return Promise.resolve([GROUP]);
        },
      }),
    });
    sut = new GrpcRulerClient(`127.0.0.1:${server.port}`);
  });
  afterAll(async () => {
    sut.close();
    await server.stop(0);
  });

  it('passes the tenant and filters on, and the groups back', async () => {
    const request: RulesCallRequest = { type: 'alert', files: ['ns'], groups: [], names: ['r'] };
    expect(await sut.rules('acme', request)).toEqual([GROUP]);
    expect(asked).toEqual([['acme', request]]);
  });

  it('fails with the remote ruler’s error', async () => {
    await expect(sut.rules('broken', { files: [], groups: [], names: [] })).rejects.toThrow(
      'ruler not running',
    );
  });
});
