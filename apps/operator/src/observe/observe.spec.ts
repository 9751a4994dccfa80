import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../kube/client';
import { EventRecorder } from './events';
import { ProbeServer } from './http';
import { OperatorMetrics } from './metrics';

const fetchText = (port: number, path: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    }).on('error', reject);
  });

describe('metrics and probes', () => {
  const metrics = new OperatorMetrics({ processMetrics: false });
  let notReady: string | undefined = 'the CA bundle of logsvc-operator is not set';
  const sut = new ProbeServer({ metrics, host: '127.0.0.1', port: 0, notReady: () => notReady });
  beforeAll(() => sut.start());
  afterAll(() => sut.stop());

  it('answers /healthz always and /readyz once ready', async () => {
    expect(await fetchText(sut.port, '/healthz')).toEqual({ status: 200, text: 'ok\n' });
    expect(await fetchText(sut.port, '/readyz')).toEqual({
      status: 503,
      text: 'not ready: the CA bundle of logsvc-operator is not set\n',
    });
    notReady = undefined;
    expect((await fetchText(sut.port, '/readyz')).status).toBe(200);
  });

  it('exposes reconciles, errors, durations and the rollout phase per LogService', async () => {
    metrics.reconciled('success', 0.02);
    metrics.reconciled('error', 0.5);
    metrics.rolloutPhase('team-a', 'logs', 'Waiting');
    metrics.leading('logsvc-operator', true);
    const { text } = await fetchText(sut.port, '/metrics');
    expect(text).toContain(
      'controller_runtime_reconcile_total{controller="logservice",result="success"} 1',
    );
    expect(text).toContain('controller_runtime_reconcile_errors_total{controller="logservice"} 1');
    expect(text).toContain(
      'controller_runtime_reconcile_time_seconds_count{controller="logservice"} 2',
    );
    expect(text).toContain(
      'logsvc_operator_rollout_phase{namespace="team-a",name="logs",phase="Waiting"} 1',
    );
    expect(text).toContain(
      'logsvc_operator_rollout_phase{namespace="team-a",name="logs",phase="Idle"} 0',
    );
    expect(text).toContain('leader_election_master_status{name="logsvc-operator"} 1');
    metrics.rolloutPhase('team-a', 'logs', undefined);
    expect((await fetchText(sut.port, '/metrics')).text).not.toContain('name="logs"');
  });
});

describe('EventRecorder', () => {
  it('writes an Event per decision and bumps the count of a repeated one', async () => {
    const calls: { method: string; path: string; body: { metadata: { name: string } } }[] = [];
    const client = {
      call: async (method: string, path: string, body: unknown) => {
        calls.push({ method, path, body: body as { metadata: { name: string } } });
        return {};
      },
    } as unknown as KubeClient;
    let now = new Date('2026-12-01T10:00:00Z');
    const sut = new EventRecorder(client, {
      component: 'logsvc-operator',
      instance: 'op-0',
      now: () => now,
    });
    const ls = {
      apiVersion: 'logsvc.io/v1alpha1',
      kind: 'LogService',
      namespace: 'ns',
      name: 'logs',
      uid: 'u',
    };
    sut.record(ls, 'Warning', 'RolloutHalted', 'logs-ingester-2 not Ready after 10m');
    now = new Date('2026-12-01T10:00:30Z');
    sut.record(ls, 'Warning', 'RolloutHalted', 'logs-ingester-2 not Ready after 10m');
    sut.record(ls, 'Normal', 'RolloutResumed', 'rollout resumed');
    await sut.flush();
    expect(calls.map((c) => c.method)).toEqual(['POST', 'PATCH', 'POST']);
    expect(calls[0]).toMatchObject({
      path: '/api/v1/namespaces/ns/events',
      body: {
        involvedObject: { kind: 'LogService', name: 'logs', uid: 'u' },
        type: 'Warning',
        reason: 'RolloutHalted',
        count: 1,
        source: { component: 'logsvc-operator' },
        firstTimestamp: '2026-12-01T10:00:00Z',
      },
    });
    expect(calls[1]).toMatchObject({
      path: `/api/v1/namespaces/ns/events/${calls[0].body.metadata.name}`,
      body: { count: 2, lastTimestamp: '2026-12-01T10:00:30Z' },
    });
  });

  it('only logs an Event the API server refuses', async () => {
    const logged: string[] = [];
    const client = {
      call: async () => Promise.reject(new Error('403 forbidden')),
    } as unknown as KubeClient;
    const sut = new EventRecorder(client, {
      component: 'c',
      instance: 'i',
      log: (m) => logged.push(m),
    });
    sut.record({ apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'p' }, 'Normal', 'X', 'y');
    await sut.flush();
    expect(logged).toEqual(['event: 403 forbidden']);
  });
});
