import type { Labels, Matcher } from '@logsvc/api';
import { int64, labelsFromWire, labelsToWire, matchersToWire } from './convert';
import { SERIES_REQUEST, SERIES_RESPONSE } from './messages';

/** A series request (ingesters' and index gateways' alike): matcher groups and a range. */
export function encodeSeriesRequest(
  matchersList: readonly (readonly Matcher[])[],
  fromNs: bigint,
  throughNs: bigint,
): Buffer {
  return SERIES_REQUEST.encode({
    fromNs: int64(fromNs),
    throughNs: int64(throughNs),
    groups: matchersList.map((m) => ({ matchers: matchersToWire(m) })),
  });
}

export function encodeSeriesResponse(series: readonly Labels[]): Buffer {
  return SERIES_RESPONSE.encode({ series: series.map((l) => ({ labels: labelsToWire(l) })) });
}

export function decodeSeriesResponse(bytes: Buffer): Labels[] {
  return SERIES_RESPONSE.decode(bytes).series.map((s) => labelsFromWire(s.labels));
}
