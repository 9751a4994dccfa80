import { EMPTY_LABELS, type Labels, type LogEntry, labelsToString } from '@logsvc/api';
import { log } from '@logsvc/logql';
import type { TailEntry } from './tail-types';

/** Streams whose pipeline state is kept; past this the cache starts over (bounded memory). */
const MAX_CACHED_STREAMS = 4096;

/**
 * Runs a log query's pipeline on live entries, stream by stream, the way a log query does:
 * one StreamPipeline per stream (its label and parser caches kept between pushes).
 */
export class LivePipeline {
  private readonly streams = new Map<string, log.StreamPipeline>();
  /** Label text of streams whose labels object is stable (the in-process ingester's). */
  private readonly texts = new WeakMap<Labels, string>();

  /**
   * `streamLabelsOnly`: the query has no stage, so entries keep the stream's own labels, without
   * their structured metadata, as Loki's ingester tails a query without a pipeline.
   * `categorize`: entries keep the stream's labels, their others go to `categories` (without
   * stages, their structured metadata as pushed, as Loki passes such entries on whole).
   */
  constructor(
    private readonly pipeline: log.Pipeline,
    readonly streamLabelsOnly = false,
    private readonly categorize = false,
  ) {}

  /**
   * The entries the pipeline keeps, with their labels and lines after it. Lines are copied out
   * (as strings): the entries' buffers may be reused once this returns.
   */
  process(labels: Labels, entries: readonly LogEntry[], out: TailEntry[]): void {
    if (this.streamLabelsOnly) {
      for (const e of entries) {
        const line = e.line.toString();
        if (!this.categorize) out.push({ labels, timestampNs: e.timestampNs, line });
        else {
          const categories = log.entryCategories(e.structuredMetadata, EMPTY_LABELS);
          out.push({ labels, timestampNs: e.timestampNs, line, categories });
        }
      }
      return;
    }
    const stream = this.streamPipeline(labels);
    for (const e of entries) {
      const r = stream.process(e.timestampNs, e.line, e.structuredMetadata);
      if (r === null) continue;
      const line = r.line.toString();
      if (!this.categorize) out.push({ labels: r.labels.labels, timestampNs: e.timestampNs, line });
      else {
        const categories = r.labels.categories();
        out.push({ labels: r.labels.stream, timestampNs: e.timestampNs, line, categories });
      }
    }
  }

  private streamPipeline(labels: Labels): log.StreamPipeline {
    let text = this.texts.get(labels);
    if (text === undefined) {
      text = labelsToString(labels);
      this.texts.set(labels, text);
    }
    let stream = this.streams.get(text);
    if (stream === undefined) {
      if (this.streams.size >= MAX_CACHED_STREAMS) this.streams.clear();
      stream = this.pipeline.forStream(labels);
      this.streams.set(text, stream);
    }
    return stream;
  }
}
