import { labelsFromRecord, type PushStream } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { tokenFor, type InstanceDesc, type ReplicationRing } from '@logsvc/ring';
import { PatternTee, type PatternTeeCounters } from './pattern-tee';
import { ringPatternSink } from './ring-pattern-sink';

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

describe("tee counters (Loki's teed_streams, teed_requests, appends)", () => {
  const counting = () => {
    const seen: string[] = [];
    const counters: PatternTeeCounters = {
      streams: (status, n) => seen.push(`streams ${status} ${n}`),
      requests: (status) => seen.push(`requests ${status}`),
      appends: (ingester, status) => seen.push(`appends ${ingester} ${status}`),
    };
    return { seen, counters };
  };

  it('counts queued and dropped batches, and streams dropped over the memory bound', async () => {
    const { seen, counters } = counting();
    let release = () => {};
    const sut = new PatternTee({
      sink: () => new Promise<void>((r) => (release = r)),
      flushIntervalMs: 0,
      maxBufferedBytes: 100,
      maxInFlight: 1,
      counters,
    });
    sut.duplicate('a', [stream(10)]);
    sut.duplicate('b', [stream(10)]);
    sut.duplicate('c', [stream(60), stream(60)]);
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual(['streams dropped 2', 'requests queued', 'requests dropped']);
    release();
    await sut.stop(100);
  });

  it('counts each stream batched or dropped by owner, and each push per ingester', async () => {
    const { seen, counters } = counting();
    const member = (id: string, addr: string): InstanceDesc => ({
      id,
      addr,
      zone: '',
      state: 'ACTIVE',
      tokens: [],
      heartbeatMs: 0,
      registeredMs: 0,
    });
    const [one, two] = [member('p-1', 'h1:1'), member('p-2', 'h2:2')];
    // Half of the token space each; stream a0 has no owner.
    const ring: ReplicationRing = {
      writeSet: (token) => ({ instances: [token < 2 ** 31 ? one : two], maxErrors: 0 }),
      readSet: () => ({ instances: [one, two], maxErrors: 0 }),
    };
    const noOwner = tokenFor('t', '{app="a0"}');
    const owned: ReplicationRing = {
      writeSet: (token) =>
        token === noOwner ? { instances: [], maxErrors: 0 } : ring.writeSet(token),
      readSet: ring.readSet,
    };
    const pushed: string[] = [];
    const sink = ringPatternSink({
      ring: () => owned,
      clientFor: (instance) => ({
        push: async (_tenant, streams) => {
          if (instance.id === 'p-2') throw new Error('down');
          pushed.push(`${instance.id} ${streams.length}`);
        },
        query: () => Promise.resolve([]),
      }),
      counters,
    });
    const streams = Array.from({ length: 20 }, (_, i) => ({
      labels: labelsFromRecord({ app: `a${i}` }),
      entries: stream(1).entries,
    }));
    await expect(sink('t', streams)).rejects.toThrow('down');
    expect(seen.filter((s) => s === 'streams batched 1')).toHaveLength(19);
    expect(seen.filter((s) => s === 'streams dropped 1')).toHaveLength(1);
    expect(pushed).toHaveLength(1);
    expect(seen.filter((s) => s.startsWith('appends')).sort()).toEqual([
      'appends h1:1 success',
      'appends h2:2 fail',
    ]);
  });
});
