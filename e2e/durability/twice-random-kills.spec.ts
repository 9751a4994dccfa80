import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Prng } from '@logsvc/bench/testing';
import { entryKey, readKeys } from '../support/acked';
import { nowNs, postPushBody } from '../support/loki-api';
import { type ServerProcess, disposedAfterAll, startServer } from '../support/server';

const ROUNDS = 4;
const CLIENTS = 4;
const ENTRIES_PER_BATCH = 50;
/** Each round's kill lands this long after its clients start pushing (ms). */
const KILL_AFTER_MS = { min: 150, max: 1200 };
const FLAGS = [
  '-ingester.wal-enabled=true',
  // Checkpoints run during the pushes too, so some kills land in the middle of one.
  '-ingester.checkpoint-duration=300ms',
  '-validation.max-entries-limit=1000000',
  '-distributor.ingestion-rate-limit-mb=1000',
  '-distributor.ingestion-burst-size-mb=1000',
];

/**
 * Agents resend batches on timeouts and HA pairs send everything twice. Several rounds on one
 * data directory: clients send every batch twice at once, the server is killed with kill -9 at
 * a random moment, restarted (replaying what the rounds before left), and every entry any
 * round got a 204 for must be there.
 */
describe('batches sent twice with kill -9 at random moments', () => {
  const started = disposedAfterAll();

  it('keeps every acknowledged entry in every round', async () => {
    const seed = Date.now() % 1_000_000;
    const rng = new Prng(seed);
    const baseMs = Date.now() - 60_000;
    const acked = new Set<string>();
    const sent = Array.from({ length: CLIENTS }, () => 0);
    let dataDir: string | undefined;

    for (let round = 0; round < ROUNDS; round++) {
      const server = await startServer({ flags: FLAGS, dataDir });
      started.push(server);
      dataDir = server.dataDir;
      if (round > 0) expectAllPresent(await readAll(server), acked, seed, round);

      const ackedBefore = acked.size;
      let killed: Promise<void> | undefined;
      const client = async (c: number) => {
        while (!killed) {
          const values: [string, string][] = [];
          for (let i = 0; i < ENTRIES_PER_BATCH; i++) {
            const n = sent[c]++;
            const ts = (BigInt(baseMs) * 1_000_000n + BigInt(n) * 1000n).toString();
            values.push([ts, `client ${c} entry ${n}`]);
          }
          const body = JSON.stringify({
            streams: [{ stream: { app: 'twice-rounds', client: String(c) }, values }],
          });
          const sendCopy = async () => {
            const status = await postPushBody(server.url, body);
            if (status === null) return; // the server is gone: not acknowledged
            if (status !== 204) throw new Error(`push answered ${status}`);
            for (const [ts, line] of values) acked.add(entryKey(String(c), ts, line));
          };
          await Promise.all([sendCopy(), sendCopy()]);
        }
      };
      const killAfter = rng.range(KILL_AFTER_MS.min, KILL_AFTER_MS.max);
      const timer = setTimeout(() => (killed = server.kill9()), killAfter);
      await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
      clearTimeout(timer);
      await killed;
      expect({ seed, round, acknowledgedThisRound: acked.size > ackedBefore }).toEqual({
        seed,
        round,
        acknowledgedThisRound: true,
      });
      // The killed process is gone for sure, so its WAL lock may go at once instead of after
      // the 10 s stale period a restart would otherwise wait (the takeover has tests of its own).
      rmSync(join(server.dataDir, 'wal', 'LOCK'), { force: true });
    }

    const last = await startServer({ flags: FLAGS, dataDir });
    started.push(last);
    expectAllPresent(await readAll(last), acked, seed, ROUNDS);
  });

  async function readAll(server: ServerProcess): Promise<Set<string>> {
    return new Set(
      await readKeys(server.url, {
        query: '{app="twice-rounds"}',
        by: 'client',
        fromNs: nowNs() - 3_600_000_000_000n,
        limit: 1_000_000,
      }),
    );
  }

  function expectAllPresent(
    present: ReadonlySet<string>,
    acked: ReadonlySet<string>,
    seed: number,
    afterRound: number,
  ) {
    const missing = [...acked].filter((k) => !present.has(k)).length;
    expect({ seed, afterRound, acked: acked.size > 0, missing }).toEqual({
      seed,
      afterRound,
      acked: true,
      missing: 0,
    });
  }
});
