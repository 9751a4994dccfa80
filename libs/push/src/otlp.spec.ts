import { describe, expect, it } from 'vitest';
import { decodeOtlpBody } from './decode-body';
import { DEFAULT_PUSH_LIMITS } from './limits';
import { encodeOtlpJson, encodeOtlpProtobuf } from './otlp-encode';
import type { OtlpAnyValue, OtlpKeyValue, OtlpLogRecord, OtlpLogsRequest } from './otlp-schema';
import { anyValueAsString } from './otlp-values';

const s = (value: string): OtlpAnyValue => ({ kind: 'string', value });
const kv = (key: string, value: OtlpAnyValue): OtlpKeyValue => ({ key, value });

function record(over: Partial<OtlpLogRecord> = {}): OtlpLogRecord {
  return {
    timeUnixNano: 1700000000000000001n,
    observedTimeUnixNano: 0n,
    severityNumber: 0,
    severityText: '',
    body: s('hello'),
    attributes: [],
    droppedAttributesCount: 0,
    flags: 0,
    traceId: new Uint8Array(0),
    spanId: new Uint8Array(0),
    ...over,
  };
}

function request(
  resourceAttrs: OtlpKeyValue[],
  records: OtlpLogRecord[],
  scope = { name: '', version: '', attributes: [] as OtlpKeyValue[], droppedAttributesCount: 0 },
): OtlpLogsRequest {
  return {
    resourceLogs: [
      { resource: { attributes: resourceAttrs }, scopeLogs: [{ scope, logRecords: records }] },
    ],
  };
}

const formats = [
  ['protobuf', 'application/x-protobuf', encodeOtlpProtobuf],
  ['JSON', 'application/json', encodeOtlpJson],
] as const;

describe.each(formats)('OTLP %s', (_name, contentType, encode) => {
  const decode = (req: OtlpLogsRequest, nowNs = 99n) =>
    decodeOtlpBody({
      body: encode(req),
      contentType,
      maxDecompressedBytes: 1 << 20,
      discover_service_name: DEFAULT_PUSH_LIMITS.discover_service_name,
      nowNs,
    });

  it('maps service.name and default resource attributes to labels, the rest to metadata', async () => {
    const out = await decode(
      request(
        [
          kv('service.name', s('checkout')),
          kv('k8s.namespace.name', s('shop')),
          kv('host.name', s('h1')),
          kv('process.pid', { kind: 'int', value: 42n }),
        ],
        [record({ attributes: [kv('http.method', s('GET'))] })],
      ),
    );
    expect(out.streams).toHaveLength(1);
    expect(out.streams[0].labels).toEqual([
      { name: 'k8s_namespace_name', value: 'shop' },
      { name: 'service_name', value: 'checkout' },
    ]);
    const e = out.streams[0].entries[0];
    expect(e.line.toString()).toBe('hello');
    expect(e.timestampNs).toBe(1700000000000000001n);
    expect(e.structuredMetadata).toEqual([
      { name: 'host_name', value: 'h1' },
      { name: 'http_method', value: 'GET' },
      { name: 'process_pid', value: '42' },
    ]);
  });

  it('uses unknown_service without service.name, or a discovered index label', async () => {
    const a = await decode(request([kv('host.name', s('h'))], [record()]));
    expect(a.streams[0].labels).toEqual([{ name: 'service_name', value: 'unknown_service' }]);
    const b = await decode(request([kv('k8s.container.name', s('web'))], [record()]));
    expect(b.streams[0].labels).toEqual([
      { name: 'k8s_container_name', value: 'web' },
      { name: 'service_name', value: 'web' },
    ]);
  });

  it('puts severity, trace and span ids, flags and scope info into metadata as Loki names them', async () => {
    const out = await decode(
      request(
        [kv('service.name', s('svc'))],
        [
          record({
            observedTimeUnixNano: 1700000000000000009n,
            severityNumber: 17,
            severityText: 'ERROR',
            flags: 1,
            traceId: Buffer.from('0102030405060708090a0b0c0d0e0f10', 'hex'),
            spanId: Buffer.from('0102030405060708', 'hex'),
          }),
        ],
        {
          name: 'my.lib',
          version: '1.2',
          attributes: [kv('scope.attr', s('v'))],
          droppedAttributesCount: 0,
        },
      ),
    );
    expect(
      Object.fromEntries(
        out.streams[0].entries[0].structuredMetadata.map((p) => [p.name, p.value]),
      ),
    ).toEqual({
      flags: '1',
      observed_timestamp: '1700000000000000009',
      scope_attr: 'v',
      scope_name: 'my.lib',
      scope_version: '1.2',
      severity_number: '17',
      severity_text: 'ERROR',
      span_id: '0102030405060708',
      trace_id: '0102030405060708090a0b0c0d0e0f10',
    });
  });

  it('falls back to the observed time, then to now', async () => {
    const out = await decode(
      request(
        [],
        [record({ timeUnixNano: 0n, observedTimeUnixNano: 5n }), record({ timeUnixNano: 0n })],
      ),
      1234n,
    );
    expect(out.streams[0].entries.map((e) => e.timestampNs)).toEqual([5n, 1234n]);
    expect(out.streams[0].entries[0].structuredMetadata).toEqual([]);
  });

  it('JSON-encodes map and array bodies, flattens map attributes', async () => {
    const body: OtlpAnyValue = {
      kind: 'kvlist',
      value: [
        kv('z', s('<b>')),
        kv('a', {
          kind: 'array',
          value: [
            { kind: 'int', value: 1n },
            { kind: 'bool', value: true },
          ],
        }),
      ],
    };
    const out = await decode(
      request(
        [],
        [
          record({
            body,
            attributes: [kv('http', { kind: 'kvlist', value: [kv('status.code', s('200'))] })],
          }),
        ],
      ),
    );
    const e = out.streams[0].entries[0];
    expect(e.line.toString()).toBe('{"a":[1,true],"z":"\\u003cb\\u003e"}');
    expect(e.structuredMetadata).toEqual([{ name: 'http_status_code', value: '200' }]);
  });

  it('groups resources with the same labels into one stream', async () => {
    const rl = request([kv('service.name', s('a'))], [record()]).resourceLogs[0];
    const out = await decode({ resourceLogs: [rl, rl] });
    expect(out.streams).toHaveLength(1);
    expect(out.streams[0].entries).toHaveLength(2);
  });
});

describe('OTLP decoding errors', () => {
  it('rejects malformed protobuf and JSON with a 400', async () => {
    const decodeBad = (body: Buffer, contentType: string) =>
      decodeOtlpBody({
        maxDecompressedBytes: 1 << 20,
        discover_service_name: [],
        body,
        contentType,
      });
    await expect(
      decodeBad(Buffer.from([0x0a, 0x50, 0x01]), 'application/x-protobuf'),
    ).rejects.toMatchObject({ kind: 'bad_request' });
    await expect(
      decodeBad(Buffer.from('{"resourceLogs": 3}'), 'application/json'),
    ).rejects.toMatchObject({ kind: 'bad_request' });
    await expect(
      decodeBad(
        Buffer.from('{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"traceId":"xyz"}]}]}]}'),
        'application/json',
      ),
    ).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('traceId must be a hex string'),
    });
  });

  it('accepts severity names and int64 numbers in JSON', async () => {
    const body = Buffer.from(
      JSON.stringify({
        resourceLogs: [
          {
            scopeLogs: [
              {
                logRecords: [
                  {
                    timeUnixNano: 10,
                    severityNumber: 'SEVERITY_NUMBER_WARN',
                    body: { stringValue: 'w' },
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    const out = await decodeOtlpBody({
      body,
      contentType: 'application/json',
      maxDecompressedBytes: 1 << 20,
      discover_service_name: [],
    });
    expect(out.streams[0].labels).toEqual([]);
    expect(out.streams[0].entries[0].structuredMetadata).toEqual([
      { name: 'severity_number', value: '13' },
    ]);
  });
});

describe('anyValueAsString', () => {
  it('formats values as OTel pdata AsString does', () => {
    expect(anyValueAsString({ kind: 'double', value: 1.5 })).toBe('1.5');
    expect(anyValueAsString({ kind: 'double', value: 1e21 })).toBe('1e+21');
    expect(anyValueAsString({ kind: 'int', value: -9007199254740993n })).toBe('-9007199254740993');
    expect(anyValueAsString({ kind: 'bytes', value: Buffer.from('hi') })).toBe('aGk=');
    expect(anyValueAsString({ kind: 'empty' })).toBe('');
  });
});
