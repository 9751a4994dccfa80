import { encodePushProtobuf } from '@logsvc/push';
import { describe, expect, it } from 'vitest';
import { LogGenerator } from '@logsvc/bench/testing';
import { entryKey, expectExactlyOnce, readKeys } from '../support/acked';
import { nowNs } from '../support/loki-api';
import { disposedAfterAll, startServer } from '../support/server';
import { readStoredEntries } from '../support/store-reader';

const CLIENTS = 4;
const STREAMS = 16;
const KILL_AFTER_ACKED = 8000;
/** With auth disabled every push lands in Loki's single-tenant ID. */
const TENANT = 'fake';
const FLAGS = [
  '-ingester.wal-enabled=true',
  '-ingester.flush-on-shutdown=true',
  '-validation.max-entries-limit=100000',
  '-distributor.ingestion-rate-limit-mb=1000',
  '-distributor.ingestion-burst-size-mb=1000',
];

interface Crash {
  readonly dataDir: string;
  readonly acked: ReadonlySet<string>;
  readonly fromNs: bigint;
}

/** Every entry the server answers from `fromNs` on. */
const queried = (url: string, fromNs: bigint) =>
  readKeys(url, { query: '{env=~".+"}', by: 'pod', fromNs, limit: 100_000 });

describe('kill -9 under write load', () => {
  const started = disposedAfterAll();
  const start = async (dataDir?: string) => {
    const p = await startServer({ flags: FLAGS, dataDir });
    started.push(p);
    return p;
  };

  /**
   * Pushes from CLIENTS concurrent clients, recording each entry the server acknowledged
   * (204), and SIGKILLs the server while requests are still in flight.
   */
  async function crashUnderLoad(seed: number): Promise<Crash> {
    const startMs = Date.now() - 60_000;
    const server = await start();
    const gen = new LogGenerator({ seed, streams: STREAMS, startMs, spacingMs: 1 });
    const acked = new Set<string>();
    let killed: Promise<void> | undefined;

    const client = async (c: number) => {
      const owned = gen.streams.map((_, i) => i).filter((i) => i % CLIENTS === c);
      for (let round = 0; !killed; round++) {
        const ids = [owned[round % owned.length], owned[(round + 1) % owned.length]];
        const batch = gen.batch(ids, 50);
        let status: number;
        try {
          const res = await fetch(`${server.url}/loki/api/v1/push`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-protobuf' },
            body: encodePushProtobuf(batch.request),
          });
          status = res.status;
        } catch {
          return; // the server is gone: this request was never acknowledged
        }
        if (status !== 204) throw new Error(`push answered ${status}`);
        for (const s of batch.request.streams) {
          const pod = s.labels.find((l) => l.name === 'pod')!.value;
          for (const e of s.entries)
            acked.add(entryKey(pod, e.timestampNs.toString(), e.line.toString()));
        }
        if (acked.size >= KILL_AFTER_ACKED) killed ??= server.kill9();
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    await killed;
    expect(server.running).toBe(false);
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKED);
    return { dataDir: server.dataDir, acked, fromNs: BigInt(startMs - 1000) * 1_000_000n };
  }

  it('replays the WAL and flushes every acknowledged entry to the store exactly once', async () => {
    const crash = await crashUnderLoad(7);
    const replayed = await start(crash.dataDir);
    expect(await replayed.stop()).toBe(0); // graceful: flush on shutdown

    const stored = await readStoredEntries(
      crash.dataDir,
      TENANT,
      [{ type: '=~', name: 'env', value: '.+' }],
      crash.fromNs,
      nowNs(),
    );
    const pod = (labels: string) => /pod="([^"]+)"/.exec(labels)![1];
    expectExactlyOnce(
      stored.map((e) => entryKey(pod(e.labels), e.timestampNs.toString(), e.line)),
      crash.acked,
    );
  });

  it('answers query_range with every acknowledged entry exactly once after the crash and after a graceful restart', async () => {
    const crash = await crashUnderLoad(8);
    const replayed = await start(crash.dataDir);
    expectExactlyOnce(await queried(replayed.url, crash.fromNs), crash.acked);

    // Flushed on shutdown; the next process reads the store (and must not replay it twice).
    expect(await replayed.stop()).toBe(0);
    const again = await start(crash.dataDir);
    expectExactlyOnce(await queried(again.url, crash.fromNs), crash.acked);
    expect(await again.stop()).toBe(0);
  });
});
