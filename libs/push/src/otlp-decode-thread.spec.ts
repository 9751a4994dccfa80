import { afterAll, describe, expect, it } from 'vitest';
import type { PushStream } from '@logsvc/api';
import { decodeOtlpBody, decodeOtlpBodyStreams, OTLP_THREAD_MIN_BYTES } from './decode-body';
import { PushError } from './errors';
import { encodeOtlpJson, encodeOtlpProtobuf } from './otlp-encode';
import { OtlpDecodeThread } from './otlp-decode-thread';
import type { OtlpKeyValue, OtlpLogRecord, OtlpLogsRequest } from './otlp-schema';

const kv = (key: string, value: string): OtlpKeyValue => ({
  key,
  value: { kind: 'string', value },
});

/** An export of `n` records over a few services, with attributes, trace ids and no timestamps. */
function bigExport(n: number): OtlpLogsRequest {
  const records = (): OtlpLogRecord[] =>
    Array.from({ length: n / 4 }, (_, i) => ({
      timeUnixNano: i % 50 === 0 ? 0n : 1700000000000000000n + BigInt(i),
      observedTimeUnixNano: 0n,
      severityNumber: 9 + (i % 3) * 4,
      severityText: '',
      body: { kind: 'string', value: `GET /api/items/${i} 200 ${i % 977}ms user=u-${i % 500}` },
      attributes: [kv('http.method', 'GET'), kv('user.id', `u-${i % 500}`)],
      droppedAttributesCount: 0,
      flags: 1,
      traceId: Uint8Array.from({ length: 16 }, (_, b) => (b + i) & 0xff),
      spanId: new Uint8Array(0),
    }));
  return {
    resourceLogs: [0, 1, 2, 3].map((svc) => ({
      resource: { attributes: [kv('service.name', `svc-${svc}`), kv('k8s.pod.name', 'p')] },
      scopeLogs: [
        {
          scope: { name: 'lib', version: '1.2', attributes: [], droppedAttributesCount: 0 },
          logRecords: records(),
        },
      ],
    })),
  };
}

const options = (body: Buffer, contentType: string) => ({
  body,
  contentType,
  maxDecompressedBytes: 256 << 20,
  discover_service_name: ['service', 'app'],
  nowNs: 1700000000123456789n,
});

describe('large OTLP exports are decoded on the decoding thread', () => {
  const thread = new OtlpDecodeThread();
  afterAll(() => thread.close());

  for (const [name, type, encode] of [
    ['protobuf', 'application/x-protobuf', encodeOtlpProtobuf],
    ['JSON', 'application/json', encodeOtlpJson],
  ] as const) {
    it(`gives the same streams as decoding inline (${name})`, async () => {
      const body = encode(bigExport(40_000));
      expect(body.length).toBeGreaterThan(OTLP_THREAD_MIN_BYTES);
      const inline = await decodeOtlpBody(options(body, type));
      const viaThread = [...(await decodeOtlpBodyStreams(options(body, type), thread))];
      const plain = (streams: readonly PushStream[]) =>
        streams.map((s) => ({
          labels: s.labels,
          entries: s.entries.map((e) => ({ ...e, line: e.line.toString() })),
        }));
      // The thread's answer is read in pieces; join them back per stream to compare.
      const joined: PushStream[] = [];
      for (const s of viaThread as PushStream[]) {
        const last = joined.at(-1);
        if (last && JSON.stringify(last.labels) === JSON.stringify(s.labels)) {
          last.entries.push(...s.entries);
        } else joined.push({ labels: s.labels, entries: [...s.entries] });
      }
      expect(plain(joined)).toEqual(plain(inline.streams));
      expect(inline.streams).toHaveLength(4);
    });
  }

  it('keeps the event loop turning while a 12 MB export is decoded', async () => {
    const body = encodeOtlpProtobuf(bigExport(120_000));
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 2);
    try {
      const streams = await decodeOtlpBodyStreams(options(body, 'application/x-protobuf'), thread);
      let entries = 0;
      for (const s of streams) entries += s.entries.length;
      expect(entries).toBe(120_000);
    } finally {
      clearInterval(timer);
    }
    // Decoded inline, this export holds the loop for about a second.
    expect(longest).toBeLessThan(400);
  });

  it('answers a malformed large export with the decoder’s 400, and decodes the next one', async () => {
    const good = encodeOtlpJson(bigExport(40_000));
    const bad = Buffer.concat([good.subarray(0, good.length - 10), Buffer.from('}}}]')]);
    const inline = await decodeOtlpBody(options(bad, 'application/json')).catch((e: unknown) => e);
    const viaThread = await decodeOtlpBodyStreams(options(bad, 'application/json'), thread).catch(
      (e: unknown) => e,
    );
    expect(viaThread).toBeInstanceOf(PushError);
    expect((viaThread as PushError).httpStatus).toBe(400);
    expect((viaThread as PushError).message).toBe((inline as PushError).message);
    const next = [...(await decodeOtlpBodyStreams(options(good, 'application/json'), thread))];
    expect(next.length).toBeGreaterThanOrEqual(4);
  });
});
