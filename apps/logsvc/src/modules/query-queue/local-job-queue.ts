import type { Config } from '@logsvc/config';
import { type DispatchLogger, JobDispatcher } from '@logsvc/frontend';
import type { Registry } from 'prom-client';
import type { Component } from '../../targets';
import { queryRouting } from '../cluster/query-routing';
import { queueMetrics } from './queue-metrics';

/**
 * The query queue of this process, when it holds one (see QueryRouting.localQueue): the
 * scheduler's, whose limit is `query_scheduler.max_outstanding_requests_per_tenant`, or a
 * frontend's without a scheduler, limited by `frontend.max_outstanding_per_tenant`.
 */
export class LocalJobQueue {
  readonly dispatcher: JobDispatcher | undefined;

  /**
   * `registry`: where the queue's metrics go, under Loki's names (see queueMetrics); `logger`:
   * where a job whose querier went away is reported, with its tenant and query.
   */
  constructor(
    config: Config,
    components: readonly Component[],
    registry?: Registry,
    logger?: DispatchLogger,
  ) {
    if (!queryRouting(config, components).localQueue) return;
    const scheduler = components.includes('query-scheduler');
    const metrics =
      registry === undefined
        ? undefined
        : queueMetrics(registry, scheduler ? 'scheduler' : 'frontend', () =>
            this.dispatcher === undefined ? 0 : this.dispatcher.connectionCount,
          );
    this.dispatcher = new JobDispatcher({
      maxOutstandingPerTenant: scheduler
        ? config.query_scheduler.max_outstanding_requests_per_tenant
        : config.frontend.max_outstanding_per_tenant,
      maxQueueHierarchyLevels: config.query_scheduler.max_queue_hierarchy_levels,
      ...(metrics === undefined ? {} : { metrics }),
      ...(logger === undefined ? {} : { logger }),
    });
  }
}
