/**
 * Merges the answers of a log query's sub-queries (time splits, stream shards) into the answer
 * of the whole query: the first `limit` entries in the query's direction, ties on the
 * timestamp broken by the entry's labels as the engine's merge breaks them, grouped by stream
 * and the streams sorted by their label text.
 */
import {
  type Labels,
  labelsToString,
  type ResultEntry,
  type ResultStream,
  sortLabels,
} from '@logsvc/api';

interface Candidate {
  readonly entry: ResultEntry;
  readonly stream: ResultStream;
  /** The text of every label of the entry: the engine's tie-breaker. */
  readonly order: string;
  readonly seq: number;
}

function entryLabelsText(stream: ResultStream, entry: ResultEntry, streamText: string): string {
  const categories = entry[2];
  if (categories === undefined) return streamText;
  const extra: Labels = [...(categories.structuredMetadata ?? []), ...(categories.parsed ?? [])];
  return extra.length === 0 ? streamText : labelsToString(sortLabels([...stream.labels, ...extra]));
}

export function mergeLogAnswers(
  answers: readonly (readonly ResultStream[])[],
  direction: 'forward' | 'backward',
  limit: number,
): ResultStream[] {
  const candidates: Candidate[] = [];
  let seq = 0;
  for (const streams of answers) {
    for (const stream of streams) {
      const text = labelsToString(stream.labels);
      for (const entry of stream.entries) {
        candidates.push({ entry, stream, order: entryLabelsText(stream, entry, text), seq: seq++ });
      }
    }
  }
  const forward = direction === 'forward';
  candidates.sort((a, b) => {
    const ta = a.entry[0];
    const tb = b.entry[0];
    if (ta !== tb) return (forward ? ta < tb : ta > tb) ? -1 : 1;
    if (a.order !== b.order) return a.order < b.order ? -1 : 1;
    return a.seq - b.seq;
  });
  const kept = candidates.slice(0, Math.max(0, limit));
  const byStream = new Map<string, { labels: Labels; text: string; entries: ResultEntry[] }>();
  for (const c of kept) {
    const text = labelsToString(c.stream.labels);
    let out = byStream.get(text);
    if (out === undefined)
      byStream.set(text, (out = { labels: c.stream.labels, text, entries: [] }));
    out.entries.push(c.entry);
  }
  return [...byStream.values()]
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map((s) => ({ labels: s.labels, entries: s.entries }));
}
