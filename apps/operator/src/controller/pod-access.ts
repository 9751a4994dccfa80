import { HTTP_PORT } from '@logsvc/operator-render';
import type { KubeClient } from '../kube/client';
import type { RingMember, RingView } from '../rollout/decide';

/** HTTP calls to a logsvc pod: the ring page, and prepare_shutdown before a replacement. */
export interface PodAccess {
  readRing(namespace: string, pod: string): Promise<RingView>;
  prepareShutdown(namespace: string, pod: string): Promise<void>;
}

interface RingPage {
  shards?: { id: string; state: string; healthy?: boolean; heartbeat_age_ms?: number }[];
}

export function ringMembers(page: RingPage): RingMember[] {
  return (page.shards ?? []).map((s) => ({
    id: s.id,
    state: s.state,
    // logsvc reports UNHEALTHY as the state of a member past its heartbeat timeout.
    healthy: s.healthy ?? s.state !== 'UNHEALTHY',
    heartbeatAgeMs: s.heartbeat_age_ms ?? 0,
  }));
}

/**
 * Through the API server's pod proxy (`pods/<name>:3100/proxy/...`): works from inside the
 * cluster and from outside with a kubeconfig alike, and needs only `pods/proxy` in RBAC.
 */
export class ProxyPodAccess implements PodAccess {
  constructor(private readonly client: KubeClient) {}

  private path(namespace: string, pod: string, rest: string): string {
    return `/api/v1/namespaces/${namespace}/pods/${pod}:${HTTP_PORT}/proxy${rest}`;
  }

  async readRing(namespace: string, pod: string): Promise<RingView> {
    try {
      const res = await this.client.raw(
        'GET',
        this.path(namespace, pod, '/ring'),
        undefined,
        undefined,
        5000,
      );
      if (res.status !== 200 || typeof res.body !== 'object')
        return { ok: false, error: `GET /ring on ${pod}: ${res.status} ${res.text.slice(0, 200)}` };
      return { ok: true, members: ringMembers(res.body as RingPage) };
    } catch (err) {
      return { ok: false, error: `GET /ring on ${pod}: ${(err as Error).message}` };
    }
  }

  async prepareShutdown(namespace: string, pod: string): Promise<void> {
    const res = await this.client.raw(
      'POST',
      this.path(namespace, pod, '/ingester/prepare_shutdown'),
      '',
      'text/plain',
      10_000,
    );
    if (res.status !== 204 && res.status !== 200)
      throw new Error(
        `POST /ingester/prepare_shutdown on ${pod}: ${res.status} ${res.text.slice(0, 200)}`,
      );
  }
}

/**
 * Straight to the pod's IP (`http://<podIP>:3100`): for an operator inside the cluster's pod
 * network, or where the API server may not proxy to pods (its proxy refuses loopback IPs).
 */
export class DirectPodAccess implements PodAccess {
  constructor(private readonly client: KubeClient) {}

  private async base(namespace: string, pod: string): Promise<string> {
    const object = await this.client.get<{ status?: { podIP?: string } }>(
      `/api/v1/namespaces/${namespace}/pods/${pod}`,
    );
    const ip = object?.status?.podIP;
    if (!ip) throw new Error(`pod ${pod} has no IP`);
    return `http://${ip.includes(':') ? `[${ip}]` : ip}:${HTTP_PORT}`;
  }

  async readRing(namespace: string, pod: string): Promise<RingView> {
    try {
      const res = await fetch(`${await this.base(namespace, pod)}/ring`, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(5000),
      });
      const text = await res.text();
      if (res.status !== 200)
        return { ok: false, error: `GET /ring on ${pod}: ${res.status} ${text.slice(0, 200)}` };
      return { ok: true, members: ringMembers(JSON.parse(text) as RingPage) };
    } catch (err) {
      return { ok: false, error: `GET /ring on ${pod}: ${(err as Error).message}` };
    }
  }

  async prepareShutdown(namespace: string, pod: string): Promise<void> {
    const res = await fetch(`${await this.base(namespace, pod)}/ingester/prepare_shutdown`, {
      method: 'POST',
      signal: AbortSignal.timeout(10_000),
    });
    await res.text();
    if (res.status !== 204 && res.status !== 200)
      throw new Error(`POST /ingester/prepare_shutdown on ${pod}: ${res.status}`);
  }
}
