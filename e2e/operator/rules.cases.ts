import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubeClient, NS, skipMessage, waitFor } from '@logsvc/operator/testing';
import {
  startInProcessOperator,
  startOperatorCluster,
  type OperatorCluster,
} from '../support/operator-load';

// Tier 3: a LogServiceRule evaluated by the ruler of a real logsvc process (a single binary run
// by our node agent): the operator validates it, writes it into the rules ConfigMap, the pod
// mounts it as the ruler's local storage, and the alert fires on pushed lines.

const API = `/apis/logsvc.io/v1alpha1/namespaces/${NS}`;
const TENANT = 'team-a';

interface PodItem {
  metadata: { deletionTimestamp?: string };
  status?: { podIP?: string; conditions?: { type: string; status: string }[] };
}

interface AlertsAnswer {
  data?: { alerts?: { labels: Record<string, string>; state: string }[] };
}

const skip = skipMessage();

describe.skipIf(skip !== undefined)('operator: a LogServiceRule in a running ruler', () => {
  let cluster: OperatorCluster;
  let client: KubeClient;
  let logs: string[];

  beforeAll(async () => {
    cluster = await startOperatorCluster();
    ({ client, logs } = cluster);
    cluster.controller = await startInProcessOperator(client, logs);
  }, 180_000);

  afterAll(() => cluster?.stop());

  it('fires the alert of a selected LogServiceRule on pushed lines', async () => {
    await client.call('POST', `${API}/logservicerules`, {
      apiVersion: 'logsvc.io/v1alpha1',
      kind: 'LogServiceRule',
      metadata: { name: 'web-errors', labels: { team: 'a' } },
      spec: {
        tenant: TENANT,
        groups: [
          {
            name: 'web',
            interval: '5s',
            rules: [
              {
                alert: 'WebErrors',
                expr: 'sum(count_over_time({app="web"} |= "error" [5m])) > 0',
                labels: { severity: 'page' },
              },
            ],
          },
        ],
      },
    });
    await client.call('POST', `${API}/logservices`, {
      apiVersion: 'logsvc.io/v1alpha1',
      kind: 'LogService',
      metadata: { name: 'rl' },
      spec: {
        version: '0.1.0',
        storage: { size: '1Gi' },
        rules: { selector: { matchLabels: { team: 'a' } } },
      },
    });
    const fail = (err: Error) => {
      throw new Error(`${err.message}\n${logs.slice(-20).join('\n')}`);
    };
    const pod = await waitFor(
      'the single binary to be Ready',
      async () => {
        const got = await client.get<PodItem>(`/api/v1/namespaces/${NS}/pods/rl-single-binary-0`);
        const ready = got?.status?.conditions?.some(
          (c) => c.type === 'Ready' && c.status === 'True',
        );
        return ready && got?.metadata.deletionTimestamp === undefined ? got : undefined;
      },
      120_000,
    ).catch(fail);
    const url = `http://${pod.status!.podIP}:3100`;
    const headers = { 'X-Scope-OrgID': TENANT };

    const pushed = await fetch(`${url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        streams: [
          {
            stream: { app: 'web' },
            values: [[String(BigInt(Date.now()) * 1_000_000n), 'GET / 500 error']],
          },
        ],
      }),
    });
    expect({ status: pushed.status, text: await pushed.text() }).toEqual({
      status: 204,
      text: '',
    });

    // Evaluated every 5s; no `for`, so it fires at the first evaluation that sees the line.
    const alert = await waitFor(
      'WebErrors to fire',
      async () => {
        const res = await fetch(`${url}/prometheus/api/v1/alerts`, { headers });
        const body = (await res.json()) as AlertsAnswer;
        return body.data?.alerts?.find(
          (a) => a.labels.alertname === 'WebErrors' && a.state === 'firing',
        );
      },
      60_000,
    ).catch(fail);
    expect(alert.labels).toMatchObject({ severity: 'page' });
  }, 240_000);
});
