import { parseConfig } from '@logsvc/config';
import { describe, expect, it } from 'vitest';
import type { Component } from '../../targets';
import { queryRouting } from './query-routing';

const etcd = { common: { ring: { kvstore: { store: 'etcd' } } } };
const routing = (components: Component[], raw: Record<string, unknown> = {}) =>
  queryRouting(parseConfig({ ...etcd, ...raw }), components);

describe('queryRouting', () => {
  it('leaves the single binary as it is: no forwarding, no workers', () => {
    const single = queryRouting(parseConfig({}), ['query-scheduler', 'query-frontend', 'querier']);
    expect(single).toMatchObject({ frontendQueue: 'none', workerSource: 'none' });
  });

  it('queues on the scheduler of the same process, whose querier pulls in-process', () => {
    expect(routing(['query-scheduler', 'query-frontend', 'querier'])).toEqual({
      localQueue: true,
      frontendQueue: 'local',
      workerSource: 'local',
      joinsSchedulerRing: false,
      usesSchedulerRing: false,
    });
  });

  it('sends a frontend to frontend.scheduler_address, a querier to frontend_worker.scheduler_address', () => {
    expect(
      routing(['query-frontend'], { frontend: { scheduler_address: 's:9095' } }),
    ).toMatchObject({ localQueue: false, frontendQueue: 'scheduler-address' });
    expect(
      routing(['querier'], { frontend_worker: { scheduler_address: 's:9095' } }),
    ).toMatchObject({ localQueue: false, workerSource: 'scheduler-address' });
    expect(routing(['querier'], { frontend_worker: { frontend_address: 'f:9095' } })).toMatchObject(
      { workerSource: 'frontend-address' },
    );
  });

  it('finds schedulers in the scheduler ring with use_scheduler_ring', () => {
    const ring = { query_scheduler: { use_scheduler_ring: true } };
    expect(routing(['query-frontend', 'querier'], ring)).toMatchObject({
      localQueue: false,
      frontendQueue: 'scheduler-ring',
      workerSource: 'scheduler-ring',
      usesSchedulerRing: true,
    });
    expect(routing(['query-scheduler'], ring)).toMatchObject({
      localQueue: true,
      joinsSchedulerRing: true,
    });
  });

  it('lets a frontend without a scheduler hold the queue, and a lone querier answer only HTTP', () => {
    expect(routing(['query-frontend', 'querier'])).toMatchObject({
      localQueue: true,
      frontendQueue: 'local',
      workerSource: 'local',
    });
    expect(routing(['querier'])).toMatchObject({ localQueue: false, workerSource: 'none' });
  });
});
