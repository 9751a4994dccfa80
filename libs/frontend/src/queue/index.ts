export {
  ACTOR_PATH_DELIMITER,
  ACTOR_PATH_HEADER,
  DEFAULT_MAX_QUEUE_HIERARCHY_LEVELS,
  LOKI_ACTOR_PATH_HEADER,
  actorPathHeader,
  parseActorPath,
  queuePathFor,
} from './actor-path';
export {
  QUEUE_STOPPED,
  RequestQueue,
  TOO_MANY_OUTSTANDING_REQUESTS,
  type Dequeued,
  type QuerierConnection,
  type RequestQueueOptions,
} from './request-queue';
export { EMPTY, TreeQueue } from './tree-queue';
