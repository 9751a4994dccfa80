import { labelsFromRecord, type PushStream } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { PatternTee } from './pattern-tee';

const stream = (bytes: number): PushStream => ({
  labels: labelsFromRecord({ app: 'a' }),
  entries: [{ timestampNs: 1n, line: Buffer.alloc(bytes, 'x'), structuredMetadata: [] }],
});

describe('PatternTee', () => {
  it('sends later, never in the push, and drops what a slow sink cannot take', async () => {
    const sent: number[] = [];
    let release = () => {};
    const dropped: string[] = [];
    const sut = new PatternTee({
      sink: async (_tenant, streams) => {
        sent.push(streams.length);
        await new Promise<void>((r) => (release = r));
      },
      flushIntervalMs: 0,
      maxBufferedBytes: 100,
      maxInFlight: 10,
      onDropped: (reason) => dropped.push(reason),
    });
    sut.duplicate('t', [stream(60)]);
    expect(sent).toEqual([]); // nothing happens inside the push
    await new Promise((r) => setTimeout(r, 5));
    expect(sent).toEqual([1]);
    // The first batch is still being sent: its bytes count, so this one does not fit.
    sut.duplicate('t', [stream(60)]);
    expect(dropped).toEqual(['buffer_full']);
    release();
    await new Promise((r) => setTimeout(r, 5));
    sut.duplicate('t', [stream(60)]);
    await new Promise((r) => setTimeout(r, 5));
    expect(sent).toEqual([1, 1]);
    release();
    await sut.stop(100);
  });

  it('swallows a failing sink', async () => {
    const dropped: string[] = [];
    const sut = new PatternTee({
      sink: () => Promise.reject(new Error('down')),
      flushIntervalMs: 0,
      maxBufferedBytes: 1000,
      maxInFlight: 10,
      onDropped: (reason) => dropped.push(reason),
    });
    sut.duplicate('t', [stream(10)]);
    await sut.stop(100);
    expect(dropped).toEqual(['failed']);
  });
});
