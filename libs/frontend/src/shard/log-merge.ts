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

/** One stream of one sub-answer, read from its next entry on. */
interface Run {
  readonly stream: ResultStream;
  readonly streamText: string;
  /** Where the run's entries start in the order of all candidates (the last tie-breaker). */
  readonly seq: number;
  next: number;
  /** The head entry's labels text (the engine's tie-breaker). */
  order: string;
}

function entryLabelsText(stream: ResultStream, entry: ResultEntry, streamText: string): string {
  const categories = entry[2];
  if (categories === undefined) return streamText;
  const extra: Labels = [...(categories.structuredMetadata ?? []), ...(categories.parsed ?? [])];
  return extra.length === 0 ? streamText : labelsToString(sortLabels([...stream.labels, ...extra]));
}

/** Orders candidates: timestamp in the query's direction, then labels text, then arrival. */
function comparator(forward: boolean) {
  return (ta: bigint, oa: string, sa: number, tb: bigint, ob: string, sb: number): number => {
    if (ta !== tb) return (forward ? ta < tb : ta > tb) ? -1 : 1;
    if (oa !== ob) return oa < ob ? -1 : 1;
    return sa - sb;
  };
}

/**
 * Whether a stream's entries come in merge order already (the engine returns them in the
 * query's direction; equal timestamps with other structured metadata may not be).
 */
function inMergeOrder(run: Run, compare: ReturnType<typeof comparator>): boolean {
  const { entries } = run.stream;
  let prevOrder = run.order;
  for (let i = 1; i < entries.length; i++) {
    const order = entryLabelsText(run.stream, entries[i]!, run.streamText);
    if (compare(entries[i - 1]![0], prevOrder, i - 1, entries[i]![0], order, i) > 0) return false;
    prevOrder = order;
  }
  return true;
}

export function mergeLogAnswers(
  answers: readonly (readonly ResultStream[])[],
  direction: 'forward' | 'backward',
  limit: number,
): ResultStream[] {
  const compare = comparator(direction === 'forward');
  const runs: Run[] = [];
  let seq = 0;
  for (const streams of answers) {
    for (const stream of streams) {
      if (stream.entries.length === 0) continue;
      const streamText = labelsToString(stream.labels);
      const order = entryLabelsText(stream, stream.entries[0]!, streamText);
      runs.push({ stream, streamText, seq, next: 0, order });
      seq += stream.entries.length;
    }
  }
  // A lone answer already in its final shape (an unsplit, unsharded query: the engine's own
  // answer) comes out unchanged: skip the merge.
  if (answers.length === 1 && seq <= limit && isFinal(runs, compare))
    return runs.map((r) => ({ labels: r.stream.labels, entries: r.stream.entries }));
  const kept = runs.every((r) => inMergeOrder(r, compare))
    ? mergeRuns(runs, compare, limit)
    : sortAll(runs, compare, limit);
  const byStream = new Map<string, { labels: Labels; text: string; entries: ResultEntry[] }>();
  for (const [run, entry] of kept) {
    let out = byStream.get(run.streamText);
    if (out === undefined)
      byStream.set(
        run.streamText,
        (out = { labels: run.stream.labels, text: run.streamText, entries: [] }),
      );
    out.entries.push(entry);
  }
  return [...byStream.values()]
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map((s) => ({ labels: s.labels, entries: s.entries }));
}

/**
 * Whether the runs are what the merge would return for them: streams in strictly ascending
 * label text (so no two to join), each in merge order. The caller checks the limit.
 */
function isFinal(runs: readonly Run[], compare: ReturnType<typeof comparator>): boolean {
  for (let i = 1; i < runs.length; i++)
    if (!(runs[i - 1]!.streamText < runs[i]!.streamText)) return false;
  return runs.every((r) => inMergeOrder(r, compare));
}

/** The first `limit` entries of runs each in merge order: a k-way merge on a binary heap. */
function mergeRuns(
  runs: Run[],
  compare: ReturnType<typeof comparator>,
  limit: number,
): [Run, ResultEntry][] {
  const less = (a: Run, b: Run): boolean =>
    compare(
      a.stream.entries[a.next]![0],
      a.order,
      a.seq + a.next,
      b.stream.entries[b.next]![0],
      b.order,
      b.seq + b.next,
    ) < 0;
  const heap = runs;
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  const out: [Run, ResultEntry][] = [];
  while (out.length < limit && heap.length > 0) {
    const top = heap[0]!;
    out.push([top, top.stream.entries[top.next]!]);
    top.next++;
    if (top.next < top.stream.entries.length) {
      top.order = entryLabelsText(top.stream, top.stream.entries[top.next]!, top.streamText);
    } else {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    if (heap.length > 0) down(0);
  }
  return out;
}

/** The first `limit` entries of every run, sorted (for runs not in merge order). */
function sortAll(
  runs: readonly Run[],
  compare: ReturnType<typeof comparator>,
  limit: number,
): [Run, ResultEntry][] {
  const all: { run: Run; entry: ResultEntry; order: string; seq: number }[] = [];
  for (const run of runs) {
    run.stream.entries.forEach((entry, i) =>
      all.push({
        run,
        entry,
        order: entryLabelsText(run.stream, entry, run.streamText),
        seq: run.seq + i,
      }),
    );
  }
  all.sort((a, b) => compare(a.entry[0], a.order, a.seq, b.entry[0], b.order, b.seq));
  return all.slice(0, Math.max(0, limit)).map((c) => [c.run, c.entry]);
}
