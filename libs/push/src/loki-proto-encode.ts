import { labelsToString, type PushRequest } from '@logsvc/api';
import { Writer } from 'protobufjs/minimal';
import * as snappy from 'snappy';

const NS = 1_000_000_000n;

/** Encodes a logproto.PushRequest without compression (field numbers as in Loki's push.proto). */
export function encodePushProtobufRaw(req: PushRequest): Buffer {
  const w = Writer.create();
  for (const stream of req.streams) {
    w.uint32((1 << 3) | 2).fork();
    w.uint32((1 << 3) | 2).string(stream.labelsText ?? labelsToString(stream.labels));
    for (const entry of stream.entries) {
      w.uint32((2 << 3) | 2).fork();
      let seconds = entry.timestampNs / NS;
      let nanos = entry.timestampNs % NS;
      if (nanos < 0n) {
        seconds -= 1n;
        nanos += NS;
      }
      w.uint32((1 << 3) | 2).fork();
      // Seconds of any real timestamp are a safe integer; a number skips protobufjs's string parse.
      if (seconds !== 0n) w.uint32(1 << 3).int64(Number(seconds));
      if (nanos !== 0n) w.uint32(2 << 3).int32(Number(nanos));
      w.ldelim();
      w.uint32((2 << 3) | 2).bytes(entry.line);
      for (const { name, value } of entry.structuredMetadata) {
        w.uint32((3 << 3) | 2).fork();
        w.uint32((1 << 3) | 2).string(name);
        w.uint32((2 << 3) | 2).string(value);
        w.ldelim();
      }
      w.ldelim();
    }
    w.ldelim();
  }
  const out = w.finish();
  return Buffer.isBuffer(out) ? out : Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** Encodes a push body as Loki clients send it: protobuf in one snappy block (not framed). */
export function encodePushProtobuf(req: PushRequest): Buffer {
  return snappy.compressSync(encodePushProtobufRaw(req));
}
