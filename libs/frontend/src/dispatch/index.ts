export {
  DEFAULT_MAX_RETRIES,
  JobDispatcher,
  type DispatchLogger,
  type JobDispatcherOptions,
  type QueueMetrics,
} from './dispatcher';
export type { Assignment, DispatchConnection, JobExecutor } from './job';
export { LocalWorkers, type LocalWorkersOptions } from './local-workers';
