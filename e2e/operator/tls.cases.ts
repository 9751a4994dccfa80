import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_LABELS, parseLabels } from '@logsvc/api';
import { kindOf } from '@logsvc/errors';
import type { EtcdServer } from '@logsvc/ring/testing';
import { GrpcIngesterClient } from '@logsvc/rpc';
import { makeCa, signCert, writeExtensions } from '@logsvc/rpc/testing';
import { type KubeClient, skipMessage, waitFor } from '@logsvc/operator/testing';
import type { NodeAgent } from '../support/node-agent/agent';
import {
  isReady,
  loadedLogService,
  LS,
  NS,
  podsOf,
  startInProcessOperator,
  startOperatorCluster,
  type OperatorCluster,
} from '../support/operator-load';

// Issue 43: `spec.tls` on real pods. A microservices LogService whose pods serve and dial gRPC
// with mutual TLS from a kubernetes.io/tls Secret (made with openssl here): pushes and a query
// through the frontend, scheduler and querier succeed; a plaintext gRPC client, and one
// without the cluster's client certificate, are refused by an ingester pod's gRPC port.

const TENANT = 'e2e';

async function readyPodIp(client: KubeClient, component: string): Promise<string> {
  const pod = (await podsOf(client, component)).find(isReady);
  if (pod?.status?.podIP === undefined) throw new Error(`no Ready ${component} pod`);
  return pod.status.podIP;
}

/** The error of a direct gRPC Push to an ingester, in short; 'taken' when it was accepted. */
async function directPush(address: string, tls?: { ca: string }): Promise<string> {
  const client = new GrpcIngesterClient(address, {
    timeoutMs: 10_000,
    ...(tls
      ? {
          tls: {
            certPath: '',
            keyPath: '',
            caPath: tls.ca,
            serverName: 'logs-grpc',
            insecureSkipVerify: false,
          },
        }
      : {}),
  });
  try {
    await client.push(TENANT, {
      streams: [
        {
          labels: parseLabels('{job="sneaked"}'),
          entries: [
            {
              timestampNs: BigInt(Date.now()) * 1_000_000n,
              line: Buffer.from('past the distributor'),
              structuredMetadata: EMPTY_LABELS,
            },
          ],
        },
      ],
    });
    return 'taken';
  } catch (err) {
    const connected = !/No connection established|Failed to connect/.test((err as Error).message);
    return `${kindOf(err as Error)}: ${connected ? 'connected' : 'not connected'}`;
  } finally {
    client.close();
  }
}

const skip = skipMessage();

describe.skipIf(skip !== undefined)('operator: a LogService with spec.tls on real pods', () => {
  let cluster: OperatorCluster;
  let client: KubeClient;
  let etcd: EtcdServer;
  let agent: NodeAgent;
  let logs: string[];
  let pki: string;

  beforeAll(async () => {
    pki = mkdtempSync(join(tmpdir(), 'logsvc-pki-'));
    makeCa(pki, 'ca');
    writeExtensions(pki, [
      'subjectAltName=DNS:logs-grpc',
      'extendedKeyUsage=serverAuth,clientAuth',
      'keyUsage=digitalSignature,keyEncipherment',
    ]);
    signCert(pki, 'node', 'ca');
    cluster = await startOperatorCluster({ etcd: true, sharedClaim: true });
    ({ client, agent, logs } = cluster);
    etcd = cluster.etcd!;
    const b64 = (name: string) => readFileSync(join(pki, name)).toString('base64');
    await client.call('POST', `/api/v1/namespaces/${NS}/secrets`, {
      metadata: { name: 'logs-tls' },
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': b64('node.crt'), 'tls.key': b64('node.key'), 'ca.crt': b64('ca.crt') },
    });
    cluster.controller = await startInProcessOperator(client, logs, 2);
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    if (pki) rmSync(pki, { recursive: true, force: true });
  });

  it('pushes and queries over mutual TLS; plaintext and certificate-less gRPC are refused', async () => {
    await client.call(
      'POST',
      LS,
      loadedLogService(etcd.endpoint, {
        replicationFactor: 1,
        components: {
          distributor: { replicas: 1 },
          ingester: { replicas: 1 },
          querier: { replicas: 1 },
        },
        rollout: { terminationGracePeriod: '30s' },
        tls: { secretName: 'logs-tls', mutual: true },
      }),
    );
    const fail = (err: unknown): never => {
      throw new Error(
        `${(err as Error).message}\n${logs.slice(-20).join('\n')}\n${agent.recentOutput()}`,
      );
    };
    await waitFor(
      'the LogService to be Ready',
      async () => {
        const ls = await client.get<{
          status?: { conditions?: { type: string; status: string }[] };
        }>(`${LS}/logs`);
        return ls?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')
          ? ls
          : undefined;
      },
      240_000,
    ).catch(fail);

    const startNs = BigInt(Date.now() - 1000) * 1_000_000n;
    const distributor = await readyPodIp(client, 'distributor');
    const values = Array.from({ length: 10 }, (_, i) => [
      String(startNs + BigInt(i)),
      `over tls ${i}`,
    ]);
    // The distributor reaches the ingester over gRPC with TLS: a 204 means that worked.
    const pushed = await fetch(`http://${distributor}:3100/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Scope-OrgID': TENANT },
      body: JSON.stringify({ streams: [{ stream: { job: 'tls' }, values }] }),
    });
    expect(pushed.status).toBe(204);

    // Frontend → scheduler → querier → ingester, every hop on TLS.
    const frontend = await readyPodIp(client, 'query-frontend');
    const params = new URLSearchParams({
      query: '{job="tls"}',
      start: startNs.toString(),
      end: (BigInt(Date.now() + 1000) * 1_000_000n).toString(),
      direction: 'forward',
    });
    const lines = await waitFor(
      'the pushed lines through the query frontend',
      async () => {
        const res = await fetch(`http://${frontend}:3100/loki/api/v1/query_range?${params}`, {
          headers: { 'X-Scope-OrgID': TENANT },
        });
        if (res.status !== 200) return undefined;
        const body = (await res.json()) as { data: { result: { values: [string, string][] }[] } };
        const got = body.data.result.flatMap((s) => s.values.map(([, line]) => line));
        return got.length === values.length ? got : undefined;
      },
      60_000,
    ).catch(fail);
    expect(lines).toEqual(values.map(([, line]) => line));

    const ingester = `${await readyPodIp(client, 'ingester')}:9095`;
    expect(await directPush(ingester)).toBe('unavailable: not connected');
    // TLS that trusts the server, but without the cluster's client certificate.
    expect(await directPush(ingester, { ca: join(pki, 'ca.crt') })).toMatch(/^unavailable/);
  }, 420_000);
});
