import type { PushStream, RejectedStream } from '@logsvc/api';
import { badRequest } from './errors';
import { decodeJsonStreamPieces, decodeLokiJson } from './loki-json';
import { LabelsCache } from './labels-cache';
import { STREAM_PIECE_ENTRIES } from './stream-pieces';

/** Bodies below this are parsed in one piece: slicing only pays for large ones. */
export const SLICED_JSON_MIN_BYTES = 1 << 20;
/** Bytes of stream elements parsed per `JSON.parse` call when slicing. */
const BATCH_BYTES = 256 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The streams of a JSON push body, one at a time, in the order `decodeLokiJson` lists them
 * (with the same errors). A large body of the usual shape, `{"streams":[...]}`, is parsed a
 * batch of elements at a time, so neither the whole document nor its refused streams are ever
 * in memory together, and a caller can pause between streams. Anything unusual (other keys,
 * a syntax error) is left to `decodeLokiJson`, for its exact answer. A stream of more than
 * STREAM_PIECE_ENTRIES entries comes out in pieces with the same labels.
 */
export function* lokiJsonStreams(body: Buffer): Generator<PushStream | RejectedStream> {
  const start = body.length >= SLICED_JSON_MIN_BYTES ? streamsArrayStart(body) : -1;
  if (start < 0) {
    const request = decodeLokiJson(body);
    yield* request.rejected ?? [];
    yield* request.streams;
    return;
  }
  const cache = new LabelsCache();
  let index = 0;
  let pos = start;
  for (;;) {
    const batch = nextBatch(body, pos, pos === start);
    if (batch === null) return yield* wholeBodyRest(body, index);
    let elements: unknown[];
    try {
      elements = JSON.parse('[' + body.toString('utf8', batch.from, batch.to) + ']') as unknown[];
    } catch {
      return yield* wholeBodyRest(body, index);
    }
    for (const raw of elements) {
      yield* decodeJsonStreamPieces(raw, index++, cache, STREAM_PIECE_ENTRIES);
    }
    pos = batch.next;
    if (batch.last) {
      if (!onlyClosingBraceLeft(body, pos)) yield* wholeBodyRest(body, index);
      return;
    }
  }
}

/**
 * Decodes the whole body the ordinary way and yields its streams from `index` on: for bodies
 * the sliced reader does not follow. Throws decodeLokiJson's error for a malformed body, or a
 * 400 when the streams already read are not the ones the document holds (a repeated key).
 */
function* wholeBodyRest(body: Buffer, index: number): Generator<PushStream | RejectedStream> {
  decodeLokiJson(body); // throws the exact error when the body is malformed
  const raw = (JSON.parse(body.toString('utf8')) as { streams?: unknown }).streams;
  if (!Array.isArray(raw) || raw.length < index) {
    throw badRequest('invalid JSON push body: "streams" is given more than once');
  }
  const cache = new LabelsCache();
  for (let i = index; i < raw.length; i++) {
    yield* decodeJsonStreamPieces(raw[i], i, cache, STREAM_PIECE_ENTRIES);
  }
}

/** Offset just past `{"streams":[` (whitespace allowed), or -1 for any other opening. */
function streamsArrayStart(body: Buffer): number {
  let pos = skipSpace(body, 0);
  if (body[pos++] !== OPEN_OBJECT) return -1;
  pos = skipSpace(body, pos);
  const key = '"streams"';
  if (body.toString('latin1', pos, pos + key.length) !== key) return -1;
  pos = skipSpace(body, pos + key.length);
  if (body[pos++] !== 0x3a) return -1;
  pos = skipSpace(body, pos);
  return body[pos] === OPEN_ARRAY ? pos + 1 : -1;
}

function skipSpace(body: Buffer, pos: number): number {
  while (pos < body.length && isSpace(body[pos])) pos++;
  return pos;
}

function onlyClosingBraceLeft(body: Buffer, pos: number): boolean {
  pos = skipSpace(body, pos);
  if (body[pos++] !== CLOSE_OBJECT) return false;
  return skipSpace(body, pos) === body.length;
}

interface Batch {
  /** Byte range of whole elements and the commas between them. */
  readonly from: number;
  readonly to: number;
  /** Where the next batch starts (past the separating comma, or past the closing bracket). */
  readonly next: number;
  /** The array ended with this batch. */
  readonly last: boolean;
}

/**
 * The next run of elements of the streams array from `pos`, about BATCH_BYTES long, found by
 * tracking strings and nesting only (JSON.parse checks the rest). Null when the array does not
 * end or an element is empty (`[,` or `,]`): the whole-body parse reports that.
 */
function nextBatch(body: Buffer, pos: number, first: boolean): Batch | null {
  const from = skipSpace(body, pos);
  if (body[from] === CLOSE_ARRAY) {
    // An empty array; `,]` is left to the whole-body parse.
    return first ? { from, to: from, next: from + 1, last: true } : null;
  }
  let depth = 0;
  let inString = false;
  let elementStart = from;
  for (let i = from; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) {
        depth--;
        continue;
      }
      if (c !== CLOSE_ARRAY || skipSpace(body, elementStart) === i) return null;
      return { from, to: i, next: i + 1, last: true };
    } else if (c === COMMA && depth === 0) {
      if (skipSpace(body, elementStart) === i) return null;
      if (i - from >= BATCH_BYTES) return { from, to: i, next: i + 1, last: false };
      elementStart = i + 1;
    }
  }
  return null;
}
