import type { PushStream, RejectedStream } from '@logsvc/api';
import { badRequest } from './errors';
import {
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  nextRun,
  OPEN_ARRAY,
  OPEN_OBJECT,
  skipSpace,
} from './json-scan';
import { decodeJsonStreamPieces, decodeLokiJson, failAsWholeBody } from './loki-json';
import { bigStreamPieces } from './loki-json-big-stream';
import { STREAM_PIECE_ENTRIES } from './stream-pieces';

/** Bodies below this are parsed in one piece: slicing only pays for large ones. */
export const SLICED_JSON_MIN_BYTES = 1 << 20;

/**
 * The streams of a JSON push body, one at a time, in the order `decodeLokiJson` lists them
 * (with the same errors). A large body of the usual shape, `{"streams":[...]}`, is parsed a
 * run of elements at a time, so neither the whole document nor its refused streams are ever
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
  let index = 0;
  let pos = start;
  for (;;) {
    const run = nextRun(body, pos, pos === start);
    if (run === null) return yield* wholeBodyRest(body, index);
    let last: boolean;
    if (run.kind === 'big') {
      const end = yield* bigStreamPieces(body, run.from, index++);
      const c = body[end];
      if (c !== COMMA && c !== CLOSE_ARRAY) return failAsWholeBody(body);
      pos = end + 1;
      last = c === CLOSE_ARRAY;
    } else {
      let elements: unknown[];
      try {
        elements = JSON.parse('[' + body.toString('utf8', run.from, run.to) + ']') as unknown[];
      } catch {
        return yield* wholeBodyRest(body, index);
      }
      for (const raw of elements) {
        yield* decodeJsonStreamPieces(raw, index++, STREAM_PIECE_ENTRIES);
      }
      pos = run.next;
      last = run.last;
    }
    if (last) {
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
  for (let i = index; i < raw.length; i++) {
    yield* decodeJsonStreamPieces(raw[i], i, STREAM_PIECE_ENTRIES);
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
  if (body[pos++] !== COLON) return -1;
  pos = skipSpace(body, pos);
  return body[pos] === OPEN_ARRAY ? pos + 1 : -1;
}

function onlyClosingBraceLeft(body: Buffer, pos: number): boolean {
  pos = skipSpace(body, pos);
  if (body[pos++] !== CLOSE_OBJECT) return false;
  return skipSpace(body, pos) === body.length;
}
