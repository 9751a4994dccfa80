// Shared by the operator e2e specs (e2e/operator): the pods of a LogService, a push load that
// records every acknowledged entry, the node agent running logsvc pods, and the check that
// every acknowledged entry can be queried afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type EtcdServer, startEtcd } from '@logsvc/ring/testing';
import {
  Controller,
  DirectPodAccess,
  discoverCapabilities,
  installCrd,
  type KubeClient,
  LS,
  NS,
  Reconciler,
  REPO_ROOT,
  startControlPlane,
  waitFor,
  type ControlPlane,
} from '@logsvc/operator/testing';
import { NodeAgent, type NodeAgentOptions } from './node-agent/agent';

export { LS, NS };
export const TENANT = 'e2e';

export interface PodItem {
  metadata: {
    name: string;
    uid: string;
    labels?: Record<string, string>;
    deletionTimestamp?: string;
  };
  status?: { podIP?: string; conditions?: { type: string; status: string }[] };
}

export const isReady = (p: PodItem) =>
  p.metadata.deletionTimestamp === undefined &&
  (p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false);

export async function podsOf(client: KubeClient, component: string): Promise<PodItem[]> {
  const list = await client.call<{ items: PodItem[] }>(
    'GET',
    `/api/v1/namespaces/${NS}/pods?labelSelector=${encodeURIComponent(`app.kubernetes.io/instance=logs,app.kubernetes.io/component=${component}`)}`,
  );
  return list.items;
}

/** A node agent whose `logsvc/logsvc:*` pods run apps/logsvc/dist/main.js. */
export function logsvcNodeAgent(
  client: KubeClient,
  dir: string,
  logs: string[],
  extra: Partial<Pick<NodeAgentOptions, 'apiServer' | 'ipPrefix' | 'nodeName' | 'labels'>> = {},
): NodeAgent {
  const logsvc = join(REPO_ROOT, 'apps', 'logsvc', 'dist', 'main.js');
  return new NodeAgent({
    client,
    nodeName: 'node-1',
    dir,
    ...extra,
    log: (m) => logs.push(m),
    runtime: (image) =>
      image.startsWith('logsvc/logsvc:')
        ? {
            entrypoint: [process.execPath, logsvc],
            networkArgs: (ip) => [
              `-server.http-listen-address=${ip}`,
              `-server.grpc-listen-address=${ip}`,
            ],
          }
        : undefined,
  });
}

/**
 * The node agent started, the CRDs installed and the namespace's default ServiceAccount there
 * (pods are refused before it is): what every operator spec needs before its LogService.
 */
export async function readyNode(client: KubeClient, agent: NodeAgent): Promise<void> {
  await agent.start();
  await installCrd(client);
  await waitFor('the default ServiceAccount', () =>
    client.get(`/api/v1/namespaces/${NS}/serviceaccounts/default`),
  );
}

/** What an operator spec runs on: a control plane, a Ready node running logsvc pods, ... */
export interface OperatorCluster {
  readonly cp: ControlPlane;
  readonly client: KubeClient;
  /** The first node's agent. */
  readonly agent: NodeAgent;
  /** One agent a node: one, or with `zones` one a zone. */
  readonly agents: readonly NodeAgent[];
  /** The node agents' pods and volumes. */
  readonly dir: string;
  /** What the node agents and the in-process operator log. */
  readonly logs: string[];
  /** With `etcd`: a Debian etcd for the rings. */
  readonly etcd?: EtcdServer;
  /** The in-process operator, once started (stop() stops it first). */
  controller?: Controller;
  /** Everything above, stopped and removed (afterAll). */
  stop(): Promise<void>;
}

/**
 * The beforeAll of an operator e2e: the control plane (and with `etcd` a ring etcd), the node
 * agent on a loopback network of its own (another spec's agent may run at once on this shared
 * machine) or with `zones` one node `node-<zone>` a zone (labelled with it, each on its own
 * network), the CRDs, and with `sharedClaim` the claim `logs-shared`; with `podApiServer` the
 * pods get the API server and their token.
 */
export async function startOperatorCluster(
  options: { etcd?: boolean; sharedClaim?: boolean; podApiServer?: boolean; zones?: string[] } = {},
): Promise<OperatorCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'logsvc-node-'));
  const logs: string[] = [];
  const [cp, etcd] = await Promise.all([
    startControlPlane(),
    options.etcd ? startEtcd() : Promise.resolve(undefined),
  ]);
  const client = cp.client;
  const network = 100 + Math.floor(Math.random() * 140);
  const nodes = options.zones?.map((zone) => ({ zone, name: `node-${zone}` })) ?? [
    { zone: undefined, name: 'node-1' },
  ];
  const agents = nodes.map(({ zone, name }, i) =>
    logsvcNodeAgent(client, dir, logs, {
      nodeName: name,
      ipPrefix: `127.0.${network + i}.`,
      ...(zone === undefined ? {} : { labels: { 'topology.kubernetes.io/zone': zone } }),
      ...(options.podApiServer ? { apiServer: cp.apiUrl } : {}),
    }),
  );
  await readyNode(client, agents[0]);
  for (const agent of agents.slice(1)) await agent.start();
  if (options.sharedClaim) await createSharedClaim(client);
  const cluster: OperatorCluster = {
    cp,
    client,
    agent: agents[0],
    agents,
    dir,
    logs,
    ...(etcd ? { etcd } : {}),
    async stop() {
      await cluster.controller?.stop();
      for (const agent of agents) await agent.stop();
      await etcd?.stop();
      await cp.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/** The ReadWriteMany claim `logs-shared` the microservices LogServices share their store on. */
export async function createSharedClaim(client: KubeClient): Promise<void> {
  await client.call('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
    metadata: { name: 'logs-shared' },
    spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } } },
  });
}

/**
 * The operator's controller in this process (direct pod access, a 5 s resync), started; its
 * decisions go to `logs`.
 */
export async function startInProcessOperator(
  client: KubeClient,
  logs: string[],
  workers = 1,
): Promise<Controller> {
  const reconciler = new Reconciler({
    client,
    pods: new DirectPodAccess(client),
    capabilities: await discoverCapabilities(client),
    log: (m) => logs.push(m),
  });
  const controller = new Controller(client, reconciler, {
    resyncMs: 5000,
    workers,
    log: (m) => logs.push(m),
  });
  controller.start();
  return controller;
}

/**
 * A microservices LogService `logs`: 3 ingesters at RF 3 on an external etcd ring; `overrides`
 * replace top-level fields of its spec.
 */
export function loadedLogService(
  etcdEndpoint: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'logsvc.io/v1alpha1',
    kind: 'LogService',
    metadata: { name: 'logs' },
    spec: {
      version: '0.1.0',
      mode: 'Microservices',
      replicationFactor: 3,
      components: {
        distributor: { replicas: 1 },
        ingester: { replicas: 3 },
        querier: { replicas: 1 },
      },
      compactor: { enabled: false },
      storage: { type: 'filesystem', sharedClaimName: 'logs-shared', size: '1Gi' },
      ring: { store: 'etcd', etcdEndpoints: [etcdEndpoint] },
      rollout: { terminationGracePeriod: '60s' },
      limits: {
        global: {
          ingestionRateMB: 100,
          ingestionBurstSizeMB: 100,
          maxEntriesLimitPerQuery: 100000,
        },
      },
      ...overrides,
    },
  };
}

/** The LogService `logs` when it is Ready on `version`. */
export async function readyOn(client: KubeClient, version: string) {
  const ls = await client.get<{
    status?: { version?: string; conditions?: { type: string; status: string }[] };
  }>(`${LS}/logs`);
  const ok =
    ls?.status?.version === version &&
    ls.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
  return ok ? ls : undefined;
}

/** Every pod with its phase and unmet conditions, and the LogService status: for failures. */
export async function describeCluster(client: KubeClient): Promise<string> {
  const pods = await client.call<{
    items: (PodItem & {
      spec: { nodeName?: string };
      status?: {
        phase?: string;
        conditions?: { type: string; status: string; reason?: string; message?: string }[];
      };
    })[];
  }>('GET', `/api/v1/namespaces/${NS}/pods`);
  const ls = await client.get<{ status?: unknown }>(`${LS}/logs`);
  return [
    ...pods.items.map(
      (p) =>
        `${p.metadata.name} ${p.status?.phase} node=${p.spec.nodeName ?? '-'} ${JSON.stringify(p.status?.conditions?.filter((c) => c.status !== 'True'))}`,
    ),
    JSON.stringify(ls?.status),
  ].join('\n');
}

/** Pushes all the time to a Ready distributor (as a Service would pick), recording acks. */
export class Load {
  readonly acked = new Set<string>();
  failed = 0;
  maxGapMs = 0;
  private lastAck = Date.now();
  private targets: string[] = [];
  private stopped = false;
  private running: Promise<void> | undefined;
  private seq = 0;
  readonly startNs = BigInt(Date.now() - 1000) * 1_000_000n;

  constructor(private readonly client: KubeClient) {}

  start(): void {
    this.running = Promise.all([this.refresh(), this.push(0), this.push(1)]).then(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /**
   * Stops once `entries` more entries are acknowledged, so the load ends with pushes that
   * landed after whatever the test waited for (a finished rollout, a scale-down).
   */
  async stopAfterMoreAcks(entries = 100): Promise<void> {
    const target = this.acked.size + entries;
    await waitFor(
      `${entries} more acknowledged entries`,
      async () => this.acked.size >= target,
      60_000,
    );
    await this.stop();
  }

  private async refresh(): Promise<void> {
    while (!this.stopped) {
      try {
        const pods = await podsOf(this.client, 'distributor');
        this.targets = pods.filter(isReady).map((p) => p.status!.podIP!);
      } catch {
        // keep the last list
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  private async push(worker: number): Promise<void> {
    while (!this.stopped) {
      const target = this.targets[this.seq % Math.max(1, this.targets.length)];
      const lines = Array.from({ length: 10 }, () => `entry ${worker} ${this.seq++}`);
      const base = BigInt(Date.now()) * 1_000_000n;
      const values = lines.map((line, i) => [String(base + BigInt(i)), line]);
      let ok = false;
      if (target !== undefined) {
        try {
          const res = await fetch(`http://${target}:3100/loki/api/v1/push`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'X-Scope-OrgID': TENANT },
            body: JSON.stringify({
              streams: [{ stream: { job: 'e2e', worker: String(worker) }, values }],
            }),
            signal: AbortSignal.timeout(5000),
          });
          await res.arrayBuffer();
          ok = res.status === 204;
        } catch {
          ok = false;
        }
      }
      const now = Date.now();
      if (ok) {
        for (const [ts, line] of values) this.acked.add(`${ts} ${line}`);
        this.maxGapMs = Math.max(this.maxGapMs, now - this.lastAck);
        this.lastAck = now;
      } else {
        this.failed++;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Pushes under way (200 acknowledged), then the LogService `logs` upgraded to `version`. */
export async function upgradeUnderLoad(client: KubeClient, version: string): Promise<Load> {
  const load = new Load(client);
  load.start();
  await waitFor('pushes to be acknowledged', async () => load.acked.size >= 200, 30_000);
  await client.call('PATCH', `${LS}/logs`, { spec: { version } }, 'application/merge-patch+json');
  return load;
}

/**
 * Queries every entry since the load started through the query frontend (which hands the
 * query to the querier by the scheduler) and expects each acknowledged one among them.
 */
export async function expectEveryAckedEntry(
  client: KubeClient,
  load: Load,
  label: string,
): Promise<void> {
  const frontend = (await podsOf(client, 'query-frontend')).find(isReady)!;
  const params = new URLSearchParams({
    query: '{job="e2e"}',
    start: load.startNs.toString(),
    end: (BigInt(Date.now() + 1000) * 1_000_000n).toString(),
    limit: '100000',
    direction: 'forward',
  });
  const res = await fetch(
    `http://${frontend.status!.podIP}:3100/loki/api/v1/query_range?${params}`,
    { headers: { 'X-Scope-OrgID': TENANT } },
  );
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { result: { values: [string, string][] }[] } };
  const found = new Set(
    body.data.result.flatMap((s) => s.values.map(([ts, line]) => `${ts} ${line}`)),
  );
  const missing = [...load.acked].filter((k) => !found.has(k));
  process.stderr.write(
    `${label}: ${load.acked.size} entries acknowledged, ${load.failed} pushes failed, longest gap ${load.maxGapMs}ms, ${found.size} entries queried\n`,
  );
  expect(
    missing.slice(0, 5),
    `${missing.length} of ${load.acked.size} acknowledged entries missing`,
  ).toEqual([]);
}
