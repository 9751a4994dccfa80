import { goQuote } from '@logsvc/api';
import { goParseInt } from '@logsvc/gocompat';
import { parseExpr } from '@logsvc/logql';
import { ParamError } from '../param-error';
import { HOUR_NS, type ParamReader, parseBounds, parseLimit } from './query-params';

/** Loki's `maxDelayForInTailing`. */
export const MAX_DELAY_FOR_SECONDS = 5;

export interface TailParams {
  readonly query: string;
  readonly startNs: bigint;
  readonly limit: number;
  readonly delayForSeconds: number;
}

/**
 * Loki's `ParseTailQuery`, in its order and with its texts: the query must parse (a metric
 * query too: it is refused later, on the socket), the legacy `regexp` parameter becomes a
 * `|~` line filter, then `limit`, the bounds (`start`, default an hour ago) and `delay_for`
 * (whole seconds, at most 5; Go reads it as a uint32, so a negative value is too large).
 */
export function parseTailParams(read: ParamReader, nowNs: bigint): TailParams {
  let query = read('query') ?? '';
  parseExpr(query);
  const regexp = read('regexp');
  if (regexp) {
    query = `${query} |~ ${goQuote(regexp)}`;
    parseExpr(query);
  }
  const limit = parseLimit(read);
  const { startNs } = parseBounds(read, nowNs, HOUR_NS);
  const delayForSeconds = parseDelayFor(read('delay_for'));
  if (delayForSeconds > MAX_DELAY_FOR_SECONDS) {
    throw new ParamError(`delay_for can't be greater than ${MAX_DELAY_FOR_SECONDS}`);
  }
  return { query, startNs, limit, delayForSeconds };
}

function parseDelayFor(text: string | undefined): number {
  if (!text) return 0;
  let n: bigint;
  try {
    n = goParseInt(text, 'Atoi');
  } catch (err) {
    throw new ParamError((err as Error).message);
  }
  return Number(BigInt.asUintN(32, n));
}
