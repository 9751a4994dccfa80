import {
  LabelParseError,
  parseLabels,
  type Labels,
  type LogEntry,
  type PushRequest,
  type PushStream,
  type RejectedStream,
  type StreamMemo,
} from '@logsvc/api';
import { ByteKeyTable } from './byte-key-table';
import { badRequest, PushError } from './errors';

/** Distinct label strings the shared cache remembers; past it, it starts over (memory). */
const MAX_SHARED = 50_000;
/** Bytes of label strings the byte-keyed side keeps; past it, that side starts over. */
const MAX_KEY_BYTES = 32 * 1024 * 1024;

/**
 * Parses stream label strings once: agents send the same few thousand streams push after push,
 * and a batch repeats its selectors. Every push decoder uses the one shared cache, so a label
 * string maps to one labels array for as long as it is cached (validation keys its own work on
 * that array). Empty values are dropped (an empty value means "absent", as in Loki).
 */
export class LabelsCache {
  private readonly cache = new Map<string, CachedLabels>();
  /** The same entries keyed by the label string's UTF-8 bytes, for decoders that have them. */
  private readonly byBytes = new ByteKeyTable<CachedLabels>();

  constructor(private readonly maxCached: number) {}

  static readonly shared = new LabelsCache(MAX_SHARED);

  /** The parsed labels, or the 400 error (with its discard reason) for a string that does not parse. */
  parse(text: string): Labels | PushError {
    return this.lookup(text).labels;
  }

  /** The entries as a stream of these labels, or as a rejected stream when they do not parse. */
  stream(text: string, entries: LogEntry[]): PushStream | RejectedStream {
    return asStream(this.lookup(text), entries);
  }

  /**
   * As `stream`, for a label string given as the UTF-8 bytes `buf[start, end)` (a protobuf
   * field in place): found by its bytes, without making a string, once it was seen.
   */
  streamFromBytes(
    buf: Buffer,
    start: number,
    end: number,
    entries: LogEntry[],
  ): PushStream | RejectedStream {
    let cached = this.byBytes.get(buf, start, end);
    if (cached === undefined) {
      cached = this.lookup(buf.toString('utf8', start, end));
      // `lookup` empties this table when the string map starts over; it is also bounded on
      // its own, by key bytes and by count (byte strings that decode to one string count apart).
      const full = this.byBytes.keyBytes + (end - start) > MAX_KEY_BYTES;
      if (full || this.byBytes.size >= this.maxCached) this.byBytes.clear();
      this.byBytes.set(buf, start, end, cached);
    }
    return asStream(cached, entries);
  }

  private lookup(text: string): CachedLabels {
    let cached = this.cache.get(text);
    if (cached === undefined) {
      let labels: Labels | PushError;
      try {
        labels = parseStreamLabels(text);
      } catch (err) {
        if (!(err instanceof PushError)) throw err;
        labels = err;
      }
      cached = { labels, key: null, value: undefined };
      if (this.cache.size >= this.maxCached) {
        this.cache.clear();
        this.byBytes.clear();
      }
      this.cache.set(text, cached);
    }
    return cached;
  }
}

/** A label string as parsed; also the memo its streams carry (see `PushStream.memo`). */
interface CachedLabels extends StreamMemo {
  readonly labels: Labels | PushError;
}

function asStream(cached: CachedLabels, entries: LogEntry[]): PushStream | RejectedStream {
  const labels = cached.labels;
  if (labels instanceof PushError) {
    return { reason: labels.reason ?? 'invalid_labels', message: labels.message, entries };
  }
  return { labels, entries, memo: cached };
}

/** Collects a decoder's streams, setting aside the rejected ones, into a request. */
export class PushRequestBuilder {
  private readonly streams: PushStream[] = [];
  private readonly rejected: RejectedStream[] = [];

  add(stream: PushStream | RejectedStream): void {
    if ('reason' in stream) this.rejected.push(stream);
    else this.streams.push(stream);
  }

  build(): PushRequest {
    const { streams, rejected } = this;
    return rejected.length > 0 ? { streams, rejected } : { streams };
  }
}

export function parseStreamLabels(text: string): Labels {
  let labels: Labels;
  try {
    labels = parseLabels(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const dup = /^duplicate label name: (.*)$/.exec(reason);
    if (err instanceof LabelParseError && dup) {
      throw badRequest(
        `stream '${text}' has duplicate label name: '${dup[1]}'`,
        'duplicate_label_names',
      );
    }
    throw badRequest(`Error parsing labels '${text}' with error: ${reason}`, 'invalid_labels');
  }
  for (const p of labels) if (p.value === '') return labels.filter((l) => l.value !== '');
  return labels;
}
