import type { IConversionOptions } from 'protobufjs';
import { WIRE_ROOT } from './schema';

/** How one message type goes to and from bytes, as plain objects. */
export interface MessageCodec<T> {
  encode(value: T): Buffer;
  /** Throws on bytes that are not this message (truncated, bad lengths). */
  decode(bytes: Buffer): T;
}

// int64s come out as decimal strings (exact, no Long objects to handle), absent fields as their
// defaults; bytes fields stay views into the received message.
const TO_OBJECT: IConversionOptions = { longs: String, defaults: true, arrays: true };

/** The codec of `logproto.<name>` (see schema.ts). */
export function messageCodec<T extends object>(name: string): MessageCodec<T> {
  const type = WIRE_ROOT.lookupType(`logproto.${name}`);
  return {
    encode: (value) => asBuffer(type.encode(value).finish()),
    decode: (bytes) => type.toObject(type.decode(bytes), TO_OBJECT) as T,
  };
}

export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}
