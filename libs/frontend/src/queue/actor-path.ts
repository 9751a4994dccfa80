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
 * The queue path the scheduler uses for an actor path: none when hierarchical queues are off
 * (`maxLevels` 0), else its first `maxLevels` levels. Deeper paths are truncated, as our issue
 * 15 and the spec's "Query fairness" ask; Loki 3.4's scheduler instead refuses them with a 500
 * ("desired queue level exceeds maxium depth of queue hierarchy"), which would fail a user's
 * query for a header its client chose.
 */
export function queuePathFor(path: readonly string[], maxLevels: number): string[] {
  if (maxLevels <= 0) return [];
  return path.slice(0, maxLevels);
}
