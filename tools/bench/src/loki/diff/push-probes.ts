import { gzipSync } from 'node:zlib';
import { encodePushProtobuf } from '@logsvc/push';
import type { DiffQuery } from './compare';

const DAY_NS = 86_400_000_000_000n;
const JSON_ERRORS =
  "malformed JSON: logsvc names the place, Loki answers its JSON library's text (docs/operations.md)";
const OTLP_ERRORS =
  "malformed OTLP: logsvc's decoder names the place, Loki answers its JSON or protobuf library's text (docs/operations.md)";
const GZIP_STREAMED =
  'gzip JSON: Loki decodes while it inflates, so it misses a bad checksum; logsvc checks it (docs/operations.md)';
const LABELS_PARSE =
  'labels that do not parse: Loki refuses the whole push with its parser error (docs/operations.md)';

/** A gzip of a valid push, then `spoil` applied to its bytes. */
function gzipped(now: bigint, spoil: (gz: Buffer) => Buffer): Buffer {
  return spoil(gzipSync(jsonPush({ app: 'p' }, [entry(now, 'gz')])));
}

/** A JSON push of one stream: `labels` as the stream object, `values` as given. */
function jsonPush(labels: Record<string, string>, values: unknown[]): string {
  return JSON.stringify({ streams: [{ stream: labels, values }] });
}

/** One entry `[ts, line]` at `nowNs` minus `agoNs`, as Loki's JSON wants it. */
function entry(nowNs: bigint, line: string, agoNs = 0n): [string, string] {
  return [String(nowNs - agoNs), line];
}

function manyLabels(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`l${i}`, 'v']));
}

/**
 * Pushes `npm run diff:loki` sends alike to logsvc and Loki: malformed bodies, refused labels,
 * timestamps and sizes outside the limits, and partly valid requests. Status and error text
 * are compared.
 */
export const PUSH_PROBES: readonly DiffQuery[] = [
  { push: { name: 'valid JSON', body: (now) => jsonPush({ app: 'p' }, [entry(now, 'ok')]) } },
  { push: { name: 'malformed JSON', body: () => '{"streams": [' }, known: JSON_ERRORS },
  { push: { name: 'empty body', body: () => '' } },
  { push: { name: 'no streams', body: () => '{"streams":[]}' } },
  { push: { name: 'streams not an array', body: () => '{"streams":{}}' }, known: JSON_ERRORS },
  { push: { name: 'stream without labels', body: (now) => jsonPush({}, [entry(now, 'x')]) } },
  {
    push: {
      name: 'invalid label name',
      body: (now) => jsonPush({ '1a': 'x' }, [entry(now, 'x')]),
    },
    known: LABELS_PARSE,
  },
  {
    push: {
      name: 'too many label names',
      body: (now) => jsonPush(manyLabels(20), [entry(now, 'x')]),
    },
  },
  {
    push: {
      name: 'label value too long',
      body: (now) => jsonPush({ app: 'v'.repeat(3000) }, [entry(now, 'x')]),
    },
  },
  {
    push: {
      name: 'timestamp too old',
      body: (now) => jsonPush({ app: 'p' }, [entry(now, 'old', 30n * DAY_NS)]),
    },
  },
  {
    push: {
      name: 'timestamp too new',
      body: (now) => jsonPush({ app: 'p' }, [entry(now, 'new', -DAY_NS)]),
    },
  },
  {
    push: {
      name: 'timestamp not a number',
      body: () => jsonPush({ app: 'p' }, [['abc', 'x']]),
    },
    known: JSON_ERRORS,
  },
  {
    push: {
      name: 'label values that are not strings',
      body: (now) =>
        JSON.stringify({
          streams: [{ stream: { app: 'p5', code: 5, ok: true }, values: [entry(now, 'typed')] }],
        }),
    },
  },
  {
    push: {
      name: 'null entry, entry without a line, entry with an extra element',
      body: (now) =>
        jsonPush({ app: 'p6' }, [null, [String(now - 2n)], [...entry(now, 'four'), {}, 'x']]),
    },
  },
  {
    push: {
      name: 'entry not an array',
      body: () => jsonPush({ app: 'p' }, ['x']),
    },
    known: JSON_ERRORS,
  },
  {
    push: {
      name: 'line over max_line_size',
      body: (now) => jsonPush({ app: 'p' }, [entry(now, 'x'.repeat(300 * 1024))]),
    },
  },
  {
    push: {
      name: 'one stream refused, one stored',
      body: (now) =>
        JSON.stringify({
          streams: [
            { stream: { app: 'p2' }, values: [entry(now, 'kept')] },
            { stream: { app: 'p3' }, values: [entry(now, 'old', 30n * DAY_NS)] },
          ],
        }),
    },
  },
  {
    push: {
      name: 'structured metadata not an object',
      body: (now) => jsonPush({ app: 'p' }, [[String(now), 'x', 'meta']]),
    },
    known: JSON_ERRORS,
  },
  {
    push: {
      name: 'protobuf that is not snappy',
      contentType: 'application/x-protobuf',
      body: () => Buffer.from('definitely not snappy'),
    },
  },
  {
    push: {
      name: 'valid protobuf',
      contentType: 'application/x-protobuf',
      body: (now) =>
        encodePushProtobuf({
          streams: [
            {
              labels: [{ name: 'app', value: 'p4' }],
              entries: [{ timestampNs: now, line: Buffer.from('pb'), structuredMetadata: [] }],
            },
          ],
        }),
    },
  },
  {
    push: {
      name: 'gzip header, plain body',
      contentEncoding: 'gzip',
      body: (now) => jsonPush({ app: 'p' }, [entry(now, 'x')]),
    },
  },
  {
    push: {
      name: 'unknown content type',
      contentType: 'text/plain',
      body: (now) => jsonPush({ app: 'p' }, [entry(now, 'x')]),
    },
  },
  {
    push: {
      name: 'gzip cut short',
      contentEncoding: 'gzip',
      body: (now) => gzipped(now, (gz) => gz.subarray(0, gz.length - 12)),
    },
    known: GZIP_STREAMED,
  },
  {
    push: {
      name: 'gzip with a wrong checksum',
      contentEncoding: 'gzip',
      body: (now) =>
        gzipped(now, (gz) => {
          const copy = Buffer.from(gz);
          copy[copy.length - 8] ^= 0xff;
          return copy;
        }),
    },
    known: GZIP_STREAMED,
  },
  {
    push: {
      name: 'valid gzip',
      contentEncoding: 'gzip',
      body: (now) => gzipped(now, (gz) => gz),
    },
  },
];

const SECOND_NS = 1_000_000_000n;

function attr(key: string, value: Record<string, unknown>): Record<string, unknown> {
  return { key, value };
}

/**
 * An OTLP/HTTP JSON export as the OpenTelemetry Collector sends it: resource attributes Loki
 * turns into labels and others it keeps as structured metadata, scope, log attributes of each
 * type, severity, trace context, a map body and a record with only an observed time.
 */
function otlpExport(nowNs: bigint): string {
  const at = (secondsAgo: bigint): string => String(nowNs - secondsAgo * SECOND_NS);
  return JSON.stringify({
    resourceLogs: [
      {
        resource: {
          attributes: [
            attr('service.name', { stringValue: 'otel-svc' }),
            attr('k8s.pod.name', { stringValue: 'pod-1' }),
            attr('k8s.namespace.name', { stringValue: 'ns' }),
            attr('deployment.environment', { stringValue: 'prod' }),
            attr('host.name', { stringValue: 'h1' }),
            attr('custom.attr', { stringValue: 'c' }),
            attr('num', { intValue: '5' }),
          ],
        },
        scopeLogs: [
          {
            scope: { name: 'my.scope', version: '1.0' },
            logRecords: [
              {
                timeUnixNano: at(4n),
                severityNumber: 9,
                severityText: 'INFO',
                body: { stringValue: 'hello otel' },
                attributes: [
                  attr('http.method', { stringValue: 'GET' }),
                  attr('count', { intValue: '3' }),
                  attr('ratio', { doubleValue: 0.5 }),
                  attr('ok', { boolValue: true }),
                ],
                traceId: '5b8efff798038103d269b633813fc60c',
                spanId: 'eee19b7ec3c1b174',
              },
              {
                timeUnixNano: at(3n),
                severityText: 'ERROR',
                body: { kvlistValue: { values: [attr('a', { stringValue: 'b' })] } },
              },
              { observedTimeUnixNano: at(2n), body: { stringValue: 'observed only' } },
              { timeUnixNano: at(1n), severityNumber: 17, body: { intValue: '42' } },
            ],
          },
        ],
      },
    ],
  });
}

/**
 * A second export with the less common shapes: array, map and bytes attributes, names that need
 * sanitizing, empty values, every severity band, a resource without `service.name`, a resource
 * attribute holding a number, and an empty body.
 */
function otlpOddExport(nowNs: bigint): string {
  const at = (secondsAgo: bigint): string => String(nowNs - secondsAgo * SECOND_NS);
  const severities = [1, 5, 9, 13, 17, 21, 24, 0, 30];
  return JSON.stringify({
    resourceLogs: [
      {
        resource: {
          attributes: [
            attr('service.name', { stringValue: 'otel-2' }),
            attr('service.namespace', { stringValue: 'shop' }),
            attr('k8s.pod.name', { intValue: '7' }),
            attr('cloud.region', { stringValue: '' }),
            attr('host-name.with-dash', { stringValue: 'h2' }),
          ],
        },
        scopeLogs: [
          {
            scope: { name: 'odd.scope', attributes: [attr('scope.attr', { stringValue: 's' })] },
            logRecords: [
              ...severities.map((n, i) => ({
                timeUnixNano: at(BigInt(20 - i)),
                severityNumber: n,
                body: { stringValue: `severity ${n}` },
              })),
              {
                timeUnixNano: at(5n),
                severityText: 'Warning',
                body: { stringValue: 'text only' },
                attributes: [
                  attr('list', {
                    arrayValue: { values: [{ stringValue: 'a' }, { intValue: '2' }] },
                  }),
                  attr('map', { kvlistValue: { values: [attr('k', { boolValue: false })] } }),
                  attr('raw', { bytesValue: 'aGVsbG8=' }),
                  attr('http.status-code', { intValue: '404' }),
                  attr('empty', { stringValue: '' }),
                  attr('1st', { stringValue: 'digit' }),
                ],
              },
              { timeUnixNano: at(4n), body: {} },
              { timeUnixNano: at(3n), body: { doubleValue: 1.5 } },
              { timeUnixNano: at(2n), body: { boolValue: true } },
              {
                timeUnixNano: at(1n),
                body: { arrayValue: { values: [{ stringValue: 'x' }, { intValue: '1' }] } },
              },
            ],
          },
        ],
      },
      {
        resource: { attributes: [attr('k8s.namespace.name', { stringValue: 'no-service' })] },
        scopeLogs: [
          { logRecords: [{ timeUnixNano: at(1n), body: { stringValue: 'no service name' } }] },
        ],
      },
    ],
  });
}

/** An OTLP export, then what it became: streams, series, labels and fields. */
export const OTLP_PROBES: readonly DiffQuery[] = [
  { path: '/otlp/v1/logs', push: { name: 'OTLP JSON export', body: otlpExport } },
  { query: '{service_name="otel-svc"}', params: { limit: 20 }, pushTenant: true },
  {
    query: 'sum by (detected_level) (count_over_time({service_name="otel-svc"}[1m]))',
    path: '/loki/api/v1/query',
    pushTenant: true,
  },
  {
    path: '/loki/api/v1/series',
    params: { 'match[]': '{service_name="otel-svc"}' },
    pushTenant: true,
  },
  { path: '/loki/api/v1/labels', pushTenant: true },
  // The JSON probes stored their lines at the queries' end time exactly.
  { path: '/loki/api/v1/series', params: { 'match[]': '{app=~"p.*"}' }, pushTenant: true },
  { path: '/loki/api/v1/label/app/values', pushTenant: true },
  { query: '{app=~"p.*"}', params: { limit: 20 }, pushTenant: true },
  { query: 'count_over_time({app=~"p.*"}[1m])', path: '/loki/api/v1/query', pushTenant: true },
  { path: '/loki/api/v1/index/stats', params: { query: '{app=~"p.*"}' }, pushTenant: true },
  {
    path: '/loki/api/v1/detected_fields',
    params: { query: '{service_name="otel-svc"}' },
    pushTenant: true,
  },
  { path: '/otlp/v1/logs', push: { name: 'OTLP odd shapes', body: otlpOddExport } },
  { query: '{service_name="otel-2"}', params: { limit: 30 }, pushTenant: true },
  { query: '{k8s_namespace_name="no-service"}', params: { limit: 5 }, pushTenant: true },
  {
    query:
      'sum by (detected_level, severity_number) (count_over_time({service_name="otel-2"}[1m]))',
    path: '/loki/api/v1/query',
    pushTenant: true,
  },
  {
    path: '/loki/api/v1/series',
    params: { 'match[]': '{service_name=~"otel-2|unknown_service"}' },
    pushTenant: true,
  },
  {
    path: '/otlp/v1/logs',
    push: { name: 'OTLP malformed JSON', body: () => '{"resourceLogs": [' },
    known: OTLP_ERRORS,
  },
  {
    path: '/otlp/v1/logs',
    push: {
      name: 'OTLP protobuf garbage',
      contentType: 'application/x-protobuf',
      body: () => Buffer.from([0xff, 0x01, 0x02]),
    },
    known: OTLP_ERRORS,
  },
];
