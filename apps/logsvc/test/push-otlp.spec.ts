import { gzipSync } from 'node:zlib';
import {
  encodeOtlpJson,
  encodeOtlpProtobuf,
  type OtlpAnyValue,
  type OtlpLogsRequest,
} from '@logsvc/push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, readFromIngester, startTestServer } from './harness';

const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

/** Reads `message` (field 2) of a protobuf google.rpc.Status. */
function statusMessage(body: Buffer): string {
  expect(body[0]).toBe(0x12);
  let len = 0;
  let shift = 0;
  let i = 1;
  for (;;) {
    const b = body[i++];
    len |= (b & 0x7f) << shift;
    if (b < 0x80) break;
    shift += 7;
  }
  return body.subarray(i, i + len).toString('utf8');
}

describe('POST /otlp/v1/logs', () => {
  let sut: TestServer;

  beforeAll(async () => {
    sut = await startTestServer({ config: { auth_enabled: false } });
  });
  afterAll(() => sut.close());

  const post = (body: Buffer | string, headers: Record<string, string>) =>
    fetch(`${sut.url}/otlp/v1/logs`, { method: 'POST', headers, body });

  it('stores a protobuf export: service.name and namespace as labels, other attributes as metadata', async () => {
    const t = nowNs();
    const req: OtlpLogsRequest = {
      resourceLogs: [
        {
          resource: {
            attributes: [
              { key: 'service.name', value: { kind: 'string', value: 'checkout' } },
              { key: 'k8s.namespace.name', value: { kind: 'string', value: 'shop' } },
              { key: 'host.name', value: { kind: 'string', value: 'node-1' } },
            ],
          },
          scopeLogs: [
            {
              scope: { name: 'my.lib', version: '1.2', attributes: [], droppedAttributesCount: 0 },
              logRecords: [
                {
                  timeUnixNano: t,
                  observedTimeUnixNano: 0n,
                  severityNumber: 17,
                  severityText: 'ERROR',
                  body: { kind: 'string', value: 'payment failed' },
                  attributes: [{ key: 'order.id', value: { kind: 'int', value: 42n } }],
                  droppedAttributesCount: 0,
                  flags: 0,
                  traceId: Buffer.from('0102030405060708090a0b0c0d0e0f10', 'hex'),
                  spanId: new Uint8Array(0),
                },
              ],
            },
          ],
        },
      ],
    };
    const res = await post(encodeOtlpProtobuf(req), { 'content-type': 'application/x-protobuf' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const [entry] = readFromIngester(sut, 'fake', '{service_name="checkout"}');
    expect(entry.stream).toBe('{k8s_namespace_name="shop", service_name="checkout"}');
    expect(entry.ts).toBe(t);
    expect(entry.line).toBe('payment failed');
    expect(entry.metadata).toMatchObject({
      host_name: 'node-1',
      order_id: '42',
      scope_name: 'my.lib',
      scope_version: '1.2',
      severity_text: 'ERROR',
      severity_number: '17',
      trace_id: '0102030405060708090a0b0c0d0e0f10',
      detected_level: 'error',
    });
  });

  it('stores a gzip-compressed OTLP JSON export as the collector sends it', async () => {
    const t = nowNs();
    const body = JSON.stringify({
      resourceLogs: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'cart' } }] },
          scopeLogs: [
            {
              logRecords: [
                {
                  timeUnixNano: t.toString(),
                  body: { stringValue: 'added item' },
                  attributes: [{ key: 'user', value: { stringValue: 'ann' } }],
                },
              ],
            },
          ],
        },
      ],
    });
    const res = await post(gzipSync(body), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(res.status).toBe(204);
    const [entry] = readFromIngester(sut, 'fake', '{service_name="cart"}');
    expect(entry.line).toBe('added item');
    expect(entry.metadata).toMatchObject({ user: 'ann' });
  });

  it('answers errors as a protobuf google.rpc.Status', async () => {
    const badType = await post('{}', { 'content-type': 'text/plain' });
    expect(badType.status).toBe(400);
    expect(statusMessage(Buffer.from(await badType.arrayBuffer()))).toBe(
      'content type: text/plain is not supported',
    );
    const garbage = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff]), {
      'content-type': 'application/x-protobuf',
    });
    expect(garbage.status).toBe(400);
    expect(statusMessage(Buffer.from(await garbage.arrayBuffer())).length).toBeGreaterThan(0);
  });

  it('stores values nested 48 arrays deep in both encodings and refuses deeper JSON with a 400', async () => {
    const nested = (depth: number): OtlpLogsRequest['resourceLogs'][number] => {
      let body: OtlpAnyValue = { kind: 'string', value: 'leaf' };
      for (let i = 0; i < depth; i++) body = { kind: 'array', value: [body] };
      return {
        resource: {
          attributes: [{ key: 'service.name', value: { kind: 'string', value: `deep${depth}` } }],
        },
        scopeLogs: [
          {
            scope: { name: '', version: '', attributes: [], droppedAttributesCount: 0 },
            logRecords: [
              {
                timeUnixNano: nowNs(),
                observedTimeUnixNano: 0n,
                severityNumber: 0,
                severityText: '',
                body,
                attributes: [],
                droppedAttributesCount: 0,
                flags: 0,
                traceId: Buffer.alloc(0),
                spanId: Buffer.alloc(0),
              },
            ],
          },
        ],
      };
    };
    // The protobuf decoder's limit of 100 nested messages leaves 48 levels below a record.
    const pb = await post(encodeOtlpProtobuf({ resourceLogs: [nested(48)] }), {
      'content-type': 'application/x-protobuf',
    });
    expect(pb.status).toBe(204);
    const json = (depth: number) =>
      post(encodeOtlpJson({ resourceLogs: [nested(depth)] }), {
        'content-type': 'application/json',
      });
    expect((await json(48)).status).toBe(204);
    const tooDeep = await json(49);
    expect(tooDeep.status).toBe(400);
    expect(statusMessage(Buffer.from(await tooDeep.arrayBuffer()))).toBe(
      'invalid OTLP JSON body: maximum nesting depth exceeded',
    );
    expect(readFromIngester(sut, 'fake', '{service_name="deep48"}')).toHaveLength(2);
    // 5,000 levels: deeper than the call stack would take.
    const body =
      '{"arrayValue":{"values":['.repeat(5000) + '{"stringValue":"x"}' + ']}}'.repeat(5000);
    const deep = await post(
      `{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"1","body":${body}}]}]}]}`,
      { 'content-type': 'application/json' },
    );
    expect(deep.status).toBe(400);
    expect(statusMessage(Buffer.from(await deep.arrayBuffer()))).toBe(
      'invalid OTLP JSON body: maximum nesting depth exceeded',
    );
  });
});
