export { ReadApi, type ReadAnswer, type ReadRequest } from './read-api';
export { queryJobRunner, type QueryJobRunner, type QueryJobRunnerOptions } from './query-jobs';
