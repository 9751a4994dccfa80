import { Client, credentials, Metadata } from '@grpc/grpc-js';
import type { HttpRequestMessage } from '../wire/http-job';
import { Root } from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrpcServer, type RunningGrpcServer } from '../server/grpc-server';
import { httpGrpcServices } from '../server/grpc-services';
import { GrpcHttpClient } from './grpc-http-client';

/** Loki's httpgrpc messages as its ruler encodes them: a header carries a list of values. */
const LOKI_HTTPGRPC = Root.fromJSON({
  nested: {
    httpgrpc: {
      nested: {
        Header: {
          fields: {
            key: { type: 'string', id: 1 },
            values: { rule: 'repeated', type: 'string', id: 2 },
          },
        },
        HTTPRequest: {
          fields: {
            method: { type: 'string', id: 1 },
            url: { type: 'string', id: 2 },
            headers: { rule: 'repeated', type: 'Header', id: 3 },
            body: { type: 'bytes', id: 4 },
          },
        },
        HTTPResponse: {
          fields: {
            Code: { type: 'int32', id: 1 },
            headers: { rule: 'repeated', type: 'Header', id: 2 },
            body: { type: 'bytes', id: 3 },
          },
        },
      },
    },
  },
});

describe('httpgrpc.HTTP/Handle (remote rule evaluation)', () => {
  const received: { tenant: string; job: HttpRequestMessage }[] = [];
  let server: RunningGrpcServer;
  let sut: GrpcHttpClient;
  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      maxRecvMsgSize: 4 << 20,
      maxSendMsgSize: 4 << 20,
      services: httpGrpcServices(async (tenant, job) => {
        received.push({ tenant, job });
        return {
          status: job.url.startsWith('/missing') ? 404 : 200,
          headers: { 'content-type': 'application/json' },
          body: Buffer.from(`{"echo":${JSON.stringify(job.body.toString())}}`),
        };
      }),
    });
    sut = new GrpcHttpClient(`dns:///127.0.0.1:${server.port}`, { timeoutMs: 5_000 });
  });
  afterAll(async () => {
    sut.close();
    await server.stop(0);
  });

  it("carries the request to the process's routes whole, and their answer back", async () => {
    const answer = await sut.handle('team-a', {
      method: 'POST',
      url: '/loki/api/v1/query',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Scope-OrgID': 'team-a' },
      body: Buffer.from('query=1'),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.body.toString()).toBe('{"echo":"query=1"}');
    expect(received.at(-1)).toEqual({
      tenant: 'team-a',
      job: {
        method: 'POST',
        url: '/loki/api/v1/query',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Scope-OrgID': 'team-a' },
        body: Buffer.from('query=1'),
      },
    });
    expect((await sut.handle('t', { ...received[0].job, url: '/missing' })).status).toBe(404);
  });

  it("understands Loki's own encoding of the messages", async () => {
    const HTTPRequest = LOKI_HTTPGRPC.lookupType('httpgrpc.HTTPRequest');
    const HTTPResponse = LOKI_HTTPGRPC.lookupType('httpgrpc.HTTPResponse');
    const request = Buffer.from(
      HTTPRequest.encode({
        method: 'POST',
        url: '/loki/api/v1/query',
        headers: [
          { key: 'User-Agent', values: ['loki-ruler/3.4.6'] },
          { key: 'X-Scope-Orgid', values: ['team-b'] },
        ],
        body: Buffer.from('direction=forward&query=1'),
      }).finish(),
    );
    const client = new Client(`127.0.0.1:${server.port}`, credentials.createInsecure());
    const metadata = new Metadata();
    metadata.set('x-scope-orgid', 'team-b');
    const raw = await new Promise<Buffer>((resolve, reject) =>
      client.makeUnaryRequest(
        '/httpgrpc.HTTP/Handle',
        (b: Buffer) => b,
        (b: Buffer) => b,
        request,
        metadata,
        (err, res) => (err ? reject(err) : resolve(res as Buffer)),
      ),
    );
    client.close();
    const response = HTTPResponse.toObject(HTTPResponse.decode(raw), { bytes: String }) as {
      Code: number;
      body: string;
    };
    expect(response.Code).toBe(200);
    expect(Buffer.from(response.body, 'base64').toString()).toBe(
      '{"echo":"direction=forward&query=1"}',
    );
    expect(received.at(-1)?.tenant).toBe('team-b');
    expect(received.at(-1)?.job.headers['User-Agent']).toBe('loki-ruler/3.4.6');
  });
});
