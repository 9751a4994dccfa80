/**
 * Several sources as one: all are asked at once, and a stream returned by more than one of
 * them (a chunk flushed but still held by an ingester, replicas) becomes one cursor without
 * duplicate entries.
 */
import { labelsKey } from '../../log/labels-builder';
import type { EntryCursor, LogSource, SelectParams, SourceStream } from '../source';
import { DedupingMergeCursor } from './merge-cursor';

export function combineSources(...sources: LogSource[]): LogSource {
  if (sources.length === 1) return sources[0];
  return {
    async select(params: SelectParams): Promise<SourceStream[]> {
      const answers = await Promise.all(sources.map((s) => s.select(params)));
      const byLabels = new Map<string, { first: SourceStream; cursors: EntryCursor[] }>();
      const streamsOf = new Map<SourceStream, SourceStream[]>();
      for (const streams of answers) {
        for (const stream of streams) {
          const key = labelsKey(stream.labels);
          const group = byLabels.get(key);
          if (group === undefined) {
            byLabels.set(key, { first: stream, cursors: [stream.entries] });
            streamsOf.set(stream, [stream]);
          } else {
            group.cursors.push(stream.entries);
            streamsOf.get(group.first)!.push(stream);
          }
        }
      }
      const out: SourceStream[] = [];
      for (const { first, cursors } of byLabels.values()) {
        out.push(
          cursors.length === 1
            ? first
            : {
                labels: first.labels,
                // Lines of a stream several sources hold count where all of them count them.
                ...(streamsOf.get(first)!.every((x) => x.stats === first.stats) &&
                first.stats !== undefined
                  ? { stats: first.stats }
                  : {}),
                entries: new DedupingMergeCursor(
                  cursors,
                  params.direction,
                  params.stats.querier.store.chunk,
                ),
              },
        );
      }
      return out;
    },
  };
}
