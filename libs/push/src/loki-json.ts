import {
  EMPTY_LABELS,
  labelsToRecord,
  sortLabels,
  type LabelPair,
  type Labels,
  type LogEntry,
  type PushRequest,
  type PushStream,
  type RejectedStream,
} from '@logsvc/api';
import { badRequest } from './errors';
import { skipSpace } from './json-scan';
import { LabelsCache, PushRequestBuilder } from './labels-cache';
import { parseRfc3339Nano } from './rfc3339';

const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;
const INT_STRING = /^-?\d{1,19}$/;

/** Loki's (jsonparser's) text for a non-string timestamp or line, kept so clients see the same. */
export const NOT_A_STRING_MESSAGE = `Value is string, but can't find closing '"' symbol`;

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Decodes a JSON push body: `{"streams":[{"stream":{..},"values":[["<ns>","<line>",{sm}?]]}]}`,
 * or the legacy `{"streams":[{"labels":"{..}","entries":[{"ts":"<RFC3339>","line":".."}]}]}`.
 */
export function decodeLokiJson(body: Buffer): PushRequest {
  // Loki's JSON decoder reads nothing at all as io.EOF, and says so.
  if (skipSpace(body, 0) === body.length) throw badRequest('EOF');
  let doc: Json;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw badRequest(`invalid JSON push body: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isObject(doc)) throw badRequest('invalid JSON push body: expected an object with "streams"');
  const rawStreams = doc.streams ?? [];
  if (!Array.isArray(rawStreams))
    throw badRequest('invalid JSON push body: "streams" must be an array');
  const request = new PushRequestBuilder();
  rawStreams.forEach((raw, i) => request.add(decodeJsonStream(raw, i)));
  return request.build();
}

/** Throws decodeLokiJson's error for a body a sliced reader found malformed. */
export function failAsWholeBody(body: Buffer): never {
  decodeLokiJson(body);
  throw badRequest('invalid JSON push body');
}

/** Decodes element `i` of a JSON body's "streams" array (either format). */
export function decodeJsonStream(raw: Json, i: number): PushStream | RejectedStream {
  // With no piece size the stream comes out whole, in one piece.
  return decodeJsonStreamPieces(raw, i, Infinity).next().value as PushStream | RejectedStream;
}

/**
 * Element `i` of a JSON body's "streams" array, its entries decoded `maxEntries` at a time: a
 * stream of a million entries comes out as pieces with the same labels, so a caller can pause
 * between them. Errors are thrown when the entry holding them is reached.
 */
export function* decodeJsonStreamPieces(
  raw: Json,
  i: number,
  maxEntries: number,
): Generator<PushStream | RejectedStream> {
  if (!isObject(raw)) throw badRequest(`streams[${i}] must be an object`);
  if ('labels' in raw || 'entries' in raw) {
    yield decodeLegacyStream(raw, i);
    return;
  }
  const labels = jsonStreamLabels(raw, i);
  const values = raw.values ?? [];
  if (!Array.isArray(values)) throw badRequest(`streams[${i}].values must be an array`);
  let from = 0;
  do {
    const to = Math.min(values.length, from + maxEntries);
    const piece = from === 0 && to === values.length ? values : values.slice(from, to);
    yield { labels, entries: decodeJsonValues(piece, i, from) };
    from = to;
  } while (from < values.length);
}

/**
 * The labels of element `i` of "streams" (its `stream` object), empty values dropped. A value
 * that is not a string becomes its JSON text, as in Loki (`{"code": 5}` is `code="5"`); lone
 * UTF-16 surrogates become U+FFFD, so a label reads the same in memory as once stored.
 */
export function jsonStreamLabels(raw: Record<string, Json>, i: number): Labels {
  const labelsObj = raw.stream === undefined ? {} : raw.stream;
  if (!isObject(labelsObj))
    throw badRequest(`streams[${i}].stream must be an object of label names to string values`);
  const pairs: LabelPair[] = [];
  for (const [name, value] of Object.entries(labelsObj)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (text !== '') pairs.push({ name: name.toWellFormed(), value: text.toWellFormed() });
  }
  return sortLabels(pairs);
}

/**
 * Entries of `streams[i].values`, the first of `values` being number `first` of the array. As
 * in Loki, a `null` in the array is skipped, an entry without a line has an empty one, and
 * elements after the structured metadata are ignored.
 */
export function decodeJsonValues(values: readonly Json[], i: number, first: number): LogEntry[] {
  const entries: LogEntry[] = [];
  for (let j = 0; j < values.length; j++) {
    const v = values[j];
    if (v !== null) entries.push(decodeValue(v, i, first + j));
  }
  return entries;
}

function decodeValue(v: Json, i: number, j: number): LogEntry {
  const where = `streams[${i}].values[${j}]`;
  if (!Array.isArray(v) || v.length === 0) {
    throw badRequest(
      `${where} must be an array: ["<unix epoch in nanoseconds>", "<log line>", {structured metadata}]`,
    );
  }
  const [ts, line = '', meta] = v as Json[];
  if (typeof ts !== 'string')
    throw badRequest(
      `${NOT_A_STRING_MESSAGE}: ${where}[0] timestamp must be a string, got ${jsonType(ts)}`,
    );
  if (typeof line !== 'string')
    throw badRequest(
      `${NOT_A_STRING_MESSAGE}: ${where}[1] log line must be a string, got ${jsonType(line)}`,
    );
  return {
    timestampNs: parseNsTimestamp(ts, `${where}[0]`),
    line: Buffer.from(line, 'utf8'),
    structuredMetadata: v.length >= 3 ? decodeMetadata(meta, `${where}[2]`) : EMPTY_LABELS,
  };
}

function jsonType(v: Json): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

function parseNsTimestamp(ts: string, where: string): bigint {
  if (INT_STRING.test(ts)) {
    const ns = BigInt(ts);
    if (ns <= MAX_INT64 && ns >= MIN_INT64) return ns;
  }
  throw badRequest(
    `${where}: invalid timestamp '${ts}': must be a string of integer nanoseconds since the Unix epoch`,
  );
}

function decodeMetadata(meta: Json, where: string): Labels {
  if (!isObject(meta))
    throw badRequest(
      `${where}: structured metadata must be an object of string keys to string values`,
    );
  const pairs: LabelPair[] = [];
  for (const [name, value] of Object.entries(meta)) {
    if (typeof value !== 'string') {
      throw badRequest(
        `${where}.${name}: structured metadata values must be strings, got ${jsonType(value)} (nested objects are not allowed)`,
      );
    }
    pairs.push({ name: name.toWellFormed(), value: value.toWellFormed() });
  }
  return pairs.length === 0 ? EMPTY_LABELS : sortLabels(pairs);
}

function decodeLegacyStream(raw: Record<string, Json>, i: number): PushStream | RejectedStream {
  if (typeof raw.labels !== 'string')
    throw badRequest(`streams[${i}].labels must be a label selector string`);
  const rawEntries = raw.entries ?? [];
  if (!Array.isArray(rawEntries)) throw badRequest(`streams[${i}].entries must be an array`);
  const entries = rawEntries.map((e, j): LogEntry => {
    const where = `streams[${i}].entries[${j}]`;
    if (!isObject(e)) throw badRequest(`${where} must be an object with "ts" and "line"`);
    if (typeof e.ts !== 'string')
      throw badRequest(`${where}.ts must be an RFC 3339 timestamp string`);
    if (typeof e.line !== 'string') throw badRequest(`${where}.line must be a string`);
    const ns = parseRfc3339Nano(e.ts);
    if (ns === undefined) throw badRequest(`${where}.ts: cannot parse '${e.ts}' as RFC 3339`);
    return { timestampNs: ns, line: Buffer.from(e.line, 'utf8'), structuredMetadata: EMPTY_LABELS };
  });
  return LabelsCache.shared.stream(raw.labels, entries);
}

/** Encodes a push request as Loki's v1 JSON body. */
export function encodePushJson(req: PushRequest): Buffer {
  const streams = req.streams.map((s) => ({
    stream: labelsToRecord(s.labels),
    values: s.entries.map((e) => {
      const v: (string | Record<string, string>)[] = [
        e.timestampNs.toString(),
        e.line.toString('utf8'),
      ];
      if (e.structuredMetadata.length > 0) v.push(labelsToRecord(e.structuredMetadata));
      return v;
    }),
  }));
  return Buffer.from(JSON.stringify({ streams }), 'utf8');
}
