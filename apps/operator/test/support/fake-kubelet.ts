import type { KubeClient } from '../../src/kube/client';

interface PodItem {
  metadata: { name: string; deletionTimestamp?: string };
  status?: { conditions?: { type: string; status: string }[] };
}

/**
 * Plays the kubelet's part that tier-2 tests need, without running anything: it marks the pods
 * of a namespace Running and Ready (status subresource), except those held back.
 */
export class FakeKubelet {
  readonly held = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(
    private readonly client: KubeClient,
    private readonly namespace: string,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), 300);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const list = await this.client.call<{ items: PodItem[] }>(
        'GET',
        `/api/v1/namespaces/${this.namespace}/pods`,
      );
      for (const pod of list.items) {
        const ready = pod.status?.conditions?.some(
          (c) => c.type === 'Ready' && c.status === 'True',
        );
        if (ready || pod.metadata.deletionTimestamp || this.held.has(pod.metadata.name)) continue;
        const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
        // Strategic merge: conditions merge by type, the scheduler's are kept.
        await this.client.raw(
          'PATCH',
          `/api/v1/namespaces/${this.namespace}/pods/${pod.metadata.name}/status`,
          {
            status: {
              phase: 'Running',
              podIP: '10.244.0.10',
              conditions: [
                { type: 'Ready', status: 'True', lastTransitionTime: now },
                { type: 'ContainersReady', status: 'True', lastTransitionTime: now },
              ],
            },
          },
          'application/strategic-merge-patch+json',
        );
      }
    } catch {
      // the next tick tries again
    } finally {
      this.busy = false;
    }
  }
}
