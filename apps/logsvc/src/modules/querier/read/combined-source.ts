import { labelsToString } from '@logsvc/api';
import { MergedCursor } from '@logsvc/ingester';
import type { EntryCursor, LogSource, SelectParams, SourceStream } from '@logsvc/logql';

/**
 * The ingesters and the store as one source: both are asked at once, and a stream found in
 * both (a chunk flushed but still in memory) becomes one cursor in which an entry equal in
 * timestamp and line to another source's is returned once.
 */
export class CombinedSource implements LogSource {
  constructor(private readonly sources: readonly LogSource[]) {}

  async select(params: SelectParams): Promise<SourceStream[]> {
    const answers = await Promise.all(this.sources.map((s) => s.select(params)));
    if (answers.length === 1) return answers[0];
    const byStream = new Map<string, { stream: SourceStream; cursors: EntryCursor[] }>();
    for (const streams of answers) {
      for (const stream of streams) {
        const key = labelsToString(stream.labels);
        const found = byStream.get(key);
        if (found) found.cursors.push(stream.entries);
        else byStream.set(key, { stream, cursors: [stream.entries] });
      }
    }
    const out: SourceStream[] = [];
    for (const { stream, cursors } of byStream.values()) {
      out.push(
        cursors.length === 1
          ? stream
          : { labels: stream.labels, entries: new MergedCursor(cursors, params.direction) },
      );
    }
    return out;
  }
}
