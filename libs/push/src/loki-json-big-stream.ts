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
  QUOTE,
  skipSpace,
  stringEnd,
  valueEnd,
} from './json-scan';
import {
  decodeJsonStreamPieces,
  decodeJsonValues,
  failAsWholeBody,
  jsonStreamLabels,
} from './loki-json';
import { STREAM_PIECE_ENTRIES } from './stream-pieces';

/**
 * Element `i` of "streams", larger than a run, starting at `from`: read key by key, and when
 * its "stream" comes before its "values" (as every encoder writes them), the values a run at a
 * time, so even a single stream of a million entries is never parsed in one step. Other shapes
 * are parsed whole. Returns the offset of what follows the element (`,` or `]` expected).
 */
export function* bigStreamPieces(
  body: Buffer,
  from: number,
  i: number,
): Generator<PushStream | RejectedStream, number> {
  let pos = skipSpace(body, from);
  if (body[pos++] !== OPEN_OBJECT) return failAsWholeBody(body);
  const head: string[] = [];
  const keys = new Set<unknown>();
  let valuesRead = false;
  for (;;) {
    pos = skipSpace(body, pos);
    if (body[pos] !== QUOTE) return failAsWholeBody(body);
    const keyFrom = pos;
    pos = stringEnd(body, pos);
    if (pos < 0) return failAsWholeBody(body);
    const key = parseOrFail(body, body.toString('utf8', keyFrom, pos));
    pos = skipSpace(body, pos);
    if (body[pos++] !== COLON) return failAsWholeBody(body);
    pos = skipSpace(body, pos);
    if (key === 'values' && !valuesRead && keys.has('stream') && body[pos] === OPEN_ARRAY) {
      const raw = parseOrFail(body, `{${head.join(',')}}`) as Record<string, unknown>;
      if ('labels' in raw || 'entries' in raw) return yield* wholeElement(body, from, i);
      pos = yield* valuesPieces(body, pos + 1, jsonStreamLabels(raw, i), i);
      valuesRead = true;
    } else {
      const streamKey = key === 'stream' || key === 'labels' || key === 'entries';
      if (valuesRead && (streamKey || key === 'values')) {
        // Its entries went out under the labels given before; JSON would let these win.
        throw badRequest(
          `streams[${i}]: "${key}" after "values" in a stream over 1 MiB; send "stream" first`,
        );
      }
      // "values" before "stream", or not an array: nothing went out yet, parse it whole.
      if (key === 'values') return yield* wholeElement(body, from, i);
      const end = valueEnd(body, pos);
      if (end < 0) return failAsWholeBody(body);
      head.push(body.toString('utf8', keyFrom, end));
      pos = end;
    }
    keys.add(key);
    pos = skipSpace(body, pos);
    const c = body[pos++];
    if (c === CLOSE_OBJECT) break;
    if (c !== COMMA) return failAsWholeBody(body);
  }
  if (!valuesRead) {
    // No values array (or an empty stream): the element without it is small; read it as usual.
    const raw = parseOrFail(body, `{${head.join(',')}}`);
    yield* decodeJsonStreamPieces(raw, i, STREAM_PIECE_ENTRIES);
  }
  return skipSpace(body, pos);
}

/** The element parsed in one piece: for shapes the key-by-key reader does not follow. */
function* wholeElement(
  body: Buffer,
  from: number,
  i: number,
): Generator<PushStream | RejectedStream, number> {
  const end = valueEnd(body, from);
  if (end < 0) return failAsWholeBody(body);
  const raw = parseOrFail(body, body.toString('utf8', from, end));
  yield* decodeJsonStreamPieces(raw, i, STREAM_PIECE_ENTRIES);
  return end;
}

/** The entries of a values array whose content starts at `pos`; returns the offset past `]`. */
function* valuesPieces(
  body: Buffer,
  start: number,
  labels: PushStream['labels'],
  i: number,
): Generator<PushStream, number> {
  let pos = start;
  let first = 0;
  for (;;) {
    const run = nextRun(body, pos, pos === start);
    if (run === null) return failAsWholeBody(body);
    let values: unknown[];
    let last: boolean;
    if (run.kind === 'big') {
      // One entry over 1 MiB (a long line): parsed alone.
      const end = valueEnd(body, run.from);
      if (end < 0 || (body[end] !== COMMA && body[end] !== CLOSE_ARRAY)) failAsWholeBody(body);
      values = [parseOrFail(body, body.toString('utf8', run.from, end))];
      pos = end + 1;
      last = body[end] === CLOSE_ARRAY;
    } else {
      values = parseOrFail(body, '[' + body.toString('utf8', run.from, run.to) + ']') as unknown[];
      pos = run.next;
      last = run.last;
    }
    if (first === 0 && last && values.length === 0) yield { labels, entries: [] };
    for (let k = 0; k < values.length; k += STREAM_PIECE_ENTRIES) {
      const piece = values.slice(k, k + STREAM_PIECE_ENTRIES);
      yield { labels, entries: decodeJsonValues(piece, i, first + k) };
    }
    first += values.length;
    if (last) return pos;
  }
}

function parseOrFail(body: Buffer, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return failAsWholeBody(body);
  }
}
