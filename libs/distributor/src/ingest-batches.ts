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
  for (const batch of batches(request.streams)) {
    if (settled.length > 0) await slicer.yield();
    settled.push(
      ingester.push(tenant, { streams: batch }).then(
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

function* batches(streams: readonly PushStream[]): Generator<PushStream[]> {
  let batch: PushStream[] = [];
  let entries = 0;
  for (const s of streams) {
    if (
      batch.length >= MAX_BATCH_STREAMS ||
      (batch.length > 0 && entries + s.entries.length > MAX_BATCH_ENTRIES)
    ) {
      yield batch;
      batch = [];
      entries = 0;
    }
    batch.push(s);
    entries += s.entries.length;
  }
  if (batch.length > 0) yield batch;
}
