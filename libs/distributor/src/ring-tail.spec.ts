import { EMPTY_LABELS, labelsFromRecord, labelsToString } from '@logsvc/api';
import { afterEach, describe, expect, it } from 'vitest';
import { RingIngesterClient } from './ring-ingester-client';
import { RingTail } from './ring-tail';
import { FakeTokenRing, startIngesters, type TestIngesters } from './testing/cluster';

const T0 = 1_700_000_000_000_000_000n;

const push = (ts: bigint, line: string) => ({
  streams: [
    {
      labels: labelsFromRecord({ app: 'web' }),
      entries: [{ timestampNs: ts, line: Buffer.from(line), structuredMetadata: EMPTY_LABELS }],
    },
  ],
});

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('RingIngesterClient.tail', () => {
  let cluster: TestIngesters | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  it('passes on each entry once although every replica sends it', async () => {
    const ring = FakeTokenRing.spread(3, 3);
    cluster = await startIngesters(ring.instances);
    const client = new RingIngesterClient({ ring: () => ring, clientFor: cluster.clientFor });
    const seen: string[] = [];
    const sub = await client.tail('t', [{ type: '=', name: 'app', value: 'web' }], (l, entries) => {
      for (const e of entries) seen.push(`${labelsToString(l)} ${e.line.toString()}`);
    });
    await client.push('t', push(T0, 'one'));
    await client.push('t', push(T0 + 1n, 'two'));
    // Same timestamp, other line: another entry.
    await client.push('t', push(T0 + 1n, 'two bis'));
    await settle();
    expect(seen).toEqual(['{app="web"} one', '{app="web"} two', '{app="web"} two bis']);
    sub.close();
    await client.push('t', push(T0 + 2n, 'after close'));
    await settle();
    expect(seen).toHaveLength(3);
  });

  it('fails like a read when more ingesters than the error budget cannot be tailed', async () => {
    const ring = FakeTokenRing.spread(3, 3);
    cluster = await startIngesters(ring.instances);
    cluster.clients[0].failure = new Error('down');
    const client = new RingIngesterClient({ ring: () => ring, clientFor: cluster.clientFor });
    const ok = await client.tail('t', [], () => {});
    ok.close();
    cluster.clients[1].failure = new Error('down');
    await expect(client.tail('t', [], () => {})).rejects.toThrow('failed to tail ingesters: down');
  });

  it('tails an ingester again once its stream broke', async () => {
    const ring = FakeTokenRing.spread(3, 1);
    cluster = await startIngesters(ring.instances);
    const seen: string[] = [];
    const tail = new RingTail(
      't',
      [],
      (_l, entries) => seen.push(...entries.map((e) => e.line.toString())),
      {
        ring: () => ring,
        clientFor: cluster.clientFor,
        logger: { warn: () => {} },
        reconnectMs: 10,
      },
    );
    await tail.start();
    expect(tail.ingesters).toHaveLength(3);
    for (const c of cluster.clients) c.breakTails();
    expect(tail.ingesters).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(tail.ingesters).toHaveLength(3);
    const client = new RingIngesterClient({ ring: () => ring, clientFor: cluster.clientFor });
    await client.push('t', push(T0, 'after reconnect'));
    await settle();
    expect(seen).toEqual(['after reconnect']);
    tail.close();
  });
});
