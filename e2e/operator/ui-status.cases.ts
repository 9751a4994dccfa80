import { isDeepStrictEqual } from 'node:util';
import type { LogServiceView } from '@logsvc/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubeClient, LS, NS, skipMessage, waitFor } from '@logsvc/operator/testing';
import type { NodeAgent } from '../support/node-agent/agent';
import {
  startInProcessOperator,
  startOperatorCluster,
  type OperatorCluster,
} from '../support/operator-load';

// The admin UI's rollout status in a real pod: a SingleBinary LogService run by a real logsvc
// process (the node agent plays the kubelet, with the pod's service account token), whose
// `GET /ui/api/logservice` reads the LogService's status from the API server with the
// ServiceAccount and Role the operator rendered.

const POD = 'logs-single-binary-0';

const skip = skipMessage();

describe.skipIf(skip !== undefined)('operator: the UI shows the LogService status', () => {
  let cluster: OperatorCluster;
  let client: KubeClient;
  let agent: NodeAgent;
  let logs: string[];

  beforeAll(async () => {
    cluster = await startOperatorCluster({ podApiServer: true });
    ({ client, agent, logs } = cluster);
    cluster.controller = await startInProcessOperator(client, logs);
  }, 180_000);

  afterAll(() => cluster?.stop());

  it("reads the status with the pod's ServiceAccount: generation, components, rollout", async () => {
    await client.call('POST', LS, {
      apiVersion: 'logsvc.io/v1alpha1',
      kind: 'LogService',
      metadata: { name: 'logs' },
      spec: { version: '0.1.0', mode: 'SingleBinary', storage: { size: '1Gi' } },
    });
    const view = async (): Promise<LogServiceView | undefined> => {
      const ip = agent.ipOf(NS, POD);
      if (ip === undefined) return undefined;
      const res = await fetch(`http://${ip}:3100/ui/api/logservice`, {
        signal: AbortSignal.timeout(5000),
      }).catch(() => undefined);
      return res?.status === 200 ? ((await res.json()) as LogServiceView) : undefined;
    };
    // What the UI shows is what the API server holds: the rollout (which pod, why it waits),
    // the components and the generation. (Here the pod's ring ID is the host name, so the
    // operator keeps waiting for it to be ACTIVE in the ring: a waiting rollout to show.)
    const shown = (v: LogServiceView['status'] | undefined) =>
      v && {
        generation: v.generation,
        observedGeneration: v.observedGeneration,
        rollout: v.rollout,
        components: v.components,
      };
    let last: LogServiceView | undefined;
    try {
      await waitFor(
        'the UI to show the status the API server holds',
        async () => {
          last = await view();
          if (last?.status.observedGeneration !== 1 || !last.status.rollout) return undefined;
          const held = await client.get<{
            metadata: { generation: number };
            status: LogServiceView['status'];
          }>(`${LS}/logs`);
          const expected = shown({ ...held!.status, generation: held!.metadata.generation });
          return isDeepStrictEqual(shown(last.status), expected) ? true : undefined;
        },
        120_000,
      );
    } catch (err) {
      throw new Error(
        `${(err as Error).message}\nlast view status: ${JSON.stringify(last?.status)}\n${logs.slice(-15).join('\n')}\n${agent.recentOutput()}`,
      );
    }
    expect(last!.status.error).toBeUndefined();
    expect(last!.status).toMatchObject({
      generation: 1,
      components: { 'single-binary': { kind: 'StatefulSet', replicas: 1 } },
      rollout: { pod: POD, message: expect.stringContaining(POD) },
    });
    expect(last!.status.conditions?.map((c) => c.type)).toEqual([
      'Ready',
      'Progressing',
      'Degraded',
    ]);
  }, 180_000);
});
