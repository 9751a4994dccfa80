import type { PushBodySource, PushRequest, PushStream, RejectedStream } from '@logsvc/api';
import { bodyTooLarge, gunzipBounded, inflateRawBounded, snappyUncompress } from './decompress';
import { badRequest } from './errors';
import { parseMediaType } from './media-type';
import { decodeLokiJson } from './loki-json';
import { lokiJsonStreams } from './loki-json-streams';
import { decodeLokiProtobuf, lokiProtobufStreams } from './loki-proto-decode';
import { decodeOtlpExport, otlpMediaType, type OtlpDecodeParams } from './otlp-decode-core';
import type { OtlpDecodeThread } from './otlp-decode-thread';

export interface DecodeBodyOptions {
  /** The raw HTTP request body. */
  body: Buffer;
  contentType?: string | null;
  contentEncoding?: string | null;
  /** Upper bound for the body after every decompression step (413 beyond it). */
  maxDecompressedBytes: number;
}

export interface DecodeOtlpOptions extends DecodeBodyOptions {
  /** limits_config.discover_service_name of the tenant. */
  discover_service_name: readonly string[];
  /** Timestamp for records that carry none; defaults to the current time. */
  nowNs?: bigint;
}

function unsupportedEncoding(encoding: string): Error {
  return badRequest(`Content-Encoding "${encoding}" not supported`);
}

function checkSize(body: Buffer, max: number): Buffer {
  if (body.length > max) throw bodyTooLarge(body.length, max);
  return body;
}

const KNOWN_ENCODINGS = new Set(['', 'identity', 'snappy', 'gzip', 'x-gzip', 'deflate']);

/** Undoes Content-Encoding (gzip, deflate; snappy/identity are passed through). */
async function removeContentEncoding(body: Buffer, encoding: string, max: number): Promise<Buffer> {
  switch (encoding) {
    case '':
    case 'identity':
    case 'snappy':
      return body;
    case 'gzip':
    case 'x-gzip':
      return gunzipBounded(body, max);
    case 'deflate':
      return inflateRawBounded(body, max);
    default:
      throw unsupportedEncoding(encoding);
  }
}

/**
 * Decodes a body sent to the push endpoint as Loki does: JSON for `application/json`, snappy
 * protobuf for any other media type; each optionally wrapped in gzip or deflate. An unknown
 * Content-Encoding and a missing or malformed Content-Type are 400s with Loki's texts.
 */
export async function decodePushBody(opts: DecodeBodyOptions): Promise<PushRequest> {
  const push = await unwrapLokiPush(opts);
  return push.json ? decodeLokiJson(push.body) : decodeLokiProtobuf(push.body);
}

/** The streams of a decoded push, rejected ones (labels that do not parse) among them. */
export type PushStreams = Iterable<PushStream | RejectedStream>;

/** A push body's streams, to be iterated, and the body when the lines are views of it. */
export interface PushBodyStreams {
  readonly streams: PushStreams;
  /** Set for snappy protobuf: the received block and its decompressed bytes. */
  readonly source?: PushBodySource;
}

/**
 * As `decodePushBody`, but the body is decoded stream by stream as the result is iterated
 * (decompression happens first), so a large push can be processed in slices; decoding errors
 * are thrown when reached.
 */
export async function decodePushBodyStreams(opts: DecodeBodyOptions): Promise<PushBodyStreams> {
  const push = await unwrapLokiPush(opts);
  if (push.json) return { streams: lokiJsonStreams(push.body) };
  return { streams: lokiProtobufStreams(push.body), source: push.source };
}

/** A Loki push body with every compression undone: JSON, or uncompressed protobuf. */
type UnwrappedPush =
  | { readonly json: true; readonly body: Buffer }
  | { readonly json: false; readonly body: Buffer; readonly source: PushBodySource };

async function unwrapLokiPush(opts: DecodeBodyOptions): Promise<UnwrappedPush> {
  const encoding = (opts.contentEncoding ?? '').trim().toLowerCase();
  if (!KNOWN_ENCODINGS.has(encoding)) throw unsupportedEncoding(encoding);
  const media = parseMediaType(opts.contentType ?? '');
  if ('error' in media) throw badRequest(media.error);
  const max = opts.maxDecompressedBytes;
  const body = await removeContentEncoding(opts.body, encoding, max);
  if (media.type === 'application/json') return { json: true, body: checkSize(body, max) };
  const plain = await snappyUncompress(body, max);
  return { json: false, body: plain, source: { snappy: body, plain } };
}

/** Decodes an OTLP/HTTP logs export (protobuf or JSON, optionally gzip) into streams. */
export async function decodeOtlpBody(opts: DecodeOtlpOptions): Promise<PushRequest> {
  const { body, params } = await unwrapOtlp(opts);
  return decodeOtlpExport(body, params);
}

/** An export at least this large (after gzip) is decoded on the decoding thread. */
export const OTLP_THREAD_MIN_BYTES = 1 << 20;

/**
 * As `decodeOtlpBody`, for the push path: the streams, to be read one at a time. A large
 * export is decoded and mapped on `thread` and read back a stream at a time, so it does not
 * hold the event loop while other requests wait.
 */
export async function decodeOtlpBodyStreams(
  opts: DecodeOtlpOptions,
  thread: OtlpDecodeThread,
): Promise<PushStreams> {
  const { body, params } = await unwrapOtlp(opts);
  if (body.length >= OTLP_THREAD_MIN_BYTES) return thread.decode(body, params);
  return decodeOtlpExport(body, params).streams;
}

async function unwrapOtlp(
  opts: DecodeOtlpOptions,
): Promise<{ body: Buffer; params: OtlpDecodeParams }> {
  const type = otlpMediaType(opts.contentType);
  const encoding = (opts.contentEncoding ?? '').trim().toLowerCase();
  const max = opts.maxDecompressedBytes;
  // OTLP only defines gzip; other encodings are ignored, as Loki does.
  const body = checkSize(
    encoding === 'gzip' ? await gunzipBounded(opts.body, max) : opts.body,
    max,
  );
  const nowNs = opts.nowNs ?? BigInt(Date.now()) * 1_000_000n;
  return { body, params: { type, discoverServiceName: opts.discover_service_name, nowNs } };
}
