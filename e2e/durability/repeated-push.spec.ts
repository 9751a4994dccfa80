import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryKey, readKeys } from '../support/acked';
import { postPushBody } from '../support/loki-api';
import { disposedAfterAll, startServer } from '../support/server';

const CLIENTS = 4;
const ENTRIES_PER_BATCH = 50;
const KILL_AFTER_ACKED = 3000;
const FLAGS = [
  '-ingester.wal-enabled=true',
  '-validation.max-entries-limit=100000',
  '-distributor.ingestion-rate-limit-mb=1000',
  '-distributor.ingestion-burst-size-mb=1000',
];

/**
 * Agents resend a batch on timeouts and HA pairs send everything twice: a copy of a batch can
 * arrive while the first copy's WAL record is still being written. Its 204 must still mean
 * the entries survive a crash.
 */
describe('kill -9 right after acknowledging batches sent twice', () => {
  const started = disposedAfterAll();

  it('keeps every acknowledged entry, whichever copy was acknowledged', async () => {
    const server = await startServer({ flags: FLAGS });
    started.push(server);
    const baseMs = Date.now() - 60_000;
    const acked = new Set<string>();
    let killed: Promise<void> | undefined;

    const client = async (c: number) => {
      for (let round = 0; !killed; round++) {
        const values: [string, string][] = [];
        for (let i = 0; i < ENTRIES_PER_BATCH; i++) {
          const n = round * ENTRIES_PER_BATCH + i;
          const ts = (BigInt(baseMs) * 1_000_000n + BigInt(n) * 1000n).toString();
          values.push([ts, `client ${c} entry ${n}`]);
        }
        const body = JSON.stringify({
          streams: [{ stream: { app: 'twice', client: String(c) }, values }],
        });
        // Both copies at once; each 204 acknowledges the whole batch on its own.
        const sendCopy = async () => {
          const status = await postPushBody(server.url, body); // null: the server is gone
          if (status === null) return;
          if (status !== 204) throw new Error(`push answered ${status}`);
          for (const [ts, line] of values) acked.add(entryKey(String(c), ts, line));
          // Kill at once, while the other copy (and other clients' batches) may be in flight.
          if (acked.size >= KILL_AFTER_ACKED) killed ??= server.kill9();
        };
        await Promise.all([sendCopy(), sendCopy()]);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    await killed;
    expect(server.running).toBe(false);

    // The killed process is gone for sure, so its WAL lock may go at once instead of after the
    // 10 s stale period a restart would otherwise wait (the takeover has tests of its own).
    rmSync(join(server.dataDir, 'wal', 'LOCK'));
    const replayed = await startServer({ flags: FLAGS, dataDir: server.dataDir });
    started.push(replayed);
    const present = new Set(
      await readKeys(replayed.url, {
        query: '{app="twice"}',
        by: 'client',
        fromNs: BigInt(baseMs - 1000) * 1_000_000n,
        limit: 100_000,
      }),
    );
    const missing = [...acked].filter((k) => !present.has(k));
    expect({ acked: acked.size >= KILL_AFTER_ACKED, missing: missing.length }).toEqual({
      acked: true,
      missing: 0,
    });
  });
});
