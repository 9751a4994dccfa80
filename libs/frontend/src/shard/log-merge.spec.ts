import type { Labels, ResultEntry, ResultStream } from '@logsvc/api';
import { labelsToString, sortLabels } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeLogAnswers } from './log-merge';

/** The definition: every entry sorted by timestamp, labels text, arrival; the first `limit`. */
function sortedMerge(
  answers: readonly (readonly ResultStream[])[],
  direction: 'forward' | 'backward',
  limit: number,
): ResultStream[] {
  const all: { entry: ResultEntry; stream: ResultStream; order: string; seq: number }[] = [];
  for (const streams of answers)
    for (const stream of streams)
      for (const entry of stream.entries) {
        const c = entry[2];
        const extra = [...(c?.structuredMetadata ?? []), ...(c?.parsed ?? [])];
        const order = labelsToString(sortLabels([...stream.labels, ...extra]));
        all.push({ entry, stream, order, seq: all.length });
      }
  const sign = direction === 'forward' ? 1 : -1;
  all.sort((a, b) =>
    a.entry[0] !== b.entry[0]
      ? a.entry[0] < b.entry[0]
        ? -sign
        : sign
      : a.order !== b.order
        ? a.order < b.order
          ? -1
          : 1
        : a.seq - b.seq,
  );
  const byStream = new Map<string, { labels: Labels; entries: ResultEntry[] }>();
  for (const c of all.slice(0, limit)) {
    const text = labelsToString(c.stream.labels);
    if (!byStream.has(text)) byStream.set(text, { labels: c.stream.labels, entries: [] });
    byStream.get(text)!.entries.push(c.entry);
  }
  return [...byStream.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
}

const podLabels = (pod: number): Labels => [
  { name: 'app', value: 'api' },
  { name: 'pod', value: `p${pod}` },
];

/** Sub-answers as the engine gives them: each stream's entries in the query's direction. */
function answersOf(
  raw: { pod: number; ts: number; sm: number | null }[][],
  direction: 'forward' | 'backward',
  ordered: boolean,
): ResultStream[][] {
  return raw.map((answer) => {
    const byPod = new Map<number, ResultEntry[]>();
    for (const { pod, ts, sm } of answer) {
      const entry: ResultEntry =
        sm === null
          ? [BigInt(ts), `line ${ts}`]
          : [
              BigInt(ts),
              `line ${ts}`,
              { structuredMetadata: [{ name: 'trace', value: `t${sm}` }] },
            ];
      byPod.set(pod, [...(byPod.get(pod) ?? []), entry]);
    }
    return [...byPod].map(([pod, entries]) => ({
      labels: podLabels(pod),
      entries: ordered
        ? [...entries].sort((a, b) =>
            a[0] === b[0] ? 0 : a[0] < b[0] === (direction === 'forward') ? -1 : 1,
          )
        : entries,
    }));
  });
}

const rawAnswers = fc.array(
  fc.array(
    fc.record({
      pod: fc.integer({ min: 0, max: 4 }),
      ts: fc.integer({ min: 0, max: 30 }),
      sm: fc.option(fc.integer({ min: 0, max: 3 })),
    }),
    { maxLength: 30 },
  ),
  { maxLength: 5 },
);

describe('mergeLogAnswers', () => {
  it('keeps the first `limit` entries in the order a full sort gives, for any sub-answers', () => {
    fc.assert(
      fc.property(
        rawAnswers,
        fc.constantFrom('forward' as const, 'backward' as const),
        fc.integer({ min: 0, max: 60 }),
        fc.boolean(),
        (raw, direction, limit, ordered) => {
          const answers = answersOf(raw, direction, ordered);
          expect(mergeLogAnswers(answers, direction, limit)).toEqual(
            sortedMerge(answers, direction, limit),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives a lone merged answer back unchanged (an unsplit query skips the merge)', () => {
    fc.assert(
      fc.property(
        rawAnswers,
        fc.constantFrom('forward' as const, 'backward' as const),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        (raw, direction, limit, again) => {
          const merged = sortedMerge(answersOf(raw, direction, true), direction, limit);
          expect(mergeLogAnswers([merged], direction, again)).toEqual(
            sortedMerge([merged], direction, again),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes the newest entries over the shards, grouped by stream', () => {
    const shards = Array.from({ length: 4 }, (_, s) => [
      {
        labels: podLabels(s),
        entries: Array.from(
          { length: 1000 },
          (_, i) => [BigInt(4000 - i * 4 - s), `l${i}`] as ResultEntry,
        ),
      },
    ]);
    const merged = mergeLogAnswers(shards, 'backward', 10);
    expect(merged.map((s) => [s.labels[1]!.value, s.entries.map((e) => Number(e[0]))])).toEqual([
      ['p0', [4000, 3996, 3992]],
      ['p1', [3999, 3995, 3991]],
      ['p2', [3998, 3994]],
      ['p3', [3997, 3993]],
    ]);
  });
});
