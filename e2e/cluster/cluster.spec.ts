import { encodePushProtobuf } from '@logsvc/push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogGenerator } from '@logsvc/bench/testing';
import { entryKey, expectExactlyOnce, readKeys } from '../support/acked';
import { EtcdCluster, type Member, startClassicCluster } from '../support/cluster';

const STREAMS = 24;
const CLIENTS = 4;
const LIMIT_FLAGS = [
  '-validation.max-entries-limit=200000',
  '-distributor.ingestion-rate-limit-mb=1000',
  '-distributor.ingestion-burst-size-mb=1000',
];

/** Pushes through the distributors, round robin, recording every acknowledged entry. */
class Load {
  readonly acked = new Set<string>();
  failed = 0;
  private stopped = false;
  private running: Promise<void> | undefined;
  private readonly gen: LogGenerator;
  readonly fromNs: bigint;

  constructor(
    private readonly distributors: readonly Member[],
    seed: number,
  ) {
    const startMs = Date.now() - 60_000;
    this.fromNs = BigInt(startMs - 1000) * 1_000_000n;
    this.gen = new LogGenerator({ seed, streams: STREAMS, startMs, spacingMs: 1 });
  }

  start(): void {
    this.running = Promise.all(Array.from({ length: CLIENTS }, (_, c) => this.client(c))).then(
      () => {},
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Resolves once `n` more entries were acknowledged. */
  async ackedMore(n: number): Promise<void> {
    const target = this.acked.size + n;
    while (this.acked.size < target) await new Promise((r) => setTimeout(r, 20));
  }

  private async client(c: number): Promise<void> {
    const owned = this.gen.streams.map((_, i) => i).filter((i) => i % CLIENTS === c);
    for (let round = 0; !this.stopped; round++) {
      const ids = [owned[round % owned.length], owned[(round + 1) % owned.length]];
      const batch = this.gen.batch(ids, 20);
      const target = this.distributors[(round + c) % this.distributors.length];
      let status = 0;
      try {
        const res = await fetch(`${target.process.url}/loki/api/v1/push`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-protobuf' },
          body: encodePushProtobuf(batch.request),
        });
        status = res.status;
        await res.arrayBuffer();
      } catch {
        status = 0;
      }
      if (status !== 204) {
        this.failed++;
        continue;
      }
      for (const s of batch.request.streams) {
        const pod = s.labels.find((l) => l.name === 'pod')!.value;
        for (const e of s.entries)
          this.acked.add(entryKey(pod, e.timestampNs.toString(), e.line.toString()));
      }
    }
  }
}

/** Every entry the querier answers from `fromNs` on. */
const queried = (url: string, fromNs: bigint) =>
  readKeys(url, { query: '{env=~".+"}', by: 'pod', fromNs, limit: 200_000 });

describe('a cluster on etcd: two distributors, three ingesters (RF 3), a querier', () => {
  let cluster: EtcdCluster;
  let ingesters: Member[];
  let distributors: Member[];
  let querier: Member;

  beforeAll(async () => {
    ({ cluster, ingesters, distributors, querier } = await startClassicCluster({
      replicationFactor: 3,
      extraFlags: LIMIT_FLAGS,
    }));
  }, 120_000);

  afterAll(() => cluster?.dispose());

  it('lists the three ingesters ACTIVE on every member’s /ring page', async () => {
    for (const m of [...distributors, querier]) {
      const res = await fetch(`${m.process.url}/ring`, { headers: { accept: 'application/json' } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { shards: Array<{ id: string; state: string }> };
      expect(body.shards.map((s) => [s.id, s.state]).sort()).toEqual([
        ['ingester-1', 'ACTIVE'],
        ['ingester-2', 'ACTIVE'],
        ['ingester-3', 'ACTIVE'],
      ]);
    }
  });

  it('keeps accepting pushes when an ingester is killed -9, and after it replays its WAL and rejoins returns every acknowledged entry exactly once', async () => {
    const load = new Load(distributors, 11);
    load.start();
    await load.ackedMore(4000);
    await ingesters[1].process.kill9();
    const failedBefore = load.failed;
    await load.ackedMore(4000);
    // Quorum (2 of 3) holds: no push failed because one replica is gone.
    expect(load.failed - failedBefore).toBe(0);
    await cluster.restart(ingesters[1]);
    await load.ackedMore(2000);
    await load.stop();
    expect(load.failed).toBe(0);
    expectExactlyOnce(await queried(querier.process.url, load.fromNs), load.acked);
  }, 180_000);

  it('loses no acknowledged entry through a rolling restart of the ingesters with prepare_shutdown', async () => {
    const load = new Load(distributors, 12);
    load.start();
    for (const ingester of ingesters) {
      await load.ackedMore(1500);
      const prepared = await fetch(`${ingester.process.url}/ingester/prepare_shutdown`, {
        method: 'POST',
      });
      expect(prepared.status).toBe(204);
      expect(await ingester.process.stop()).toBe(0);
      await cluster.restart(ingester);
    }
    await load.ackedMore(1500);
    await load.stop();
    expectExactlyOnce(await queried(querier.process.url, load.fromNs), load.acked);
  }, 240_000);
});
