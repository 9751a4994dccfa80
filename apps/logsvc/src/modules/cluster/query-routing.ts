// Where a process's query jobs go: which queue its frontend uses and where its querier pulls.
import type { Config } from '@logsvc/config';
import type { Component } from '../../targets';
import { sharesRing } from '../../cluster-mode';

export type FrontendQueue = 'local' | 'scheduler-address' | 'scheduler-ring' | 'none';
export type WorkerSource =
  'local' | 'scheduler-address' | 'scheduler-ring' | 'frontend-address' | 'none';

export interface QueryRouting {
  /** This process holds a queue: its scheduler's, or its frontend's when it has no scheduler. */
  readonly localQueue: boolean;
  /**
   * Where this process's frontend queues jobs: its own queue (a scheduler of this process, or
   * none configured), the scheduler at `frontend.scheduler_address`, those of the scheduler
   * ring; `none` without a frontend or outside a cluster (requests are answered in-process).
   */
  readonly frontendQueue: FrontendQueue;
  /**
   * Where this process's querier takes jobs from: the queue of this process (no gRPC to
   * itself), `frontend_worker.scheduler_address`, the scheduler ring,
   * `frontend_worker.frontend_address`; `none` without a querier, outside a cluster, or when
   * nothing is configured (the querier then answers only HTTP).
   */
  readonly workerSource: WorkerSource;
  /** This process's scheduler registers in the scheduler ring. */
  readonly joinsSchedulerRing: boolean;
  /** This process reads the scheduler ring (to find schedulers, or to join it). */
  readonly usesSchedulerRing: boolean;
}

export function queryRouting(config: Config, components: readonly Component[]): QueryRouting {
  const cluster = sharesRing(config);
  const hasScheduler = components.includes('query-scheduler');
  const useRing = config.query_scheduler.use_scheduler_ring;
  let frontendQueue: FrontendQueue = 'none';
  if (components.includes('query-frontend') && cluster) {
    if (hasScheduler) frontendQueue = 'local';
    else if (config.frontend.scheduler_address !== '') frontendQueue = 'scheduler-address';
    else if (useRing) frontendQueue = 'scheduler-ring';
    else frontendQueue = 'local';
  }
  const localQueue = hasScheduler || frontendQueue === 'local';
  let workerSource: WorkerSource = 'none';
  if (components.includes('querier') && cluster) {
    const worker = config.frontend_worker;
    if (localQueue) workerSource = 'local';
    else if (worker.scheduler_address !== '') workerSource = 'scheduler-address';
    else if (useRing) workerSource = 'scheduler-ring';
    else if (worker.frontend_address !== '') workerSource = 'frontend-address';
  }
  const joinsSchedulerRing = hasScheduler && useRing;
  return {
    localQueue,
    frontendQueue,
    workerSource,
    joinsSchedulerRing,
    usesSchedulerRing:
      joinsSchedulerRing || frontendQueue === 'scheduler-ring' || workerSource === 'scheduler-ring',
  };
}
