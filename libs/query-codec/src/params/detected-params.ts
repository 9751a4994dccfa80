/**
 * Parameters of Logs Drilldown's endpoints, read as Loki's `ParseDetectedFieldsQuery` and
 * `ParseDetectedLabelsQuery` (`pkg/loghttp`) read them: same defaults, order of checks and texts.
 */
import type { Matcher } from '@logsvc/api';
import { selectorMatchers } from './selectors';
import {
  type Bounds,
  HOUR_NS,
  ParamError,
  type ParamReader,
  checkResolution,
  defaultStepNs,
  parseBounds,
  parsePositiveInt,
  parseSecondsOrDuration,
} from './query-params';

const END_BEFORE_START = 'end timestamp must not be before or equal to start time';

function boundsInOrder(read: ParamReader, nowNs: bigint): Bounds {
  const bounds = parseBounds(read, nowNs, HOUR_NS);
  if (bounds.endNs < bounds.startNs) throw new ParamError(END_BEFORE_START);
  return bounds;
}

export interface DetectedFieldsParams extends Bounds {
  query: string;
  /** Entries read (`line_limit`, default 100). */
  lineLimit: number;
  /** Fields or values returned (`limit`, or the older `field_limit`; default 1000). */
  limit: number;
}

/** `detected_fields` and `detected_field/<name>/values`. */
export function parseDetectedFieldsParams(read: ParamReader, nowNs: bigint): DetectedFieldsParams {
  const query = read('query') ?? '';
  const bounds = boundsInOrder(read, nowNs);
  const lineLimit = parsePositiveInt(read('line_limit'), 100);
  const limit = parsePositiveInt(read('limit') || read('field_limit'), 1000);
  // Loki checks a step although detection does not use it.
  const stepText = read('step');
  const stepNs = stepText
    ? parseSecondsOrDuration(stepText)
    : defaultStepNs(bounds.startNs, bounds.endNs);
  if (stepNs <= 0n) {
    throw new ParamError(
      'zero or negative query resolution step widths are not accepted. Try a positive integer',
    );
  }
  checkResolution(bounds.startNs, bounds.endNs, stepNs);
  return { query, ...bounds, lineLimit, limit };
}

export interface DetectedLabelsParams extends Bounds {
  /** From `query`, a stream selector; none without it. `{}` is refused, as Loki does. */
  matchers: Matcher[];
}

/** `detected_labels`. */
export function parseDetectedLabelsParams(read: ParamReader, nowNs: bigint): DetectedLabelsParams {
  const bounds = boundsInOrder(read, nowNs);
  const query = read('query');
  const matchers = query ? selectorMatchers(query) : [];
  return { ...bounds, matchers };
}
