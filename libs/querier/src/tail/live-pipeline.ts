import { EMPTY_LABELS, type Labels, type LogEntry, labelsToString } from '@logsvc/api';
import { log } from '@logsvc/logql';
import type { DroppedEntry, TailEntry } from './tail-types';

/** What an entry waiting to be sent costs besides its line and labels (object, references). */
export const ENTRY_OVERHEAD_BYTES = 96;

/** What a kept entry holds: its line, its labels' characters, and the entry itself. */
export function entryBytes(lineLength: number, labels: Labels): number {
  let n = ENTRY_OVERHEAD_BYTES + lineLength;
  for (const l of labels) n += l.name.length + l.value.length;
  return n;
}

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
   * (as strings): the entries' buffers may be reused once this returns. Once the kept entries
   * hold `roomBytes` (see `entryBytes`), the rest go to `dropped` without their line being
   * built (a `line_format` may make every line a megabyte). Returns the bytes kept.
   */
  process(
    labels: Labels,
    entries: readonly LogEntry[],
    out: TailEntry[],
    roomBytes = Infinity,
    dropped: DroppedEntry[] = [],
  ): number {
    let kept = 0;
    if (this.streamLabelsOnly) {
      for (const e of entries) {
        const bytes = entryBytes(e.line.length, labels);
        if (kept + bytes > roomBytes) {
          dropped.push({ labels, timestampNs: e.timestampNs });
          continue;
        }
        kept += bytes;
        const line = e.line.toString();
        if (!this.categorize) out.push({ labels, timestampNs: e.timestampNs, line });
        else {
          const categories = log.entryCategories(e.structuredMetadata, EMPTY_LABELS);
          out.push({ labels, timestampNs: e.timestampNs, line, categories });
        }
      }
      return kept;
    }
    const stream = this.streamPipeline(labels);
    for (const e of entries) {
      const r = stream.process(e.timestampNs, e.line, e.structuredMetadata);
      if (r === null) continue;
      const entryLabels = this.categorize ? r.labels.stream : r.labels.labels;
      const bytes = entryBytes(r.line.length, entryLabels);
      if (kept + bytes > roomBytes) {
        dropped.push({ labels: entryLabels, timestampNs: e.timestampNs });
        continue;
      }
      kept += bytes;
      const line = r.line.toString();
      if (!this.categorize) out.push({ labels: entryLabels, timestampNs: e.timestampNs, line });
      else {
        const categories = r.labels.categories();
        out.push({ labels: entryLabels, timestampNs: e.timestampNs, line, categories });
      }
    }
    return kept;
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
