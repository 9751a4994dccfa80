import type { PushRequest } from '@logsvc/api';
import { IngestError, type PushOutcome } from '@logsvc/ingester';
import { encodePushProtobufRaw } from '@logsvc/push';
import { LogsvcError } from '@logsvc/errors';
import { PUSH_RESPONSE, type WireStreamError } from './messages';
import { int64 } from './convert';

// The request is Loki's logproto.PushRequest, with the codec of @logsvc/push (lines as bytes,
// decoded as views into the received message).
export { decodeLokiProtobuf as decodePushRequest } from '@logsvc/push';

/**
 * A push encoded once however many replicas it goes to: the distributor sends the same request
 * object to each of a stream's ingesters.
 */
const ENCODED = new WeakMap<PushRequest, Buffer>();

export function encodePushRequest(request: PushRequest): Buffer {
  let bytes = ENCODED.get(request);
  if (bytes === undefined) ENCODED.set(request, (bytes = encodePushProtobufRaw(request)));
  return bytes;
}

type DiscardReason = IngestError['reason'];
const INGEST_KINDS = ['bad_request', 'limit'] as const;
const DISCARD_REASONS: readonly DiscardReason[] = [
  'too_far_behind',
  'out_of_order',
  'stream_limit',
  'per_stream_rate_limit',
];

export function encodePushOutcome(outcome: PushOutcome): Buffer {
  return PUSH_RESPONSE.encode({
    appended: int64(outcome.appended),
    appendedBytes: int64(outcome.appendedBytes),
    duplicates: int64(outcome.duplicates),
    errors: outcome.errors.map((e): WireStreamError => ({
      kind: e.kind,
      reason: e.reason,
      message: e.message,
      discardedEntries: int64(e.discardedEntries),
      discardedBytes: int64(e.discardedBytes),
    })),
  });
}

/** The outcome the remote ingester reported, its refusals rebuilt as the IngestErrors they were. */
export function decodePushOutcome(bytes: Buffer): PushOutcome {
  const wire = PUSH_RESPONSE.decode(bytes);
  return {
    appended: Number(wire.appended),
    appendedBytes: Number(wire.appendedBytes),
    duplicates: Number(wire.duplicates),
    errors: wire.errors.map((e) => {
      const kind = INGEST_KINDS.find((k) => k === e.kind);
      const reason = DISCARD_REASONS.find((r) => r === e.reason);
      if (kind === undefined || reason === undefined) {
        throw new LogsvcError('internal', `push response: unknown refusal ${e.kind}/${e.reason}`);
      }
      return new IngestError(
        kind,
        reason,
        e.message,
        Number(e.discardedEntries),
        Number(e.discardedBytes),
      );
    }),
  };
}
