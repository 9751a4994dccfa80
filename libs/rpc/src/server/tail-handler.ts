import type { handleServerStreamingCall } from '@grpc/grpc-js';
import { labelsToString } from '@logsvc/api';
import type { IngesterClient, TailListener, TailSubscription } from '@logsvc/ingester';
import { errorToStatus } from '../error-status';
import { QUERIER_SERVICE } from '../services';
import { matchersFromWire } from '../wire/convert';
import { TAIL_REQUEST } from '../wire/messages';
import { QueryBatchEncoder } from '../wire/query-batch';
import { decodeRequest, tenantOf, type RpcLogger } from './handler';

/**
 * Bytes a tail call may have queued for a querier that does not read; what comes meanwhile is
 * dropped (Loki's ingester drops too once its tailer's queue is full).
 */
export const MAX_TAIL_QUEUED_BYTES = 8 << 20;

/** Entries go out as they are stored, one message per stream and push. */
const NO_BATCHING = 0;

/**
 * `logproto.Querier/Tail`: subscribes to the ingester's live entries for the request's matchers
 * and streams them until the querier cancels the call, which ends the subscription. The first
 * message is empty: the subscription is in place.
 */
export function tailHandler(
  ingester: IngesterClient,
  logger: RpcLogger,
): handleServerStreamingCall<Buffer, Buffer> {
  const path = QUERIER_SERVICE.Tail.path;
  return (call) => {
    let subscription: TailSubscription | undefined;
    let ended = false;
    const end = (): void => {
      ended = true;
      subscription?.close();
      subscription = undefined;
    };
    call.on('cancelled', end);
    call.on('close', end);
    call.on('error', end);

    const encoder = new QueryBatchEncoder(NO_BATCHING);
    const onEntries: TailListener = (labels, entries) => {
      if (ended || call.writableLength > MAX_TAIL_QUEUED_BYTES) return;
      // Encoded at once: the lines may be views into a buffer reused after this call.
      encoder.beginStream(labelsToString(labels));
      for (const e of entries) encoder.addEntry(e.timestampNs, e.line, e.structuredMetadata);
      encoder.endStream();
      call.write(encoder.finish());
    };

    const start = async (): Promise<void> => {
      const tenant = tenantOf(call.metadata);
      const request = decodeRequest(path, () => TAIL_REQUEST.decode(call.request));
      const sub = await ingester.tail(tenant, matchersFromWire(request.matchers), onEntries);
      if (ended) {
        sub.close();
        return;
      }
      subscription = sub;
      call.write(Buffer.alloc(0));
    };
    start().catch((err: unknown) => {
      if (ended) return;
      const st = errorToStatus(err);
      logger.warn({ err, path }, 'tail subscription failed');
      call.emit('error', Object.assign(new Error(st.details), st));
    });
  };
}
