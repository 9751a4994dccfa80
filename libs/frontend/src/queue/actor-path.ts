import { LogsvcError } from '@logsvc/errors';

/** The header naming the sub-queue path of a request. */
export const ACTOR_PATH_HEADER = 'X-Logsvc-Actor-Path';
/** Loki's name of the same header, accepted as well. */
export const LOKI_ACTOR_PATH_HEADER = 'X-Loki-Actor-Path';
/** The separator of the path's levels (Loki's `LokiActorPathDelimiter`). */
export const ACTOR_PATH_DELIMITER = '|';
/** `max_queue_hierarchy_levels`' default. */
export const DEFAULT_MAX_QUEUE_HIERARCHY_LEVELS = 3;

/**
 * The actor path of a header value, as Loki's `httpreq.ExtractActorPath`: no path for an absent
 * or empty value, otherwise the value split at every `|` (empty levels are kept, as Loki keeps
 * them: `a||b` is three levels).
 */
export function parseActorPath(header: string | undefined): string[] {
  if (header === undefined || header === '') return [];
  return header.split(ACTOR_PATH_DELIMITER);
}

/**
 * The header value of a request's actor path: `X-Logsvc-Actor-Path`, else `X-Loki-Actor-Path`.
 * `header` looks a header up by its name (case handling is the caller's, e.g. Node's lower-cased
 * `IncomingHttpHeaders`; pass a lookup that lower-cases).
 */
export function actorPathHeader(header: (name: string) => string | undefined): string | undefined {
  const own = header(ACTOR_PATH_HEADER);
  return own !== undefined && own !== '' ? own : header(LOKI_ACTOR_PATH_HEADER);
}

/**
 * The queue path the scheduler uses for an actor path (Loki's `Scheduler.enqueueRequest`): none
 * when hierarchical queues are off (`maxLevels` 0), the path itself when it is at most
 * `maxLevels` deep. A deeper path is refused, not truncated: Loki 3.4 answers the query with a
 * 500 and this text (typo included).
 */
export function queuePathFor(path: readonly string[], maxLevels: number): string[] {
  if (maxLevels <= 0) return [];
  if (path.length > maxLevels) {
    throw new LogsvcError(
      'internal',
      'desired queue level exceeds maxium depth of queue hierarchy: ' +
        `The header ${LOKI_ACTOR_PATH_HEADER} with value '${path.join(ACTOR_PATH_DELIMITER)}' ` +
        `would result in a sub-queue which is nested ${path.length} levels deep, however only ` +
        `${maxLevels} levels are allowed based on the configuration setting ` +
        '-query-scheduler.max-queue-hierarchy-levels',
    );
  }
  return [...path];
}
