import { gzipSync } from 'node:zlib';
import { encodePushProtobuf } from '@logsvc/push';
import type { DiffQuery } from './compare';

const DAY_NS = 86_400_000_000_000n;
const JSON_ERRORS =
  "malformed JSON: logsvc names the place, Loki answers its JSON library's text (docs/operations.md)";
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
