import { decodeLokiProtobuf, snappyUncompressSync } from '@logsvc/push';
import { describe, expect, it } from 'vitest';
import { clientPlans, prepareClientBodies, spreadGenerator } from './batches';

const decode = (body: Buffer) => decodeLokiProtobuf(snappyUncompressSync(body, Infinity));

const generator = {
  ...spreadGenerator({
    seed: 7,
    streams: 20,
    totalBytes: 400_000,
    startMs: 1_700_000_000_000,
    spanMs: 3_600_000,
  }),
  linePool: 500,
};

/** Every (stream, timestamp) the clients' bodies carry, with the client that sent it. */
function sent(interleave: boolean, linesPerStream = 100): Map<string, number[]> {
  const byStream = new Map<string, number[]>();
  for (const base of clientPlans(generator, 400_000, 5, interleave)) {
    const plan = { ...base, linesPerStream };
    for (const b of prepareClientBodies(plan)) {
      for (const s of decode(b.body).streams) {
        const key = JSON.stringify(s.labels);
        const clients = byStream.get(key) ?? [];
        for (const _ of s.entries) clients.push(plan.client);
        byStream.set(key, clients);
      }
    }
  }
  return byStream;
}

describe('push bodies of the benchmarks', () => {
  it('gives each stream to one client when not interleaving', () => {
    for (const clients of sent(false).values()) expect(new Set(clients).size).toBe(1);
  });

  it('sends every stream from every client when interleaving, each line once', () => {
    const plans = clientPlans(generator, 400_000, 5, true);
    const seen = new Map<string, Set<string>>();
    let total = 0;
    for (const plan of plans) {
      for (const b of prepareClientBodies(plan)) {
        for (const s of decode(b.body).streams) {
          const key = JSON.stringify(s.labels);
          const set = seen.get(key) ?? new Set<string>();
          for (const e of s.entries) set.add(`${e.timestampNs}`);
          total += s.entries.length;
          seen.set(key, set);
        }
      }
    }
    let distinct = 0;
    for (const set of seen.values()) distinct += set.size;
    expect(distinct).toBe(total); // no (stream, timestamp) sent twice
    for (const clients of sent(true).values()) expect(new Set(clients).size).toBe(plans.length);
  });

  it('shares streams among all clients with fewer lines per stream and push than clients', () => {
    // The tiny shape: 2 lines of each stream per push, 4 clients.
    for (const clients of sent(true, 2).values()) expect(new Set(clients).size).toBe(4);
  });
});
