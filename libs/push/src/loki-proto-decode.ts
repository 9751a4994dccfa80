import {
  EMPTY_LABELS,
  sortLabels,
  type LabelPair,
  type Labels,
  type LogEntry,
  type PushRequest,
  type PushStream,
  type RejectedStream,
} from '@logsvc/api';
import { Reader } from 'protobufjs/minimal';
import { EntryCollector } from './entry-collector';
import { badRequest, PushError } from './errors';
import { LabelsCache, PushRequestBuilder } from './labels-cache';
import { LabelsReadAhead } from './labels-read-ahead';
import { STREAM_PIECE_ENTRIES } from './stream-pieces';

// Field numbers of Loki's logproto push schema (pkg/push/push.proto).
// PushRequest.streams = 1; StreamAdapter.labels = 1, entries = 2, hash = 3;
// EntryAdapter.timestamp = 1, line = 2, structuredMetadata = 3, parsed = 4;
// LabelPairAdapter.name = 1, value = 2; Timestamp.seconds = 1, nanos = 2.

const WIRE_VARINT = 0;
const WIRE_LEN = 2;

/** Seconds bounds of google.protobuf.Timestamp: [0001-01-01, 10000-01-01). */
const MIN_SECONDS = -62135596800;
const MAX_SECONDS = 253402300800;
const NS_PER_SECOND = 1_000_000_000n;

/**
 * Decodes an uncompressed logproto.PushRequest. Lines stay Buffer views into `body`; each
 * distinct label string is parsed once. A stream whose labels do not parse is returned among
 * `rejected`; malformed protobuf throws a 400 PushError.
 */
export function decodeLokiProtobuf(body: Buffer): PushRequest {
  const request = new PushRequestBuilder();
  for (const stream of lokiProtobufStreams(body, Infinity)) request.add(stream);
  return request.build();
}

/**
 * The streams of an uncompressed logproto.PushRequest one at a time, as `decodeLokiProtobuf`
 * reads them (same errors, thrown when reached), so a caller can pause between streams. A
 * stream of more than `maxEntries` entries comes out in pieces with the same labels.
 */
export function* lokiProtobufStreams(
  body: Buffer,
  maxEntries = STREAM_PIECE_ENTRIES,
): Generator<PushStream | RejectedStream> {
  const pieces = new StreamPieces(Reader.create(body), maxEntries);
  for (;;) {
    let next: PushStream | RejectedStream | null;
    try {
      next = pieces.next();
    } catch (err) {
      if (err instanceof PushError) throw err;
      throw badRequest(
        `error decoding push request: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (next === null) return;
    yield next;
  }
}

/**
 * The request's streams in pieces of at most `maxEntries` entries, skipping other fields. A
 * plain reader rather than nested generators: a push of a thousand small streams would
 * otherwise make and resume a generator per stream.
 */
class StreamPieces {
  private readonly state = new DecodeState();
  /** End of the stream being read in pieces, or -1 between streams. */
  private streamEnd = -1;
  /** Where the stream's label string lies in the body (start -1: not read yet). */
  private labelsStart = -1;
  private labelsEnd = -1;
  private readonly entries = new EntryCollector();
  private readonly ahead = new LabelsReadAhead();

  constructor(
    private readonly reader: Reader,
    private readonly maxEntries: number,
  ) {}

  /** The next stream or piece of one; null after the last. */
  next(): PushStream | RejectedStream | null {
    const reader = this.reader;
    if (this.streamEnd >= 0) return this.piece();
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag >>> 3 === 1 && (tag & 7) === WIRE_LEN) {
        const len = reader.uint32();
        this.streamEnd = reader.pos + len;
        checkEnd(reader, this.streamEnd);
        this.labelsStart = -1;
        if (this.ahead.needs(reader.pos)) {
          this.ahead.readAhead(reader.buf as Buffer, reader.pos, this.streamEnd, reader.len);
        }
        return this.piece();
      }
      reader.skipType(tag & 7);
    }
    return null;
  }

  /** Reads the current stream up to its end, or up to `maxEntries` entries. */
  private piece(): PushStream | RejectedStream {
    const { reader, state, maxEntries } = this;
    const end = this.streamEnd;
    const entries = this.entries;
    while (reader.pos < end) {
      const tag = reader.uint32();
      const field = tag >>> 3;
      if (field === 1 && (tag & 7) === WIRE_LEN) {
        // Kept as a byte range: the labels cache finds known strings by their bytes.
        const len = reader.uint32();
        checkEnd(reader, reader.pos + len);
        this.labelsStart = reader.pos;
        this.labelsEnd = reader.pos + len;
        reader.pos += len;
      } else if (field === 2 && (tag & 7) === WIRE_LEN) {
        const len = reader.uint32();
        entries.add(readEntry(reader, reader.pos + len, state));
        // Labels come first in every encoder; only then can a piece be handed out early.
        if (entries.length >= maxEntries && this.labelsStart >= 0 && reader.pos < end) {
          return this.stream(entries.take());
        }
      } else reader.skipType(tag & 7);
    }
    if (reader.pos !== end) throw badRequest('error decoding push request: stream length mismatch');
    this.streamEnd = -1;
    return this.stream(entries.take());
  }

  private stream(entries: LogEntry[]): PushStream | RejectedStream {
    if (this.labelsStart < 0) return LabelsCache.shared.stream('', entries);
    const known = this.ahead.take(this.labelsStart);
    if (known !== undefined) return LabelsCache.shared.streamFromKnown(known, entries);
    const body = this.reader.buf as Buffer;
    return LabelsCache.shared.streamFromBytes(body, this.labelsStart, this.labelsEnd, entries);
  }
}

class DecodeState {
  // Batches repeat the same second often; reuse its bigint.
  lastSeconds = NaN;
  lastSecondsNs = 0n;
}

function checkEnd(reader: Reader, end: number): void {
  if (end > reader.len) throw badRequest('error decoding push request: unexpected end of message');
}

function readEntry(reader: Reader, end: number, state: DecodeState): LogEntry {
  checkEnd(reader, end);
  let timestampNs = 0n;
  let line: Buffer = EMPTY_LINE;
  let metadata: LabelPair[] | undefined;
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 2 && wire === WIRE_LEN) line = reader.bytes() as Buffer;
    else if (field === 1 && wire === WIRE_LEN) {
      const len = reader.uint32();
      timestampNs = readTimestamp(reader, reader.pos + len, state);
    } else if (field === 3 && wire === WIRE_LEN) {
      const len = reader.uint32();
      (metadata ??= []).push(readLabelPair(reader, reader.pos + len));
    } else reader.skipType(wire);
  }
  if (reader.pos !== end) throw badRequest('error decoding push request: entry length mismatch');
  const structuredMetadata: Labels = metadata === undefined ? EMPTY_LABELS : sortLabels(metadata);
  return { timestampNs, line, structuredMetadata };
}

const EMPTY_LINE = Buffer.alloc(0);

function readTimestamp(reader: Reader, end: number, state: DecodeState): bigint {
  checkEnd(reader, end);
  let seconds = 0;
  let nanos = 0;
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === WIRE_VARINT) seconds = readInt64(reader);
    else if (field === 2 && (tag & 7) === WIRE_VARINT) nanos = reader.int32();
    else reader.skipType(tag & 7);
  }
  if (seconds < MIN_SECONDS) throw timestampError(seconds, nanos, 'seconds before 0001-01-01');
  if (seconds >= MAX_SECONDS) throw timestampError(seconds, nanos, 'seconds after 10000-01-01');
  if (nanos < 0 || nanos >= 1e9)
    throw timestampError(seconds, nanos, 'nanos not in range [0, 1e9)');
  if (seconds !== state.lastSeconds) {
    state.lastSeconds = seconds;
    state.lastSecondsNs = BigInt(seconds) * NS_PER_SECOND;
  }
  return nanos === 0 ? state.lastSecondsNs : state.lastSecondsNs + BigInt(nanos);
}

function timestampError(seconds: number, nanos: number, what: string): PushError {
  return badRequest(`timestamp: seconds:${seconds} nanos:${nanos}: ${what}`);
}

/** Reads a varint int64 as a JS number (exact for every valid Timestamp.seconds). */
function readInt64(reader: Reader): number {
  const buf = reader.buf;
  let pos = reader.pos;
  let low = 0;
  let high = 0;
  // The first 4 bytes hold 28 bits; read up to 10 bytes (two's complement for negatives).
  for (let i = 0; i < 10; i++) {
    if (pos >= reader.len) throw new RangeError('index out of range');
    const b = buf[pos++];
    if (i < 4) low |= (b & 0x7f) << (7 * i);
    else if (i === 4) {
      low |= (b & 0x0f) << 28;
      high |= (b & 0x7f) >> 4;
    } else high |= (b & 0x7f) << (7 * i - 32);
    if (b < 0x80) break;
    if (i === 9) throw new Error('invalid varint encoding');
  }
  reader.pos = pos;
  return (high | 0) * 4294967296 + (low >>> 0);
}

function readLabelPair(reader: Reader, end: number): LabelPair {
  checkEnd(reader, end);
  let name = '';
  let value = '';
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === WIRE_LEN) name = reader.string();
    else if (field === 2 && (tag & 7) === WIRE_LEN) value = reader.string();
    else reader.skipType(tag & 7);
  }
  if (reader.pos !== end)
    throw badRequest('error decoding push request: label pair length mismatch');
  return { name, value };
}
