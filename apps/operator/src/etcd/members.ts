import { request } from 'node:https';
import type { TlsSpec } from '@logsvc/operator-api';
import { ETCD_CLIENT_PORT, tlsServerName } from '@logsvc/operator-render';
import type { KubeClient } from '../kube/client';
import type { EtcdMember, MemberList } from './growth';

/** Who the operator dials: a pod of the managed etcd, and its LogService's `spec.tls`. */
export interface EtcdTarget {
  readonly namespace: string;
  readonly pod: string;
  /** The LogService's name (the name on its certificate is `<name>-grpc`). */
  readonly logService: string;
  readonly tls?: TlsSpec;
}

/** etcd's cluster API (member list, member add), as its JSON gateway serves it. */
export interface EtcdAccess {
  listMembers(target: EtcdTarget): Promise<MemberList>;
  addMember(target: EtcdTarget, peerUrl: string): Promise<void>;
}

type Post = (
  target: EtcdTarget,
  path: string,
  body: unknown,
) => Promise<{ status: number; text: string }>;

interface GatewayMember {
  name?: string;
  peerURLs?: string[];
}

/** The member API over a way to POST to a member's client port (`/v3/cluster/member/...`). */
export class GatewayEtcdAccess implements EtcdAccess {
  constructor(private readonly post: Post) {}

  async listMembers(target: EtcdTarget): Promise<MemberList> {
    try {
      const res = await this.post(target, '/v3/cluster/member/list', {});
      if (res.status !== 200)
        return {
          ok: false,
          error: `member list on ${target.pod}: ${res.status} ${res.text.slice(0, 200)}`,
        };
      const body = JSON.parse(res.text) as { members?: GatewayMember[] };
      const members: EtcdMember[] = (body.members ?? []).map((m) => ({
        name: m.name ?? '',
        peerURLs: m.peerURLs ?? [],
      }));
      return { ok: true, members };
    } catch (err) {
      return { ok: false, error: `member list on ${target.pod}: ${(err as Error).message}` };
    }
  }

  async addMember(target: EtcdTarget, peerUrl: string): Promise<void> {
    const res = await this.post(target, '/v3/cluster/member/add', { peerURLs: [peerUrl] });
    if (res.status !== 200)
      throw new Error(
        `member add ${peerUrl} on ${target.pod}: ${res.status} ${res.text.slice(0, 200)}`,
      );
  }
}

/**
 * Through the API server's pod proxy (`pods/[https:]<pod>:2379/proxy/...`). The API server
 * presents no client certificate: a mutual-TLS etcd needs `--pod-access=direct`.
 */
export function proxyEtcdAccess(client: KubeClient): EtcdAccess {
  return new GatewayEtcdAccess(async (target, path, body) => {
    const scheme = target.tls === undefined ? '' : 'https:';
    const res = await client.raw(
      'POST',
      `/api/v1/namespaces/${target.namespace}/pods/${scheme}${target.pod}:${ETCD_CLIENT_PORT}/proxy${path}`,
      body,
      'application/json',
      10_000,
    );
    return { status: res.status, text: res.text };
  });
}

/** POSTs JSON to `url`; with `tls`, trusting `ca` (and presenting `cert`/`key`). */
export async function postJson(
  url: string,
  body: unknown,
  tls?: { ca: string; cert?: string; key?: string; servername: string },
): Promise<{ status: number; text: string }> {
  const payload = JSON.stringify(body);
  if (tls === undefined) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: payload,
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, text: await res.text() };
  }
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        ca: tls.ca,
        cert: tls.cert,
        key: tls.key,
        servername: tls.servername,
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out after 10s')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Straight to the pod's IP, with the LogService's TLS Secret when it has `spec.tls`. */
export function directEtcdAccess(client: KubeClient): EtcdAccess {
  return new GatewayEtcdAccess(async (target, path, body) => {
    const pod = await client.get<{ status?: { podIP?: string } }>(
      `/api/v1/namespaces/${target.namespace}/pods/${target.pod}`,
    );
    const ip = pod?.status?.podIP;
    if (!ip) throw new Error(`pod ${target.pod} has no IP`);
    const host = ip.includes(':') ? `[${ip}]` : ip;
    if (target.tls === undefined)
      return postJson(`http://${host}:${ETCD_CLIENT_PORT}${path}`, body);
    const secret = await client.get<{ data?: Record<string, string> }>(
      `/api/v1/namespaces/${target.namespace}/secrets/${target.tls.secretName}`,
    );
    const key = (k: string) => Buffer.from(secret?.data?.[k] ?? '', 'base64').toString('utf8');
    return postJson(`https://${host}:${ETCD_CLIENT_PORT}${path}`, body, {
      ca: key('ca.crt'),
      ...(target.tls.mutual ? { cert: key('tls.crt'), key: key('tls.key') } : {}),
      servername: tlsServerName(target.logService),
    });
  });
}
