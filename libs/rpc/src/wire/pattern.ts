import type { PatternQuery, PatternSeries } from '@logsvc/pattern';
import { matchersFromWire, matchersToWire } from './convert';
import { PATTERN_QUERY_REQUEST, QUERY_PATTERNS_RESPONSE } from './messages';

export function encodePatternQuery(query: PatternQuery): Buffer {
  return PATTERN_QUERY_REQUEST.encode({
    matchers: matchersToWire(query.matchers),
    fromMs: String(query.fromMs),
    throughMs: String(query.throughMs),
    stepMs: String(query.stepMs),
  });
}

export function decodePatternQuery(bytes: Buffer): PatternQuery {
  const q = PATTERN_QUERY_REQUEST.decode(bytes);
  return {
    matchers: matchersFromWire(q.matchers),
    fromMs: Number(q.fromMs),
    throughMs: Number(q.throughMs),
    stepMs: Number(q.stepMs),
  };
}

export function encodePatternSeries(series: readonly PatternSeries[]): Buffer {
  return QUERY_PATTERNS_RESPONSE.encode({
    series: series.map((s) => ({
      pattern: s.pattern,
      samples: s.samples.map((p) => ({ timestamp: String(p.timestampMs), value: String(p.value) })),
    })),
  });
}

export function decodePatternSeries(bytes: Buffer): PatternSeries[] {
  return QUERY_PATTERNS_RESPONSE.decode(bytes).series.map((s) => ({
    pattern: s.pattern,
    samples: s.samples.map((p) => ({ timestampMs: Number(p.timestamp), value: Number(p.value) })),
  }));
}
