import type { PushRequest, PushStream } from '@logsvc/api';
import type { IngestError, IngesterClient } from '@logsvc/ingester';
import { TimeSlicer } from './time-slicer';

/** Streams and entries per ingester call: each call stores synchronously, for ~10 ms at most. */
const MAX_BATCH_STREAMS = 1_000;
const MAX_BATCH_ENTRIES = 20_000;

/**
 * Hands a request to the ingester in batches, giving the event loop a turn between them, so
 * storing a push of many streams does not hold up other requests. Resolves, once every batch
 * is durable, with all per-stream refusals in stream order; rejects with the first failure
 * (after every batch has settled), so a 2xx still means everything accepted is durable.
 */
export async function pushInBatches(
  ingester: IngesterClient,
  tenant: string,
  request: PushRequest,
): Promise<IngestError[]> {
  const settled: Promise<{ errors: IngestError[] } | { failure: unknown }>[] = [];
  const slicer = new TimeSlicer();
  const whole = fitsOneBatch(request.streams);
  for (const batch of whole ? [request.streams] : batches(request.streams)) {
    if (settled.length > 0) await slicer.yield();
    // The body goes along only with the whole request: a batch's WAL record holds it once.
    const part: PushRequest = whole
      ? { streams: batch, source: request.source }
      : { streams: batch };
    settled.push(
      ingester.push(tenant, part).then(
        ({ errors }) => ({ errors }),
        (failure: unknown) => ({ failure }),
      ),
    );
  }
  const errors: IngestError[] = [];
  for (const outcome of await Promise.all(settled)) {
    if ('failure' in outcome) throw outcome.failure;
    errors.push(...outcome.errors);
  }
  return errors;
}

/**
 * Consecutive runs of streams within the batch bounds, for a request over them; a longer
 * stream is split into pieces.
 */
function* batches(streams: PushStream[]): Generator<PushStream[]> {
  let batch: PushStream[] = [];
  let entries = 0;
  for (const stream of streams) {
    // Most streams fit whole: no piece objects (or generator) for them.
    const n = stream.entries.length;
    const count = n <= MAX_BATCH_ENTRIES ? 1 : Math.ceil(n / MAX_BATCH_ENTRIES);
    for (let k = 0; k < count; k++) {
      const piece = count === 1 ? stream : pieceOf(stream, k * MAX_BATCH_ENTRIES);
      const full =
        batch.length >= MAX_BATCH_STREAMS || entries + piece.entries.length > MAX_BATCH_ENTRIES;
      if (full && batch.length > 0) {
        yield batch;
        batch = [];
        entries = 0;
      }
      batch.push(piece);
      entries += piece.entries.length;
    }
  }
  if (batch.length > 0) yield batch;
}

function fitsOneBatch(streams: readonly PushStream[]): boolean {
  if (streams.length > MAX_BATCH_STREAMS) return false;
  let entries = 0;
  for (let i = 0; i < streams.length; i++) entries += streams[i].entries.length;
  return entries <= MAX_BATCH_ENTRIES;
}

/**
 * The stream's entries from `start`, at most MAX_BATCH_ENTRIES of them, as a stream. Not a
 * spread copy: the stream's `bytes` counts all its entries, not this piece's.
 */
function pieceOf(stream: PushStream, start: number): PushStream {
  const { labels, labelsText } = stream;
  const entries = stream.entries.slice(start, start + MAX_BATCH_ENTRIES);
  return labelsText === undefined ? { labels, entries } : { labels, entries, labelsText };
}
