import { parentPort } from 'node:worker_threads';
import { encodePushProtobufRaw } from './loki-proto-encode';
import { decodeOtlpExport, type OtlpMediaType } from './otlp-decode-core';
import { PushError } from './errors';

/** One export to decode, from `OtlpDecodeThread`. */
export interface OtlpWorkerRequest {
  readonly id: number;
  readonly body: Uint8Array;
  readonly type: OtlpMediaType;
  readonly discoverServiceName: readonly string[];
  readonly nowNs: bigint;
}

export type OtlpWorkerReply =
  | { readonly id: number; readonly streams: Uint8Array<ArrayBuffer> }
  | { readonly id: number; readonly error: { readonly kind: string; readonly message: string } };

parentPort?.on('message', (m: OtlpWorkerRequest) => {
  const body = Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength);
  let reply: OtlpWorkerReply;
  try {
    // The streams cross back as an uncompressed Loki push, read a stream at a time on the
    // event loop. (The OTLP mapping refuses no stream as a whole: there is nothing else to carry.)
    const streams = ownArrayBuffer(encodePushProtobufRaw(decodeOtlpExport(body, m)));
    reply = { id: m.id, streams };
    parentPort?.postMessage(reply, [streams.buffer]);
    return;
  } catch (err) {
    const kind = err instanceof PushError ? err.kind : 'bad_request';
    reply = {
      id: m.id,
      error: { kind, message: err instanceof Error ? err.message : String(err) },
    };
  }
  parentPort?.postMessage(reply);
});

/** The bytes in an ArrayBuffer of their own (small Buffers share Node's pool: not movable). */
function ownArrayBuffer(b: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = b.byteOffset === 0 && b.byteLength === b.buffer.byteLength;
  if (whole && b.buffer instanceof ArrayBuffer) return b as Uint8Array<ArrayBuffer>;
  return new Uint8Array(b);
}
