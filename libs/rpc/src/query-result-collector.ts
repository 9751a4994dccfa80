import { labelsEqual, labelsHash, type Labels, type LogEntry } from '@logsvc/api';
import type { IngesterQueryStats, StreamQueryResult } from '@logsvc/ingester';
import { EntryArrayCursor } from './entry-array-cursor';
import { decodeQueryBatch } from './wire/query-batch';

interface Collected {
  readonly labels: Labels;
  entries: LogEntry[];
}

/**
 * Gathers an ingester's streamed QueryResponse batches into per-stream results. The server cuts
 * a stream at a batch boundary and goes on with it as the first stream of the next batch, so a
 * stream continues the previous one when their labels are the same.
 */
export class QueryResultCollector {
  private readonly streams: Collected[] = [];
  private received: IngesterQueryStats | undefined;

  /** Adds one received message; lines stay views into it. */
  add(message: Buffer): void {
    const batch = decodeQueryBatch(message);
    for (const s of batch.streams) {
      const last = this.streams.at(-1);
      if (last !== undefined && labelsEqual(last.labels, s.labels)) {
        for (const e of s.entries) last.entries.push(e);
      } else {
        this.streams.push({ labels: s.labels, entries: s.entries });
      }
    }
    if (batch.stats) this.received = batch.stats;
  }

  /** The server's counters, from its last message; undefined if it never got there. */
  get stats(): IngesterQueryStats | undefined {
    return this.received;
  }

  /** Results as the in-process ingester gives them, without `chunks`. */
  results(): StreamQueryResult[] {
    return this.streams.map(({ labels, entries }) => ({
      labels,
      // The same hash the ingester keys its streams by.
      fingerprint: labelsHash(labels),
      // The ingester sent the merged entries, so they stand for the one "chunk" here.
      cursors: [new EntryArrayCursor(entries)],
      entries: new EntryArrayCursor(entries),
    }));
  }
}
