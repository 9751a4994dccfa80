import type { PodAccess } from '../../src/controller/pod-access';
import type { KubeClient } from '../../src/kube/client';
import type { RingView } from '../../src/rollout/decide';

type PodItem = {
  metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string };
  status?: { conditions?: { type: string; status: string }[] };
};

/** The ring logsvc would show: every Ready, not terminating ingester pod is ACTIVE. */
export class FakeRing implements PodAccess {
  readonly prepared: string[] = [];
  constructor(private readonly client: KubeClient) {}

  async readRing(namespace: string): Promise<RingView> {
    const pods = await this.client.call<{
      items: PodItem[];
    }>('GET', `/api/v1/namespaces/${namespace}/pods`);
    const members = pods.items
      .filter((p) => p.metadata.labels?.['controller-revision-hash'] !== undefined)
      .filter((p) => p.metadata.deletionTimestamp === undefined)
      .filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
      .map((p) => ({ id: p.metadata.name, state: 'ACTIVE', healthy: true, heartbeatAgeMs: 0 }));
    return { ok: true, members };
  }

  async prepareShutdown(_namespace: string, pod: string): Promise<void> {
    this.prepared.push(pod);
  }
}
