import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubeClient, skipMessage, waitFor } from '@logsvc/operator/testing';
import {
  describeCluster,
  expectEveryAckedEntry,
  upgradeUnderLoad,
  loadedLogService,
  LS,
  podsOf,
  readyOn,
  startInProcessOperator,
  startOperatorCluster,
  type OperatorCluster,
} from '../support/operator-load';

// Tier 3: a zone-aware LogService on real pods, one node a zone (a node agent each, the Node
// labelled with its zone): 2 ingesters in each of 3 zones at replication factor 3 (every
// stream in every zone), rolled under load with maxUnavailablePerZone 2, so the operator
// replaces both ingesters of one zone in one step, zone after zone, while the other two zones
// hold every stream. Every acknowledged entry must be queryable afterwards.

const ZONES = ['a', 'b', 'c'];
const skip = skipMessage();

describe.skipIf(skip !== undefined)('operator: a zone-aware rollout under load', () => {
  let cluster: OperatorCluster;
  let client: KubeClient;

  beforeAll(async () => {
    cluster = await startOperatorCluster({ etcd: true, sharedClaim: true, zones: ZONES });
    client = cluster.client;
    cluster.controller = await startInProcessOperator(client, cluster.logs);
  }, 180_000);

  afterAll(() => cluster?.stop());

  it('replaces the ingesters of one zone at a time, both at once, losing nothing', async () => {
    const fail = async (err: unknown): Promise<never> => {
      const agents = cluster.agents.map((a) => a.recentOutput()).join('\n');
      throw new Error(
        `${(err as Error).message}\n${cluster.logs.slice(-20).join('\n')}\n${agents}\n${await describeCluster(client)}`,
      );
    };
    await client.call(
      'POST',
      LS,
      loadedLogService(cluster.etcd!.endpoint, {
        zones: ZONES,
        components: {
          distributor: { replicas: 1 },
          ingester: { replicas: 2 },
          querier: { replicas: 1 },
        },
        rollout: { terminationGracePeriod: '60s', maxUnavailablePerZone: 2 },
      }),
    );
    // Measured: Ready in about 1 m on a loaded 2-core machine (10 pods); about 3x that.
    await waitFor('the cluster to be Ready', () => readyOn(client, '0.1.0'), 200_000).catch(fail);
    const ingesters = await podsOf(client, 'ingester');
    // A set of 2 in each zone.
    expect(ingesters.map((p) => p.metadata.name).sort()).toEqual(
      ZONES.flatMap((z) => [`logs-ingester-${z}-0`, `logs-ingester-${z}-1`]),
    );
    const load = await upgradeUnderLoad(client, '0.2.0');
    await waitFor('the upgrade to finish', () => readyOn(client, '0.2.0'), 300_000).catch(fail);
    await load.stopAfterMoreAcks();

    // The operator's steps: each names the pods it replaced, two of one zone at once.
    const steps = cluster.logs
      .map((l) => /rollout: replacing (\S+), (\S+) of zone (\S+) \(/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ zone: m[3], pods: [m[1], m[2]].sort() }));
    expect(steps.map((s) => s.zone).sort()).toEqual(ZONES);
    for (const step of steps)
      expect(step.pods).toEqual([`logs-ingester-${step.zone}-0`, `logs-ingester-${step.zone}-1`]);
    expect(
      load.maxGapMs,
      `longest time without an acknowledged push (${load.failed} failed pushes)`,
    ).toBeLessThan(5000);
    await expectEveryAckedEntry(client, load, 'zones e2e');
  }, 600_000);
});
