import { labelsToRecord } from '@logsvc/api';
import type { QueryStats } from '@logsvc/logql';
import { goFormatFloat } from '../params/go-strconv';
import { goJson, goJsonString } from './json';
import type { QueryOutcome } from './query-result';
import { statsJson } from './stats-json';

/** `[<seconds>,"<value>"]` from a millisecond timestamp, as Loki writes samples. */
function pair(ms: number, value: number): string {
  return `[${goFormatFloat(ms / 1000)},${JSON.stringify(goFormatFloat(value))}]`;
}

function resultJson(outcome: QueryOutcome): string {
  switch (outcome.type) {
    case 'streams':
      // Loki writes stream labels as they are and lines HTML-escaped (jsoniter).
      return `[${outcome.streams
        .map((s) => {
          const values = s.entries.map(([ns, line]) => `["${ns}",${goJsonString(line)}]`).join(',');
          return `{"stream":${JSON.stringify(labelsToRecord(s.labels))},"values":[${values}]}`;
        })
        .join(',')}]`;
    case 'matrix':
      return `[${outcome.series
        .map((s) => {
          const values = s.points.map(([ms, v]) => pair(ms, v)).join(',');
          return `{"metric":${goJson(labelsToRecord(s.labels))},"values":[${values}]}`;
        })
        .join(',')}]`;
    case 'vector':
      return `[${outcome.samples
        .map(
          (s) =>
            `{"metric":${goJson(labelsToRecord(s.labels))},"value":${pair(s.timestampMs, s.value)}}`,
        )
        .join(',')}]`;
    case 'scalar':
      return pair(outcome.timestampMs, outcome.value);
  }
}

/**
 * The query envelope: `{"status":"success","data":{"resultType":..,"result":..,"stats":..}}`.
 * Stream answers end with a newline, as Loki's stream encoder writes them.
 */
export function queryResponseJson(outcome: QueryOutcome, stats: QueryStats): string {
  const body =
    `{"status":"success","data":{"resultType":"${outcome.type}",` +
    `"result":${resultJson(outcome)},"stats":${goJson(statsJson(stats))}}}`;
  return outcome.type === 'streams' ? body + '\n' : body;
}
