import { type Labels, labelsToRecord, labelsToString } from '@logsvc/api';
import { formatRfc3339Nano } from '@logsvc/gocompat';
import type { TailFrame } from '../tail-frame';
import { CATEGORIZE_LABELS } from './encoding-flags';
import { goJson, goJsonString } from './json';
import { categoriesJson } from './query-json';

/**
 * A tail message of `/loki/api/v1/tail` (Loki's `marshal.WriteTailResponseJSON`): one stream
 * object per entry, in time order, as Loki's tailer builds them, and `dropped_entries` only when
 * some were dropped. Stream labels are written as they are, lines and dropped labels
 * HTML-escaped, as Loki's encoders do. With `categorize` (the request's
 * `X-Loki-Response-Encoding-Flags: categorize-labels`), each value gets the entry's label
 * categories as a third element, and the message ends with `encodingFlags`.
 */
export function tailFrameJson(frame: TailFrame, categorize = false): string {
  let streams = '';
  for (const e of frame.entries) {
    if (streams !== '') streams += ',';
    const categories = categorize ? `,${categoriesJson(e.categories)}` : '';
    streams += `{"stream":${streamLabelsJson(e.labels)},"values":[["${e.timestampNs}",${goJsonString(e.line)}${categories}]]}`;
  }
  let json = `{"streams":[${streams}]`;
  if (frame.dropped.length > 0) {
    const dropped = frame.dropped
      .map((d) => {
        const labels = d.labels.length > 0 ? `,"labels":${goJson(labelsToRecord(d.labels))}` : '';
        return `{"timestamp":"${d.timestampNs}"${labels}}`;
      })
      .join(',');
    json += `,"dropped_entries":[${dropped}]`;
  }
  if (categorize) json += `,"encodingFlags":["${CATEGORIZE_LABELS}"]`;
  return `${json}}`;
}

/**
 * Label sets of entries are shared objects (the pipeline caches them per stream), and every
 * entry of a message repeats its stream's labels: their JSON is made once per label set.
 */
const labelsJsonCache = new WeakMap<Labels, string>();

function streamLabelsJson(labels: Labels): string {
  let json = labelsJsonCache.get(labels);
  if (json === undefined) {
    json = JSON.stringify(labelsToRecord(labels));
    labelsJsonCache.set(labels, json);
  }
  return json;
}

/**
 * A tail message of the deprecated `/api/prom/tail` (Loki's legacy `TailResponse` through Go's
 * `encoding/json`): label strings, `{ts, line}` entries with RFC 3339 times, dropped entries
 * with Go's field names (`null` when there are none), and a newline at the end.
 */
export function legacyTailFrameJson(frame: TailFrame): string {
  const streams = frame.entries
    .map(
      (e) =>
        `{"labels":${goJson(labelsToString(e.labels))},"entries":[{"ts":"${formatRfc3339Nano(e.timestampNs)}","line":${goJsonString(e.line)}}]}`,
    )
    .join(',');
  const dropped =
    frame.dropped.length === 0
      ? 'null'
      : `[${frame.dropped
          .map(
            (d) =>
              `{"Timestamp":"${formatRfc3339Nano(d.timestampNs)}","Labels":${goJson(labelsToString(d.labels))}}`,
          )
          .join(',')}]`;
  return `{"streams":[${streams}],"dropped_entries":${dropped}}\n`;
}
